"""LRScheduler, the base of the epoch-driven schedulers, and the helpers they share.

As in torch, building a scheduler performs step 0 (``last_epoch`` becomes 0) and records
each group's ``initial_lr``; call ``scheduler.step()`` after ``optimizer.step()``. A
group's ``lr`` may be a 1-element tensor: it is then filled in place, never replaced.
"""

from __future__ import annotations

import warnings
import weakref
from typing import Any

from ..._core.tensor import Tensor
from ..optimizer import Optimizer

EPOCH_DEPRECATION_WARNING = (
    "The epoch parameter in `scheduler.step()` was not necessary and is being deprecated "
    "where possible. Please use `scheduler.step()` to step the scheduler. During the "
    "deprecation, if epoch is different from None, the closed form is used instead of the new "
    "chainable form, where available. Please open an issue if you are unable to replicate "
    "your use case: https://github.com/pytorch/pytorch/issues/new/choose."
)


def format_param(name: str, optimizer: Optimizer, param) -> list:
    """One value per parameter group: ``param`` repeated, or a list checked for length."""
    if isinstance(param, (list, tuple)):
        if len(param) != len(optimizer.param_groups):
            raise ValueError(
                f"{name} must have the same length as optimizer.param_groups. {name} has "
                f"{len(param)} values, param_groups has {len(optimizer.param_groups)}."
            )
    else:
        param = [param] * len(optimizer.param_groups)
    return [p.clone() if isinstance(p, Tensor) else p for p in param]


def group_values(optimizer: Optimizer, key: str) -> list:
    """``group[key]`` of every parameter group (tensors copied, so nothing aliases)."""
    return [
        group[key].clone() if isinstance(group[key], Tensor) else group[key]
        for group in optimizer.param_groups
    ]


def set_group_value(group: dict[str, Any], key: str, value) -> None:
    """Set ``group[key]``, filling it in place when it is a tensor."""
    if isinstance(group[key], Tensor):
        group[key].fill_(value.item() if isinstance(value, Tensor) else value)
    else:
        group[key] = value


def _track_optimizer_steps(optimizer: Optimizer) -> None:
    """Make a ``step`` set on the optimizer object itself record that it ran, like the
    class's ``step`` does once a scheduler is attached (the scheduler warns when it steps
    first; steps taken before any scheduler existed do not count, as in torch)."""
    optimizer._steps_tracked = True
    step = optimizer.__dict__.get("step")
    if step is None or getattr(step, "_wrapped_by_lr_sched", False):
        return
    optimizer_ref = weakref.ref(optimizer)

    def wrapper(*args, **kwargs):
        optimizer_ref()._opt_called = True
        return step(*args, **kwargs)

    wrapper._wrapped_by_lr_sched = True
    optimizer.step = wrapper


def _records_steps(optimizer: Optimizer) -> bool:
    step = optimizer.step
    return getattr(step, "_hooked", False) or getattr(step, "_wrapped_by_lr_sched", False)


class LRScheduler:
    """Base class: subclasses implement ``get_lr()`` from ``last_epoch`` and ``base_lrs``.

    Example:
        >>> import numtorch as torch
        >>> w = torch.zeros(1, requires_grad=True)
        >>> opt = torch.optim.SGD([w], lr=1.0)
        >>> sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda epoch: 0.5**epoch)
        >>> for _ in range(2):
        ...     opt.step()
        ...     sched.step()
        >>> sched.last_epoch, sched.get_last_lr()
        (2, [0.25])
    """

    _get_lr_called_within_step = False
    _is_initial = False

    def __init__(self, optimizer: Optimizer, last_epoch: int = -1) -> None:
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        self.optimizer = optimizer
        if last_epoch == -1:
            for group in optimizer.param_groups:
                lr = group["lr"]
                group.setdefault("initial_lr", lr.clone() if isinstance(lr, Tensor) else lr)
        else:
            for i, group in enumerate(optimizer.param_groups):
                if "initial_lr" not in group:
                    raise KeyError(
                        f"param 'initial_lr' is not specified in param_groups[{i}] when resuming "
                        "scheduler with last_epoch >= 0.\nThis typically happens when:\n1. "
                        "You're trying to resume training from a checkpoint but haven't properly "
                        "loaded the optimizer state\n2. You're using last_epoch >= 0 for a fresh "
                        "training run (not recommended)"
                    )
        self.base_lrs: list = group_values(optimizer, "initial_lr")
        self.last_epoch = last_epoch
        _track_optimizer_steps(optimizer)
        self._initial_step()

    def _initial_step(self) -> None:
        self._step_count = 0
        self._is_initial = True
        try:
            self.step()
        finally:
            self._is_initial = False

    def state_dict(self) -> dict[str, Any]:
        """Every attribute except the optimizer."""
        return {key: value for key, value in self.__dict__.items() if key != "optimizer"}

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        self.__dict__.update(state_dict)

    def get_last_lr(self) -> list:
        """The learning rates set by the latest ``step()``, one per parameter group."""
        return self._last_lr

    def get_lr(self) -> list:
        raise NotImplementedError

    def step(self, epoch: int | None = None) -> None:
        """Advance one epoch (call after ``optimizer.step()``) and set the groups' ``lr``."""
        if self._step_count == 1:
            if not _records_steps(self.optimizer):
                warnings.warn(
                    "Seems like `optimizer.step()` has been overridden after learning rate "
                    "scheduler initialization. Please, make sure to call `optimizer.step()` "
                    "before `lr_scheduler.step()`. See more details at "
                    "https://pytorch.org/docs/stable/optim.html#how-to-adjust-learning-rate",
                    UserWarning,
                    stacklevel=2,
                )
            elif not getattr(self.optimizer, "_opt_called", False):
                warnings.warn(
                    "Detected call of `lr_scheduler.step()` before `optimizer.step()`. In "
                    "PyTorch 1.1.0 and later, you should call them in the opposite order: "
                    "`optimizer.step()` before `lr_scheduler.step()`.  Failure to do this will "
                    "result in PyTorch skipping the first value of the learning rate schedule. "
                    "See more details at "
                    "https://pytorch.org/docs/stable/optim.html#how-to-adjust-learning-rate",
                    UserWarning,
                    stacklevel=2,
                )
        self._step_count += 1
        if epoch is not None:
            warnings.warn(EPOCH_DEPRECATION_WARNING, UserWarning, stacklevel=2)
        self._update_lr(epoch)

    def _update_lr(self, epoch: int | None = None) -> None:
        """Set ``last_epoch`` (one more, or ``epoch`` with the closed form where there is
        one) and the groups' rates from it."""
        self._get_lr_called_within_step = True
        try:
            if epoch is None:
                self.last_epoch += 1
                values = self.get_lr()
            else:
                self.last_epoch = epoch
                closed_form = getattr(self, "_get_closed_form_lr", None)
                values = closed_form() if closed_form is not None else self.get_lr()
        finally:
            self._get_lr_called_within_step = False
        self._set_lrs(values)

    def _set_lrs(self, values) -> None:
        for group, lr in zip(self.optimizer.param_groups, values, strict=True):
            set_group_value(group, "lr", lr)
        self._last_lr = group_values(self.optimizer, "lr")

    def _warn_if_called_outside_step(self) -> None:
        if not self._get_lr_called_within_step:
            warnings.warn(
                "To get the last learning rate computed by the scheduler, please use "
                "`get_last_lr()`.",
                UserWarning,
                stacklevel=3,
            )

    def _current_lrs(self) -> list:
        return group_values(self.optimizer, "lr")


class _LRScheduler(LRScheduler):
    """The old name of ``LRScheduler``, kept as torch keeps it."""
