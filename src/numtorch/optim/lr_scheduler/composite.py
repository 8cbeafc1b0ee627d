"""Schedulers made of schedulers: ``SequentialLR`` (one after another, switching at
milestones) and ``ChainedScheduler`` (all of them every step)."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from typing import Any

from ..optimizer import Optimizer
from .base import LRScheduler, group_values, set_group_value
from .plateau import ReduceLROnPlateau


class _SchedulerGroup(LRScheduler):
    """Checks and state-dict handling shared by the schedulers that hold schedulers."""

    def _check_schedulers(self, optimizer: Optimizer, schedulers) -> None:
        name = type(self).__name__
        for i, scheduler in enumerate(schedulers):
            if not hasattr(scheduler, "optimizer"):
                raise TypeError(f"{name} at index {i} should have `optimizer` as its attribute.")
            if isinstance(scheduler, ReduceLROnPlateau):
                raise ValueError(
                    f"{name} does not support `ReduceLROnPlateau` scheduler as it requires "
                    "additional kwargs to be specified when calling `step`, but got one at index "
                    f"{i} in the given schedulers sequence."
                )
            if optimizer != scheduler.optimizer:
                raise ValueError(
                    f"{name} expects all schedulers to belong to the same optimizer, but got "
                    f"scheduler {type(scheduler).__name__} at index {i} has "
                    f"{scheduler.optimizer}, which is different from {type(optimizer).__name__}."
                )

    def state_dict(self) -> dict[str, Any]:
        """The state, with each held scheduler's state dict under ``_schedulers``."""
        state = {k: v for k, v in self.__dict__.items() if k not in ("optimizer", "_schedulers")}
        state["_schedulers"] = [s.state_dict() for s in self._schedulers]
        return state

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        state_dict = dict(state_dict)
        schedulers = state_dict.pop("_schedulers")
        self.__dict__.update(state_dict)
        for scheduler, state in zip(self._schedulers, schedulers):
            scheduler.load_state_dict(state)


class SequentialLR(_SchedulerGroup):
    """Run ``schedulers[i]`` between ``milestones[i - 1]`` and ``milestones[i]``; at a
    milestone the next scheduler starts from its epoch 0 (its closed form where it has one).

    Example:
        >>> import numtorch as torch
        >>> opt = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=1.0)
        >>> warmup = torch.optim.lr_scheduler.ConstantLR(opt, factor=0.1, total_iters=2)
        >>> decay = torch.optim.lr_scheduler.ExponentialLR(opt, gamma=0.5)
        >>> sched = torch.optim.lr_scheduler.SequentialLR(opt, [warmup, decay], milestones=[2])
        >>> lrs = [round(lr, 6) for lr in sched.get_last_lr()]
        >>> for _ in range(4):
        ...     opt.step()
        ...     sched.step()
        ...     lrs += [round(lr, 6) for lr in sched.get_last_lr()]
        >>> lrs
        [0.1, 0.1, 1.0, 0.5, 0.25]
    """

    def __init__(
        self,
        optimizer: Optimizer,
        schedulers: list[LRScheduler],
        milestones: list[int],
        last_epoch: int = -1,
    ) -> None:
        if len(schedulers) < 1:
            raise ValueError(
                f"{type(self).__name__} expects at least one scheduler, but got no scheduler."
            )
        self._check_schedulers(optimizer, schedulers)
        if len(milestones) != len(schedulers) - 1:
            raise ValueError(
                "Sequential Schedulers expects number of schedulers provided to be one more "
                "than the number of milestone points, but got number of schedulers "
                f"{len(schedulers)} and the number of milestones to be equal to {len(milestones)}"
            )
        self._schedulers = schedulers
        self._milestones = milestones
        self.last_epoch = last_epoch + 1
        self.optimizer = optimizer
        # Undo the steps the schedulers took when they were built, then start the first.
        for group in optimizer.param_groups:
            set_group_value(group, "lr", group["initial_lr"])
        self.recursive_undo()
        index = bisect_right(self._milestones, 0)
        self._schedulers[index]._initial_step()
        self._last_lr = schedulers[index].get_last_lr()

    def recursive_undo(self, sched=None) -> None:
        """Take one epoch back from every scheduler held, at any depth."""
        scheds = self if sched is None else sched
        if hasattr(scheds, "_schedulers"):
            for s in scheds._schedulers:
                self.recursive_undo(s)
        elif hasattr(scheds, "last_epoch"):
            scheds.last_epoch -= 1

    def step(self) -> None:  # type: ignore[override]
        """Advance one epoch with the scheduler whose turn it is."""
        self.last_epoch += 1
        index = bisect_right(self._milestones, self.last_epoch)
        scheduler = self._schedulers[index]
        if index > 0 and self._milestones[index - 1] == self.last_epoch:
            scheduler._update_lr(0)
        else:
            scheduler.step()
        self._last_lr = scheduler.get_last_lr()


class ChainedScheduler(_SchedulerGroup):
    """Step every scheduler in turn at each step, so their factors multiply.

    Example:
        >>> import numtorch as torch
        >>> opt = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=1.0)
        >>> sched = torch.optim.lr_scheduler.ChainedScheduler(
        ...     [
        ...         torch.optim.lr_scheduler.ConstantLR(opt, factor=0.5, total_iters=2),
        ...         torch.optim.lr_scheduler.ExponentialLR(opt, gamma=0.9),
        ...     ]
        ... )
        >>> lrs = [round(lr, 6) for lr in sched.get_last_lr()]
        >>> for _ in range(3):
        ...     opt.step()
        ...     sched.step()
        ...     lrs += [round(lr, 6) for lr in sched.get_last_lr()]
        >>> lrs
        [0.5, 0.45, 0.81, 0.729]
    """

    def __init__(
        self, schedulers: Sequence[LRScheduler], optimizer: Optimizer | None = None
    ) -> None:
        if len(schedulers) < 1:
            raise ValueError(
                f"{type(self).__name__} expects at least one scheduler to be chained, but got "
                "no scheduler."
            )
        optimizer = optimizer or schedulers[0].optimizer
        self._check_schedulers(optimizer, schedulers)
        self._schedulers = schedulers
        self.optimizer = optimizer
        self._last_lr = group_values(self._schedulers[-1].optimizer, "lr")

    def step(self) -> None:  # type: ignore[override]
        """Step every scheduler once."""
        for scheduler in self._schedulers:
            scheduler.step()
        self._last_lr = group_values(self._schedulers[-1].optimizer, "lr")
