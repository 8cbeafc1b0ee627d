"""Storage locations, as torch.serialization tags and restores them: a registry of
(priority, tagger, deserializer) that ``register_package`` extends.

numtorch's storages are all on the CPU, so the built-in entries tag ``cpu`` (and ``meta``
tensors ``meta``), restore ``cpu`` as it is, and refuse an accelerator's location with
torch's CPU-build error. ``location_tag`` and ``default_restore_location`` consult the
registry as torch's do; ``load`` itself maps every storage to the CPU (``map_location``).
"""

from __future__ import annotations

import importlib

from .._core.device import device
from .._core.tensor import typename

_ACCELERATORS = ("cuda", "mps", "xpu", "hpu", "mtia", "privateuse1")


def _cpu_tag(obj):
    if obj.device.type == "cpu":
        return "cpu"


def _cpu_deserialize(obj, location):
    if location == "cpu":
        return obj


def _meta_tag(obj):
    if obj.device.type == "meta":
        return "meta"


def _accelerator_deserialize(obj, location):
    if location.split(":")[0] in _ACCELERATORS:
        _refuse(location)


def _refuse(location: str):
    kind = location.split(":")[0]
    raise RuntimeError(
        f"Attempting to deserialize object on a {kind.upper()} device but "
        f"torch.{kind}.is_available() is False. If you are running on a CPU-only machine, "
        "please use torch.load with map_location=torch.device('cpu') to map your storages "
        "to the CPU."
    )


_package_registry: list = [
    (10, _cpu_tag, _cpu_deserialize),
    (20, _meta_tag, _accelerator_deserialize),
]


def register_package(priority: int, tagger, deserializer) -> None:
    """Add a tagger and a deserializer for a device's storages; lower priorities are
    consulted first, until one returns something other than None.

    Example:
        >>> import numtorch as torch
        >>> torch.serialization.register_package(5, lambda s: "disk", lambda s, loc: None)
        >>> torch.serialization.location_tag(torch.ones(2).untyped_storage())
        'disk'
        >>> torch.serialization._package_registry.pop(0)[0]
        5
    """
    _package_registry.append((priority, tagger, deserializer))
    _package_registry.sort(key=lambda entry: entry[0])


def location_tag(storage) -> str:
    """The location string ``save`` records for ``storage`` ("cpu" for numtorch's)."""
    for _, tagger, _ in _package_registry:
        location = tagger(storage)
        if location:
            return location
    raise RuntimeError(f"don't know how to determine data location of {typename(storage)}")


def default_restore_location(storage, location: str):
    """``storage`` restored to ``location`` by the first deserializer that takes it."""
    for _, _, deserialize in _package_registry:
        result = deserialize(storage, location)
        if result is not None:
            return result
    raise RuntimeError(
        f"don't know how to restore data location of {typename(storage)} (tagged with {location})"
    )


def validate_cuda_device(location) -> int:
    """torch's check of a CUDA location before restoring to it: on a CPU-only build, an
    error saying to map the storages to the CPU."""
    _refuse(str(device(location)) if not isinstance(location, str) else location)


def normalize_storage_type(storage_type):
    return getattr(importlib.import_module("numtorch"), storage_type.__name__)


def storage_to_tensor_type(storage):
    storage_type = type(storage)
    module = importlib.import_module(storage_type.__module__)
    return getattr(module, storage_type.__name__.replace("Storage", "Tensor"))
