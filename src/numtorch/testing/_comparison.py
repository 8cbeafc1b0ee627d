"""``assert_close``: compare tensors (or numbers, or nested sequences) with tolerances."""

from __future__ import annotations

import warnings
from collections.abc import Mapping

from .._core.tensor import Tensor
from .._creation import tensor as _tensor
from ..backend import xp

# torch's default (rtol, atol) by dtype; a complex dtype takes its components' tolerances
_TOLERANCES = {
    "float16": (1e-3, 1e-5),
    "bfloat16": (1.6e-2, 1e-5),
    "float32": (1.3e-6, 1e-5),
    "float64": (1e-7, 1e-7),
    "complex64": (1.3e-6, 1e-5),
    "complex128": (1e-7, 1e-7),
}


def _array(value):
    data = getattr(value, "_data", None)
    return xp.asarray(value) if data is None else data


def _fail(msg, default):
    # msg replaces torch's message, or (a callable) is given it to build the final one
    raise AssertionError(msg(default) if callable(msg) else (msg or default))


def _is_number(value):
    return isinstance(value, (int, float, complex)) and not isinstance(value, bool)


def _check_pair(actual, expected, allow_subclasses, check_dtype, msg):
    """Which values compare (torch's comparison pairs): refuse any other with TypeError."""
    if isinstance(actual, Tensor) and isinstance(expected, Tensor):
        if allow_subclasses or type(actual) is type(expected):
            return
    elif isinstance(actual, xp.ndarray) and isinstance(expected, xp.ndarray):
        return
    elif _is_number(actual) and _is_number(expected):
        if check_dtype and type(actual) is not type(expected):
            _fail(msg, f"The (d)types do not match: {type(actual)} != {type(expected)}.")
        return
    raise TypeError(
        f"No comparison pair was able to handle inputs of type {type(actual)} and {type(expected)}."
    )


def assert_close(
    actual,
    expected,
    *,
    allow_subclasses=True,
    rtol=None,
    atol=None,
    equal_nan=False,
    check_dtype=True,
    msg=None,
    **_,
):
    """Raise AssertionError unless ``actual`` and ``expected`` match in shape, dtype and values
    within tolerances (defaults by dtype, as torch.testing.assert_close)."""
    options = dict(
        allow_subclasses=allow_subclasses,
        rtol=rtol,
        atol=atol,
        equal_nan=equal_nan,
        check_dtype=check_dtype,
        msg=msg,
    )
    if isinstance(actual, Mapping) and isinstance(expected, Mapping):
        # any two mappings (a dict against an OrderedDict) compare by keys, then values
        if set(actual) != set(expected):
            _fail(
                msg,
                f"The keys of the mappings do not match: {sorted(map(str, actual))} "
                f"!= {sorted(map(str, expected))}",
            )
        for key in expected:
            assert_close(actual[key], expected[key], **options)
        return
    sequences = (list, tuple)
    if isinstance(actual, sequences) and isinstance(expected, sequences):
        if len(actual) != len(expected):
            _fail(msg, f"The length of the sequences mismatch: {len(actual)} != {len(expected)}")
        for a, e in zip(actual, expected):
            assert_close(a, e, **options)
        return
    _check_pair(actual, expected, allow_subclasses, check_dtype, msg)
    a, e = _array(actual), _array(expected)
    if a.shape != e.shape:
        _fail(msg, f"The values for attribute 'shape' do not match: {a.shape} != {e.shape}.")
    if check_dtype and not _is_number(actual) and a.dtype != e.dtype:
        _fail(msg, f"The values for attribute 'dtype' do not match: {a.dtype} != {e.dtype}.")
    # unequal dtypes (check_dtype=False) take the looser of their two defaults
    defaults = [_TOLERANCES.get(x.dtype.name, (0.0, 0.0)) for x in (a, e)]
    rtol = max(d[0] for d in defaults) if rtol is None else rtol
    atol = max(d[1] for d in defaults) if atol is None else atol
    if not xp.allclose(a, e, rtol=rtol, atol=atol, equal_nan=equal_nan):
        diff = xp.abs(a.astype(xp.complex128) - e.astype(xp.complex128))
        _fail(
            msg,
            f"Tensor-likes are not close!\n\nGreatest absolute difference: {xp.nanmax(diff)} "
            f"(up to {atol} allowed)",
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
