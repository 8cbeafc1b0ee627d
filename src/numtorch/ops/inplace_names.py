"""In-place names torch offers beside the methods it already has: comparison aliases
(``greater_``), ``nan_to_num_``, and the top-level functions ``torch.exp_(t)``,
``torch.relu_(t)``, ... which are the methods called as functions."""

from __future__ import annotations

from .._core.inplace import inplace_variant
from .._core.op import FUNCTIONS
from .._core.tensor import Tensor

# the modules defining the methods published below
from . import (  # noqa: F401
    activations,
    bessel,
    bits,
    clamping,
    comparison,
    complex,
    cumulative,
    exponential,
    gamma,
    gather_scatter,
    incomplete_gamma,
    indexing,
    masks,
    normal,
    pointwise,
    rounding,
    special,
    trigonometric,
)
from .comparison import nan_to_num

Tensor.greater_ = Tensor.gt_
Tensor.greater_equal_ = Tensor.ge_
Tensor.less_ = Tensor.lt_
Tensor.less_equal_ = Tensor.le_
Tensor.not_equal_ = Tensor.ne_

Tensor.nan_to_num_ = inplace_variant(nan_to_num, "nan_to_num_")


# torch.<name>_(t) for the in-place methods torch also publishes as functions
_TOP_LEVEL = [
    "abs_",
    "acos_",
    "arccos_",
    "arcsin_",
    "arctan_",
    "asin_",
    "atan_",
    "ceil_",
    "clamp_",
    "clamp_max_",
    "clamp_min_",
    "clip_",
    "cos_",
    "cosh_",
    "deg2rad_",
    "detach_",
    "erf_",
    "erfc_",
    "exp2_",
    "exp_",
    "expm1_",
    "fill_",
    "fix_",
    "floor_",
    "frac_",
    "i0_",
    "index_put_",
    "log10_",
    "log1p_",
    "log2_",
    "log_",
    "logit_",
    "nan_to_num_",
    "neg_",
    "negative_",
    "rad2deg_",
    "reciprocal_",
    "round_",
    "rsqrt_",
    "sigmoid_",
    "sin_",
    "sinc_",
    "sinh_",
    "sqrt_",
    "square_",
    "tan_",
    "tanh_",
    "trunc_",
    "xlogy_",
    "zero_",
    "gcd_",
    "lcm_",
    "ldexp_",
    "conj_physical_",
]
for _name in _TOP_LEVEL:
    FUNCTIONS[_name] = getattr(Tensor, _name)
