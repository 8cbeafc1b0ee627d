"""``assert_close``: compare tensors (or numbers, or nested sequences) with tolerances."""

from __future__ import annotations

import warnings

from .._core.tensor import Tensor
from .._creation import tensor as _tensor
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


_ALLCLOSE_PRECISIONS = {"float16": (1e-3, 1e-3), "float32": (1e-4, 1e-5), "float64": (1e-5, 1e-8)}


def assert_allclose(actual, expected, rtol=None, atol=None, equal_nan=True, msg="") -> None:
    """Deprecated ``assert_close`` with looser defaults, NaNs equal and dtypes unchecked."""
    warnings.warn(
        "`torch.testing.assert_allclose()` is deprecated since 1.12 and will be removed in a "
        "future release. Please use `torch.testing.assert_close()` instead.",
        FutureWarning,
        stacklevel=2,
    )
    if not isinstance(actual, Tensor):
        actual = _tensor(actual)
    if not isinstance(expected, Tensor):
        expected = _tensor(expected, dtype=actual.dtype)
    if rtol is None and atol is None:
        pairs = [_ALLCLOSE_PRECISIONS.get(str(t.dtype)[6:], (0.0, 0.0)) for t in (actual, expected)]
        rtol, atol = max(p[0] for p in pairs), max(p[1] for p in pairs)
    assert_close(actual, expected, rtol=rtol, atol=atol, equal_nan=equal_nan,
                 check_dtype=False, msg=msg or None)  # fmt: skip
