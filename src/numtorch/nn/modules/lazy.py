"""Lazy modules: layers whose input size is read from the first input (``LazyLinear``,
``LazyConv2d``, ``LazyBatchNorm2d``, ...).

Until the first call the parameters are ``UninitializedParameter``; a forward pre-hook then
calls ``initialize_parameters(input)``, which materializes and initializes them, and the
module turns into its ordinary class (``cls_to_become``), as in torch.
"""

from __future__ import annotations

from ..._core import grad_mode
from ..._core.dtypes import int64
from ..._creation import tensor
from ..parameter import UninitializedBuffer, UninitializedParameter, is_lazy
from .batchnorm import BatchNorm1d, BatchNorm2d, BatchNorm3d
from .conv import Conv1d, Conv2d, Conv3d, ConvTranspose1d, ConvTranspose2d, ConvTranspose3d
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
    """``in_channels`` from the first input's channel dim (dim 1, or 0 unbatched)."""

    def _lazy_init(self, out_channels: int, bias: bool, dtype) -> None:
        self.weight = UninitializedParameter(dtype=dtype)
        self.out_channels = out_channels
        if bias:
            self.bias = UninitializedParameter(dtype=dtype)

    def reset_parameters(self) -> None:
        if not self.has_uninitialized_params() and self.in_channels != 0:
            super().reset_parameters()

    def initialize_parameters(self, input, *args, **kwargs) -> None:
        if not self.has_uninitialized_params():
            return
        spatial = len(self.kernel_size)
        if input.dim() not in (spatial + 1, spatial + 2):
            raise RuntimeError(
                f"Expected {spatial + 1}D (unbatched) or {spatial + 2}D (batched) input to "
                f"{self.__class__.__name__}, but got input of size: {input.shape}"
            )
        self.in_channels = input.shape[1] if input.dim() == spatial + 2 else input.shape[0]
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


def _lazy_conv(base):
    def __init__(
        self,
        out_channels,
        kernel_size,
        stride=1,
        padding=0,
        dilation=1,
        groups=1,
        bias=True,
        padding_mode="zeros",
        device=None,
        dtype=None,
    ):
        # through the mixin, which registers the initializing hook, then base's __init__
        _LazyConvMixin.__init__(
            self, 0, 0, kernel_size, stride, padding, dilation, groups, False, padding_mode
        )
        self._lazy_init(out_channels, bias, dtype)

    doc = f"A ``{base.__name__}`` whose ``in_channels`` is read from the first input."
    name = f"Lazy{base.__name__}"
    return type(
        name, (_LazyConvMixin, base), {"__init__": __init__, "cls_to_become": base, "__doc__": doc}
    )


def _lazy_conv_transpose(base):
    def __init__(
        self,
        out_channels,
        kernel_size,
        stride=1,
        padding=0,
        output_padding=0,
        groups=1,
        bias=True,
        dilation=1,
        padding_mode="zeros",
        device=None,
        dtype=None,
    ):
        _LazyConvMixin.__init__(
            self, 0, 0, kernel_size, stride, padding, output_padding, groups, False, dilation,
            padding_mode,
        )  # fmt: skip
        self._lazy_init(out_channels, bias, dtype)

    doc = f"A ``{base.__name__}`` whose ``in_channels`` is read from the first input."
    name = f"Lazy{base.__name__}"
    return type(
        name, (_LazyConvMixin, base), {"__init__": __init__, "cls_to_become": base, "__doc__": doc}
    )


LazyConv1d = _lazy_conv(Conv1d)
LazyConv2d = _lazy_conv(Conv2d)
LazyConv3d = _lazy_conv(Conv3d)
LazyConvTranspose1d = _lazy_conv_transpose(ConvTranspose1d)
LazyConvTranspose2d = _lazy_conv_transpose(ConvTranspose2d)
LazyConvTranspose3d = _lazy_conv_transpose(ConvTranspose3d)


class _LazyNormMixin(LazyModuleMixin):
    """``num_features`` from the first input's channel dim; the running statistics wait too."""

    def __init__(
        self,
        eps=1e-5,
        momentum=0.1,
        affine=True,
        track_running_stats=True,
        device=None,
        dtype=None,
    ):
        super().__init__(0, eps, momentum, False, False)
        self.affine = affine
        self.track_running_stats = track_running_stats
        if affine:
            self.weight = UninitializedParameter(dtype=dtype)
            self.bias = UninitializedParameter(dtype=dtype)
        if track_running_stats:
            self.running_mean = UninitializedBuffer(dtype=dtype)
            self.running_var = UninitializedBuffer(dtype=dtype)
            self.num_batches_tracked = tensor(0, dtype=int64)

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


def _lazy_norm(base):
    doc = f"A ``{base.__name__}`` whose ``num_features`` is read from the first input."
    return type(
        f"Lazy{base.__name__}", (_LazyNormMixin, base), {"cls_to_become": base, "__doc__": doc}
    )


LazyBatchNorm1d = _lazy_norm(BatchNorm1d)
LazyBatchNorm2d = _lazy_norm(BatchNorm2d)
LazyBatchNorm3d = _lazy_norm(BatchNorm3d)
