"""``nn.DataParallel``: on torch's CPU build it holds no devices and runs the wrapped module
as it is; so does numtorch. Its state dict keys carry the ``module.`` prefix, as torch's."""

from __future__ import annotations

from ..modules.module import Module


class DataParallel(Module):
    """Wrap ``module``; ``forward`` calls it unchanged (no GPUs to scatter to).

    Example:
        >>> import numtorch as torch
        >>> model = torch.nn.DataParallel(torch.nn.Linear(2, 1))
        >>> list(model.state_dict())
        ['module.weight', 'module.bias']
    """

    def __init__(self, module: Module, device_ids=None, output_device=None, dim: int = 0):
        super().__init__()
        self.module = module
        self.device_ids = []  # as torch without CUDA: whatever was asked for

    def forward(self, *inputs, **kwargs):
        return self.module(*inputs, **kwargs)


def data_parallel(module, inputs, device_ids=None, output_device=None, dim=0, module_kwargs=None):
    """The functional form: torch's CPU build cannot place it on a device and says so."""
    raise RuntimeError("device type could not be determined")
