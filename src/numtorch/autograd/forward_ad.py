"""``torch.autograd.forward_ad``: dual tensors (a primal and its tangent) for forward-mode AD.

Example:
    >>> import numtorch as torch
    >>> import numtorch.autograd.forward_ad as fwAD
    >>> x, v = torch.tensor([1.0, 2.0]), torch.tensor([1.0, 0.0])
    >>> with fwAD.dual_level():
    ...     y = fwAD.make_dual(x, v).sin() * 2
    ...     fwAD.unpack_dual(y).tangent
    tensor([1.0806, -0.0000])
"""

from __future__ import annotations

from collections import namedtuple

from .._core.tensor import Tensor
from .forward_grad import (
    active_levels,
    enter_level,
    exit_level,
    get_tangent,
    hidden_levels,
    is_visible,
)
from .forward_grad import set_tangent as _set_tangent

__all__ = [
    "UnpackedDualTensor",
    "dual_level",
    "enter_dual_level",
    "exit_dual_level",
    "make_dual",
    "unpack_dual",
]

UnpackedDualTensor = namedtuple("UnpackedDualTensor", ["primal", "tangent"])
UnpackedDualTensor.__doc__ = "A dual tensor's parts: ``primal`` and ``tangent`` (None if none)."

_public_levels: list = []  # levels opened by this API (torch allows one at a time)


def enter_dual_level() -> int:
    """Open a forward AD level (torch allows one at a time) and return its number."""
    if _public_levels:
        raise RuntimeError("Nested forward mode AD is not supported at the moment")
    level = enter_level()
    _public_levels.append(level)
    return level


def exit_dual_level(*, level: int | None = None) -> None:
    """Close the forward AD level ``level`` (the current one by default); its tangents go."""
    if level is None:
        if not _public_levels:
            raise RuntimeError("Dual level must be a positive number.")
        level = _public_levels[-1]
    if not _public_levels or _public_levels[-1] != level:
        raise RuntimeError(
            "Trying to exit a forward AD level that was not the last one that was created. "
            "This is not supported."
        )
    exit_level(level)
    _public_levels.pop()


def _current_level(level, what: str) -> int:
    if level is None:
        if not active_levels():
            raise RuntimeError(
                f"Trying to {what} for forward AD but no level exists, make sure to "
                "enter_dual_level() first."
            )
        return active_levels()[-1]
    if level not in active_levels():
        raise RuntimeError(f"Invalid level given to _{what.split()[0]}_dual")
    return level


def make_dual(tensor: Tensor, tangent: Tensor, *, level: int | None = None) -> Tensor:
    """A view of ``tensor`` carrying ``tangent`` as its forward gradient at ``level``.

    Example:
        >>> import numtorch as torch
        >>> import numtorch.autograd.forward_ad as fwAD
        >>> with fwAD.dual_level():
        ...     d = fwAD.make_dual(torch.ones(2), torch.tensor([3.0, 4.0]))
        ...     fwAD.unpack_dual(d * d).tangent
        tensor([6., 8.])
    """
    if level is None and not active_levels():
        raise RuntimeError(
            "Trying to create a dual Tensor for forward AD but no level exists, make sure to "
            "enter_dual_level() first."
        )
    level = _current_level(level, "make dual")
    for name, t in (("primal", tensor), ("tangent", tangent)):
        if not isinstance(t, Tensor):
            raise TypeError(
                f"make_dual(): argument '{name}' must be Tensor, not {type(t).__name__}"
            )
        if not (t.is_floating_point() or t.is_complex()):
            raise ValueError(f"Expected {name} to be floating point or complex, but got: {t.dtype}")
    if get_tangent(tensor, level) is not None:
        raise RuntimeError(
            "Making a dual Tensor based on a Tensor that already has a forward gradient at the "
            f"same level {level} is not supported."
        )
    if tangent.shape != tensor.shape:
        raise RuntimeError(
            "Trying to set a forward gradient that has a different size than that of the "
            f"original Tensor, this is not supported. Tensor is of size {list(tensor.shape)} "
            f"while the given forward gradient is of size {list(tangent.shape)}."
        )
    with hidden_levels(level):
        dual = tensor.view_as(tensor)
        if not (tensor._batched or tangent._batched) and tangent.stride() != tensor.stride():
            # the tangent takes the primal's layout (a copy), so that views of the dual and of
            # its tangent line up, as torch does
            tangent = tangent.new_empty_strided(tuple(tensor.shape), tensor.stride()).copy_(tangent)
    _set_tangent(dual, level, tangent)
    return dual


def unpack_dual(tensor: Tensor, *, level: int | None = None) -> UnpackedDualTensor:
    """``(primal, tangent)`` of a dual tensor: the primal as a view without the tangent at
    ``level``, and the tangent (None when ``tensor`` has none)."""
    if level is None and not active_levels():
        return UnpackedDualTensor(tensor, None)
    if level is None:
        level = active_levels()[-1]
    elif level < 0:
        return UnpackedDualTensor(tensor, None)
    elif level not in active_levels() and tensor._fw_grads:
        raise RuntimeError("Invalid level given to _fw_primal")
    tangent = get_tangent(tensor, level) if is_visible(level) else None
    if tangent is None:
        return UnpackedDualTensor(tensor, None)
    with hidden_levels(level):
        primal = tensor.view_as(tensor)
    return UnpackedDualTensor(primal, tangent)


class dual_level:
    """Context manager of a forward AD level: dual tensors made inside lose their tangents
    when it exits.

    Example:
        >>> import numtorch as torch
        >>> import numtorch.autograd.forward_ad as fwAD
        >>> with fwAD.dual_level():
        ...     y = fwAD.make_dual(torch.tensor(2.0), torch.tensor(1.0)) ** 3
        ...     fwAD.unpack_dual(y).tangent
        tensor(12.)
    """

    def __enter__(self) -> int:
        return enter_dual_level()

    def __exit__(self, *exc) -> None:
        exit_dual_level()

    def __call__(self, fn):
        import functools

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with self:
                return fn(*args, **kwargs)

        return wrapper
