"""``assert_close``: compare tensors (or numbers, or nested sequences) with tolerances."""

from __future__ import annotations

from ..backend import xp

_TOLERANCES = {"float16": (1e-3, 1e-5), "float32": (1.3e-6, 1e-5), "float64": (1e-7, 1e-7)}


def _array(value):
    data = getattr(value, "_data", None)
    return xp.asarray(value) if data is None else data


def assert_close(
    actual, expected, *, rtol=None, atol=None, equal_nan=False, check_dtype=True, msg=None, **_
):
    """Raise AssertionError unless ``actual`` and ``expected`` match in shape, dtype and values
    within tolerances (defaults by dtype, as torch.testing.assert_close)."""
    if isinstance(actual, (list, tuple)) and isinstance(expected, (list, tuple)):
        if len(actual) != len(expected):
            raise AssertionError(f"length mismatch: {len(actual)} != {len(expected)}")
        for a, e in zip(actual, expected):
            assert_close(
                a, e, rtol=rtol, atol=atol, equal_nan=equal_nan, check_dtype=check_dtype, msg=msg
            )
        return
    a, e = _array(actual), _array(expected)
    if a.shape != e.shape:
        raise AssertionError(
            msg or f"The values for attribute 'shape' do not match: {a.shape} != {e.shape}."
        )
    if (
        check_dtype
        and hasattr(actual, "_data")
        and hasattr(expected, "_data")
        and a.dtype != e.dtype
    ):
        raise AssertionError(
            msg or f"The values for attribute 'dtype' do not match: {a.dtype} != {e.dtype}."
        )
    default = _TOLERANCES.get(a.dtype.name, (0.0, 0.0))
    rtol = default[0] if rtol is None else rtol
    atol = default[1] if atol is None else atol
    if not xp.allclose(a, e, rtol=rtol, atol=atol, equal_nan=equal_nan):
        diff = xp.abs(a.astype(xp.float64) - e.astype(xp.float64))
        raise AssertionError(
            msg
            or f"Tensor-likes are not close!\n\nGreatest absolute "
            f"difference: {xp.nanmax(diff)} (up to {atol} allowed)"
        )
