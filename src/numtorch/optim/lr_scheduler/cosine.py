"""Cosine schedules: ``CosineAnnealingLR`` and ``CosineAnnealingWarmRestarts``."""

from __future__ import annotations

import math

from ..optimizer import Optimizer
from .base import LRScheduler


class CosineAnnealingLR(LRScheduler):
    """Anneal ``lr`` from ``base_lr`` to ``eta_min`` along a half cosine over ``T_max`` epochs.

    The recursive form torch uses, so that changes made to ``lr`` from outside carry on:
    ``eta_min + (base_lr - eta_min) * (1 + cos(pi * t / T_max)) / 2`` when nothing else
    changes the rate. Past ``T_max`` the rate climbs back (no restarts).

    Example:
        >>> import numtorch as torch
        >>> opt = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=1.0)
        >>> sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=2)
        >>> for _ in range(2):
        ...     opt.step()
        ...     sched.step()
        >>> [round(lr, 6) for lr in sched.get_last_lr()]
        [0.0]
    """

    def __init__(
        self, optimizer: Optimizer, T_max: int, eta_min: float = 0.0, last_epoch: int = -1
    ) -> None:
        self.T_max = T_max
        self.eta_min = eta_min
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        self._warn_if_called_outside_step()
        t, t_max, eta_min = self.last_epoch, self.T_max, self.eta_min
        if self._is_initial:
            return self._current_lrs()
        if self._step_count == 1 and t > 0:
            return [
                eta_min + (base - eta_min) * (1 + math.cos(t * math.pi / t_max)) / 2
                for base in self.base_lrs
            ]
        if (t - 1 - t_max) % (2 * t_max) == 0:
            return [
                group["lr"] + (base - eta_min) * (1 - math.cos(math.pi / t_max)) / 2
                for base, group in zip(self.base_lrs, self.optimizer.param_groups)
            ]
        return [
            (1 + math.cos(math.pi * t / t_max))
            / (1 + math.cos(math.pi * (t - 1) / t_max))
            * (group["lr"] - eta_min)
            + eta_min
            for group in self.optimizer.param_groups
        ]

    def _get_closed_form_lr(self) -> list:
        return [
            self.eta_min
            + (base - self.eta_min) * (1 + math.cos(math.pi * self.last_epoch / self.T_max)) / 2
            for base in self.base_lrs
        ]


class CosineAnnealingWarmRestarts(LRScheduler):
    """Cosine annealing from ``base_lr`` to ``eta_min`` over ``T_i`` epochs, then a restart;
    each period is ``T_mult`` times the last, starting from ``T_0``.

    ``step(epoch)`` takes a fractional epoch (e.g. ``epoch + i / iters`` within an epoch)
    and sets the position in the current period from it, without a warning.

    Example:
        >>> import numtorch as torch
        >>> opt = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=1.0)
        >>> sched = torch.optim.lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=2)
        >>> lrs = []
        >>> for _ in range(4):
        ...     opt.step()
        ...     sched.step()
        ...     lrs += [round(lr, 6) for lr in sched.get_last_lr()]
        >>> lrs
        [0.5, 1.0, 0.5, 1.0]
        >>> sched.step(2.5)
        >>> round(sched.get_last_lr()[0], 6), sched.last_epoch
        (0.853553, 2)
    """

    def __init__(
        self,
        optimizer: Optimizer,
        T_0: int,
        T_mult: int = 1,
        eta_min: float = 0.0,
        last_epoch: int = -1,
    ) -> None:
        if T_0 <= 0 or not isinstance(T_0, int):
            raise ValueError(f"Expected positive integer T_0, but got {T_0}")
        if T_mult < 1 or not isinstance(T_mult, int):
            raise ValueError(f"Expected integer T_mult >= 1, but got {T_mult}")
        if not isinstance(eta_min, (float, int)):
            raise ValueError(
                f"Expected float or int eta_min, but got {eta_min} of type {type(eta_min)}"
            )
        self.T_0 = T_0
        self.T_i = T_0
        self.T_mult = T_mult
        self.eta_min = eta_min
        self.T_cur = last_epoch
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        self._warn_if_called_outside_step()
        return [
            self.eta_min
            + (base - self.eta_min) * (1 + math.cos(math.pi * self.T_cur / self.T_i)) / 2
            for base in self.base_lrs
        ]

    def step(self, epoch=None) -> None:
        """Advance one epoch, or go to ``epoch`` (which may be fractional)."""
        # Unlike the other schedulers, this step neither counts steps nor warns.
        if epoch is None and self.last_epoch < 0:
            epoch = 0
        if epoch is None:
            epoch = self.last_epoch + 1
            self.T_cur = self.T_cur + 1
            if self.T_cur >= self.T_i:
                self.T_cur = self.T_cur % self.T_i
                self.T_i = self.T_i * self.T_mult
        else:
            if epoch < 0:
                raise ValueError(f"Expected non-negative epoch, but got {epoch}")
            if epoch >= self.T_0:
                if self.T_mult == 1:
                    self.T_cur = epoch % self.T_0
                else:
                    n = int(math.log(epoch / self.T_0 * (self.T_mult - 1) + 1, self.T_mult))
                    self.T_cur = epoch - self.T_0 * (self.T_mult**n - 1) / (self.T_mult - 1)
                    self.T_i = self.T_0 * self.T_mult**n
            else:
                self.T_i = self.T_0
                self.T_cur = epoch
        self.last_epoch = math.floor(epoch)
        self._get_lr_called_within_step = True
        try:
            values = self.get_lr()
        finally:
            self._get_lr_called_within_step = False
        self._set_lrs(values)
