"""``torch.amp.GradScaler``: dynamic loss scaling for mixed-precision training.

The loss is multiplied by a scale before backward so that small float16 gradients do not
flush to zero; ``step`` unscales the gradients, skips the update when any is inf or NaN, and
``update`` halves the scale after such a step or doubles it after ``growth_interval`` clean
ones. On the CPU torch scales for real; asked for CUDA it warns and disables itself, and a
disabled scaler passes everything through. numtorch does the same.
"""

from __future__ import annotations

import warnings

from .._core import dtypes as _dtypes
from .._core.grad_mode import no_grad
from .._core.tensor import Tensor

_READY, _UNSCALED, _STEPPED = "ready", "unscaled", "stepped"


class GradScaler:
    """Scale losses and unscale gradients, skipping steps whose gradients overflowed.

    Example:
        >>> import numtorch as torch
        >>> scaler = torch.amp.GradScaler("cpu", init_scale=8.0)
        >>> scaler.scale(torch.tensor(1.0))
        tensor(8.)
    """

    def __init__(
        self,
        device: str = "cuda",
        init_scale: float = 2.0**16,
        growth_factor: float = 2.0,
        backoff_factor: float = 0.5,
        growth_interval: int = 2000,
        enabled: bool = True,
    ):
        self._device = device
        if enabled and device == "cuda":
            warnings.warn(
                "torch.cuda.amp.GradScaler is enabled, but CUDA is not available.  Disabling.",
                UserWarning,
                stacklevel=2,
            )
            enabled = False
        self._enabled = enabled
        if not growth_factor > 1.0:
            raise AssertionError("The growth factor must be > 1.0.")
        if not backoff_factor < 1.0:
            raise AssertionError("The backoff factor must be < 1.0.")
        self._init_scale = init_scale
        self._growth_factor = growth_factor
        self._backoff_factor = backoff_factor
        self._growth_interval = growth_interval
        self._scale = None  # made on first use, as in torch
        self._growth_tracker = 0
        self._states: dict = {}  # id(optimizer) -> {"stage", "found_inf"}

    def is_enabled(self) -> bool:
        return self._enabled

    def _scale_tensor(self) -> Tensor:
        if self._scale is None:
            self._scale = Tensor._make(_dtypes.float32.np.type(self._init_scale).reshape(()))
            self._scale = self._scale.clone()
        return self._scale

    def scale(self, outputs):
        """``outputs`` (a tensor or nested lists/tuples of them) times the current scale."""
        if not self._enabled:
            return outputs
        if isinstance(outputs, Tensor):
            return outputs * self._scale_tensor()
        if isinstance(outputs, (list, tuple)):
            return type(outputs)(self.scale(o) for o in outputs)
        raise ValueError("outputs must be a Tensor or an iterable of Tensors")

    def _state(self, optimizer) -> dict:
        return self._states.setdefault(id(optimizer), {"stage": _READY, "found_inf": False})

    def unscale_(self, optimizer) -> None:
        """Divide the gradients of ``optimizer``'s parameters by the scale, in place."""
        if not self._enabled:
            return
        if self._scale is None:
            raise AssertionError(
                "Attempted unscale_ but _scale is None.  This may indicate your script did "
                "not use scaler.scale(loss or outputs) earlier in the iteration."
            )
        state = self._state(optimizer)
        if state["stage"] == _UNSCALED:
            raise RuntimeError(
                "unscale_() has already been called on this optimizer since the last update()."
            )
        if state["stage"] == _STEPPED:
            raise RuntimeError("unscale_() is being called after step().")
        inv_scale = 1.0 / float(self._scale.item())
        found_inf = False
        with no_grad():
            for group in optimizer.param_groups:
                for p in group["params"]:
                    if p.grad is None:
                        continue
                    p.grad.mul_(inv_scale)
                    if not bool(p.grad.isfinite().all()):
                        found_inf = True
        state["found_inf"] = found_inf
        state["stage"] = _UNSCALED

    def step(self, optimizer, *args, **kwargs):
        """Unscale (if not done yet) and step, unless a gradient is inf or NaN."""
        if not self._enabled:
            return optimizer.step(*args, **kwargs)
        if "closure" in kwargs:
            raise RuntimeError("Closure use is not currently supported if GradScaler is enabled.")
        state = self._state(optimizer)
        if state["stage"] == _STEPPED:
            raise RuntimeError("step() has already been called since the last update().")
        if state["stage"] == _READY:
            self.unscale_(optimizer)
        result = None if state["found_inf"] else optimizer.step(*args, **kwargs)
        state["stage"] = _STEPPED
        return result

    def update(self, new_scale=None) -> None:
        """Back off after an overflow, grow after ``growth_interval`` clean steps."""
        if not self._enabled:
            return
        scale = self._scale_tensor()
        if new_scale is not None:
            value = float(new_scale.item() if isinstance(new_scale, Tensor) else new_scale)
            scale.fill_(value)
        else:
            found_inf = any(s["found_inf"] for s in self._states.values())
            if found_inf:
                scale.mul_(self._backoff_factor)
                self._growth_tracker = 0
            else:
                self._growth_tracker += 1
                if self._growth_tracker == self._growth_interval:
                    scale.mul_(self._growth_factor)
                    self._growth_tracker = 0
        self._states = {}

    def get_scale(self) -> float:
        if not self._enabled:
            return 1.0
        return self._init_scale if self._scale is None else float(self._scale.item())

    def get_growth_factor(self) -> float:
        return self._growth_factor

    def set_growth_factor(self, new_factor: float) -> None:
        self._growth_factor = new_factor

    def get_backoff_factor(self) -> float:
        return self._backoff_factor

    def set_backoff_factor(self, new_factor: float) -> None:
        self._backoff_factor = new_factor

    def get_growth_interval(self) -> int:
        return self._growth_interval

    def set_growth_interval(self, new_interval: int) -> None:
        self._growth_interval = new_interval

    def state_dict(self) -> dict:
        if not self._enabled:
            return {}
        return {
            "scale": self.get_scale(),
            "growth_factor": self._growth_factor,
            "backoff_factor": self._backoff_factor,
            "growth_interval": self._growth_interval,
            "_growth_tracker": self._growth_tracker,
        }

    def load_state_dict(self, state_dict: dict) -> None:
        if not self._enabled:
            return
        if len(state_dict) == 0:
            raise RuntimeError(
                "The source state dict is empty, possibly because it was saved from a "
                "disabled instance of GradScaler."
            )
        self._init_scale = state_dict["scale"]
        if self._scale is not None:
            self._scale.fill_(state_dict["scale"])
        self._growth_factor = state_dict["growth_factor"]
        self._backoff_factor = state_dict["backoff_factor"]
        self._growth_interval = state_dict["growth_interval"]
        self._growth_tracker = state_dict["_growth_tracker"]
