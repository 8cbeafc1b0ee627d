"""``torch.utils.swap_tensors``: two tensor objects exchange everything they hold."""

from __future__ import annotations

from ._core.tensor import Tensor

# the per-tensor state that lives in slots; the rest (grad, hooks, version counter, the
# user's attributes) lives in ``__dict__``
_SLOTS = ("_data", "_requires_grad", "_grad_fn", "_base")


def swap_tensors(t1: Tensor, t2: Tensor) -> None:
    """Swap the contents of ``t1`` and ``t2`` in place: class, data, ``requires_grad``,
    ``grad``, autograd history and attributes, so every reference to ``t1`` now sees what
    ``t2`` held. As torch's, a leaf's gradient node is poisoned: a graph built on ``t1``
    before the swap refuses to run backward into it.

    Unlike torch's, the swap does not refuse a tensor that is weakly referenced (numtorch's
    own graph and view bookkeeping hold weak references to tensors).

    Example:
        >>> import numtorch as torch
        >>> a, b = torch.ones(2), torch.zeros(3)
        >>> torch.utils.swap_tensors(a, b)
        >>> a, b
        (tensor([0., 0., 0.]), tensor([1., 1.]))
    """
    for name, t in (("t1", t1), ("t2", t2)):
        if not isinstance(t, Tensor):
            raise AttributeError(
                f"swap_tensors(): {name} must be a Tensor, but got {type(t).__name__}"
            )
    for t in (t1, t2):
        node = t._accumulator() if t._accumulator is not None else None
        if node is not None:
            node.register_prehook(_poisoned)
    t1.__class__, t2.__class__ = t2.__class__, t1.__class__
    d1, d2 = dict(t1.__dict__), dict(t2.__dict__)
    t1.__dict__.clear()
    t1.__dict__.update(d2)
    t2.__dict__.clear()
    t2.__dict__.update(d1)
    for slot in _SLOTS:
        v1, v2 = getattr(t1, slot, _UNSET), getattr(t2, slot, _UNSET)
        _put(t1, slot, v2)
        _put(t2, slot, v1)


_UNSET = object()


def _put(t, slot, value) -> None:
    if value is _UNSET:
        if hasattr(t, slot):
            delattr(t, slot)
    else:
        setattr(t, slot, value)


def _poisoned(grad_outputs):
    raise RuntimeError(
        "Trying to execute AccumulateGrad node that was poisoned by swap_tensors this can "
        "happen when you try to run backward on a tensor that was swapped. For a module m "
        "with `torch.__future__.set_swap_module_params_on_conversion(True)` you should not "
        "change the device or dtype of the module (e.g. `m.cpu()` or `m.half()`) between "
        "running forward and backward. To resolve this, please only change the device/dtype "
        "before running forward (or after both forward and backward)."
    )
