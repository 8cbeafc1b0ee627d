"""Schedulers that scale the rate by factors: ``LambdaLR``, ``MultiplicativeLR``, ``StepLR``,
``MultiStepLR``, ``ConstantLR``, ``LinearLR``, ``ExponentialLR``, ``PolynomialLR``.

Most are chainable, as in torch: a step multiplies the current ``lr`` by this epoch's
factor, so changes made by other schedulers carry on; ``step(epoch)`` uses the closed form.
"""

from __future__ import annotations

import types
from bisect import bisect_right
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

from ..optimizer import Optimizer
from .base import LRScheduler


class _FunctionScheduler(LRScheduler):
    """Holds one function of the epoch per group; a callable object's ``__dict__`` is saved
    in the state dict, a plain function is not."""

    def __init__(self, optimizer: Optimizer, lr_lambda, last_epoch: int) -> None:
        self.optimizer = optimizer
        if not isinstance(lr_lambda, (list, tuple)):
            self.lr_lambdas = [lr_lambda] * len(optimizer.param_groups)
        else:
            if len(lr_lambda) != len(optimizer.param_groups):
                raise ValueError(
                    f"Expected {len(optimizer.param_groups)} lr_lambdas, but got {len(lr_lambda)}"
                )
            self.lr_lambdas = list(lr_lambda)
        self._check_lambdas()
        super().__init__(optimizer, last_epoch)

    def _check_lambdas(self) -> None:
        pass

    def state_dict(self) -> dict[str, Any]:
        """The state; a lambda is stored as ``None``, a callable object as its ``__dict__``."""
        state = {k: v for k, v in self.__dict__.items() if k not in ("optimizer", "lr_lambdas")}
        state["lr_lambdas"] = [
            None if isinstance(fn, types.FunctionType) else fn.__dict__.copy()
            for fn in self.lr_lambdas
        ]
        return state

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        state_dict = dict(state_dict)
        lr_lambdas = state_dict.pop("lr_lambdas")
        self.__dict__.update(state_dict)
        for fn, saved in zip(self.lr_lambdas, lr_lambdas):
            if saved is not None:
                fn.__dict__.update(saved)


class LambdaLR(_FunctionScheduler):
    """``lr = base_lr * lr_lambda(last_epoch)``, one function for all groups or one each.

    Example:
        >>> import numtorch as torch
        >>> opt = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=0.1)
        >>> sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda epoch: epoch + 1)
        >>> sched.get_last_lr()
        [0.1]
    """

    def __init__(
        self,
        optimizer: Optimizer,
        lr_lambda: Callable[[int], float] | list[Callable[[int], float]],
        last_epoch: int = -1,
    ) -> None:
        super().__init__(optimizer, lr_lambda, last_epoch)

    def get_lr(self) -> list:
        self._warn_if_called_outside_step()
        return [base * fn(self.last_epoch) for fn, base in zip(self.lr_lambdas, self.base_lrs)]


class MultiplicativeLR(_FunctionScheduler):
    """Multiply each group's ``lr`` by ``lr_lambda(epoch)`` at every step.

    Example:
        >>> import numtorch as torch
        >>> opt = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=1.0)
        >>> sched = torch.optim.lr_scheduler.MultiplicativeLR(opt, lambda epoch: 0.5)
        >>> for _ in range(3):
        ...     opt.step()
        ...     sched.step()
        >>> sched.get_last_lr()
        [0.125]
    """

    def __init__(
        self,
        optimizer: Optimizer,
        lr_lambda: Callable[[int], float] | list[Callable[[int], float]],
        last_epoch: int = -1,
    ) -> None:
        super().__init__(optimizer, lr_lambda, last_epoch)

    def _check_lambdas(self) -> None:
        for fn in self.lr_lambdas:
            if not callable(fn):
                raise TypeError(f"lr_lambda should be a function, but got {type(fn).__name__}")

    def get_lr(self) -> list:
        self._warn_if_called_outside_step()
        if self._is_initial:
            return self._current_lrs()
        return [
            group["lr"] * fn(self.last_epoch)
            for fn, group in zip(self.lr_lambdas, self.optimizer.param_groups)
        ]


class StepLR(LRScheduler):
    """Multiply each group's ``lr`` by ``gamma`` every ``step_size`` epochs.

    Example:
        >>> import numtorch as torch
        >>> opt = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=1.0)
        >>> sched = torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
        >>> lrs = []
        >>> for _ in range(5):
        ...     opt.step()
        ...     sched.step()
        ...     lrs += sched.get_last_lr()
        >>> lrs
        [1.0, 0.5, 0.5, 0.25, 0.25]
    """

    def __init__(
        self, optimizer: Optimizer, step_size: int, gamma: float = 0.1, last_epoch: int = -1
    ) -> None:
        self.step_size = step_size
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        self._warn_if_called_outside_step()
        if self.last_epoch == 0 or self.last_epoch % self.step_size != 0:
            return self._current_lrs()
        return [group["lr"] * self.gamma for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self) -> list:
        return [base * self.gamma ** (self.last_epoch // self.step_size) for base in self.base_lrs]


class MultiStepLR(LRScheduler):
    """Multiply each group's ``lr`` by ``gamma`` at each milestone epoch (by ``gamma**n``
    where a milestone is listed ``n`` times).

    Example:
        >>> import numtorch as torch
        >>> opt = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=1.0)
        >>> sched = torch.optim.lr_scheduler.MultiStepLR(opt, milestones=[1, 3], gamma=0.5)
        >>> lrs = []
        >>> for _ in range(4):
        ...     opt.step()
        ...     sched.step()
        ...     lrs += sched.get_last_lr()
        >>> lrs
        [0.5, 0.5, 0.25, 0.25]
    """

    def __init__(
        self,
        optimizer: Optimizer,
        milestones: Iterable[int],
        gamma: float = 0.1,
        last_epoch: int = -1,
    ) -> None:
        self.milestones = Counter(milestones)
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        self._warn_if_called_outside_step()
        if self.last_epoch not in self.milestones:
            return self._current_lrs()
        factor = self.gamma ** self.milestones[self.last_epoch]
        return [group["lr"] * factor for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self) -> list:
        milestones = sorted(self.milestones.elements())
        return [
            base * self.gamma ** bisect_right(milestones, self.last_epoch) for base in self.base_lrs
        ]


class ConstantLR(LRScheduler):
    """Multiply the rate by ``factor`` for the first ``total_iters`` epochs.

    Example:
        >>> import numtorch as torch
        >>> opt = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=1.0)
        >>> sched = torch.optim.lr_scheduler.ConstantLR(opt, factor=0.5, total_iters=2)
        >>> lrs = sched.get_last_lr()
        >>> for _ in range(3):
        ...     opt.step()
        ...     sched.step()
        ...     lrs += sched.get_last_lr()
        >>> lrs
        [0.5, 0.5, 1.0, 1.0]
    """

    def __init__(
        self,
        optimizer: Optimizer,
        factor: float = 1.0 / 3,
        total_iters: int = 5,
        last_epoch: int = -1,
    ) -> None:
        if factor > 1.0 or factor < 0:
            raise ValueError("Constant multiplicative factor expected to be between 0 and 1.")
        self.factor = factor
        self.total_iters = total_iters
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        self._warn_if_called_outside_step()
        if self.last_epoch == 0:
            return [group["lr"] * self.factor for group in self.optimizer.param_groups]
        if self.last_epoch != self.total_iters:
            return self._current_lrs()
        return [group["lr"] * (1.0 / self.factor) for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self) -> list:
        after = self.last_epoch >= self.total_iters
        return [base * (self.factor + after * (1 - self.factor)) for base in self.base_lrs]


class LinearLR(LRScheduler):
    """Scale the rate by a factor going linearly from ``start_factor`` to ``end_factor``
    over ``total_iters`` epochs.

    Example:
        >>> import numtorch as torch
        >>> opt = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=1.0)
        >>> sched = torch.optim.lr_scheduler.LinearLR(opt, start_factor=0.25, total_iters=3)
        >>> lrs = sched.get_last_lr()
        >>> for _ in range(4):
        ...     opt.step()
        ...     sched.step()
        ...     lrs += sched.get_last_lr()
        >>> lrs
        [0.25, 0.5, 0.75, 1.0, 1.0]
    """

    def __init__(
        self,
        optimizer: Optimizer,
        start_factor: float = 1.0 / 3,
        end_factor: float = 1.0,
        total_iters: int = 5,
        last_epoch: int = -1,
    ) -> None:
        if start_factor > 1.0 or start_factor <= 0:
            raise ValueError(
                "Starting multiplicative factor expected to be greater than 0 and less or "
                "equal to 1."
            )
        if end_factor > 1.0 or end_factor < 0:
            raise ValueError("Ending multiplicative factor expected to be between 0 and 1.")
        self.start_factor = start_factor
        self.end_factor = end_factor
        self.total_iters = total_iters
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        self._warn_if_called_outside_step()
        if self.last_epoch == 0:
            return [group["lr"] * self.start_factor for group in self.optimizer.param_groups]
        if self._is_initial or self.last_epoch > self.total_iters:
            return self._current_lrs()
        change = self.end_factor - self.start_factor
        factor = 1.0 + change / (
            self.total_iters * self.start_factor + (self.last_epoch - 1) * change
        )
        return [group["lr"] * factor for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self) -> list:
        change = self.end_factor - self.start_factor
        factor = (
            self.start_factor + change * min(self.total_iters, self.last_epoch) / self.total_iters
        )
        return [base * factor for base in self.base_lrs]


class ExponentialLR(LRScheduler):
    """Multiply each group's ``lr`` by ``gamma`` every epoch.

    Example:
        >>> import numtorch as torch
        >>> opt = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=1.0)
        >>> sched = torch.optim.lr_scheduler.ExponentialLR(opt, gamma=0.5)
        >>> for _ in range(2):
        ...     opt.step()
        ...     sched.step()
        >>> sched.get_last_lr()
        [0.25]
    """

    def __init__(self, optimizer: Optimizer, gamma: float, last_epoch: int = -1) -> None:
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        self._warn_if_called_outside_step()
        if self._is_initial:
            return self._current_lrs()
        return [group["lr"] * self.gamma for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self) -> list:
        return [base * self.gamma**self.last_epoch for base in self.base_lrs]


class PolynomialLR(LRScheduler):
    """Decay the rate as ``base_lr * (1 - epoch / total_iters) ** power``, then hold it.

    Example:
        >>> import numtorch as torch
        >>> opt = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=1.0)
        >>> sched = torch.optim.lr_scheduler.PolynomialLR(opt, total_iters=4, power=2.0)
        >>> lrs = []
        >>> for _ in range(5):
        ...     opt.step()
        ...     sched.step()
        ...     lrs += sched.get_last_lr()
        >>> lrs
        [0.5625, 0.25, 0.0625, 0.0, 0.0]
    """

    def __init__(
        self,
        optimizer: Optimizer,
        total_iters: int = 5,
        power: float = 1.0,
        last_epoch: int = -1,
    ) -> None:
        self.total_iters = total_iters
        self.power = power
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        self._warn_if_called_outside_step()
        if self._is_initial or self.last_epoch > self.total_iters:
            return self._current_lrs()
        decay = (
            (1.0 - self.last_epoch / self.total_iters)
            / (1.0 - (self.last_epoch - 1) / self.total_iters)
        ) ** self.power
        return [group["lr"] * decay for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self) -> list:
        done = min(self.total_iters, self.last_epoch) / self.total_iters
        return [base * (1.0 - done) ** self.power for base in self.base_lrs]
