"""``assert_close``: compare tensors (or numbers, or nested sequences) with tolerances."""

from __future__ import annotations

import cmath
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


class _Mismatch(Exception):
    """A failed comparison deep inside nested inputs: the error type and torch's message,
    with the path of keys and indices that led to it."""

    def __init__(self, error, text, path=()):
        super().__init__(text)
        self.error, self.text, self.path = error, text, path

    def raise_with(self, msg):
        # a string msg replaces torch's message; a callable msg is given the whole of it
        if isinstance(msg, str):
            raise self.error(msg) from None
        text = self.text
        if self.path:
            text += "\n\nThe failure occurred for item " + "".join(f"[{k!r}]" for k in self.path)
        raise self.error(msg(text) if callable(msg) else text) from None


def _is_number(value):
    return isinstance(value, (int, float, complex)) and not isinstance(value, bool)


def _check_pair(actual, expected, allow_subclasses, check_dtype):
    """Which values compare (torch's comparison pairs): refuse any other with TypeError."""
    if isinstance(actual, Tensor) and isinstance(expected, Tensor):
        if allow_subclasses or type(actual) is type(expected):
            return
    elif isinstance(actual, xp.ndarray) and isinstance(expected, xp.ndarray):
        return
    elif _is_number(actual) and _is_number(expected):
        if check_dtype and type(actual) is not type(expected):
            raise _Mismatch(
                AssertionError,
                f"The (d)types do not match: {type(actual)} != {type(expected)}.",
            )
        return
    raise TypeError(
        f"No comparison pair was able to handle inputs of type {type(actual)} and {type(expected)}."
    )


def _tolerances(rtol, atol, arrays):
    # torch refuses one tolerance without the other: atol=0 alone would still pass by rtol
    if (rtol is None) != (atol is None):
        missing = "rtol" if rtol is None else "atol"
        raise _Mismatch(
            ValueError,
            f"Both 'rtol' and 'atol' must be either specified or omitted, but got no {missing}.",
        )
    if rtol is not None:
        return rtol, atol
    # unequal dtypes (check_dtype=False) take the looser of their two defaults
    defaults = [_TOLERANCES.get(x.dtype.name, (0.0, 0.0)) for x in arrays]
    return max(d[0] for d in defaults), max(d[1] for d in defaults)


def _report(noun, rtol, atol, extra, absolute, relative):
    """torch's mismatch message: each difference is (value, index or None); tolerances
    are shown unless both are zero, which makes the comparison one of equality."""
    equal = rtol == 0 and atol == 0
    lines = [f"{noun} are not {'equal' if equal else 'close'}!", "", extra]
    for kind, (value, index), tol in (("absolute", absolute, atol), ("relative", relative, rtol)):
        line = (
            f"{kind.title()} difference: {value}"
            if index is None
            else f"Greatest {kind} difference: {value} at index {index}"
        )
        lines.append(line if equal else f"{line} (up to {tol} allowed)")
    return "\n".join(lines)


def _scalar_report(actual, expected, rtol, atol):
    absolute = abs(actual - expected)
    relative = float("inf") if expected == 0 else absolute / abs(expected)
    extra = f"Expected {expected} but got {actual}."
    return _report("Scalars", rtol, atol, extra, (absolute, None), (relative, None))


def _tensor_report(a, e, matches, rtol, atol):
    total = matches.size
    wrong = total - int(matches.sum())
    extra = f"Mismatched elements: {wrong} / {total} ({wrong / total:.1%})"
    if a.dtype.kind not in "fc":  # integer differences are taken in int64, as torch does
        a, e = a.astype(xp.int64), e.astype(xp.int64)
    absolute = xp.abs(a - e).reshape(-1)
    absolute[matches.reshape(-1)] = 0
    with xp.errstate(divide="ignore", invalid="ignore"):
        # an integer quotient is in the default float dtype, as torch's true division
        relative = (absolute / xp.abs(e.reshape(-1))).astype(
            absolute.dtype if absolute.dtype.kind in "fc" else xp.float32
        )
    relative[matches.reshape(-1)] = 0

    def greatest(diff):
        # the first greatest difference (a NaN counts as greatest), at its n-d index
        nans = xp.flatnonzero(xp.isnan(diff))
        flat = int(nans[0]) if nans.size else int(xp.argmax(diff))
        index = tuple(int(i) for i in xp.unravel_index(flat, matches.shape))
        return diff[flat].item(), index

    return _report("Tensor-likes", rtol, atol, extra, greatest(absolute), greatest(relative))


def _compare_leaf(actual, expected, rtol, atol, equal_nan, check_dtype, allow_subclasses):
    _check_pair(actual, expected, allow_subclasses, check_dtype)
    if _is_number(actual):
        rtol, atol = _tolerances(rtol, atol, [xp.asarray(actual), xp.asarray(expected)])
        if actual == expected or (equal_nan and cmath.isnan(actual) and cmath.isnan(expected)):
            return
        gap = abs(actual - expected)
        if not (cmath.isfinite(gap) and gap <= atol + rtol * abs(expected)):
            raise _Mismatch(AssertionError, _scalar_report(actual, expected, rtol, atol))
        return
    tensors = [x if isinstance(x, Tensor) else _tensor(x) for x in (actual, expected)]
    if tensors[0].shape != tensors[1].shape:
        shapes = " != ".join(str(t.shape) for t in tensors)
        raise _Mismatch(AssertionError, f"The values for attribute 'shape' do not match: {shapes}.")
    if check_dtype and tensors[0].dtype != tensors[1].dtype:
        dtypes = " != ".join(str(t.dtype) for t in tensors)
        raise _Mismatch(AssertionError, f"The values for attribute 'dtype' do not match: {dtypes}.")
    a, e = (t.detach().resolve_conj().numpy() for t in tensors)
    rtol, atol = _tolerances(rtol, atol, [a, e])
    if a.dtype != e.dtype:
        common = xp.result_type(a, e)
        a, e = a.astype(common), e.astype(common)
    if a.dtype.kind == "b":
        a, e = a.astype(xp.int64), e.astype(xp.int64)
    matches = xp.isclose(a, e, rtol=rtol, atol=atol, equal_nan=equal_nan)
    if matches.all():
        return
    if a.ndim == 0:
        text = _scalar_report(a.item(), e.item(), rtol, atol)
    else:
        text = _tensor_report(a, e, matches, rtol, atol)
    raise _Mismatch(AssertionError, text)


def _compare(actual, expected, path, options):
    if isinstance(actual, Mapping) and isinstance(expected, Mapping):
        # any two mappings (a dict against an OrderedDict) compare by keys, then values
        if set(actual) != set(expected):
            raise _Mismatch(
                AssertionError,
                f"The keys of the mappings do not match: {sorted(map(str, actual))} "
                f"!= {sorted(map(str, expected))}",
                path,
            )
        try:  # keys are compared in sorted order where they sort, as torch does
            keys = sorted(expected)
        except TypeError:
            keys = list(expected)
        for key in keys:
            _compare(actual[key], expected[key], (*path, key), options)
        return
    sequences = (list, tuple)
    if isinstance(actual, sequences) and isinstance(expected, sequences):
        if len(actual) != len(expected):
            raise _Mismatch(
                AssertionError,
                f"The length of the sequences mismatch: {len(actual)} != {len(expected)}",
                path,
            )
        for i, (a, e) in enumerate(zip(actual, expected)):
            _compare(a, e, (*path, i), options)
        return
    try:
        _compare_leaf(actual, expected, **options)
    except _Mismatch as mismatch:
        mismatch.path = path
        raise


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
    within tolerances (defaults by dtype, as torch.testing.assert_close), with torch's
    message: the mismatched elements, the greatest differences and where they are."""
    options = dict(
        allow_subclasses=allow_subclasses,
        rtol=rtol,
        atol=atol,
        equal_nan=equal_nan,
        check_dtype=check_dtype,
    )
    try:
        _compare(actual, expected, (), options)
    except _Mismatch as mismatch:
        mismatch.raise_with(msg)


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
