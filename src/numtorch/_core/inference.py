"""Inference tensors: what ops produce inside ``inference_mode()``.

As in torch they carry no usable version counter: saving one for backward raises, and so does
changing one in place outside inference mode. A tensor is marked through its version counter
(an ``InferenceVersion``), so views of it are inference tensors too, at no cost to other ops.
While some inference_mode block is open, an observer (see observers.py) marks op outputs.
"""

from __future__ import annotations

import contextvars

from .observers import add_observer, remove_observer
from .versions import InferenceVersion

# read by grad_mode (is_inference_mode_enabled) and set by its inference_mode
_inference = contextvars.ContextVar("numtorch_inference_mode", default=False)


def is_inference_mode_enabled() -> bool:
    """True inside ``inference_mode()``."""
    return _inference.get()


SAVE_ERROR = (
    "Inference tensors cannot be saved for backward. Please do not use Tensors created in "
    "inference mode in computation tracked by autograd. To work around this, you can make a "
    "clone to get a normal tensor and use it in autograd, or use `torch.no_grad()` instead of "
    "`torch.inference_mode()`."
)
INPLACE_ERROR = (
    "Inplace update to inference tensor outside InferenceMode is not allowed.You can make a "
    "clone to get a normal tensor before doing inplace update.See "
    "https://github.com/pytorch/rfcs/pull/17 for more details."
)


def mark(value) -> None:
    """Make the fresh tensors in an op's result inference tensors."""
    for t in value if isinstance(value, (tuple, list)) else (value,):
        # Tensor sits above this module; a tensor is what has the version-counter slot
        if getattr(t, "_vc", False) is None and t._base is None:
            t._vc = InferenceVersion()


class _Marker:
    """The observer active while any inference_mode block is open (in any thread)."""

    open_blocks = 0

    def wrap(self, spec, args, run):
        def marked():
            result = run()
            if _inference.get():
                mark(result)
            return result

        return marked


_marker = _Marker()


def enter() -> None:
    _marker.open_blocks += 1
    add_observer(_marker)


def exit() -> None:
    _marker.open_blocks -= 1
    if _marker.open_blocks <= 0:
        _marker.open_blocks = 0
        remove_observer(_marker)
