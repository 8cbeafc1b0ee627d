"""Note [Kernel dtypes]: an entry's ``dtypes=`` is checked at the op boundary on every path
(the generated unary and binary runners, the general path, in-place variants, operators),
on the dtype the op computes in, with torch's exception type and message."""

from __future__ import annotations

import pytest

import numtorch
from numtorch._core.kernel_dtypes import COMPLEX, REAL, kernel

F = numtorch.nn.functional

CALLS = {
    "lt complex": lambda t: t.ones(2, dtype=t.complex64) < t.ones(2, dtype=t.complex64),
    "lt complex and number": lambda t: t.ones(2, dtype=t.complex64) < 1,
    "gt float and complex": lambda t: t.gt(t.ones(2), t.ones(2, dtype=t.complex128)),
    "le_ in place": lambda t: t.ones(2, dtype=t.complex64).le_(1),
    "ge bfloat16 complex": lambda t: t.ones(2, dtype=t.bfloat16) >= t.ones(2, dtype=t.complex64),
    "maximum": lambda t: t.maximum(t.ones(2, dtype=t.complex64), t.ones(2)),
    "fmin": lambda t: t.fmin(t.ones(2, dtype=t.complex64), t.ones(2, dtype=t.complex64)),
    "clamp": lambda t: t.ones(2, dtype=t.complex64).clamp(0, 1),
    "clamp tensor bool": lambda t: t.ones(2, dtype=t.bool).clamp(
        t.ones(2, dtype=t.bool), t.ones(2, dtype=t.bool)
    ),
    "clamp_min tensor": lambda t: t.ones(2, dtype=t.complex64).clamp_min(t.ones(2)),
    "relu": lambda t: t.relu(t.ones(2, dtype=t.complex64)),
    "sort": lambda t: t.ones(2, dtype=t.complex64).sort(),
    "topk complex": lambda t: t.ones(2, dtype=t.complex64).topk(1),
    "topk bool": lambda t: t.ones(2, dtype=t.bool).topk(1),
    "max": lambda t: t.ones(2, dtype=t.complex64).max(),
    "max dim": lambda t: t.ones(2, dtype=t.complex64).max(0),
    "amin": lambda t: t.ones(2, dtype=t.complex64).amin(),
    "argmax bool": lambda t: t.ones(2, dtype=t.bool).argmax(),
    "argmin complex": lambda t: t.ones(2, dtype=t.complex64).argmin(),
    "cummax": lambda t: t.ones(2, dtype=t.complex64).cummax(0),
    "median bool": lambda t: t.ones(2, dtype=t.bool).median(),
    "kthvalue": lambda t: t.ones(2, dtype=t.complex64).kthvalue(1),
    "mode": lambda t: t.ones(2, dtype=t.complex64).mode(),
    "softmax integers": lambda t: t.ones(2, dtype=t.int32).softmax(0),
    "log_softmax complex": lambda t: t.ones(2, dtype=t.complex64).log_softmax(0),
    "elu integers": lambda t: t.nn.functional.elu(t.ones(2, dtype=t.int64)),
    "gelu bool": lambda t: t.nn.functional.gelu(t.ones(2, dtype=t.bool)),
    "hardswish complex": lambda t: t.nn.functional.hardswish(t.ones(2, dtype=t.complex64)),
    "erf complex": lambda t: t.erf(t.ones(2, dtype=t.complex64)),
    "xlogy complex": lambda t: t.xlogy(t.ones(2, dtype=t.complex64), 2.0),
    "mm bool": lambda t: t.ones(2, 2, dtype=t.bool) @ t.ones(2, 2, dtype=t.bool),
    "bmm bool": lambda t: t.ones(1, 2, 2, dtype=t.bool).bmm(t.ones(1, 2, 2, dtype=t.bool)),
    "dot bool": lambda t: t.ones(2, dtype=t.bool).dot(t.ones(2, dtype=t.bool)),
    "lgamma complex": lambda t: t.ones(2, dtype=t.complex64).lgamma(),
    "sign complex": lambda t: t.ones(2, dtype=t.complex64).sign(),
    "round complex": lambda t: t.ones(2, dtype=t.complex128).round(),
    "deg2rad complex": lambda t: t.ones(2, dtype=t.complex64).deg2rad(),
    "lerp integers (weight a number)": lambda t: t.ones(2, dtype=t.int64).lerp(
        t.ones(2, dtype=t.int64), 0.5
    ),
    "addcmul bool": lambda t: t.ones(2, dtype=t.bool).addcmul(
        t.ones(2, dtype=t.bool), t.ones(2, dtype=t.bool)
    ),
    "addcdiv integers": lambda t: t.ones(2).addcdiv(
        t.ones(2, dtype=t.int64), t.ones(2, dtype=t.int32)
    ),
    "unique complex": lambda t: t.ones(2, dtype=t.complex64).unique(),
    "max_pool2d bool": lambda t: t.nn.functional.max_pool2d(t.ones(1, 1, 4, 4, dtype=t.bool), 2),
    "max_pool2d indices complex": lambda t: t.nn.functional.max_pool2d(
        t.ones(1, 1, 4, 4, dtype=t.complex64), 2, return_indices=True
    ),
    "avg_pool2d uint8": lambda t: t.nn.functional.avg_pool2d(t.ones(1, 1, 4, 4, dtype=t.uint8), 2),
    "avg_pool3d half": lambda t: t.nn.functional.avg_pool3d(
        t.ones(1, 1, 2, 4, 4, dtype=t.float16), 2
    ),
    "linalg.det half (NumPy's linalg refusal translated)": lambda t: t.linalg.det(
        t.eye(2, dtype=t.float16)
    ),
    "linalg.det bfloat16": lambda t: t.linalg.det(t.eye(2, dtype=t.bfloat16)),
    "linalg.svd bfloat16": lambda t: t.linalg.svd(t.eye(2, dtype=t.bfloat16)),
    "linalg.cholesky half": lambda t: t.linalg.cholesky(t.eye(2, dtype=t.float16)),
    "linalg.inv half": lambda t: t.linalg.inv(t.eye(2, dtype=t.float16)),
    "slogdet bfloat16": lambda t: t.linalg.slogdet(t.eye(2, dtype=t.bfloat16)),
    "logdet half": lambda t: t.logdet(t.eye(2, dtype=t.float16)),
    "kl_div complex": lambda t: t.kl_div(
        t.ones(2, dtype=t.complex64), t.ones(2, dtype=t.complex64)
    ),
}


def _outcome(lib, fn):
    try:
        return fn(lib).dtype
    except Exception as error:  # the type and message are what is compared
        return type(error), str(error)


@pytest.mark.parametrize("case", sorted(CALLS))
def test_refused_dtypes_raise_torchs_error(case):
    ours = _outcome(numtorch, CALLS[case])
    assert isinstance(ours, tuple), f"{case}: numtorch returned {ours}"
    torch = pytest.importorskip("torch")
    assert ours == _outcome(torch, CALLS[case])


ACCEPTED = {
    "lt float": lambda t: t.ones(2) < t.ones(2),
    "lt integers and float number": lambda t: t.ones(2, dtype=t.int64) < 1.5,
    "eq complex": lambda t: t.ones(2, dtype=t.complex64) == 1,
    "erf integers (computed in float)": lambda t: t.erf(t.ones(2, dtype=t.int64)),
    "clamp bool with numbers": lambda t: t.ones(2, dtype=t.bool).clamp(0, 1),
    "max bool": lambda t: t.ones(2, dtype=t.bool).max(),
    "sort bool": lambda t: t.ones(2, dtype=t.bool).sort()[0],
    "threshold integers": lambda t: t.nn.functional.threshold(t.ones(2, dtype=t.int64), 0, 1),
    "softmax bfloat16": lambda t: t.ones(2, dtype=t.bfloat16).softmax(0),
    "silu complex": lambda t: t.nn.functional.silu(t.ones(2, dtype=t.complex64)),
    "bfloat16 times a complex number (complex64)": lambda t: t.ones(2, dtype=t.bfloat16) * 1j,
    "addcdiv integer input, float divisor": lambda t: t.ones(2, dtype=t.int64).addcdiv(
        t.ones(2, dtype=t.int64), t.ones(2)
    ),
    "mm integers": lambda t: t.ones(2, 2, dtype=t.int64) @ t.ones(2, 2, dtype=t.int64),
    "avg_pool2d int64": lambda t: t.nn.functional.avg_pool2d(t.ones(1, 1, 4, 4, dtype=t.int64), 2),
    "max_pool2d int64": lambda t: t.nn.functional.max_pool2d(t.ones(1, 1, 4, 4, dtype=t.int64), 2),
}


@pytest.mark.parametrize("case", sorted(ACCEPTED))
def test_supported_dtypes_run(case):
    ours = _outcome(numtorch, ACCEPTED[case])
    assert not isinstance(ours, tuple), f"{case}: {ours}"
    torch = pytest.importorskip("torch")
    assert str(ours) == str(_outcome(torch, ACCEPTED[case]))


def test_a_declaration_names_the_kernel_and_torchs_dtype_name():
    refusal = kernel("lt_cpu", REAL)
    assert refusal.supported.isdisjoint(COMPLEX)
    error = refusal.error(numtorch.complex128.np)
    assert isinstance(error, NotImplementedError)
    assert str(error) == "\"lt_cpu\" not implemented for 'ComplexDouble'"
