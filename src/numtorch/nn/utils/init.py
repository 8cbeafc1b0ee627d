"""Building a module without running its parameter initialization (``skip_init``)."""

from __future__ import annotations

import inspect

from ..modules.module import Module


def skip_init(module_cls, *args, **kwargs):
    """Build ``module_cls(*args, **kwargs)`` with uninitialized parameters and buffers.

    The module is built on the ``meta`` device, so its initializers draw no random numbers,
    and then given empty storage on the requested device (as torch's).

    Example:
        >>> import numtorch as torch
        >>> m = torch.nn.utils.skip_init(torch.nn.Linear, 5, 1)
        >>> m.weight.shape, m.weight.device
        (torch.Size([1, 5]), device(type='cpu'))
    """
    if not (isinstance(module_cls, type) and issubclass(module_cls, Module)):
        raise RuntimeError(f"Expected a Module; got {module_cls}")
    if "device" not in inspect.signature(module_cls).parameters:
        raise RuntimeError("Module must support a 'device' arg to skip initialization")
    final_device = kwargs.pop("device", "cpu")
    kwargs["device"] = "meta"
    return module_cls(*args, **kwargs).to_empty(device=final_device)
