"""``torch.nn.utils.prune``: zeroing parameter entries through a mask, by reparametrisation.

Pruning ``weight`` of a module moves the original parameter to ``weight_orig``, stores the
mask as the buffer ``weight_mask`` and registers the pruning method as a forward pre-hook
that recomputes ``weight = weight_orig * weight_mask`` before each call (so gradients reach
``weight_orig`` only where the mask is one). Pruning the same parameter again combines the
methods in a :class:`PruningContainer`: the new method only looks at entries (or channels)
still unpruned. :func:`remove` makes the pruning permanent, leaving a plain ``weight``.

Which entries tie-breaking selects follows torch's CPU ``topk`` exactly (numtorch's
``topk`` replays it: ``ops/topk_order.py``), so deterministic methods give torch's masks.

Example:
    >>> import numtorch as torch
    >>> from numtorch.nn.utils import prune
    >>> m = prune.l1_unstructured(torch.nn.Linear(2, 2), "weight", amount=0.5)
    >>> sorted(m.state_dict())
    ['bias', 'weight_mask', 'weight_orig']
"""

from __future__ import annotations

import numbers
from abc import ABC, abstractmethod
from collections.abc import Iterable

import numtorch as torch

from .convert_parameters import parameters_to_vector

__all__ = [
    "BasePruningMethod",
    "CustomFromMask",
    "Identity",
    "L1Unstructured",
    "LnStructured",
    "PruningContainer",
    "RandomStructured",
    "RandomUnstructured",
    "custom_from_mask",
    "global_unstructured",
    "identity",
    "is_pruned",
    "l1_unstructured",
    "ln_structured",
    "random_structured",
    "random_unstructured",
    "remove",
]


def _topk_indices(values, k: int, largest: bool):
    """The entries torch's topk picks, even among equal magnitudes (numtorch's topk replays
    torch's CPU selection among ties: ops/topk_order.py)."""
    return torch.topk(values.detach().reshape(-1), k, largest=largest).indices


class BasePruningMethod(ABC):
    """Base class of pruning methods: ``compute_mask`` decides which entries survive; the
    method object itself is the forward pre-hook that re-applies the mask."""

    _tensor_name: str

    def __call__(self, module, inputs):
        setattr(module, self._tensor_name, self.apply_mask(module))

    @abstractmethod
    def compute_mask(self, t, default_mask):
        """The new mask for ``t`` given the mask ``default_mask`` from earlier pruning."""

    def apply_mask(self, module):
        """``name_orig * name_mask`` of ``module``: the pruned tensor."""
        mask = getattr(module, self._tensor_name + "_mask")
        orig = getattr(module, self._tensor_name + "_orig")
        return mask.to(dtype=orig.dtype) * orig

    @classmethod
    def apply(cls, module, name, *args, importance_scores=None, **kwargs):
        """Prunes parameter ``name`` of ``module`` with a new ``cls(*args, **kwargs)``,
        combined with any method that already prunes it."""
        method = cls._combined_with_existing(module, name, *args, **kwargs)
        orig = getattr(module, name)
        if importance_scores is not None:
            if importance_scores.shape != orig.shape:
                raise AssertionError(
                    f"importance_scores should have the same shape as parameter {name} of "
                    f"{module}, got {importance_scores.shape} vs {orig.shape}"
                )
        else:
            importance_scores = orig
        first_time = not isinstance(method, PruningContainer)
        if first_time:
            module.register_parameter(name + "_orig", orig)
            del module._parameters[name]
            default_mask = torch.ones_like(orig)
        else:
            default_mask = getattr(module, name + "_mask").detach().clone()
        try:
            mask = method.compute_mask(importance_scores, default_mask=default_mask)
            module.register_buffer(name + "_mask", mask)
            setattr(module, name, method.apply_mask(module))
            module.register_forward_pre_hook(method)
        except Exception:
            if first_time:  # put the parameter back as it was
                module.register_parameter(name, getattr(module, name + "_orig"))
                del module._parameters[name + "_orig"]
            raise
        return method

    @classmethod
    def _combined_with_existing(cls, module, name, *args, **kwargs):
        existing = [
            (key, hook)
            for key, hook in module._forward_pre_hooks.items()
            if isinstance(hook, BasePruningMethod) and hook._tensor_name == name
        ]
        if len(existing) > 1:
            raise AssertionError(
                f"Avoid adding multiple pruning hooks to the same tensor {name} of module "
                f"{module}. Use a PruningContainer."
            )
        for key, _ in existing:
            del module._forward_pre_hooks[key]
        method = cls(*args, **kwargs)
        method._tensor_name = name
        if not existing:
            return method
        old = existing[0][1]
        if isinstance(old, PruningContainer):
            old.add_pruning_method(method)
            return old
        container = PruningContainer(old)
        container.add_pruning_method(method)
        return container

    def prune(self, t, default_mask=None, importance_scores=None):
        """``t`` times this method's mask (the module is not touched)."""
        if importance_scores is not None:
            if importance_scores.shape != t.shape:
                raise AssertionError(
                    "importance_scores should have the same shape as tensor t, got "
                    f"{importance_scores.shape} vs {t.shape}"
                )
        else:
            importance_scores = t
        default_mask = default_mask if default_mask is not None else torch.ones_like(t)
        return t * self.compute_mask(importance_scores, default_mask=default_mask)

    def remove(self, module) -> None:
        """Makes the pruning permanent: ``name`` becomes a parameter holding the pruned
        values; ``name_orig`` and ``name_mask`` go away."""
        weight = self.apply_mask(module)
        if hasattr(module, self._tensor_name):
            delattr(module, self._tensor_name)
        orig = module._parameters[self._tensor_name + "_orig"]
        orig.data = weight.data
        del module._parameters[self._tensor_name + "_orig"]
        del module._buffers[self._tensor_name + "_mask"]
        setattr(module, self._tensor_name, orig)


class PruningContainer(BasePruningMethod):
    """The sequence of pruning methods applied to one parameter; its mask is the last
    method's mask computed on what the earlier ones left."""

    def __init__(self, *args):
        self._pruning_methods: tuple = ()
        if len(args) == 1:
            self._tensor_name = args[0]._tensor_name
            self.add_pruning_method(args[0])
        else:
            for method in args:
                self.add_pruning_method(method)

    def add_pruning_method(self, method) -> None:
        if not isinstance(method, BasePruningMethod) and method is not None:
            raise TypeError(f"{type(method)} is not a BasePruningMethod subclass")
        if method is not None and self._tensor_name != method._tensor_name:
            raise ValueError(
                "Can only add pruning methods acting on the parameter named "
                f"'{self._tensor_name}' to PruningContainer {self}. "
                f"Found '{method._tensor_name}'"
            )
        self._pruning_methods += (method,)

    def __len__(self):
        return len(self._pruning_methods)

    def __iter__(self):
        return iter(self._pruning_methods)

    def __getitem__(self, idx):
        return self._pruning_methods[idx]

    def compute_mask(self, t, default_mask):
        method = self._pruning_methods[-1]
        new_mask = default_mask.to(dtype=t.dtype)
        if method.PRUNING_TYPE == "unstructured":
            where = default_mask == 1  # only the surviving entries are candidates
        elif method.PRUNING_TYPE == "structured":
            if not hasattr(method, "dim"):
                raise AttributeError(
                    'Pruning methods of PRUNING_TYPE "structured" need to have the '
                    "attribute `dim` defined."
                )
            n_dims = t.dim()
            dim = method.dim + n_dims if method.dim < 0 else method.dim
            if dim < 0:
                raise IndexError(f"Index is out of bounds for tensor with dimensions {n_dims}")
            # only channels with at least one surviving entry are candidates
            others = [d for d in range(n_dims) if d != dim]
            keep_channel = default_mask.sum(dim=others) != 0
            where = tuple(keep_channel if d == dim else slice(None) for d in range(n_dims))
        elif method.PRUNING_TYPE == "global":
            where = tuple(slice(None) for _ in range(t.dim()))
        else:
            raise ValueError(f"Unrecognized PRUNING_TYPE {method.PRUNING_TYPE}")
        partial = method.compute_mask(t[where], default_mask=default_mask[where])
        new_mask[where] = partial.to(dtype=new_mask.dtype)
        return new_mask


class Identity(BasePruningMethod):
    """Prunes nothing: the mask is all ones (useful to reparametrise without pruning)."""

    PRUNING_TYPE = "unstructured"

    def compute_mask(self, t, default_mask):
        return default_mask

    @classmethod
    def apply(cls, module, name):
        return super().apply(module, name)


class RandomUnstructured(BasePruningMethod):
    """Prunes ``amount`` entries (a fraction or a count) chosen at random."""

    PRUNING_TYPE = "unstructured"

    def __init__(self, amount):
        _validate_pruning_amount_init(amount)
        self.amount = amount

    def compute_mask(self, t, default_mask):
        count = _compute_nparams_toprune(self.amount, t.nelement())
        _validate_pruning_amount(count, t.nelement())
        mask = default_mask.clone(memory_format=torch.contiguous_format)
        if count != 0:
            chosen = torch.topk(torch.rand_like(t).view(-1), k=count).indices
            mask.view(-1)[chosen] = 0
        return mask

    @classmethod
    def apply(cls, module, name, amount):
        return super().apply(module, name, amount=amount)


class L1Unstructured(BasePruningMethod):
    """Prunes the ``amount`` entries (a fraction or a count) of smallest magnitude."""

    PRUNING_TYPE = "unstructured"

    def __init__(self, amount):
        _validate_pruning_amount_init(amount)
        self.amount = amount

    def compute_mask(self, t, default_mask):
        count = _compute_nparams_toprune(self.amount, t.nelement())
        _validate_pruning_amount(count, t.nelement())
        mask = default_mask.clone(memory_format=torch.contiguous_format)
        if count != 0:
            mask.view(-1)[_topk_indices(torch.abs(t), count, largest=False)] = 0
        return mask

    @classmethod
    def apply(cls, module, name, amount, importance_scores=None):
        return super().apply(module, name, amount=amount, importance_scores=importance_scores)


class RandomStructured(BasePruningMethod):
    """Prunes ``amount`` whole channels along ``dim``, chosen at random."""

    PRUNING_TYPE = "structured"

    def __init__(self, amount, dim=-1):
        _validate_pruning_amount_init(amount)
        self.amount = amount
        self.dim = dim

    def compute_mask(self, t, default_mask):
        _validate_structured_pruning(t)
        _validate_pruning_dim(t, self.dim)
        channels = t.shape[self.dim]
        count = _compute_nparams_toprune(self.amount, channels)
        _validate_pruning_amount(count, channels)
        if count == 0:
            return default_mask
        prob = torch.rand(channels)
        keep = prob > torch.kthvalue(prob, k=count).values
        return _channel_mask(t, self.dim, keep) * default_mask.to(dtype=t.dtype)

    @classmethod
    def apply(cls, module, name, amount, dim=-1):
        return super().apply(module, name, amount=amount, dim=dim)


class LnStructured(BasePruningMethod):
    """Prunes the ``amount`` channels along ``dim`` of smallest ``n``-norm."""

    PRUNING_TYPE = "structured"

    def __init__(self, amount, n, dim=-1):
        _validate_pruning_amount_init(amount)
        self.amount = amount
        self.n = n
        self.dim = dim

    def compute_mask(self, t, default_mask):
        _validate_structured_pruning(t)
        _validate_pruning_dim(t, self.dim)
        channels = t.shape[self.dim]
        count = _compute_nparams_toprune(self.amount, channels)
        _validate_pruning_amount(count, channels)
        norm = _compute_norm(t, self.n, self.dim)
        keep = _topk_indices(norm, channels - count, largest=True)
        if count == 0:
            return default_mask
        return _channel_mask(t, self.dim, keep) * default_mask.to(dtype=t.dtype)

    @classmethod
    def apply(cls, module, name, amount, n, dim, importance_scores=None):
        return super().apply(
            module, name, amount=amount, n=n, dim=dim, importance_scores=importance_scores
        )


class CustomFromMask(BasePruningMethod):
    """Prunes where a given ``mask`` is zero."""

    PRUNING_TYPE = "global"

    def __init__(self, mask):
        self.mask = mask

    def compute_mask(self, t, default_mask):
        if default_mask.shape != self.mask.shape:
            raise AssertionError(
                f"default_mask shape {default_mask.shape} must match self.mask shape "
                f"{self.mask.shape}"
            )
        return default_mask * self.mask.to(dtype=default_mask.dtype)

    @classmethod
    def apply(cls, module, name, mask):
        return super().apply(module, name, mask=mask)


def identity(module, name):
    """Reparametrises ``name`` with an all-ones mask; returns ``module``."""
    Identity.apply(module, name)
    return module


def random_unstructured(module, name, amount):
    """Prunes ``amount`` random entries of ``name``; returns ``module``."""
    RandomUnstructured.apply(module, name, amount)
    return module


def l1_unstructured(module, name, amount, importance_scores=None):
    """Prunes the ``amount`` smallest-magnitude entries of ``name`` (or of
    ``importance_scores``); returns ``module``."""
    L1Unstructured.apply(module, name, amount=amount, importance_scores=importance_scores)
    return module


def random_structured(module, name, amount, dim):
    """Prunes ``amount`` random channels of ``name`` along ``dim``; returns ``module``."""
    RandomStructured.apply(module, name, amount, dim)
    return module


def ln_structured(module, name, amount, n, dim, importance_scores=None):
    """Prunes the ``amount`` channels along ``dim`` of smallest ``n``-norm; returns ``module``."""
    LnStructured.apply(module, name, amount, n, dim, importance_scores=importance_scores)
    return module


def custom_from_mask(module, name, mask):
    """Prunes ``name`` where ``mask`` is zero; returns ``module``."""
    CustomFromMask.apply(module, name, mask)
    return module


def global_unstructured(parameters, pruning_method, importance_scores=None, **kwargs) -> None:
    """Prunes the ``(module, name)`` pairs in ``parameters`` together: ``pruning_method``
    (an unstructured method class) ranks all their entries as one vector."""
    if not isinstance(parameters, Iterable):
        raise TypeError("global_unstructured(): parameters is not an Iterable")
    parameters = list(parameters)
    importance_scores = importance_scores if importance_scores is not None else {}
    if not isinstance(importance_scores, dict):
        raise TypeError("global_unstructured(): importance_scores must be of type dict")
    scores = parameters_to_vector(
        [importance_scores.get((m, name), getattr(m, name)) for m, name in parameters]
    )
    default_mask = parameters_to_vector(
        [getattr(m, name + "_mask", torch.ones_like(getattr(m, name))) for m, name in parameters]
    )
    container = PruningContainer()
    container._tensor_name = "temp"
    method = pruning_method(**kwargs)
    method._tensor_name = "temp"
    if method.PRUNING_TYPE != "unstructured":
        raise TypeError(
            'Only "unstructured" PRUNING_TYPE supported for the `pruning_method`. Found method '
            f"{pruning_method} of type {method.PRUNING_TYPE}"
        )
    container.add_pruning_method(method)
    final_mask = container.compute_mask(scores, default_mask)
    start = 0
    for m, name in parameters:
        param = getattr(m, name)
        custom_from_mask(m, name, mask=final_mask[start : start + param.numel()].view_as(param))
        start += param.numel()


def remove(module, name):
    """Makes the pruning of ``name`` permanent and removes its hook; returns ``module``."""
    for key, hook in module._forward_pre_hooks.items():
        if isinstance(hook, BasePruningMethod) and hook._tensor_name == name:
            hook.remove(module)
            del module._forward_pre_hooks[key]
            return module
    raise ValueError(
        f"Parameter '{name}' of module {module} has to be pruned before pruning can be removed"
    )


def is_pruned(module) -> bool:
    """Whether ``module`` or any submodule has a pruning hook."""
    return any(
        isinstance(hook, BasePruningMethod)
        for _, sub in module.named_modules()
        for hook in sub._forward_pre_hooks.values()
    )


def _channel_mask(t, dim, channels):
    """Ones on the selected ``channels`` (indices or a bool mask) along ``dim``."""
    mask = torch.zeros_like(t)
    mask[tuple(channels if d == dim % t.dim() else slice(None) for d in range(t.dim()))] = 1
    return mask


def _validate_pruning_amount_init(amount) -> None:
    if not isinstance(amount, numbers.Real):
        raise TypeError(f"Invalid type for amount: {amount}. Must be int or float.")
    integral = isinstance(amount, numbers.Integral)
    if (integral and amount < 0) or (not integral and not 0.0 <= float(amount) <= 1.0):
        raise ValueError(
            f"amount={amount} should either be a float in the range [0, 1] or a "
            "non-negative integer"
        )


def _validate_pruning_amount(amount, tensor_size) -> None:
    if isinstance(amount, numbers.Integral) and amount > tensor_size:
        raise ValueError(
            f"amount={amount} should be smaller than the number of parameters to "
            f"prune={tensor_size}"
        )


def _validate_structured_pruning(t) -> None:
    if t.dim() <= 1:
        raise ValueError(
            "Structured pruning can only be applied to multidimensional tensors. Found tensor "
            f"of shape {t.shape} with {t.dim()} dims"
        )


def _compute_nparams_toprune(amount, tensor_size):
    if isinstance(amount, numbers.Integral):
        return amount
    return round(amount * tensor_size)


def _validate_pruning_dim(t, dim) -> None:
    if dim >= t.dim():
        raise IndexError(f"Invalid index {dim} for tensor of size {t.shape}")


def _compute_norm(t, n, dim):
    dims = list(range(t.dim()))
    dims.remove(dims[dim])
    return torch.norm(t, p=n, dim=dims)
