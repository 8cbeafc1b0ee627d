"""``torch._standard_gamma`` (Gamma(alpha, 1) draws that carry a gradient) and
``torch._standard_gamma_grad``, the implicit reparametrisation gradient behind the
``rsample`` of Gamma, Beta, Dirichlet, Chi2 and StudentT.

A draw ``x`` solves ``P(alpha, x) = u`` for a uniform ``u`` held fixed, with ``P`` the
regularised lower incomplete gamma function, so ``dx/dalpha = -(dP/dalpha) / (dP/dx)``
where ``dP/dx`` is the Gamma density. ``dP/dalpha`` has no closed form: it is taken as a
central difference of ``P`` in ``alpha`` (step ``1e-5 alpha``, in float64), accurate to
about ``1e-9`` relative, closer to the exact value than torch's own series and rational
approximations (which differ from it by up to ~1e-4 relative).
"""

from __future__ import annotations

from .. import _serial_samplers as serial
from .._core import batch_rules
from .._core.op import defop, export
from .._generator import generator_or_default
from ..autograd.forward_grad import no_forward_derivative
from ..backend import xp
from .gamma import lgamma_array
from .incomplete_gamma import incomplete_gamma_array
from .special import _floats_only, derivative_not_implemented


def _gamma_derivative(grad, input, result):
    return grad * _standard_gamma_grad(input, result)


@defop(
    batch=batch_rules.pointwise,
    name="_standard_gamma",
    node="StandardGammaBackward0",
    check=_floats_only("gamma_cpu"),
    input=_gamma_derivative,
    jvp=no_forward_derivative("_standard_gamma"),  # none in torch either,
)
def _draw_standard_gamma(input, generator):
    alpha = xp.asarray(input)
    alpha = xp.where(alpha > 0, alpha, 0).astype(alpha.dtype)  # no draws where alpha <= 0
    # as torch: never exactly zero, so that log(x) stays finite
    return serial.standard_gamma(generator_or_default(generator), alpha)


@export(method=False)
def _standard_gamma(input, generator=None):
    """Gamma(``input``, 1) samples; the gradient with respect to ``input`` is the implicit
    reparametrisation gradient."""
    return _draw_standard_gamma(input, generator)


_floats_for_gamma_grad = _floats_only("_standard_gamma_grad_cpu")


def _check_gamma_grad(args):
    _floats_for_gamma_grad(args)
    input, output = args[0], args[1]
    if output._data.dtype != input._data.dtype:  # torch's kernel takes no mixed operands
        raise RuntimeError(
            f"Found dtype {output.dtype.scalar_name} but expected {input.dtype.scalar_name}"
        )


@export(method=False)
@defop(
    node="StandardGammaGradBackward0",
    promote="same",
    check=_check_gamma_grad,
    # torch's formula is not_implemented(...): NotImplementedError, not a NotImplemented node
    input=derivative_not_implemented("_standard_gamma_grad"),
    jvp=no_forward_derivative("_standard_gamma_grad"),
)
def _standard_gamma_grad(input, output):
    alpha = xp.asarray(input, dtype=xp.float64)
    x = xp.asarray(output, dtype=xp.float64)
    step = alpha * 1e-5
    with xp.errstate(all="ignore"):
        dp_dalpha = (
            incomplete_gamma_array(alpha + step, x, False)
            - incomplete_gamma_array(alpha - step, x, False)
        ) / (2 * step)
        log_density = (alpha - 1) * xp.log(x) - x - lgamma_array(alpha)
        result = -dp_dalpha / xp.exp(log_density)
    # torch's series for small draws turns an undefined result into 0 (x <= 0, alpha NaN or
    # infinite); larger draws keep NaN
    result = xp.where(xp.isnan(result) & (x < 0.8), 0.0, result)
    return result.astype(input.dtype, copy=False)
