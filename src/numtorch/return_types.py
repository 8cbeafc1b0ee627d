"""``torch.return_types``: the named tuples ops return (``max``, ``sort``, ``linalg_qr``, ...).

Each class is defined beside its op; this module names them all.

Example:
    >>> import numtorch as torch
    >>> isinstance(torch.ones(2, 3).max(0), torch.return_types.max)
    True
"""

from __future__ import annotations

from .ops.return_types import CLASSES


def __getattr__(name: str):
    try:
        # an ``out=`` call returns the same fields: ``max_out`` is ``max``'s class here
        return CLASSES[name[: -len("_out")] if name.endswith("_out") else name]
    except KeyError:
        raise AttributeError(
            f"torch.return_types.{name} is not supported by numtorch "
            f"(module 'numtorch.return_types' has no attribute '{name}')"
        ) from None


def __dir__():
    return sorted(CLASSES)
