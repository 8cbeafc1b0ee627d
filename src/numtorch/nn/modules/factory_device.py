"""The ``device=`` argument of numtorch's layers (torch's ``factory_kwargs``): a layer built
with ``device='meta'`` makes its parameters and buffers on the meta device, one built with
``device='cpu'`` makes real ones even under ``torch.set_default_device('meta')``. The layer's
``__init__`` runs as inside ``with torch.device(device):``, so every factory it calls
without a device follows; other devices raise torch's error for a CPU-only build."""

from __future__ import annotations

import functools
import inspect

from ..._core.meta import default_devices, is_meta_device
from ..._creation import check_device, device


def follow_device_argument(cls) -> None:
    """Make ``cls.__init__`` (if it takes ``device``) build on that device."""
    init = cls.__dict__.get("__init__")
    if init is None or getattr(init, "_follows_device", False):
        return
    signature = inspect.signature(init)
    if "device" not in signature.parameters:
        return

    @functools.wraps(init)
    def __init__(self, *args, **kwargs):
        chosen = kwargs.get("device")
        if chosen is None and len(args) >= _position(signature):
            chosen = signature.bind_partial(self, *args, **kwargs).arguments.get("device")
        if chosen is None:
            return init(self, *args, **kwargs)
        if not is_meta_device(chosen):
            check_device(chosen)
        default_devices.append(device(chosen))
        try:
            return init(self, *args, **kwargs)
        finally:
            default_devices.pop()

    __init__._follows_device = True
    cls.__init__ = __init__


def _position(signature) -> int:
    # how many positional arguments (after self) reach ``device``
    names = list(signature.parameters)
    return names.index("device")
