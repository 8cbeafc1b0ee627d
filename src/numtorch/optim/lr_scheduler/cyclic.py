"""Cyclical schedules: ``CyclicLR`` and ``OneCycleLR``, both of which can cycle momentum
(SGD's ``momentum`` or Adam's ``beta1``) against the rate."""

from __future__ import annotations

import math
import types
from collections.abc import Callable
from functools import partial
from typing import Any, Literal

from ..optimizer import Optimizer
from .base import LRScheduler, format_param, set_group_value


def _init_momentum_cycling(scheduler, optimizer, base_momentum, max_momentum, last_epoch):
    """Check the optimizer has a momentum to cycle and, on a fresh start, set every group's
    momentum to its maximum; returns (base_momentums, max_momentums)."""
    if "momentum" not in optimizer.defaults and "betas" not in optimizer.defaults:
        raise ValueError(
            "optimizer must support momentum or beta1 with `cycle_momentum` option enabled"
        )
    scheduler.use_beta1 = "betas" in optimizer.defaults
    base_momentums = format_param("base_momentum", optimizer, base_momentum)
    max_momentums = format_param("max_momentum", optimizer, max_momentum)
    if last_epoch == -1:
        for m_momentum, b_momentum, group in zip(
            max_momentums, base_momentums, optimizer.param_groups, strict=True
        ):
            _set_momentum(group, scheduler.use_beta1, m_momentum)
            group["max_momentum"] = m_momentum
            group["base_momentum"] = b_momentum
    return base_momentums, max_momentums


def _set_momentum(group, use_beta1: bool, momentum) -> None:
    if use_beta1:
        group["betas"] = (momentum, *group["betas"][1:])
    else:
        group["momentum"] = momentum


class CyclicLR(LRScheduler):
    """Cycle the rate between ``base_lr`` and ``max_lr`` (a triangle of ``step_size_up`` +
    ``step_size_down`` steps), scaled per cycle (``triangular``: 1, ``triangular2``: halved
    each cycle) or per step (``exp_range``: ``gamma**step``) or by ``scale_fn``; step it
    after every batch. Momentum cycles the opposite way when ``cycle_momentum``.

    Example:
        >>> import numtorch as torch
        >>> opt = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=0.1, momentum=0.9)
        >>> sched = torch.optim.lr_scheduler.CyclicLR(
        ...     opt, base_lr=0.1, max_lr=0.5, step_size_up=2, mode="triangular2"
        ... )
        >>> lrs = [round(sched.get_last_lr()[0], 6)]
        >>> for _ in range(6):
        ...     opt.step()
        ...     sched.step()
        ...     lrs.append(round(sched.get_last_lr()[0], 6))
        >>> lrs
        [0.1, 0.3, 0.5, 0.3, 0.1, 0.2, 0.3]
        >>> round(opt.param_groups[0]["momentum"], 6)
        0.85
    """

    def __init__(
        self,
        optimizer: Optimizer,
        base_lr: float | list[float],
        max_lr: float | list[float],
        step_size_up: int = 2000,
        step_size_down: int | None = None,
        mode: Literal["triangular", "triangular2", "exp_range"] = "triangular",
        gamma: float = 1.0,
        scale_fn: Callable[[float], float] | None = None,
        scale_mode: Literal["cycle", "iterations"] = "cycle",
        cycle_momentum: bool = True,
        base_momentum: float = 0.8,
        max_momentum: float = 0.9,
        last_epoch: int = -1,
    ) -> None:
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        self.optimizer = optimizer
        base_lrs = format_param("base_lr", optimizer, base_lr)
        if last_epoch == -1:
            for lr, group in zip(base_lrs, optimizer.param_groups, strict=True):
                set_group_value(group, "lr", lr)
        self.max_lrs = format_param("max_lr", optimizer, max_lr)
        step_size_up = float(step_size_up)
        step_size_down = float(step_size_down) if step_size_down is not None else step_size_up
        self.total_size = step_size_up + step_size_down
        self.step_ratio = step_size_up / self.total_size
        if mode not in ["triangular", "triangular2", "exp_range"] and scale_fn is None:
            raise ValueError("mode is invalid and scale_fn is None")
        self.mode = mode
        self.gamma = gamma
        self._scale_fn_custom = scale_fn
        self.scale_mode = scale_mode
        self._init_scale_fn()
        self.cycle_momentum = cycle_momentum
        if cycle_momentum:
            self.base_momentums, self.max_momentums = _init_momentum_cycling(
                self, optimizer, base_momentum, max_momentum, last_epoch
            )
        super().__init__(optimizer, last_epoch)
        self.base_lrs = base_lrs

    def _init_scale_fn(self) -> None:
        if self._scale_fn_custom is not None:
            return
        if self.mode == "triangular":
            self._scale_fn_ref = self._triangular_scale_fn
            self.scale_mode = "cycle"
        elif self.mode == "triangular2":
            self._scale_fn_ref = self._triangular2_scale_fn
            self.scale_mode = "cycle"
        elif self.mode == "exp_range":
            self._scale_fn_ref = partial(self._exp_range_scale_fn, self.gamma)
            self.scale_mode = "iterations"

    def scale_fn(self, x) -> float:
        """The amplitude's scale at cycle (or step) ``x``."""
        if self._scale_fn_custom is not None:
            return self._scale_fn_custom(x)
        return self._scale_fn_ref(x)

    @staticmethod
    def _triangular_scale_fn(x: float) -> float:
        return 1.0

    @staticmethod
    def _triangular2_scale_fn(x: float) -> float:
        return 1 / (2.0 ** (x - 1))

    @staticmethod
    def _exp_range_scale_fn(gamma: float, x: float) -> float:
        return gamma**x

    def get_lr(self) -> list:
        self._warn_if_called_outside_step()
        cycle = math.floor(1 + self.last_epoch / self.total_size)
        x = 1.0 + self.last_epoch / self.total_size - cycle
        if x <= self.step_ratio:
            scale_factor = x / self.step_ratio
        else:
            scale_factor = (x - 1) / (self.step_ratio - 1)
        at = cycle if self.scale_mode == "cycle" else self.last_epoch
        # scale_fn is called once per value, as torch does (a custom one may count calls)
        lrs = [
            base_lr + (max_lr - base_lr) * scale_factor * self.scale_fn(at)
            for base_lr, max_lr in zip(self.base_lrs, self.max_lrs, strict=True)
        ]
        if self.cycle_momentum:
            for group, base_momentum, max_momentum in zip(
                self.optimizer.param_groups, self.base_momentums, self.max_momentums, strict=True
            ):
                height = (max_momentum - base_momentum) * scale_factor
                _set_momentum(group, self.use_beta1, max_momentum - height * self.scale_fn(at))
        return lrs

    def state_dict(self) -> dict[str, Any]:
        """The state; a custom ``scale_fn`` is saved as its ``__dict__`` when it is a callable
        object, as ``None`` when it is a function."""
        state = super().state_dict()
        state.pop("_scale_fn_ref", None)
        fn = state.pop("_scale_fn_custom")
        state["_scale_fn_custom"] = None
        if fn is not None and not isinstance(fn, types.FunctionType):
            state["_scale_fn_custom"] = fn.__dict__.copy()
        return state

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        state_dict = dict(state_dict)
        fn = state_dict.pop("_scale_fn_custom")
        super().load_state_dict(state_dict)
        if fn is not None:
            self._scale_fn_custom.__dict__.update(fn)
        self._init_scale_fn()


class OneCycleLR(LRScheduler):
    """The 1cycle policy: warm up from ``max_lr / div_factor`` to ``max_lr`` over
    ``pct_start`` of ``total_steps``, then anneal (``cos`` or ``linear``) to
    ``initial_lr / final_div_factor``; ``three_phase`` comes back down symmetrically before
    the final annealing. Momentum cycles the opposite way. Step it after every batch.

    Example:
        >>> import numtorch as torch
        >>> opt = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=0.1, momentum=0.9)
        >>> sched = torch.optim.lr_scheduler.OneCycleLR(
        ...     opt, max_lr=1.0, total_steps=6, pct_start=0.5, anneal_strategy="linear",
        ...     final_div_factor=2.0,
        ... )
        >>> lrs = [sched.get_last_lr()[0]]
        >>> for _ in range(5):
        ...     opt.step()
        ...     sched.step()
        ...     lrs.append(round(sched.get_last_lr()[0], 6))
        >>> lrs
        [0.04, 0.52, 1.0, 0.673333, 0.346667, 0.02]
    """

    def __init__(
        self,
        optimizer: Optimizer,
        max_lr: float | list[float],
        total_steps: int | None = None,
        epochs: int | None = None,
        steps_per_epoch: int | None = None,
        pct_start: float = 0.3,
        anneal_strategy: Literal["cos", "linear"] = "cos",
        cycle_momentum: bool = True,
        base_momentum: float | list[float] = 0.85,
        max_momentum: float | list[float] = 0.95,
        div_factor: float = 25.0,
        final_div_factor: float = 1e4,
        three_phase: bool = False,
        last_epoch: int = -1,
    ) -> None:
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        self.optimizer = optimizer
        if total_steps is not None:
            if total_steps <= 0 or not isinstance(total_steps, int):
                raise ValueError(f"Expected positive integer total_steps, but got {total_steps}")
            self.total_steps = total_steps
        elif epochs is not None and steps_per_epoch is not None:
            if not isinstance(epochs, int) or epochs <= 0:
                raise ValueError(f"Expected positive integer epochs, but got {epochs}")
            if not isinstance(steps_per_epoch, int) or steps_per_epoch <= 0:
                raise ValueError(
                    f"Expected positive integer steps_per_epoch, but got {steps_per_epoch}"
                )
            self.total_steps = epochs * steps_per_epoch
        else:
            raise ValueError("You must define either total_steps OR (epochs AND steps_per_epoch)")
        up_end = float(pct_start * self.total_steps) - 1
        if three_phase:
            self._schedule_phases = [
                _phase(up_end, "initial_lr", "max_lr", "max_momentum", "base_momentum"),
                _phase(
                    float(2 * pct_start * self.total_steps) - 2,
                    "max_lr",
                    "initial_lr",
                    "base_momentum",
                    "max_momentum",
                ),
                _phase(
                    self.total_steps - 1, "initial_lr", "min_lr", "max_momentum", "max_momentum"
                ),
            ]
        else:
            self._schedule_phases = [
                _phase(up_end, "initial_lr", "max_lr", "max_momentum", "base_momentum"),
                _phase(self.total_steps - 1, "max_lr", "min_lr", "base_momentum", "max_momentum"),
            ]
        if pct_start < 0 or pct_start > 1 or not isinstance(pct_start, float):
            raise ValueError(f"Expected float between 0 and 1 pct_start, but got {pct_start}")
        if anneal_strategy not in ["cos", "linear"]:
            raise ValueError(
                f"anneal_strategy must be one of 'cos' or 'linear', instead got {anneal_strategy}"
            )
        self._anneal_func_type = anneal_strategy
        max_lrs = format_param("max_lr", self.optimizer, max_lr)
        if last_epoch == -1:
            for group, group_max_lr in zip(self.optimizer.param_groups, max_lrs):
                group["initial_lr"] = group_max_lr / div_factor
                group["max_lr"] = group_max_lr
                group["min_lr"] = group["initial_lr"] / final_div_factor
        self.cycle_momentum = cycle_momentum
        if cycle_momentum:
            _init_momentum_cycling(self, optimizer, base_momentum, max_momentum, last_epoch)
        super().__init__(optimizer, last_epoch)

    def _anneal_func(self, start, end, pct):
        if self._anneal_func_type == "cos":
            return self._annealing_cos(start, end, pct)
        if self._anneal_func_type == "linear":
            return self._annealing_linear(start, end, pct)
        raise ValueError(f"Unknown _anneal_func_type: {self._anneal_func_type}")

    @staticmethod
    def _annealing_cos(start, end, pct):
        """Cosine from ``start`` to ``end`` as ``pct`` goes from 0 to 1."""
        cos_out = math.cos(math.pi * pct) + 1
        return end + (start - end) / 2.0 * cos_out

    @staticmethod
    def _annealing_linear(start, end, pct):
        """Linear from ``start`` to ``end`` as ``pct`` goes from 0 to 1."""
        return (end - start) * pct + start

    def get_lr(self) -> list:
        self._warn_if_called_outside_step()
        step_num = self.last_epoch
        if step_num > self.total_steps:
            raise ValueError(
                f"Tried to step {step_num} times. The specified number of total steps is "
                f"{self.total_steps}"
            )
        lrs = []
        for group in self.optimizer.param_groups:
            start_step = 0.0
            for i, phase in enumerate(self._schedule_phases):
                end_step = phase["end_step"]
                if step_num <= end_step or i == len(self._schedule_phases) - 1:
                    pct = (step_num - start_step) / (end_step - start_step)
                    lr = self._anneal_func(group[phase["start_lr"]], group[phase["end_lr"]], pct)
                    if self.cycle_momentum:
                        momentum = self._anneal_func(
                            group[phase["start_momentum"]], group[phase["end_momentum"]], pct
                        )
                    break
                start_step = phase["end_step"]
            lrs.append(lr)
            if self.cycle_momentum:
                _set_momentum(group, self.use_beta1, momentum)
        return lrs


def _phase(end_step, start_lr, end_lr, start_momentum, end_momentum) -> dict[str, Any]:
    return {
        "end_step": end_step,
        "start_lr": start_lr,
        "end_lr": end_lr,
        "start_momentum": start_momentum,
        "end_momentum": end_momentum,
    }
