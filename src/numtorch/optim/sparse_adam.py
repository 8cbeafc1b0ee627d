"""Adam for sparse gradients (``nn.Embedding(sparse=True)``): only the rows a gradient has
entries for change, their moments included."""

from __future__ import annotations

import math

import numpy as np

from .._core.tensor import Tensor
from ._checks import scalar
from .optimizer import Optimizer


class SparseAdam(Optimizer):
    """Adam restricted to the entries of sparse gradients, torch's formulation: with the
    coalesced gradient ``g`` at its entries, ``m += (1 - b1) (g - m)``,
    ``v += (1 - b2) (g^2 - v)`` and ``p -= lr sqrt(1 - b2^t) / (1 - b1^t) m / (sqrt(v) + eps)``
    there, everything else unchanged.

    Example:
        >>> import numtorch as torch
        >>> emb = torch.nn.Embedding(4, 2, sparse=True)
        >>> opt = torch.optim.SparseAdam(emb.parameters(), lr=0.1)
        >>> emb(torch.tensor([1])).sum().backward()
        >>> before = emb.weight.detach().clone()
        >>> opt.step()
        >>> (emb.weight - before).abs().sum(1).gt(0).tolist()
        [False, True, False, False]
    """

    _sparse_gradients = "sparse"

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, maximize=False) -> None:
        if isinstance(lr, Tensor) and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        if not lr > 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not eps > 0.0:
            raise ValueError(f"Invalid epsilon value: {eps}")
        for i in (0, 1):
            if not 0.0 <= betas[i] < 1.0:
                raise ValueError(f"Invalid beta parameter at index {i}: {betas[i]}")
        defaults = {"lr": lr, "betas": betas, "eps": eps, "maximize": maximize}
        super().__init__(params, defaults)
        for kind, test in (("Sparse", "is_sparse"), ("Complex", "is_complex")):
            found = [
                [g, i]
                for g, group in enumerate(self.param_groups)
                for i, p in enumerate(group["params"])
                if (p.is_sparse if test == "is_sparse" else p.is_complex())
            ]
            if found:
                what = (
                    "SparseAdam requires dense parameter tensors"
                    if kind == "Sparse"
                    else "SparseAdam does not support complex parameters"
                )
                raise ValueError(f"{kind} params at indices {found}: {what}")

    def _update_group(self, group) -> None:
        beta1, beta2 = group["betas"]
        lr, eps = scalar(group["lr"]), group["eps"]
        for p in group["params"]:
            if p._grad is None:
                continue
            if not p._grad.is_sparse:
                raise RuntimeError(
                    "SparseAdam does not support dense gradients, please consider Adam instead"
                )
            state = self.state[p]
            if not state:
                state["step"] = 0
                state["exp_avg"] = Tensor._make(np.zeros_like(p._data))
                state["exp_avg_sq"] = Tensor._make(np.zeros_like(p._data))
            state["step"] += 1
            grad = -p._grad if group["maximize"] else p._grad
            grad = grad.coalesce()
            at = tuple(grad._index_array)
            values = grad._value_tensor._data
            dtype = values.dtype.type
            exp_avg, exp_avg_sq = state["exp_avg"]._data, state["exp_avg_sq"]._data
            old_avg, old_sq = exp_avg[at], exp_avg_sq[at]
            avg_update = (values - old_avg) * dtype(1 - beta1)
            sq_update = (values * values - old_sq) * dtype(1 - beta2)
            exp_avg[at] += avg_update
            exp_avg_sq[at] += sq_update
            numer = avg_update + old_avg
            denom = np.sqrt(sq_update + old_sq) + dtype(eps)
            step = state["step"]
            step_size = lr * math.sqrt(1 - beta2**step) / (1 - beta1**step)
            p._data[at] += dtype(-step_size) * (numer / denom)
            for t in (p, state["exp_avg"], state["exp_avg_sq"]):
                t._bump_version()
