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
            wide = x.astype(xp.float64)  # the one temporary
            wide *= y
            wide += z
            if out is None:
                return wide.astype(xp.float32)
            out[...] = wide
            return out
        product = x * y
        plain = product + z
        # the exact product is product + error (Dekker's split of each factor into halves)
        x_high, x_low = _split(x)
        y_high, y_low = _split(y)
        error = ((x_high * y_high - product) + x_high * y_low + x_low * y_high) + x_low * y_low
        # plain's own rounding error (two-sum), added back with the product's
        back = plain - product
        lost = (product - (plain - back)) + (z - back)
        fused = plain + (lost + error)
        fused = xp.where(xp.isfinite(fused), fused, plain)
        if out is None:
            return fused
        out[...] = fused
        return out


def _split(x):
    scaled = x * 134217729.0  # 2**27 + 1
    high = scaled - (scaled - x)
    return high, x - high
