"""Operator schemas as torch writes them: ``(Tensor x, SymInt n=2, *, float k=1.) -> Tensor``.

``infer_schema`` reads one from a typed Python function (``custom_op`` needs every parameter
and the return annotated, as torch does); ``parse_schema`` checks the shape of a schema
string given to ``define``.
"""

from __future__ import annotations

import inspect
import re
import typing
from collections.abc import Callable, Sequence

from .._core.device import device as _device
from .._core.dtypes import dtype as _dtype
from .._core.tensor import Tensor

_NAMES = {Tensor: "Tensor", int: "SymInt", float: "float", bool: "bool", str: "str"}
_NAMES.update({_dtype: "ScalarType", _device: "Device"})
_SEQUENCES = (list, Sequence, typing.Sequence, typing.List)  # noqa: UP006
_SCALAR = {int, float, bool}


def _optional_of(annotation):
    args = typing.get_args(annotation)
    if len(args) == 2 and type(None) in args and typing.get_origin(annotation) is not None:
        return next(a for a in args if a is not type(None))
    return None


def _type_name(annotation) -> str | None:
    """The schema type of a parameter annotation, or None when torch does not accept it."""
    if annotation in _NAMES:
        return _NAMES[annotation]
    inner = _optional_of(annotation)
    if inner is not None:
        name = _type_name(inner)
        return None if name is None or name.endswith("?") else name + "?"
    args = set(typing.get_args(annotation))
    if args == _SCALAR or args == _SCALAR | {type(None)}:
        return "Scalar" if type(None) not in args else "Scalar?"
    origin = typing.get_origin(annotation)
    if origin in _SEQUENCES and len(typing.get_args(annotation)) == 1:
        (element,) = typing.get_args(annotation)
        name = _type_name(element)
        if name in ("Tensor", "Tensor?", "SymInt", "float", "bool", "Scalar"):
            return name + "[]"
    return None


def _return_name(annotation) -> str | None:
    if annotation is None or annotation is type(None):
        return "()"
    if typing.get_origin(annotation) is tuple:
        parts = [_type_name(a) for a in typing.get_args(annotation)]
        return None if None in parts else "(" + ", ".join(parts) + ")"
    return _type_name(annotation)


def _default(value) -> str:
    return repr(value) if not isinstance(value, str) else f'"{value}"'


def infer_schema(
    prototype_function: Callable, /, *, mutates_args, op_name: str | None = None
) -> str:
    """The schema of a typed function; ``mutates_args`` names the parameters it writes to
    (or is "unknown": all tensors may be written)."""
    signature = inspect.signature(prototype_function, eval_str=True)

    def error(what: str) -> ValueError:
        return ValueError(f"infer_schema(func): {what} Got func with signature {signature})")

    params = list(signature.parameters.values())
    if mutates_args != "unknown":
        if isinstance(mutates_args, str) or not isinstance(mutates_args, (list, tuple, set)):
            raise ValueError(
                "mutates_args must be a tuple, list or set of argument names, or 'unknown'"
            )
        unknown = set(mutates_args) - {p.name for p in params}
        if unknown:
            raise error(
                f"{unknown} in mutates_args were not found in the custom op's signature. "
                "mutates_args should contain the names of all args that the custom op "
                "mutates, or just the string 'unknown' if you don't know."
            )
    parts, keyword_started = [], False
    for index, p in enumerate(params):
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            raise error("We don't support varargs or varkwargs.")
        if p.annotation is p.empty:
            raise error(f"Parameter {p.name} must have a type annotation.")
        name = _type_name(p.annotation)
        if name is None:
            raise error(f"Parameter {p.name} has unsupported type {p.annotation}.")
        mutated = mutates_args == "unknown" or p.name in mutates_args
        if mutated and name.startswith("Tensor"):
            name = name.replace("Tensor", f"Tensor(a{index}!)", 1)
        if p.kind is p.KEYWORD_ONLY and not keyword_started:
            parts.append("*")
            keyword_started = True
        default = "" if p.default is p.empty else "=" + _default(p.default)
        parts.append(f"{name} {p.name}{default}")
    if signature.return_annotation is inspect.Signature.empty:
        raise error("No return type annotation was provided. Please add one.")
    returns = _return_name(signature.return_annotation)
    if returns is None:
        raise error(f"Return has unsupported type {signature.return_annotation}.")
    return f"{op_name or ''}({', '.join(parts)}) -> {returns}"


_SCHEMA = re.compile(r"^\s*[A-Za-z_][\w.]*\s*\((.*)\)\s*->\s*(.+?)\s*$")


def parse_schema(schema: str) -> tuple[str, str]:
    """``(arguments, returns)`` of ``name(arguments) -> returns``; RuntimeError otherwise."""
    match = _SCHEMA.match(schema)
    if match is None:
        raise RuntimeError(
            f"Expected a schema of the form 'name(Type arg, ...) -> ReturnType', got {schema!r}"
        )
    return match.group(1), match.group(2)


# a float default as torch's C++ prints it: 17 significant digits, a trailing "." when
# that leaves no decimal point (``2.``, ``1.0000000000000001e-05``)
_FLOAT_DEFAULT = re.compile(r"(\bfloat\?? \w+=)([-+0-9.eE]+)")


def _cpp_float(match) -> str:
    text = f"{float(match.group(2)):.17g}"
    if not any(c in text for c in ".e"):
        text += "."
    return match.group(1) + text


class FunctionSchema:
    """An operator's schema as ``torch.ops.<ns>.<op>.default._schema`` gives it: printed
    with the operator's qualified name and torch's spelling of float defaults."""

    def __init__(self, qualname: str, schema: str):
        self.name = qualname
        self.overload_name = ""
        self._text = qualname + _FLOAT_DEFAULT.sub(_cpp_float, schema)

    def __str__(self) -> str:
        return self._text

    __repr__ = __str__
