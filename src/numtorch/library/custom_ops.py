"""torch.library: Python custom operators, as torch's "Python Custom Operators" tutorial
writes them.

``@custom_op("mylib::name", mutates_args=())`` turns a typed Python function into an operator
reachable as ``torch.ops.mylib.name``; ``register_autograd(backward, setup_context=...)`` gives
it a derivative (its results then record ``GeneratedBackwardFor_mylib_name_defaultBackward``,
as in torch), ``register_fake`` a shape-only version that runs on ``meta`` tensors, and
``register_kernel`` a per-device implementation. The lower-level ``Library`` /
``define`` / ``impl`` route defines an operator from a schema string and registers kernels
for it. ``opcheck`` runs the checks that make sense without a compiler.

numtorch has one device and no dispatcher: an operator runs its CPU kernel (or its fake one
on ``meta`` tensors) and, when an input requires grad, wraps the call in an
``autograd.Function``.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from .. import ops as _ops_package
from .._core.grad_mode import is_grad_enabled
from .._core.tensor import Tensor
from .._creation import device as _device
from ..autograd.function import Function
from .schema import FunctionSchema, infer_schema, parse_schema

_OPERATORS: dict[str, Operator] = {}
_NAMESPACES: dict[str, OpNamespace] = {}
_LIBRARIES: set[str] = set()
_NO_AUTOGRAD = object()


def _split(qualname: str) -> tuple[str, str]:
    namespace, sep, name = qualname.partition("::")
    if not sep or not namespace or not name or "::" in name:
        raise ValueError(
            f"Expected an operator name of the form 'namespace::name' (like 'mylib::my_op'), "
            f"got {qualname!r}."
        )
    return namespace, name


def _tensors(values) -> list[Tensor]:
    found = []
    for v in values:
        if isinstance(v, Tensor):
            found.append(v)
        elif isinstance(v, (list, tuple)):
            found.extend(t for t in v if isinstance(t, Tensor))
    return found


class Operator:
    """One operator: its schema, its kernels and its autograd formula."""

    def __init__(self, qualname: str, schema: str, signature: inspect.Signature | None):
        self.qualname = qualname
        self.namespace, self.name = _split(qualname)
        self.schema = schema
        self.signature = signature
        self.kernels: dict[str, Callable] = {}
        self.fake: Callable | None = None
        self.backward: Any = None  # None: gradients flow through the kernel's own ops
        self.setup_context: Callable | None = None
        self.check_aliasing = False
        self._function: type[Function] | None = None

    def __repr__(self) -> str:
        return f"{self.namespace}.{self.name}.default"

    @property
    def _schema(self) -> FunctionSchema:
        return FunctionSchema(self.qualname, self.schema)

    def kernel_for(self, tensors: list[Tensor]) -> Callable:
        if any(t.is_meta for t in tensors):
            if self.fake is None:
                raise RuntimeError(
                    f"There was no fake impl registered for <CustomOpDef({self.qualname})>. "
                    "This is necessary for torch.compile/export/fx tracing to work. Please "
                    f"use `{self.name}.register_fake` to add an fake impl."
                )
            return self.fake
        for key in ("cpu", "compositeexplicitautograd", "compositeimplicitautograd", ""):
            if key in self.kernels:
                return self.kernels[key]
        raise NotImplementedError(
            f"Could not run '{self.qualname}' with arguments from the 'CPU' backend: no "
            f"kernel is registered for it (register one with torch.library.impl or "
            f"register_kernel)."
        )

    def __call__(self, *args, **kwargs):
        keyword_only: dict = {}
        if self.signature is not None:
            bound = self.signature.bind(*args, **kwargs)
            bound.apply_defaults()
            args = tuple(
                bound.arguments[p.name]
                for p in self.signature.parameters.values()
                if p.kind is not p.KEYWORD_ONLY
            )
            keyword_only = {
                p.name: bound.arguments[p.name]
                for p in self.signature.parameters.values()
                if p.kind is p.KEYWORD_ONLY
            }
        else:
            keyword_only = kwargs
        tensors = _tensors(args) + _tensors(keyword_only.values())
        kernel = self.kernel_for(tensors)
        if "autograd" in self.kernels:
            return self.kernels["autograd"](*args, **keyword_only)
        records = (
            self.backward is not None
            and is_grad_enabled()
            and any(t.requires_grad for t in tensors)
        )
        if records:
            return self._autograd_function().apply(kernel, keyword_only, *args)
        return self._run(kernel, args, keyword_only)

    def _run(self, kernel, args, keyword_only):
        output = kernel(*args, **keyword_only)
        if self.check_aliasing:
            inputs = {id(t) for t in _tensors(args) + _tensors(keyword_only.values())}
            outputs = _tensors(output if isinstance(output, tuple) else (output,))
            if any(id(t) in inputs for t in outputs):
                raise RuntimeError(
                    f"{self.name}: The output of this custom operator (1) must not also be an "
                    "input to this custom operator and (2) may not alias any inputs to this "
                    "custom operator or other returns. Please instead return a clone of the "
                    "offending output tensor(s) (e.g. return x.clone())."
                )
        return output

    def _autograd_function(self) -> type[Function]:
        if self._function is not None:
            return self._function
        op = self

        def forward(ctx, kernel, keyword_only, *args):
            output = op._run(kernel, args, keyword_only)
            if op.setup_context is not None:
                params = inspect.signature(op.setup_context).parameters
                if "keyword_only_inputs" in params:
                    op.setup_context(
                        ctx=ctx, inputs=args, keyword_only_inputs=keyword_only, output=output
                    )
                else:
                    op.setup_context(ctx=ctx, inputs=args, output=output)
            return output

        def backward(ctx, *grads):
            if op.backward is _NO_AUTOGRAD:
                raise RuntimeError(
                    f"Trying to backward through {op.namespace}.{op.name}.default but no "
                    "autograd formula was registered. Please use register_autograd to add one."
                )
            result = op.backward(ctx, *grads)
            result = result if isinstance(result, tuple) else (result,)
            expected = len(ctx.needs_input_grad) - 2
            if len(result) != expected:
                raise RuntimeError(
                    f"{op.qualname}: Expected the backward function to return {expected} "
                    f"gradients (one per positional input), got {len(result)}."
                )
            return (None, None, *result)

        name = f"GeneratedBackwardFor_{self.namespace}_{self.name}_default"
        methods = {"forward": staticmethod(forward), "backward": staticmethod(backward)}
        self._function = type(name, (Function,), methods)
        return self._function


class OpOverloadPacket:
    """``torch.ops.<namespace>.<name>``: calls the operator; ``.default`` is its one overload."""

    def __init__(self, op: Operator):
        self._op = op
        self.default = op
        self._qualified_op_name = op.qualname

    def __call__(self, *args, **kwargs):
        return self._op(*args, **kwargs)

    def overloads(self) -> list[str]:
        return ["default"]

    def __repr__(self) -> str:
        return f"{self._op.namespace}.{self._op.name}"


class OpNamespace:
    """``torch.ops.<namespace>``: the operators defined in it."""

    def __init__(self, name: str):
        self.name = name

    def __getattr__(self, op_name: str) -> OpOverloadPacket:
        op = _OPERATORS.get(f"{self.name}::{op_name}")
        if op is None:
            raise AttributeError(
                f"'_OpNamespace' '{self.name}' object has no attribute '{op_name}'"
            )
        return OpOverloadPacket(op)


def _register(qualname: str, schema: str, signature) -> Operator:
    namespace, _ = _split(qualname)
    op = Operator(qualname, schema, signature)
    _OPERATORS[qualname] = op
    if namespace not in _NAMESPACES:
        if hasattr(_ops_package, namespace):
            raise NotImplementedError(
                f"torch.ops.{namespace}: numtorch keeps its own operators under this name; "
                f"define custom operators in another namespace."
            )
        _NAMESPACES[namespace] = OpNamespace(namespace)
        # torch.ops.<namespace> is an attribute of numtorch.ops, as torch's is of torch.ops
        setattr(_ops_package, namespace, _NAMESPACES[namespace])
    return op


def _operator(op) -> Operator:
    """The operator a name, a CustomOpDef or an overload packet refers to."""
    if isinstance(op, CustomOpDef):
        return op._op
    if isinstance(op, OpOverloadPacket):
        return op._op
    if isinstance(op, Operator):
        return op
    if isinstance(op, str):
        _split(op)
        if op not in _OPERATORS:
            raise ValueError(f"Operator {op} does not exist; define it first (torch.library).")
        return _OPERATORS[op]
    raise TypeError(f"Expected an operator name, a custom op or an OpOverload, got {op!r}")


class CustomOpDef:
    """What ``custom_op`` returns: call it, or register its fake, kernel and autograd."""

    def __init__(self, qualname: str, fn: Callable, schema: str):
        self._op = _register(qualname, schema, inspect.signature(fn))
        self._op.kernels["cpu"] = fn
        self._op.check_aliasing = True
        self._op.backward = _NO_AUTOGRAD
        self._init_fn = fn
        self._opoverload = self._op
        self.__name__ = qualname.split("::")[1]
        self.__doc__ = fn.__doc__

    def __repr__(self) -> str:
        return f"<CustomOpDef({self._op.qualname})>"

    def __call__(self, *args, **kwargs):
        return self._op(*args, **kwargs)

    def register_fake(self, fn: Callable) -> Callable:
        self._op.fake = fn
        return fn

    def register_kernel(self, device_types, fn: Callable | None = None):
        def register(fn):
            for device_type in [device_types] if isinstance(device_types, str) else device_types:
                if device_type is None or _device(device_type).type == "cpu":
                    self._op.kernels["cpu"] = fn
            return fn

        return register if fn is None else register(fn)

    def register_autograd(self, backward: Callable, *, setup_context: Callable | None = None):
        self._op.backward = backward
        self._op.setup_context = setup_context


def custom_op(
    name: str,
    fn: Callable | None = None,
    /,
    *,
    mutates_args,
    device_types=None,
    schema: str | None = None,
):
    """Wrap a typed function as the operator ``name`` ("namespace::op_name").

    >>> import numtorch as torch
    >>> @torch.library.custom_op("doc::twice", mutates_args=())
    ... def twice(x: torch.Tensor) -> torch.Tensor:
    ...     return x * 2
    >>> torch.ops.doc.twice(torch.ones(2))
    tensor([2., 2.])
    """

    def wrap(fn):
        _split(name)
        text = schema if schema is not None else infer_schema(fn, mutates_args=mutates_args)
        op = CustomOpDef(name, fn, text)
        if device_types is not None:
            op.register_kernel(device_types, fn)
        return op

    return wrap if fn is None else wrap(fn)


def register_fake(op, func: Callable | None = None, /, *, lib=None, _stacklevel: int = 1):
    """Register ``func`` as ``op``'s shape-only implementation (run on ``meta`` tensors)."""

    def register(func):
        _operator(op).fake = func
        return func

    return register if func is None else register(func)


impl_abstract = register_fake


def register_autograd(op, backward: Callable, /, *, setup_context=None, lib=None) -> None:
    """Give ``op`` a derivative: ``backward(ctx, *grads)`` after ``setup_context(ctx, inputs,
    output)`` saved what it needs."""
    target = _operator(op)
    target.backward = backward
    target.setup_context = setup_context


def register_kernel(op, device_types, func: Callable | None = None, /, *, lib=None):
    target = op if isinstance(op, CustomOpDef) else None
    if target is not None:
        return target.register_kernel(device_types, func)
    return impl(_operator(op).qualname, device_types, func)


def define(qualname: str, schema: str, *, lib=None, tags=()) -> None:
    """Define the operator ``qualname`` from a schema such as ``"(Tensor x) -> Tensor"``."""
    if qualname in _OPERATORS:
        raise RuntimeError(
            f"Tried to register an operator ({qualname}{schema}) with the same name and "
            "overload name multiple times."
        )
    parse_schema(qualname.split("::")[-1] + schema)
    _register(qualname, qualname + schema, None)


def impl(qualname: str, types, func: Callable | None = None, *, lib=None):
    """Register ``func`` as ``qualname``'s kernel for a device type ("cpu") or dispatch key
    ("CPU", "CompositeExplicitAutograd", "CompositeImplicitAutograd", "Autograd", "Meta")."""

    def register(func):
        op = _operator(qualname)
        for key in [types] if isinstance(types, str) else types:
            key = key.lower()
            if key == "meta":
                op.fake = func
            elif key.startswith("autograd"):
                op.kernels["autograd"] = func
            elif key in ("cpu", "compositeexplicitautograd", "compositeimplicitautograd", ""):
                op.kernels[key] = func
        return func

    return register if func is None else register(func)


class Library:
    """A namespace's operator definitions ("DEF", "FRAGMENT") or kernels ("IMPL")."""

    def __init__(self, ns: str, kind: str, dispatch_key: str = ""):
        if kind not in ("DEF", "IMPL", "FRAGMENT"):
            raise ValueError(f"Unsupported kind: {kind}")
        if kind == "DEF":
            if ns in _LIBRARIES:
                raise RuntimeError(
                    f"Only a single TORCH_LIBRARY can be used to register the namespace {ns}; "
                    "please put all of your definitions in a single TORCH_LIBRARY block."
                )
            _LIBRARIES.add(ns)
        self.ns, self.kind, self.dispatch_key = ns, kind, dispatch_key

    def __repr__(self) -> str:
        return f"Library(kind={self.kind}, ns={self.ns}, dispatch_key={self.dispatch_key})>"

    def define(self, schema: str, alias_analysis: str = "", *, tags=()) -> str:
        name = schema.split("(", 1)[0].strip()
        define(f"{self.ns}::{name}", schema[len(schema.split("(", 1)[0]) :].strip())
        return name

    def impl(self, op_name, fn: Callable, dispatch_key: str = "", *, with_keyset=False):
        name = op_name if isinstance(op_name, str) else _operator(op_name).name
        qualname = name if "::" in name else f"{self.ns}::{name}"
        if qualname not in _OPERATORS:
            raise NotImplementedError(
                f"torch.library.Library.impl: numtorch only registers kernels for operators "
                f"defined with torch.library (not ATen's own), got {qualname}"
            )
        impl(qualname, dispatch_key or self.dispatch_key or "cpu", fn)

    def _destroy(self) -> None:
        _LIBRARIES.discard(self.ns)


def get_ctx():
    raise NotImplementedError(
        "torch.library.get_ctx: numtorch runs fake kernels on meta tensors, which have no "
        "dynamic-shape context"
    )
