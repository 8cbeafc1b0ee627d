"""SyncBatchNorm: batch norm whose batch statistics span every rank of a process group
(see Note [SyncBatchNorm statistics] in _functions.py)."""

from __future__ import annotations

from ... import distributed as dist
from ..._core import grad_mode
from .. import functional as F
from . import _functions
from .batchnorm import _BatchNorm


class SyncBatchNorm(_BatchNorm):
    """Batch norm over any (N, C, ...) input whose training statistics are those of the
    batches of all ranks together (Note [SyncBatchNorm statistics]); running statistics are
    equal on every rank. In eval mode, or with one process, it is BatchNorm.

    Example:
        >>> import numtorch as torch, numtorch.distributed as dist
        >>> dist.init_process_group("mpi")
        >>> bn = torch.nn.SyncBatchNorm(2)
        >>> bn(torch.tensor([[1.0, 2.0], [3.0, 6.0]]))
        tensor([[-1.0000, -1.0000],
                [ 1.0000,  1.0000]], grad_fn=<NativeBatchNormBackward0>)
        >>> dist.destroy_process_group()
    """

    def __init__(
        self,
        num_features: int,
        eps: float = 1e-5,
        momentum=0.1,
        affine: bool = True,
        track_running_stats: bool = True,
        process_group=None,
        device=None,
        dtype=None,
    ) -> None:
        super().__init__(num_features, eps, momentum, affine, track_running_stats, device, dtype)
        self.process_group = process_group

    def _check_input_dim(self, input) -> None:
        if input.ndim < 2:
            raise ValueError(f"expected at least 2D input (got {input.ndim}D input)")

    def forward(self, input):
        self._check_input_dim(input)
        if input.shape[1] == 0:
            raise ValueError("SyncBatchNorm number of input channels should be non-zero")
        factor = 0.0 if self.momentum is None else self.momentum
        if self.training and self.track_running_stats:
            with grad_mode.no_grad():
                self.num_batches_tracked.add_(1)
            if self.momentum is None:
                factor = 1.0 / float(self.num_batches_tracked)
        use_batch_stats = self.training or (self.running_mean is None and self.running_var is None)
        track = not self.training or self.track_running_stats
        running_mean = self.running_mean if track else None
        running_var = self.running_var if track else None
        group = self.process_group
        sync = use_batch_stats and self.training and dist.is_initialized()
        if sync:
            group = group if group is not None else dist.group.WORLD
            sync = dist.get_world_size(group) > 1
        if not sync:
            return F.batch_norm(
                input, running_mean, running_var, self.weight, self.bias,
                use_batch_stats, factor, self.eps,
            )  # fmt: skip
        return _functions.SyncBatchNorm.apply(
            input, self.weight, self.bias, running_mean, running_var, self.eps, factor, group
        )

    @classmethod
    def convert_sync_batchnorm(cls, module, process_group=None):
        """``module`` with every BatchNorm*d replaced by a SyncBatchNorm that shares its
        parameters and buffers (returns the new module when ``module`` itself is one).

        Example:
            >>> import numtorch as torch
            >>> net = torch.nn.Sequential(torch.nn.Linear(4, 3), torch.nn.BatchNorm1d(3))
            >>> synced = torch.nn.SyncBatchNorm.convert_sync_batchnorm(net)
            >>> type(synced[1]).__name__, synced[1].weight is net[1].weight
            ('SyncBatchNorm', True)
        """
        converted = module
        if isinstance(module, _BatchNorm):
            converted = cls(
                module.num_features,
                module.eps,
                module.momentum,
                module.affine,
                module.track_running_stats,
                process_group,
            )
            if module.affine:
                with grad_mode.no_grad():
                    converted.weight = module.weight
                    converted.bias = module.bias
            converted.running_mean = module.running_mean
            converted.running_var = module.running_var
            converted.num_batches_tracked = module.num_batches_tracked
            converted.training = module.training
            if hasattr(module, "qconfig"):
                converted.qconfig = module.qconfig
        for name, child in module.named_children():
            converted.add_module(name, cls.convert_sync_batchnorm(child, process_group))
        return converted
