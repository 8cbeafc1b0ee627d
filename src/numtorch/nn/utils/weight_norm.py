"""The legacy ``nn.utils.weight_norm`` / ``remove_weight_norm``: a forward pre-hook that
recomputes ``weight`` from the parameters ``weight_g`` and ``weight_v`` before each call
(deprecated in torch in favour of ``parametrizations.weight_norm``)."""

from __future__ import annotations

import warnings
from typing import Any

from ..modules.module import Module
from ..parameter import Parameter

__all__ = ["WeightNorm", "remove_weight_norm", "weight_norm"]


class WeightNorm:
    """The pre-hook: ``module.<name> = _weight_norm(<name>_v, <name>_g, dim)``."""

    def __init__(self, name: str, dim: int) -> None:
        self.name = name
        self.dim = -1 if dim is None else dim

    def compute_weight(self, module: Module) -> Any:
        from ... import _weight_norm

        g = getattr(module, self.name + "_g")
        v = getattr(module, self.name + "_v")
        return _weight_norm(v, g, self.dim)

    @staticmethod
    def apply(module, name: str, dim: int) -> WeightNorm:
        from ... import norm_except_dim

        warnings.warn(
            "`torch.nn.utils.weight_norm` is deprecated in favor of "
            "`torch.nn.utils.parametrizations.weight_norm`.",
            FutureWarning,
            stacklevel=3,
        )
        for hook in module._forward_pre_hooks.values():
            if isinstance(hook, WeightNorm) and hook.name == name:
                raise RuntimeError(
                    f"Cannot register two weight_norm hooks on the same parameter {name}"
                )
        fn = WeightNorm(name, dim)
        weight = getattr(module, name)
        del module._parameters[name]
        module.register_parameter(name + "_g", Parameter(norm_except_dim(weight, 2, fn.dim).data))
        module.register_parameter(name + "_v", Parameter(weight.data))
        setattr(module, name, fn.compute_weight(module))
        module.register_forward_pre_hook(fn)
        return fn

    def remove(self, module: Module) -> None:
        weight = self.compute_weight(module)
        delattr(module, self.name)
        del module._parameters[self.name + "_g"]
        del module._parameters[self.name + "_v"]
        setattr(module, self.name, Parameter(weight.data))

    def __call__(self, module: Module, inputs: Any) -> None:
        setattr(module, self.name, self.compute_weight(module))


def weight_norm(module: Module, name: str = "weight", dim: int | None = 0) -> Module:
    """Replace the parameter ``name`` by a magnitude ``name_g`` and a direction ``name_v``,
    ``weight = g * v / ||v||`` (norm over every dim but ``dim``; ``dim=None``: whole tensor).

    Example:
        >>> import warnings
        >>> import numtorch as torch
        >>> with warnings.catch_warnings():
        ...     warnings.simplefilter("ignore")
        ...     m = torch.nn.utils.weight_norm(torch.nn.Linear(3, 2))
        >>> m.weight_g.shape, m.weight_v.shape
        (torch.Size([2, 1]), torch.Size([2, 3]))
    """
    WeightNorm.apply(module, name, dim)
    return module


def remove_weight_norm(module: Module, name: str = "weight") -> Module:
    """Fold ``name_g`` and ``name_v`` back into a single parameter ``name``."""
    for key, hook in module._forward_pre_hooks.items():
        if isinstance(hook, WeightNorm) and hook.name == name:
            hook.remove(module)
            del module._forward_pre_hooks[key]
            return module
    raise ValueError(f"weight_norm of '{name}' not found in {module}")
