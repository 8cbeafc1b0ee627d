"""Lazy modules: layers whose input size is read from the first input (``LazyLinear``).

Until the first call the parameters are ``UninitializedParameter``; a forward pre-hook then
calls ``initialize_parameters(input)``, which materializes and initializes them, and the
module turns into its ordinary class (``cls_to_become``), as in torch.
"""

from __future__ import annotations

from ..._core import grad_mode
from ..parameter import UninitializedParameter, is_lazy
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
