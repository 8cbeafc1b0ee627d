"""The helpers ``torch.utils.checkpoint`` exports beside ``checkpoint``: detaching inputs,
the validity warning, device RNG states (none on the CPU), the debug switch, and the names of
selective activation checkpointing, which numtorch cannot run (it needs ``torch.ops``)."""

from __future__ import annotations

import contextlib
import enum
import warnings

from .._core.tensor import Tensor

__all__ = [
    "CheckpointPolicy",
    "DefaultDeviceType",
    "SelectiveCheckpointContext",
    "check_backward_validity",
    "create_selective_checkpoint_contexts",
    "detach_variable",
    "get_device_states",
    "set_checkpoint_debug_enabled",
    "set_device_states",
]


def detach_variable(inputs: tuple) -> tuple:
    """``inputs`` with each tensor detached, keeping its ``requires_grad`` flag."""
    if not isinstance(inputs, tuple):
        raise RuntimeError(
            "Only tuple of tensors is supported. Got Unsupported input type: "
            f"{type(inputs).__name__}"
        )
    out = []
    for value in inputs:
        if isinstance(value, Tensor):
            detached = value.detach()
            detached.requires_grad = value.requires_grad
            value = detached
        out.append(value)
    return tuple(out)


def check_backward_validity(inputs) -> None:
    """Warn when no tensor among ``inputs`` requires grad (nothing would get a gradient)."""
    if not any(v.requires_grad for v in inputs if isinstance(v, Tensor)):
        warnings.warn(
            "None of the inputs have requires_grad=True. Gradients will be None", stacklevel=2
        )


def get_device_states(*args) -> tuple[list, list]:
    """The accelerator devices of ``args``' tensors and their RNG states: none on the CPU."""
    return [], []


def set_device_states(devices, states, *, device_type=None) -> None:
    """Restore accelerator RNG states: there are none to restore."""


class DefaultDeviceType:
    """The device type whose RNG state checkpointing saves when no tensor names one."""

    _default_device_type: str | None = None

    @staticmethod
    def set_device_type(device: str = "cuda") -> None:
        DefaultDeviceType._default_device_type = device

    @staticmethod
    def get_device_type() -> str:
        # torch's answer without an accelerator
        return DefaultDeviceType._default_device_type or "cpu"


_debug = [False]


@contextlib.contextmanager
def set_checkpoint_debug_enabled(enabled: bool | None):
    """Within the block, ``checkpoint``'s ``debug`` default is ``enabled`` (None: unchanged).
    numtorch records the setting; its recomputation errors name the differing tensors
    either way."""
    previous = _debug[0]
    if enabled is not None:
        _debug[0] = enabled
    try:
        yield
    finally:
        _debug[0] = previous


class CheckpointPolicy(enum.Enum):
    """What selective checkpointing does with one op's output."""

    MUST_SAVE = 0
    PREFER_SAVE = 1
    MUST_RECOMPUTE = 2
    PREFER_RECOMPUTE = 3
    MUST_CPU_OFFLOAD = 4
    PREFER_CPU_OFFLOAD = 5


class SelectiveCheckpointContext:
    """What a selective-checkpoint policy function is told about an op."""

    def __init__(self, *, is_recompute, op_output=None) -> None:
        self.is_recompute = is_recompute
        self.op_output = op_output


def create_selective_checkpoint_contexts(policy_fn_or_list, allow_cache_entry_mutation=False):
    """Selective activation checkpointing picks ops by their ``torch.ops.aten`` overloads,
    which numtorch does not have: refused, naming the missing feature."""
    raise NotImplementedError(
        "torch.utils.checkpoint.create_selective_checkpoint_contexts is not supported by "
        "numtorch: selective checkpointing names ops by torch.ops.aten overloads, which "
        "numtorch does not provide; checkpoint(fn, ..., use_reentrant=False) without "
        "context_fn recomputes the whole function instead"
    )
