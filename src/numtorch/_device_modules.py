"""``torch.get_device_module``: the module for a device type (``numtorch.cpu``, ...)."""

from __future__ import annotations

import importlib

from ._core.device import device as _device


def get_device_module(device=None):
    """The module of ``device``'s type; with no device, the current accelerator's, which on a
    CPU-only build is ``numtorch.cpu``.

    Example:
        >>> import numtorch as torch
        >>> torch.get_device_module("cpu").__name__
        'numtorch.cpu'
    """
    if device is None:
        name = "cpu"
    elif isinstance(device, (str, _device)):
        name = _device(device).type
    else:
        raise RuntimeError(f"Invalid value of device '{device}', expect torch.device, str, or None")
    try:
        return importlib.import_module(f"numtorch.{name}")
    except ModuleNotFoundError:
        raise RuntimeError(
            f"Device '{name}' does not have a corresponding module registered as 'torch.{name}'."
        ) from None
