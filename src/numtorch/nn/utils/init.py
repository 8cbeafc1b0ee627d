"""``skip_init``: build a module without running its parameter initialization."""

from __future__ import annotations

import inspect

from ..modules.module import Module


def skip_init(module_cls, *args, **kwargs):
    """``module_cls(*args, **kwargs)`` with uninitialized parameters and buffers: built on
    the meta device (no values), then given empty CPU storage, as torch does.

    Example:
        >>> import numtorch as torch
        >>> torch.nn.utils.skip_init(torch.nn.Linear, 5, 1).weight.shape
        torch.Size([1, 5])
    """
    if not (isinstance(module_cls, type) and issubclass(module_cls, Module)):
        raise RuntimeError(f"Expected a Module; got {module_cls}")
    if "device" not in inspect.signature(module_cls).parameters:
        raise RuntimeError("Module must support a 'device' arg to skip initialization")
    final_device = kwargs.pop("device", "cpu")
    kwargs["device"] = "meta"
    return module_cls(*args, **kwargs).to_empty(device=final_device)
