"""Dynamo's marks on tensors and code: hints for a tracer numtorch does not have."""

from __future__ import annotations


def mark_dynamic(t, index, *, hint_override=None, min=None, max=None, specialize_on=None):
    """Mark dimension(s) ``index`` of ``t`` as dynamic for the tracer: nothing to do eagerly."""


def maybe_mark_dynamic(t, index) -> None:
    """As ``mark_dynamic``, a hint only."""


def mark_static(t, index=None) -> None:
    """Mark ``t`` (or a Module class) static for the tracer: nothing to do eagerly."""


def mark_static_address(t, guard: bool = True) -> None:
    """Mark ``t``'s storage as fixed for CUDA graphs: none on the CPU."""


def graph_break(msg: str = "") -> None:
    """End the traced graph here: eager code has none to end."""


def list_backends(exclude_tags=("debug", "experimental")) -> list[str]:
    """The compiler backends torch.compile could use: numtorch has none."""
    return []
