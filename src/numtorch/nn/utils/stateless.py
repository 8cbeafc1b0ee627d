"""``torch.nn.utils.stateless``: call a module with other tensors in place of its parameters
and buffers (``torch.func.functional_call`` is the public entry point).

The given tensors are written into the modules' ``_parameters``/``_buffers`` dicts (or set
as plain attributes for other names) for the duration of the call and swapped back after,
as torch's ``_reparametrize_module`` does; assigning through ``setattr`` would refuse a
plain tensor in place of a ``Parameter``.
"""

from __future__ import annotations

import contextlib
import warnings

from ..._core.tensor import Tensor

__all__ = ["functional_call"]

_MISSING = object()


def _untie(module, parameters_and_buffers: dict) -> dict:
    """The given tensors, extended to every name tied to a given one (tied names share one
    tensor in the module); two different values for one tied tensor raise ValueError."""
    names_of: dict[int, set] = {}
    for name, t in _named_tensors(module):
        names_of.setdefault(id(t), set()).add(name)
    tied = {name: names for names in names_of.values() if len(names) > 1 for name in names}
    given = [name for name in parameters_and_buffers if name in tied]
    for name in given:
        names = tied[name]
        values = {id(parameters_and_buffers[n]) for n in names if n in parameters_and_buffers}
        if len(values) > 1:
            raise ValueError(
                f"functional_call got multiple values for keys {sorted(names)}, which are "
                "tied. Consider using tie_weights=False"
            )
    untied = dict(parameters_and_buffers)
    for name in given:
        for other in tied[name]:
            untied[other] = parameters_and_buffers[name]
    return untied


def _named_tensors(module):
    """Every (dotted name, tensor) of parameters and buffers, shared ones under each name
    (``named_parameters(remove_duplicate=False)`` and the buffers', in one walk)."""
    for prefix, sub in module.named_modules(remove_duplicate=False):
        dot = prefix + "." if prefix else ""
        for store in (sub._parameters, sub._buffers):
            for name, t in store.items():
                if t is not None:
                    yield dot + name, t


def _submodule(module, path: str, memo: dict):
    if not path:
        return module
    if path not in memo:
        prefix, _, attr = path.rpartition(".")
        parent = _submodule(module, prefix, memo)
        try:
            sub = getattr(parent, attr)
        except AttributeError as error:
            raise AttributeError(f"{parent._get_name()} has no attribute `{attr}`") from error
        if not hasattr(sub, "_parameters"):
            raise TypeError(f"submodule `{path}`: {sub} is not an instance of torch.nn.Module")
        memo[path] = sub
    return memo[path]


def _swap_tensor(module, name: str, tensor):
    """Put ``tensor`` (or nothing, for _MISSING) at ``module.name``; return what was there."""
    if tensor is not _MISSING and tensor is not None and not isinstance(tensor, Tensor):
        raise TypeError(f"{tensor} is not an instance of torch.Tensor")
    for store in (module._parameters, module._buffers):
        if name in store:
            old = store[name]
            if tensor is _MISSING:
                del store[name]
            else:
                store[name] = tensor
            return old
    old = getattr(module, name, _MISSING)
    if old is not _MISSING and old is not None and not isinstance(old, Tensor):
        raise TypeError(f"attribute `{name}`: {old} is not an instance of torch.Tensor")
    if tensor is not _MISSING:
        setattr(module, name, tensor)
    elif hasattr(module, name):
        delattr(module, name)
    return old


def _swap_all(module, named: dict, memo: dict) -> dict:
    swapped = {}
    try:
        for path, tensor in named.items():
            prefix, _, attr = path.rpartition(".")
            swapped[path] = _swap_tensor(_submodule(module, prefix, memo), attr, tensor)
    except Exception:
        _swap_all(module, swapped, memo)
        raise
    return swapped


@contextlib.contextmanager
def _reparametrize_module(module, parameters_and_buffers: dict, tie_weights=False, strict=False):
    untied = _untie(module, parameters_and_buffers) if tie_weights else parameters_and_buffers
    if strict:
        valid = {name for name, _ in _named_tensors(module)}
        errors = []
        unexpected = sorted(set(untied) - valid)
        missing = sorted(valid - set(untied))
        if unexpected:
            errors.append(f"Unexpected key(s): {', '.join(map(repr, unexpected))}.")
        if missing:
            errors.append(f"Missing key(s): {', '.join(map(repr, missing))}.")
        if errors:
            raise RuntimeError(
                f"Error(s) in reparametrizing for {module._get_name()}:\n\t" + "\n\t".join(errors)
            )
    memo: dict = {}
    original: dict = {}
    try:
        original = _swap_all(module, untied, memo)
        yield
    finally:
        current = _swap_all(module, original, memo)
        # A module that reassigned a buffer during the call (not in place) hands it back.
        parameters_and_buffers.update(
            {k: current[k] for k in parameters_and_buffers if k in current}
        )


def functional_call(
    module,
    parameters_and_buffers: dict,
    args=None,
    kwargs: dict | None = None,
    *,
    tie_weights: bool = True,
    strict: bool = False,
):
    """Deprecated alias of ``torch.func.functional_call`` (one dict only)."""
    warnings.warn(
        "`torch.nn.utils.stateless.functional_call` is deprecated as of PyTorch 2.0 and will be "
        "removed in a future version of PyTorch. Please use `torch.func.functional_call` "
        "instead which is a drop-in replacement.",
        FutureWarning,
        stacklevel=2,
    )
    return _functional_call(
        module, parameters_and_buffers, args, kwargs, tie_weights=tie_weights, strict=strict
    )


def _functional_call(
    module, parameters_and_buffers: dict, args=None, kwargs=None, *, tie_weights=True, strict=False
):
    if kwargs is None:
        kwargs = {}
    if args is None:
        args = ()
    elif not isinstance(args, tuple):
        args = (args,)
    with _reparametrize_module(
        module, parameters_and_buffers, tie_weights=tie_weights, strict=strict
    ):
        return module(*args, **kwargs)
