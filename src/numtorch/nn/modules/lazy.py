"""Lazy modules: layers whose input size is read from the first input (``LazyLinear``,
``LazyConv2d``, ``LazyBatchNorm2d``...).

Until the first call the parameters are ``UninitializedParameter``; a forward pre-hook then
calls ``initialize_parameters(input)``, which materializes and initializes them, and the
module turns into its ordinary class (``cls_to_become``), as in torch.
"""

from __future__ import annotations

from ... import _creation
from ..._core import dtypes as _dtypes
from ..._core import grad_mode
from ..parameter import UninitializedBuffer, UninitializedParameter, is_lazy
from .batchnorm import BatchNorm1d, BatchNorm2d, BatchNorm3d
from .conv import Conv1d, Conv2d, Conv3d, ConvTranspose1d, ConvTranspose2d, ConvTranspose3d
from .instancenorm import InstanceNorm1d, InstanceNorm2d, InstanceNorm3d
from .linear import Linear


class LazyModuleMixin:
    """Shared machinery of the lazy layers; put it first among the bases."""

    cls_to_become = None

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._load_hook = self._register_load_state_dict_pre_hook(self._lazy_load_hook)
        self._initialize_hook = self.register_forward_pre_hook(_infer_parameters, with_kwargs=True)

    def has_uninitialized_params(self) -> bool:
        params = list(self._parameters.values()) + list(self._buffers.values())
        return any(is_lazy(p) for p in params)

    def _lazy_load_hook(
        self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, errors
    ):
        # a checkpoint fixes the shapes: materialize to them so that loading can copy
        for name, param in list(self._parameters.items()) + list(self._buffers.items()):
            key = prefix + name
            if key in state_dict and is_lazy(param):
                with grad_mode.no_grad():
                    param.materialize(state_dict[key].shape)

    def initialize_parameters(self, *args, **kwargs):
        raise NotImplementedError(
            f"initialize_parameters is not implemented for {self.__class__.__name__}"
        )


def _infer_parameters(module, args, kwargs=None):
    module.initialize_parameters(*args, **(kwargs or {}))
    if module.has_uninitialized_params():
        raise RuntimeError(f"module {module._get_name()} has not been fully initialized")
    module._initialize_hook.remove()
    module._load_hook.remove()
    del module._initialize_hook
    del module._load_hook
    if module.cls_to_become is not None:
        module.__class__ = module.cls_to_become


class LazyLinear(LazyModuleMixin, Linear):
    """A ``Linear`` whose ``in_features`` is the last dim of its first input.

    Example:
        >>> import numtorch as torch
        >>> fc = torch.nn.LazyLinear(3)
        >>> fc
        LazyLinear(in_features=0, out_features=3, bias=True)
        >>> fc(torch.ones(2, 5)).shape, fc
        (torch.Size([2, 3]), Linear(in_features=5, out_features=3, bias=True))
    """

    cls_to_become = Linear

    def __init__(self, out_features: int, bias: bool = True, device=None, dtype=None) -> None:
        super().__init__(0, 0, False)
        self.weight = UninitializedParameter(dtype=dtype)
        self.out_features = out_features
        if bias:
            self.bias = UninitializedParameter(dtype=dtype)

    def reset_parameters(self) -> None:
        if not self.has_uninitialized_params() and self.in_features != 0:
            super().reset_parameters()

    def initialize_parameters(self, input) -> None:
        if self.has_uninitialized_params():
            with grad_mode.no_grad():
                self.in_features = input.shape[-1]
                self.weight.materialize((self.out_features, self.in_features))
                if self.bias is not None:
                    self.bias.materialize((self.out_features,))
                self.reset_parameters()


class _LazyConvMixin(LazyModuleMixin):
    """``in_channels`` from the first input's channel dim (dim 0 when it is unbatched)."""

    def _lazy_parameters(self, out_channels, bias, dtype):
        self.weight = UninitializedParameter(dtype=dtype)
        self.out_channels = out_channels
        if bias:
            self.bias = UninitializedParameter(dtype=dtype)

    def reset_parameters(self) -> None:
        if not self.has_uninitialized_params() and self.in_channels != 0:
            super().reset_parameters()

    def _get_in_channels(self, input) -> int:
        spatial = len(self.kernel_size)
        if input.ndim not in (spatial + 1, spatial + 2):
            raise RuntimeError(
                f"Expected {spatial + 1}D (unbatched) or {spatial + 2}D (batched) input to "
                f"{self.__class__.__name__}, but got input of size: {input.shape}"
            )
        return input.shape[1] if input.ndim == spatial + 2 else input.shape[0]

    def initialize_parameters(self, input, *args, **kwargs) -> None:
        if not self.has_uninitialized_params():
            return
        self.in_channels = self._get_in_channels(input)
        if self.in_channels % self.groups != 0:
            raise ValueError("in_channels must be divisible by groups")
        with grad_mode.no_grad():
            if self.transposed:
                shape = (self.in_channels, self.out_channels // self.groups, *self.kernel_size)
            else:
                shape = (self.out_channels, self.in_channels // self.groups, *self.kernel_size)
            self.weight.materialize(shape)
            if self.bias is not None:
                self.bias.materialize((self.out_channels,))
            self.reset_parameters()


class _LazyConvNd(_LazyConvMixin):
    def __init__(self, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1,
                 bias=True, padding_mode="zeros", device=None, dtype=None):  # fmt: skip
        super().__init__(0, 0, kernel_size, stride, padding, dilation, groups, False,
                         padding_mode, device, dtype)  # fmt: skip
        self._lazy_parameters(out_channels, bias, dtype)


class _LazyConvTransposeNd(_LazyConvMixin):
    def __init__(self, out_channels, kernel_size, stride=1, padding=0, output_padding=0,
                 groups=1, bias=True, dilation=1, padding_mode="zeros", device=None,
                 dtype=None):  # fmt: skip
        super().__init__(0, 0, kernel_size, stride, padding, output_padding, groups, False,
                         dilation, padding_mode, device, dtype)  # fmt: skip
        self._lazy_parameters(out_channels, bias, dtype)


class LazyConv1d(_LazyConvNd, Conv1d):
    """A ``Conv1d`` whose ``in_channels`` is read from its first input."""

    cls_to_become = Conv1d


class LazyConv2d(_LazyConvNd, Conv2d):
    """A ``Conv2d`` whose ``in_channels`` is read from its first input.

    Example:
        >>> import numtorch as torch
        >>> conv = torch.nn.LazyConv2d(4, 3)
        >>> conv
        LazyConv2d(0, 4, kernel_size=(3, 3), stride=(1, 1))
        >>> conv(torch.ones(1, 2, 5, 5)).shape, conv
        (torch.Size([1, 4, 3, 3]), Conv2d(2, 4, kernel_size=(3, 3), stride=(1, 1)))
    """

    cls_to_become = Conv2d


class LazyConv3d(_LazyConvNd, Conv3d):
    """A ``Conv3d`` whose ``in_channels`` is read from its first input."""

    cls_to_become = Conv3d


class LazyConvTranspose1d(_LazyConvTransposeNd, ConvTranspose1d):
    """A ``ConvTranspose1d`` whose ``in_channels`` is read from its first input."""

    cls_to_become = ConvTranspose1d


class LazyConvTranspose2d(_LazyConvTransposeNd, ConvTranspose2d):
    """A ``ConvTranspose2d`` whose ``in_channels`` is read from its first input."""

    cls_to_become = ConvTranspose2d


class LazyConvTranspose3d(_LazyConvTransposeNd, ConvTranspose3d):
    """A ``ConvTranspose3d`` whose ``in_channels`` is read from its first input."""

    cls_to_become = ConvTranspose3d


class _LazyNormBase(LazyModuleMixin):
    """``num_features`` from the first input's dim 1. Unlike the eager instance norms, the
    lazy ones default to ``affine=True, track_running_stats=True``, as torch's do."""

    def __init__(self, eps=1e-5, momentum=0.1, affine=True, track_running_stats=True,
                 device=None, dtype=None):  # fmt: skip
        super().__init__(0, eps, momentum, False, False, device, dtype)
        self.affine = affine
        self.track_running_stats = track_running_stats
        if affine:
            self.weight = UninitializedParameter(dtype=dtype)
            self.bias = UninitializedParameter(dtype=dtype)
        if track_running_stats:
            self.running_mean = UninitializedBuffer(dtype=dtype)
            self.running_var = UninitializedBuffer(dtype=dtype)
            self.num_batches_tracked = _creation.tensor(0, dtype=_dtypes.int64)

    def reset_parameters(self) -> None:
        if not self.has_uninitialized_params() and self.num_features != 0:
            super().reset_parameters()

    def initialize_parameters(self, input) -> None:
        if not self.has_uninitialized_params():
            return
        self.num_features = input.shape[1]
        with grad_mode.no_grad():
            if self.affine:
                self.weight.materialize((self.num_features,))
                self.bias.materialize((self.num_features,))
            if self.track_running_stats:
                self.running_mean.materialize((self.num_features,))
                self.running_var.materialize((self.num_features,))
            self.reset_parameters()


class LazyBatchNorm1d(_LazyNormBase, BatchNorm1d):
    """A ``BatchNorm1d`` whose ``num_features`` is read from its first input."""

    cls_to_become = BatchNorm1d


class LazyBatchNorm2d(_LazyNormBase, BatchNorm2d):
    """A ``BatchNorm2d`` whose ``num_features`` is read from its first input.

    Example:
        >>> import numtorch as torch
        >>> bn = torch.nn.LazyBatchNorm2d()
        >>> bn(torch.ones(2, 3, 4, 4)).shape, bn.running_mean.shape
        (torch.Size([2, 3, 4, 4]), torch.Size([3]))
    """

    cls_to_become = BatchNorm2d


class LazyBatchNorm3d(_LazyNormBase, BatchNorm3d):
    """A ``BatchNorm3d`` whose ``num_features`` is read from its first input."""

    cls_to_become = BatchNorm3d


class LazyInstanceNorm1d(_LazyNormBase, InstanceNorm1d):
    """An ``InstanceNorm1d`` whose ``num_features`` is read from its first input."""

    cls_to_become = InstanceNorm1d


class LazyInstanceNorm2d(_LazyNormBase, InstanceNorm2d):
    """An ``InstanceNorm2d`` whose ``num_features`` is read from its first input."""

    cls_to_become = InstanceNorm2d


class LazyInstanceNorm3d(_LazyNormBase, InstanceNorm3d):
    """An ``InstanceNorm3d`` whose ``num_features`` is read from its first input."""

    cls_to_become = InstanceNorm3d
