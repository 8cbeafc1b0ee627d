"""Which modules are running, forward or backward, as ``torch.utils.module_tracker``.

A module enters ``parents`` when its forward starts and leaves when it returns; in backward
it enters when the gradients of its outputs are all computed and leaves when those of its
inputs are (multi-gradient hooks on both). Names are fully qualified from the first module
seen: ``MLP``, ``MLP.fc1``, ``MLP.seq.0``.
"""

from __future__ import annotations

import logging
import weakref

import numtorch

from .._core.backward_run import current_run
from ..autograd.graph import register_multi_grad_hook
from ..nn.modules.hooks import register_module_forward_hook, register_module_forward_pre_hook
from ._pytree import tree_flatten

logger = logging.getLogger(__name__)

__all__ = ["ModuleTracker"]


class ModuleTracker:
    """A context manager that tracks the module hierarchy being executed.

    ``parents`` holds the names of every module whose forward (or backward) is running and
    always ``"Global"``; ``is_bw`` says whether a backward is running. Once a backward
    finishes, ``parents`` is ``{"Global"}`` again.

    >>> import numtorch as torch
    >>> from numtorch.utils.module_tracker import ModuleTracker
    >>> seen = []
    >>> model = torch.nn.Sequential(torch.nn.Linear(2, 2))
    >>> _ = model[0].register_forward_pre_hook(lambda m, i: seen.append(sorted(tracker.parents)))
    >>> with ModuleTracker() as tracker:
    ...     _ = model(torch.ones(1, 2))
    >>> seen
    [['Global', 'Sequential', 'Sequential.0']]
    """

    def __init__(self) -> None:
        self._parents = {"Global"}
        self._known_modules: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
        self._seen_modules: weakref.WeakSet = weakref.WeakSet()
        self._backward_run = 0  # the backward run that entered a module, reset after it
        self._hooks: list = []

    @property
    def parents(self) -> set[str]:
        # torch resets the set from an engine callback at the end of the backward that
        # entered modules; here the first look after that backward does it
        if self._backward_run and current_run() != self._backward_run:
            self._parents = {"Global"}
            self._backward_run = 0
        return self._parents

    @parents.setter
    def parents(self, value: set[str]) -> None:
        self._parents = value

    @property
    def is_bw(self) -> bool:
        """Whether a backward pass is running."""
        return current_run() != 0

    def _get_mod_name(self, mod) -> str:
        if mod not in self._known_modules:
            self._known_modules[mod] = type(mod).__name__
        name = self._known_modules[mod]
        if mod not in self._seen_modules:
            for child_name, child in mod.named_children():
                self._known_modules[child] = f"{name}.{child_name}"
                self._get_mod_name(child)
            self._seen_modules.add(mod)
        return name

    def _enter(self, name: str, is_bw: bool):
        def enter(*args) -> None:
            parents = self.parents
            if is_bw:
                self._backward_run = current_run()
            if name in parents:
                logger.info(
                    "The module hierarchy tracking seems to be broken as this Module was "
                    "already entered. %s during %s",
                    name,
                    "backward" if is_bw else "forward",
                )
            parents.add(name)

        return enter

    def _leave(self, name: str, is_bw: bool):
        def leave(*args) -> None:
            parents = self.parents
            if name in parents:
                parents.remove(name)
            else:
                logger.info(
                    "The Module hierarchy tracking is confused as we're exiting a Module that "
                    "was never entered. %s during %s",
                    name,
                    "backward" if is_bw else "forward",
                )

        return leave

    @staticmethod
    def _grad_tensors(values):
        flat, _ = tree_flatten(values)
        return [a for a in flat if isinstance(a, numtorch.Tensor) and a.requires_grad]

    def _fw_pre_hook(self, mod, input) -> None:
        name = self._get_mod_name(mod)
        self._enter(name, False)()
        tensors = self._grad_tensors(input)
        if tensors:  # the module's backward ends when its inputs have their gradients
            self._hooks.append(register_multi_grad_hook(tensors, self._leave(name, True)))

    def _fw_post_hook(self, mod, input, output) -> None:
        name = self._get_mod_name(mod)
        self._leave(name, False)()
        tensors = self._grad_tensors(output)
        if tensors:  # ... and starts when its outputs have theirs
            self._hooks.append(register_multi_grad_hook(tensors, self._enter(name, True)))

    def __enter__(self):
        self._fw_pre_handle = register_module_forward_pre_hook(self._fw_pre_hook)
        self._fw_post_handle = register_module_forward_hook(self._fw_post_hook)
        return self

    def __exit__(self, *args) -> None:
        self._fw_pre_handle.remove()
        self._fw_post_handle.remove()
        for hook in self._hooks:
            hook.remove()
        self._hooks.clear()
