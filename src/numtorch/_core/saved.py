"""Values saved for backward: SavedTensor, bare saved inputs, and the saved-tensor hooks.

See Note [Saved outputs and cycles] in graph.py: a saved output keeps its array and version
counter, never the output tensor itself.
"""

from __future__ import annotations

import threading
import weakref

from ..backend import xp
from . import grad_mode
from .dtypes import from_numpy_dtype
from .inference import SAVE_ERROR
from .observers import dispatch
from .tensor import Tensor
from .versions import VersionCounter


# Saved-tensor hooks: a thread-local stack of (pack, unpack) pairs.
class _HookState(threading.local):
    stack = ()
    disabled = None  # the error message while disable_saved_tensors_hooks is active


_hook_state = _HookState()
_hooks_in_use = [0]  # contexts open in any thread: skip the thread-local lookup when 0
HOOKS_IN_USE = _hooks_in_use  # read by the recorder, which inlines save_input's common case
_SAME_OUTPUT = object()  # pack returned the saved output itself (Note [Packed saved tensors])
_PACKED_NONE = object()  # pack returned None (``packed is None`` means no hooks ran)


def _shares_memory(packed, tensor) -> bool:
    items = packed if isinstance(packed, (tuple, list)) else (packed,)
    data = tensor._data
    return any(isinstance(item, Tensor) and xp.may_share_memory(item._data, data) for item in items)


class SavedTensor:
    """A tensor saved for backward, with the version it had when saved.

    See Note [Saved outputs and cycles]. ``unpack`` checks the version and rebuilds saved
    outputs with ``grad_fn`` set to the saving node. Under ``saved_tensors_hooks`` see
    Note [Packed saved tensors].
    """

    __slots__ = (
        "tensor",
        "data",
        "_vc",
        "version",
        "output_nr",
        "requires_grad",
        "packed",
        "unpack_hook",
        "meta",
        "edge",
        "check_version",
        "source",
        "fw_grads",  # a saved output's tangents, set after the op ran (Note [Forward grads])
        "view_edge",  # Note [Saved outputs of in-place ops on views]
    )

    def __init__(self, tensor, is_output: bool):
        # A saved input keeps the tensor, whose version counter is made only when something
        # needs one (Note [Lazy version counters]); a saved output keeps the counter.
        vc = tensor._vc
        if vc is not None and vc.inference:
            raise RuntimeError(SAVE_ERROR)
        self.packed = None
        self.check_version = True
        hooked = _hooks_in_use[0] and _hook_state.stack
        if not (is_output or hooked):
            self.tensor = tensor
            self._vc = None
            self.version = 0 if vc is None else vc.version
            return
        if vc is None:
            vc = tensor._vc = VersionCounter()
        self._vc = vc
        self.version = vc.version
        if hooked:
            self._pack(tensor, is_output)
            return
        self.tensor = None
        self.data = tensor._data
        self.output_nr = tensor._output_nr
        self.requires_grad = tensor._requires_grad
        self.view_edge = None

    # Note [Lazy version counters]
    # A tensor gets its VersionCounter on first need (a view, detach(), an in-place change,
    # being saved as an output); until then its version is 0. A saved input reads the counter
    # through its tensor when checking, so saving makes no counter: one object less per op
    # for the cyclic garbage collector to trace.
    @property
    def vc(self) -> VersionCounter:
        vc = self._vc
        if vc is None:
            vc = self._vc = self.tensor._get_vc()
        return vc

    @vc.setter
    def vc(self, value: VersionCounter) -> None:
        self._vc = value

    def _modified(self) -> bool:
        vc = self._vc
        if vc is None:
            vc = self.tensor._vc
            if vc is None:
                return False
        return vc.version != self.version and self.check_version

    def unpack(self, node):
        if self._modified():
            raise RuntimeError(self._modified_message(node))
        if self.packed is not None:
            return self._unpack_hooked(node)
        tensor = self.tensor
        if tensor is not None:
            return tensor
        out = Tensor._make(self.data)
        out._vc = self.vc
        if self.requires_grad:
            view_edge = self.view_edge
            view_fn = None if view_edge is None else view_edge[0]()
            if view_fn is None:
                out._grad_fn = node
                out._output_nr = self.output_nr
            else:
                out._grad_fn, out._output_nr = view_fn, view_edge[1]
            out._requires_grad = True
        fw_grads = getattr(self, "fw_grads", None)
        if fw_grads:
            out._fw_grads = fw_grads
        return out

    def unpack_data(self, node):
        """The saved array, after the same checks as ``unpack`` (Note [Formulas on arrays])."""
        if self.packed is not None:
            return self.unpack(node)._data
        if self._modified():
            raise RuntimeError(self._modified_message(node))
        tensor = self.tensor
        return self.data if tensor is None else tensor._data

    # Note [Saved outputs of in-place ops on views]
    # An in-place op on a view saves its output, the view, after rebasing the view's root
    # (CopySlices): torch's unpacked output then has the view's new grad_fn (a view of the
    # CopySlices), held weakly, not the saving node. A double backward through that saved
    # output reaches the root's CopySlices, and its gradient is summed there with the ones
    # through the view's other uses before the op's own backward multiplies it (an
    # infinite factor times a sum that is no longer 0). ``view_edge`` is that weak edge;
    # once the view's grad_fn is gone the saving node stands in, as in torch.

    # Note [Packed saved tensors]
    # Under saved_tensors_hooks the saved tensor is replaced by whatever ``pack_hook`` returns
    # (run under no_grad, as in torch); only its metadata and history are kept:
    # - a saved *output* that pack returns unchanged is stored as a plain saved output (data,
    #   version counter) and rebuilt before unpack: keeping the live output would close the
    #   cycle node -> packed -> output -> grad_fn -> node (torch #189025);
    # - a saved *input* keeps its history edge, so the unpacked value connects to the same
    #   graph (double backward works through hooks);
    # - the version check stays on while the packed value shares memory with the saved
    #   tensor (an in-place change would silently corrupt the gradient; torch skips the
    #   check there) and is dropped when pack made a copy (the saved values are intact);
    # - unpack must give back the shape and dtype that were packed.
    def _pack(self, tensor, is_output: bool, hooks=None) -> None:
        pack, self.unpack_hook = hooks or _hook_state.stack[-1]
        self.tensor = self.data = None
        self.output_nr = tensor._output_nr
        self.requires_grad = tensor._requires_grad
        self.meta = (tensor._data.shape, tensor._data.dtype)
        self.edge = None if is_output or not tensor._requires_grad else tensor._edge()
        self.source = weakref.ref(tensor)
        with grad_mode.no_grad():
            packed = pack(tensor)
        if packed is tensor and is_output:
            packed = _SAME_OUTPUT
            self.data = tensor._data
        self.check_version = packed is _SAME_OUTPUT or _shares_memory(packed, tensor)
        self.packed = _PACKED_NONE if packed is None else packed

    def register_hooks(self, pack, unpack, node) -> None:
        """Hooks for this one saved value (``grad_fn._raw_saved_self.register_hooks``): pack
        it now, as ``saved_tensors_hooks`` would have at save time, unpack when read."""
        if self.packed is not None:
            raise RuntimeError(
                "Calling register_hooks on a saved tensor whose hooks have already been set. "
                "Hint: only one pair of hooks is allowed at a time."
            )
        is_output = self.tensor is None
        tensor = self.unpack(node)  # version-checked: an overwritten value cannot be packed
        self._vc = self.vc
        self._pack(tensor, is_output, (pack, unpack))

    def _unpack_hooked(self, node):
        packed = self.packed
        if packed is _SAME_OUTPUT:
            packed = Tensor._make(self.data)
            packed._vc = self.vc
            if self.requires_grad:
                packed._grad_fn, packed._output_nr, packed._requires_grad = (
                    node,
                    self.output_nr,
                    True,
                )
        value = self.unpack_hook(None if packed is _PACKED_NONE else packed)
        if not isinstance(value, Tensor):
            raise TypeError(
                "Output of saved tensor unpack_hook expected to be a Tensor but got result of "
                f"type {type(value).__name__}"
            )
        shape, dtype = self.meta
        if value._data.shape != shape or value._data.dtype != dtype:
            raise RuntimeError(
                f"unpack_hook of saved_tensors_hooks returned a {value.type()} of shape "
                f"{list(value._data.shape)} for the tensor saved by {node.name()}: "
                f"{self._describe(node)[:-1]}; it must give back the shape and dtype that "
                "were packed"
            )
        edge = (node, self.output_nr) if self.edge is None and self.requires_grad else self.edge
        if value._requires_grad == self.requires_grad and (
            not self.requires_grad or value._edge() == edge
        ):
            return value
        out = Tensor._make(value._data)
        out._vc = value._get_vc()
        if edge is not None:
            out._requires_grad = True
            if edge[0]._is_accumulator:
                out._accumulator = weakref.ref(edge[0])  # a leaf: its grads reach the original
            else:
                out._grad_fn, out._output_nr = edge
        return out

    def _describe(self, node) -> str:
        """``[torch.FloatTensor [3]], which is output 0 of Exp,`` as in torch's messages."""
        tensor = self.tensor
        if self.packed is not None:
            (shape, dtype), nr = self.meta, self.output_nr
            owner = node if self.edge is None else self.edge[0]
        elif tensor is None:
            shape, dtype, nr, owner = self.data.shape, self.data.dtype, self.output_nr, node
        else:
            shape, dtype = tensor._data.shape, tensor._data.dtype
            nr, owner = tensor._output_nr, tensor._grad_fn
        desc = f"[torch.{from_numpy_dtype(dtype)._tag} {list(shape)}]"
        if owner is not None and not owner._is_accumulator:
            short = owner.name().rsplit("::", 1)[-1]
            short = short[: short.rfind("Backward")] if "Backward" in short else short
            desc += f", which is output {nr} of {short},"
        return desc

    def _modified_message(self, node) -> str:
        desc = self._describe(node)
        if dispatch.anomaly:  # the forward trace is reported with the error: torch's hint
            hint = (
                "Hint: the backtrace further above shows the operation that failed to compute "
                "its gradient. The variable in question was changed in there or anywhere "
                "later. Good luck!"
            )
        else:
            hint = (
                "Hint: enable anomaly detection to find the operation that failed to compute "
                "its gradient, with torch.autograd.set_detect_anomaly(True, check_nan=False)."
            )
        return (
            "one of the variables needed for gradient computation has been modified by an "
            f"inplace operation: {desc} is at version {self.vc.version}; expected version "
            f"{self.version} instead. {hint}"
        )


# Note [Saved inputs kept bare]
# A registry op saves an input tensor that is at version 0 (no in-place change yet), while no
# saved-tensor hooks are active, as the tensor itself: being at version 0 when saved is then
# implied, and no SavedTensor is allocated. ``unpack_saved`` checks the version as
# SavedTensor.unpack does; ``as_saved_tensor`` gives the SavedTensor view for messages.
def save_input(tensor):
    """What a registry node keeps for saved input ``tensor`` (a bare tensor or SavedTensor)."""
    vc = tensor._vc
    if (vc is None or (vc.version == 0 and not vc.inference)) and not (
        _hooks_in_use[0] and _hook_state.stack
    ):
        return tensor
    return SavedTensor(tensor, False)


def as_saved_tensor(value):
    """``value`` as a SavedTensor: a bare saved input becomes one saved at version 0 (other
    values are returned as they are)."""
    if not isinstance(value, Tensor):
        return value
    saved = SavedTensor.__new__(SavedTensor)
    saved.tensor = value
    saved._vc = None
    saved.version = 0
    saved.packed = None
    saved.check_version = True
    return saved


def _unchecked(tensor) -> SavedTensor:
    # kept for its shape and dtype: the values it gives are never read into a gradient
    saved = as_saved_tensor(tensor)
    saved.check_version = False
    return saved


class SavedTensorList(tuple):
    """Tensors saved inside a list (einsum's operands): each one saved as a single input is,
    so an in-place change to any of them after the forward fails backward the same way."""

    __slots__ = ()

    @classmethod
    def save(cls, items):
        # a product's gradient for one operand reads the others only: torch's products
        # (mul, bmm) save an operand when another one requires grad, so changing an operand
        # in place after the op fails the backward only then (a lone operand: never)
        needed = [isinstance(t, Tensor) and t._requires_grad for t in items]
        wanted = sum(needed)
        return cls(
            (save_input(t) if wanted - needed[k] else _unchecked(t)) if isinstance(t, Tensor) else t
            for k, t in enumerate(items)
        )

    def unpack(self, node) -> list:
        return [unpack_saved(s, node) for s in self]


def unpack_saved(value, node):
    """A saved value for a formula: SavedTensors and bare saved inputs are version-checked."""
    if value.__class__ is SavedTensor:
        return value.unpack(node)
    if value.__class__ is SavedTensorList:
        return value.unpack(node)
    if isinstance(value, Tensor):
        vc = value._vc
        if vc is not None and vc.version:
            raise RuntimeError(as_saved_tensor(value)._modified_message(node))
    return value


def check_saved(value, node) -> None:
    """unpack_saved's version check alone: no unpack hook runs for a value no formula reads."""
    if value.__class__ is SavedTensor:
        if value._modified():
            raise RuntimeError(value._modified_message(node))
    else:
        unpack_saved(value, node)


def unpack_saved_data(value, node):
    """The array of a saved value (Note [Formulas on arrays]); other values as they are."""
    if value.__class__ is SavedTensor:
        return value.unpack_data(node)
    if value.__class__ is SavedTensorList:
        return [unpack_saved_data(s, node) for s in value]
    if isinstance(value, Tensor):
        vc = value._vc
        if vc is not None and vc.version:
            raise RuntimeError(as_saved_tensor(value)._modified_message(node))
        return value._data
    return value


def saved_tensor_default_hooks():
    stack = _hook_state.stack
    return stack[-1] if stack else None


class saved_tensors_hooks:
    """Context manager: pack every tensor saved for backward with ``pack_hook`` and get it
    back with ``unpack_hook`` when backward needs it.

    Example:
        >>> import numtorch as torch
        >>> x = torch.ones(3, requires_grad=True)
        >>> with torch.autograd.graph.saved_tensors_hooks(lambda t: t * 1, lambda t: t):
        ...     y = (x * x).sum()
        >>> y.backward(); x.grad
        tensor([2., 2., 2.])
    """

    def __init__(self, pack_hook, unpack_hook):
        self.pack_hook = pack_hook
        self.unpack_hook = unpack_hook

    def __enter__(self):
        if _hook_state.disabled is not None:
            raise RuntimeError(_hook_state.disabled)
        _hook_state.stack = _hook_state.stack + ((self.pack_hook, self.unpack_hook),)
        _hooks_in_use[0] += 1
        return self

    def __exit__(self, *exc):
        _hook_state.stack = _hook_state.stack[:-1]
        _hooks_in_use[0] -= 1


class disable_saved_tensors_hooks:
    """Forbid ``saved_tensors_hooks`` within this context: using them raises
    ``RuntimeError(error_message)``, as does entering this context while hooks are active."""

    def __init__(self, error_message: str = ""):
        self.error_message = error_message

    def __enter__(self):
        if _hook_state.stack:
            raise RuntimeError(self.error_message)
        self.prev = _hook_state.disabled
        _hook_state.disabled = self.error_message

    def __exit__(self, *exc):
        _hook_state.disabled = self.prev


class save_on_cpu(saved_tensors_hooks):
    """Keep saved tensors as host copies (numtorch runs on the CPU, so this copies).

    Example:
        >>> import numtorch as torch
        >>> x = torch.ones(2, requires_grad=True)
        >>> with torch.autograd.graph.save_on_cpu():
        ...     y = (x.exp() * x).sum()
        >>> y.backward(); x.grad
        tensor([5.4366, 5.4366])
    """

    def __init__(self, pin_memory: bool = False, device_type: str = "cpu"):
        super().__init__(lambda t: t.detach().clone(), lambda t: t)


def increment_version(tensor) -> None:
    """Mark ``tensor`` (or each tensor of an iterable) as modified in place, for changes made
    behind autograd's back (e.g. through ``tensor.numpy()``): backward then refuses saved
    copies of it, as after any in-place op."""
    for t in (tensor,) if isinstance(tensor, Tensor) else tensor:
        t._bump_version()
