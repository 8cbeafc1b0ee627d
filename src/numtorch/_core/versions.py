"""Version counters: shared by a tensor, its views and ``detach()``, bumped by every in-place
change; saved values compare them on unpack (saved.py)."""

from __future__ import annotations


class VersionCounter:
    """Shared by a tensor, its views and ``detach()``; bumped by every in-place change."""

    __slots__ = ("version",)
    inference = False  # see InferenceVersion

    def __init__(self, version: int = 0):
        self.version = version


class InferenceVersion(VersionCounter):
    """The counter of an inference tensor (inference.py): it marks the tensor and its views."""

    __slots__ = ()
    inference = True
