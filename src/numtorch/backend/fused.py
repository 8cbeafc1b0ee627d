"""The fused multiply-add torch's CPU kernels are compiled with (``a * b + c`` rounded once),
on NumPy, which has none: float32 through float64 (its products are exact there), float64
through Dekker's exact product and a two-sum."""

from __future__ import annotations

from . import xp


def fma(x, y, z, out=None):
    """``x * y + z`` rounded once (as unfused where a term is not finite), into ``out``
    where given."""
    with xp.errstate(all="ignore"):
        if x.dtype == xp.float32:  # float32 products are exact in float64
            # z first, as in ``z + x * y``: NumPy broadcasts and lays the sum out from both
            # operands, as it did the unfused expression (an astype of x alone would take
            # x's layout, a broadcast x's zero strides included)
            wide = xp.add(z, xp.multiply(x, y, dtype=xp.float64), dtype=xp.float64)
            if out is not None:
                out[...] = wide
                return out
            return wide.astype(xp.float32)
        product = x * y
        plain = xp.add(z, product)
        # the exact product is product + error (Dekker's split of each factor into halves)
        x_high, x_low = _split(x)
        y_high, y_low = _split(y)
        error = ((x_high * y_high - product) + x_high * y_low + x_low * y_high) + x_low * y_low
        # plain's own rounding error (two-sum), added back with the product's
        back = plain - product
        lost = (product - (plain - back)) + (z - back)
        fused = plain + (lost + error)
        # (an exact zero takes the unfused sum's sign: -0 of two negative zeros, as fma's)
        fused = xp.where(xp.isfinite(fused) & (fused != 0), fused, plain)
        if out is None:
            return fused
        out[...] = fused
        return out


# Note [Fused alpha]
# torch's CPU add and sub kernels compute input + alpha * other as one fused multiply-add
# per element, with alpha in the operands' float dtype, wherever ``other`` runs along the
# innermost dimension; an ``other`` broadcast along it (a scalar, a column) takes a loop of
# its own whose rounding is left unfused here, as are half-precision floats (their kernels
# round through float32). addcmul is fused everywhere: fma(value * tensor1, tensor2, input);
# addcdiv is not fused.
def add_scaled(input, other, alpha, out=None):
    """``input + alpha * other`` rounded once where torch's kernel fuses it (Note [Fused
    alpha]), into ``out`` where given; None (nothing written) where it does not."""
    if (
        input.__class__ is xp.ndarray
        and other.__class__ is xp.ndarray
        and input.shape == other.shape
        and input.dtype == other.dtype
        and other.dtype.kind == "f"
        and other.dtype.itemsize >= 4
    ):  # the common case, without the promotion and broadcasting checks
        return fma(other, xp.asarray(alpha, other.dtype), input, out=out)
    if (
        other.__class__ is not xp.ndarray
        or other.dtype.kind != "f"
        or other.dtype.itemsize < 4
        or not other.ndim
        or (other.shape[-1] == 1 and xp.ndim(input) and input.shape[-1] != 1)
        or xp.result_type(input, other) != other.dtype
    ):
        return None
    if out is None:  # broadcast by the arithmetic itself, which lays the result out
        input = xp.asarray(input, other.dtype)
    return fma(other, xp.asarray(alpha, other.dtype), input, out=out)


def _split(x):
    scaled = x * 134217729.0  # 2**27 + 1
    high = scaled - (scaled - x)
    return high, x - high
