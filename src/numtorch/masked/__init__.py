"""``torch.masked``: reductions and normalizations under a ``mask=`` (``_ops.py``) and
``MaskedTensor`` (``maskedtensor.py``)."""

from . import _ops as _ops
from ._ops import (
    amax,
    amin,
    argmax,
    argmin,
    cumprod,
    cumsum,
    log_softmax,
    logaddexp,
    logsumexp,
    mean,
    median,
    norm,
    normalize,
    prod,
    softmax,
    softmin,
    std,
    sum,
    var,
)
from .maskedtensor import MaskedTensor, as_masked_tensor, is_masked_tensor, masked_tensor

__all__ = [
    "amax",
    "amin",
    "argmax",
    "argmin",
    "as_masked_tensor",
    "cumprod",
    "cumsum",
    "is_masked_tensor",
    "log_softmax",
    "logaddexp",
    "logsumexp",
    "masked_tensor",
    "MaskedTensor",
    "mean",
    "median",
    "norm",
    "normalize",
    "prod",
    "softmax",
    "softmin",
    "std",
    "sum",
    "var",
]
