"""torch.utils.checkpoint: trade compute for memory by recomputing activations in backward.

``checkpoint(fn, *args)`` runs ``fn`` without keeping the tensors its ops save for backward;
backward recomputes them by running ``fn`` again on the saved inputs, with the random state
of the original forward (so ``rand_like`` or dropout inside ``fn`` draw the same numbers).

Two variants, as in torch:

- ``use_reentrant=False`` (recommended): saved-tensor hooks pack each saved tensor as a
  placeholder; the first unpack in backward reruns ``fn`` under hooks that collect the
  recomputed tensors in order (stopping as soon as all are back). Works with
  ``autograd.grad``, keyword arguments, and gives parameter gradients even when no input
  requires grad.
- ``use_reentrant=True``: a custom Function runs ``fn`` under ``no_grad``, and its backward
  reruns ``fn`` with grad and calls ``autograd.backward`` inside the outer backward.
"""

from __future__ import annotations

import contextlib
import warnings
import weakref

import numtorch

from .._core import grad_mode
from .._core.backward_run import current_run, is_checkpoint_valid
from .._core.graph import Node
from .._core.saved import SavedTensor, saved_tensors_hooks
from ..autograd.function import Function
from ._pytree import tree_map as tree_map  # torch.utils.checkpoint has it among its names
from .checkpoint_helpers import (
    CheckpointPolicy,
    DefaultDeviceType,
    SelectiveCheckpointContext,
    check_backward_validity,
    create_selective_checkpoint_contexts,
    detach_variable,
    get_device_states,
    set_checkpoint_debug_enabled,
    set_device_states,
)

__all__ = [
    "CheckpointError",
    "CheckpointPolicy",
    "DefaultDeviceType",
    "SelectiveCheckpointContext",
    "check_backward_validity",
    "checkpoint",
    "checkpoint_sequential",
    "create_selective_checkpoint_contexts",
    "detach_variable",
    "get_device_states",
    "noop_context_fn",
    "set_checkpoint_debug_enabled",
    "set_checkpoint_early_stop",
    "set_device_states",
]


class CheckpointError(RuntimeError):
    """Recomputation did not save the same tensors as the original forward."""


def noop_context_fn():
    return contextlib.nullcontext(), contextlib.nullcontext()


@contextlib.contextmanager
def _forked_rng(state):
    """Run with the random state ``state`` (None: unchanged), then restore the current one."""
    if state is None:
        yield
        return
    current = numtorch.get_rng_state()
    numtorch.set_rng_state(state)
    try:
        yield
    finally:
        numtorch.set_rng_state(current)


def _warn_no_grad_inputs(args) -> None:
    if not any(isinstance(a, numtorch.Tensor) and a.requires_grad for a in args):
        warnings.warn(
            "None of the inputs have requires_grad=True. Gradients will be None",
            UserWarning,
            stacklevel=4,
        )


# -- reentrant variant -------------------------------------------------------------------------
class CheckpointFunction(Function):
    @staticmethod
    def forward(ctx, run_function, preserve_rng_state, *args):
        _warn_no_grad_inputs(args)
        ctx.run_function = run_function
        ctx.rng_state = numtorch.get_rng_state() if preserve_rng_state else None
        ctx.inputs = [None if isinstance(a, numtorch.Tensor) else a for a in args]
        ctx.tensor_indices = [i for i, a in enumerate(args) if isinstance(a, numtorch.Tensor)]
        ctx.save_for_backward(*[args[i] for i in ctx.tensor_indices])
        with grad_mode.no_grad():
            return run_function(*args)

    @staticmethod
    def backward(ctx, *grads):
        if not is_checkpoint_valid():
            raise RuntimeError(
                "When use_reentrant=True, torch.utils.checkpoint is incompatible with .grad() "
                "or passing an `inputs` parameter to .backward(). To resolve this error, you "
                "can either set use_reentrant=False, or call .backward() without passing the "
                "`inputs` argument."
            )
        inputs = list(ctx.inputs)
        for i, tensor in zip(ctx.tensor_indices, ctx.saved_tensors):
            inputs[i] = tensor
        detached = [
            a.detach().requires_grad_(a.requires_grad) if isinstance(a, numtorch.Tensor) else a
            for a in inputs
        ]
        with _forked_rng(ctx.rng_state), grad_mode.enable_grad():
            outputs = ctx.run_function(*detached)
        if isinstance(outputs, numtorch.Tensor):
            outputs = (outputs,)
        pairs = [
            (out, g)
            for out, g in zip(outputs, grads)
            if isinstance(out, numtorch.Tensor) and out.requires_grad
        ]
        if not pairs:
            raise RuntimeError(
                "none of output has requires_grad=True, this checkpoint() is not necessary"
            )
        numtorch.autograd.backward([o for o, _ in pairs], [g for _, g in pairs])
        return (None, None) + tuple(
            a.grad if isinstance(a, numtorch.Tensor) else None for a in detached
        )


# -- non-reentrant variant ---------------------------------------------------------------------
_early_stop = [True]


@contextlib.contextmanager
def set_checkpoint_early_stop(enable: bool):
    """Within this context, recomputation in backward stops (or not) as soon as every saved
    tensor of the checkpointed region has been recomputed."""
    previous = _early_stop[0]
    _early_stop[0] = enable
    try:
        yield
    finally:
        _early_stop[0] = previous


class _Holder:
    """Stands for one tensor saved in the checkpointed forward (packed in its place)."""

    __slots__ = ("index", "__weakref__")

    def __init__(self, index: int):
        self.index = index


class _StopRecomputation(Exception):
    pass


class _Frame:
    """One checkpointed call: its inputs, what it saved, and the recomputation."""

    def __init__(self, recompute, check_metadata: bool, early_stop: bool):
        self.recompute = recompute
        self.check_metadata = check_metadata
        self.early_stop = early_stop
        self.holders = []  # weakrefs, in saving order
        self.metadata = []
        self.recomputed = weakref.WeakKeyDictionary()  # holder -> recomputed tensor
        self.recomputed_in = None  # the backward run that recomputed them

    def pack(self, tensor):
        holder = _Holder(len(self.holders))
        self.holders.append(weakref.ref(holder))
        self.metadata.append(_metadata(tensor))
        return holder

    def unpack(self, holder):
        # once per backward run, however often its nodes unpack (torch: once per graph task);
        # a recomputed tensor lives as long as the node that saved it keeps its holder
        run = current_run()
        if self.recomputed_in != run or holder not in self.recomputed:
            self._recompute()
            self.recomputed_in = run
        return self.recomputed[holder]

    def _recompute(self):
        counter = [0]

        def pack(tensor):
            index = counter[0]
            counter[0] += 1
            if index >= len(self.holders):
                raise CheckpointError(
                    "torch.utils.checkpoint: trying to save more tensors during recomputation "
                    "than during the original forward pass."
                )
            if self.check_metadata and _metadata(tensor) != self.metadata[index]:
                raise CheckpointError(
                    "torch.utils.checkpoint: Recomputed values for the following tensors have "
                    f"different metadata than during the forward pass.\ntensor at position "
                    f"{index}:\nsaved metadata: {self.metadata[index]}\nrecomputed metadata: "
                    f"{_metadata(tensor)}\n"
                )
            holder = self.holders[index]()
            if holder is not None:
                self.recomputed[holder] = tensor.detach() if tensor.requires_grad else tensor
            if self.early_stop and counter[0] == len(self.holders):
                raise _StopRecomputation
            return tensor

        try:
            with saved_tensors_hooks(pack, lambda t: t), grad_mode.enable_grad():
                self.recompute()
        except _StopRecomputation:
            pass
        if counter[0] != len(self.holders):
            raise CheckpointError(
                "torch.utils.checkpoint: A different number of tensors was saved during the "
                f"original forward and recomputation.\nNumber of tensors saved during forward: "
                f"{len(self.holders)}\nNumber of tensors saved during recomputation: "
                f"{counter[0]}."
            )


def _metadata(tensor) -> dict:
    return {"shape": tensor.shape, "dtype": tensor.dtype, "device": tensor.device}


def _checkpoint_without_reentrant(
    function, preserve_rng_state, context_fn, determinism_check, args, kwargs
):
    if determinism_check not in ("default", "none"):
        raise ValueError(
            f"determinism_check should be one of ['default', 'none'], but got {determinism_check}"
        )
    if not grad_mode.is_grad_enabled():
        return function(*args, **kwargs)
    forward_context, recompute_context = context_fn()
    rng_state = numtorch.get_rng_state() if preserve_rng_state else None
    # Inputs are saved like any saved tensor: modifying one in place before backward raises.
    saved = [SavedTensor(a, False) if isinstance(a, numtorch.Tensor) else a for a in args]

    def recompute():
        inputs = [s.unpack(_INPUTS) if isinstance(s, SavedTensor) else s for s in saved]
        with _forked_rng(rng_state), recompute_context:
            function(*inputs, **kwargs)

    frame = _Frame(recompute, determinism_check == "default", _early_stop[0])
    with saved_tensors_hooks(frame.pack, frame.unpack), forward_context:
        return function(*args, **kwargs)


class _CheckpointInputs(Node):
    """Names the checkpoint's saved inputs in error messages."""

    def name(self) -> str:
        return "torch::utils::checkpoint (saved inputs)"


_INPUTS = _CheckpointInputs()


# -- public API --------------------------------------------------------------------------------
def checkpoint(
    function,
    *args,
    use_reentrant: bool | None = None,
    context_fn=noop_context_fn,
    determinism_check: str = "default",
    debug: bool = False,
    **kwargs,
):
    """Run ``function(*args, **kwargs)`` without keeping its intermediate activations;
    backward recomputes them. Outputs and gradients equal those of the plain call.

    Args:
        use_reentrant: pass it explicitly (a warning is given otherwise, and ``True`` is
            used, as in torch); ``False`` is recommended.
        preserve_rng_state: restore the random state of the forward when recomputing
            (keyword, default True).
        context_fn: returns two context managers, for the forward and the recomputation
            (non-reentrant only).
        determinism_check: ``"default"`` checks that recomputed tensors have the shapes,
            dtypes and devices of the original ones; ``"none"`` skips it.

    Example:
        >>> import numtorch as torch
        >>> from numtorch.utils.checkpoint import checkpoint
        >>> x = torch.tensor([1.0, 2.0], requires_grad=True)
        >>> y = checkpoint(lambda t: (t.exp() * t).sum(), x, use_reentrant=False)
        >>> y.backward(); x.grad
        tensor([ 5.4366, 22.1672])
    """
    if use_reentrant is None:
        warnings.warn(
            "torch.utils.checkpoint: the use_reentrant parameter should be passed explicitly. "
            "Starting in PyTorch 2.9, calling checkpoint without use_reentrant will raise an "
            "exception. use_reentrant=False is recommended, but if you need to preserve the "
            "current default behavior, you can pass use_reentrant=True. Refer to docs for more "
            "details on the differences between the two variants.",
            UserWarning,
            stacklevel=2,
        )
        use_reentrant = True
    preserve = kwargs.pop("preserve_rng_state", True)
    kwargs.pop("early_stop", None)  # accepted for torch compatibility: see the context manager
    if kwargs and use_reentrant:
        raise ValueError("Unexpected keyword arguments: " + ",".join(arg for arg in kwargs))
    if use_reentrant:
        if context_fn is not noop_context_fn or debug is not False:
            raise ValueError(
                "Passing `context_fn` or `debug` is only supported when use_reentrant=False."
            )
        return CheckpointFunction.apply(function, preserve, *args)
    return _checkpoint_without_reentrant(
        function, preserve, context_fn, determinism_check, args, kwargs
    )


def checkpoint_sequential(functions, segments: int, input, use_reentrant=None, **kwargs):
    """Run ``functions`` (a list, or an ``nn.Sequential``) in order on ``input``,
    checkpointing all ``segments`` chunks but the last.

    Example:
        >>> import numtorch as torch
        >>> from numtorch.utils.checkpoint import checkpoint_sequential
        >>> layers = [lambda t: t * 2, torch.tanh, lambda t: t.sum()]
        >>> x = torch.tensor([0.5, 1.0], requires_grad=True)
        >>> checkpoint_sequential(layers, 2, x, use_reentrant=False).backward(); x.grad
        tensor([0.8399, 0.1413])
    """
    if use_reentrant is None:
        warnings.warn(
            "torch.utils.checkpoint.checkpoint_sequential: the use_reentrant parameter should "
            "be passed explicitly. In version 2.9 we will raise an exception if use_reentrant "
            "is not passed. use_reentrant=False is recommended, but if you need to preserve "
            "the current default behavior, you can pass use_reentrant=True. Refer to docs for "
            "more details on the differences between the two variants.",
            UserWarning,
            stacklevel=2,
        )
        use_reentrant = True
    preserve = kwargs.pop("preserve_rng_state", True)
    if kwargs:
        raise ValueError("Unexpected keyword arguments: " + ",".join(arg for arg in kwargs))
    if hasattr(functions, "children"):  # nn.Sequential
        functions = list(functions.children())

    def run_function(start, end):
        def forward(x):
            for j in range(start, end + 1):
                x = functions[j](x)
            return x

        return forward

    segment_size = len(functions) // segments
    end = -1
    for start in range(0, segment_size * (segments - 1), segment_size):
        end = start + segment_size - 1
        input = checkpoint(
            run_function(start, end),
            input,
            use_reentrant=use_reentrant,
            preserve_rng_state=preserve,
        )
    return run_function(end + 1, len(functions) - 1)(input)
