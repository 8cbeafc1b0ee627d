"""Entry points real programs use with mixed dtypes, outside the op sample table: Python
numbers with tensors of each dtype (``t + 1``, ``t // 2``, ``2 ** t``, ``t & 1`` on floats),
0-d tensors of a higher category with 1-d ones, in-place ops whose result type cannot be
cast back (``int_t += 1.5``), and common tensor methods; against torch, as
test_exact_dtype_support.py compares (raised or not, exception type, dtype, shape, values).
"""

from __future__ import annotations

import pytest
from test_exact_dtype_support import DTYPES, difference

import numtorch

torch = pytest.importorskip("torch")

EXPRS = {
    "t + 1": lambda t, x: x + 1,
    "t + 1.5": lambda t, x: x + 1.5,
    "t * 2.5": lambda t, x: x * 2.5,
    "t / 2": lambda t, x: x / 2,
    "t // 2": lambda t, x: x // 2,
    "t ** 2": lambda t, x: x**2,
    "t ** 0.5": lambda t, x: x**0.5,
    "2 ** t": lambda t, x: 2**x,
    "t % 3": lambda t, x: x % 3,
    "t < 1": lambda t, x: x < 1,
    "t == 1": lambda t, x: x == 1,
    "t & 1": lambda t, x: x & 1,
    "t | True": lambda t, x: x | True,
    "~t": lambda t, x: ~x,
    "-t": lambda t, x: -x,
    "t - 1": lambda t, x: x - 1,
    "1 - t": lambda t, x: 1 - x,
    "t + True": lambda t, x: x + True,
    "t * 1j": lambda t, x: x * 1j,
    "t << 1": lambda t, x: x << 1,
    "t + 0d f64": lambda t, x: x + t.tensor(1.5, dtype=t.float64),
    "t + 0d i64": lambda t, x: x + t.tensor(3),
    "t + 0d c128": lambda t, x: x + t.tensor(1j),
    "t * 0d bool": lambda t, x: x * t.tensor(True),
    "0d f64 + t": lambda t, x: t.tensor(1.5, dtype=t.float64) + x,
    "t += 1.5": lambda t, x: x.__iadd__(1.5),
    "t += 1": lambda t, x: x.__iadd__(1),
    "t *= 0d f64": lambda t, x: x.__imul__(t.tensor(2.0, dtype=t.float64)),
    "t /= 2": lambda t, x: x.__itruediv__(2),
    "t //= 2": lambda t, x: x.__ifloordiv__(2),
    "t -= True": lambda t, x: x.__isub__(True),
    "t += f64 tensor": lambda t, x: x.__iadd__(t.ones(3, dtype=t.float64)),
    "t.div(2, floor)": lambda t, x: x.div(2, rounding_mode="floor"),
    "t.div(2, trunc)": lambda t, x: x.div(2, rounding_mode="trunc"),
    "t.true_divide(t)": lambda t, x: x.true_divide(x),
    "t.floor_divide(t)": lambda t, x: x.floor_divide(x),
    "t.remainder(t)": lambda t, x: x.remainder(x),
    "t.pow(t)": lambda t, x: x.pow(x),
    "t.mean()": lambda t, x: x.mean(),
    "t.sum()": lambda t, x: x.sum(),
    "t.prod()": lambda t, x: x.prod(),
    "t.cumsum(0)": lambda t, x: x.cumsum(0),
    "t.abs()": lambda t, x: x.abs(),
    "t.sign()": lambda t, x: x.sign(),
    "t.sqrt()": lambda t, x: x.sqrt(),
    "t.floor()": lambda t, x: x.floor(),
    "t.round()": lambda t, x: x.round(),
    "t.trunc()": lambda t, x: x.trunc(),
    "t.frac()": lambda t, x: x.frac(),
    "t.ceil()": lambda t, x: x.ceil(),
    "t.std()": lambda t, x: x.std(),
    "t.var()": lambda t, x: x.var(),
    "t.norm()": lambda t, x: x.norm(),
    "t.exp()": lambda t, x: x.exp(),
    "t.sigmoid()": lambda t, x: x.sigmoid(),
    "t.neg()": lambda t, x: x.neg(),
    "t.reciprocal()": lambda t, x: x.reciprocal(),
    "t.square()": lambda t, x: x.square(),
    "t.clone().zero_()": lambda t, x: x.clone().zero_(),
    "t.fill_(1.5)": lambda t, x: x.clone().fill_(1.5),
    "t.lerp": lambda t, x: x.lerp(x, 0.5),
    "t.addcmul": lambda t, x: x.addcmul(x, x),
    "t.addcdiv": lambda t, x: x.addcdiv(x, x + 1),
    "t.logical_not()": lambda t, x: x.logical_not(),
    "t.bitwise_not()": lambda t, x: x.bitwise_not(),
    "t.max(t)": lambda t, x: t.max(x, x),
    "t.isnan()": lambda t, x: x.isnan(),
    "t.nan_to_num()": lambda t, x: x.nan_to_num(),
    "t.signbit()": lambda t, x: x.signbit(),
    "t.angle()": lambda t, x: x.angle(),
    "t.real": lambda t, x: x.real,
    "t.conj()": lambda t, x: x.conj(),
    "t.sgn()": lambda t, x: x.sgn(),
    "t.log()": lambda t, x: x.log(),
    "t.tanh()": lambda t, x: x.tanh(),
    "t.where": lambda t, x: t.where(x > 0 if not x.is_complex() else x.real > 0, x, 1.5),
    "t.masked_fill": lambda t, x: x.masked_fill(t.tensor([True, False, True]), 2.5),
    "t.dot": lambda t, x: x.dot(x),
    "t @ t": lambda t, x: x @ x,
    "t.outer": lambda t, x: x.outer(x),
    "t.cross": lambda t, x: t.linalg.cross(x, x),
    "t.hypot": lambda t, x: t.hypot(x, x),
    "t.atan2": lambda t, x: t.atan2(x, x),
    "t.copysign": lambda t, x: t.copysign(x, x),
    "t.logaddexp": lambda t, x: t.logaddexp(x, x),
    "t.gcd": lambda t, x: t.gcd(x, x),
    "t.lcm": lambda t, x: t.lcm(x, x),
    "t.isclose": lambda t, x: t.isclose(x, x),
    "t.allclose": lambda t, x: t.tensor(t.allclose(x, x)),
    "t.equal": lambda t, x: t.tensor(t.equal(x, x)),
    "t.diff": lambda t, x: x.diff(),
    "t.cumprod": lambda t, x: x.cumprod(0),
    "t.logcumsumexp": lambda t, x: x.logcumsumexp(0),
    "t.unique": lambda t, x: x.unique(),
    "t.bincount": lambda t, x: x.bincount(),
    "t.histc": lambda t, x: x.histc(),
    "t.count_nonzero": lambda t, x: x.count_nonzero(),
    "t.any": lambda t, x: x.any(),
    "t.all": lambda t, x: x.all(),
    "t.float_power": lambda t, x: x.float_power(2),
    "t.xlogy": lambda t, x: t.xlogy(x, 2),
    "t.trace": lambda t, x: x.reshape(3, 1).expand(3, 3).trace(),
    "t.tril": lambda t, x: x.reshape(3, 1).expand(3, 3).tril(),
    "t.heaviside": lambda t, x: t.heaviside(x, x),
    "t.frexp": lambda t, x: x.frexp(),
    "t.ldexp": lambda t, x: t.ldexp(x, t.tensor([1, 2, 3])),
    "t.nextafter": lambda t, x: t.nextafter(x, x),
    "t.fmod(2.5)": lambda t, x: x.fmod(2.5),
    "t.remainder(2.5)": lambda t, x: x.remainder(2.5),
    "t.rsub": lambda t, x: t.rsub(x, 1),
    "t.logit": lambda t, x: x.logit(),
    "t.erfinv": lambda t, x: x.erfinv(),
    "t.digamma": lambda t, x: x.digamma(),
    "t.lgamma": lambda t, x: x.lgamma(),
    "t.i0": lambda t, x: x.i0(),
    "t.sinc": lambda t, x: x.sinc(),
    "t.deg2rad": lambda t, x: x.deg2rad(),
    "t.exp2": lambda t, x: x.exp2(),
    "t.clamp(t,t)": lambda t, x: x.clamp(x, x),
    "t.kron": lambda t, x: t.kron(x, x),
    "t.vander": lambda t, x: t.vander(x),
    "t.cartesian": lambda t, x: t.cartesian_prod(x, x),
    "t.searchsorted": lambda t, x: t.searchsorted(x.sort()[0] if not x.is_complex() else x, x),
    "t.bucketize": lambda t, x: t.bucketize(x, x),
}

# The list may only shrink: an entry that starts agreeing fails until it is removed.
KNOWN = {
    # numtorch has no complex32: float16 with a complex number stays float16 (torch:
    # complex32)
    ("t * 1j", "float16"): "no complex32",
    ("t + 0d c128", "float16"): "no complex32",
    # bincount runs on bool where torch refuses
    ("t.bincount", "bool"): "runs a refused dtype",
}


def _outcome(lib, name, dtype):
    x = lib.tensor([1.0, -2.0, 3.0]).to(getattr(lib, dtype))
    try:
        out = EXPRS[name](lib, x)
    except Exception as exc:  # the exception's type is the outcome
        return exc
    out = out if isinstance(out, tuple) else (out,)
    return [o.resolve_conj().resolve_neg() for o in out]


@pytest.mark.parametrize("name", sorted(EXPRS))
def test_entry_point_matches_torch_under_every_dtype(name):
    found = {}
    for dtype in DTYPES:
        diff = difference(_outcome(numtorch, name, dtype), _outcome(torch, name, dtype))
        if diff is not None:
            found[dtype] = diff
    known = {dtype for (entry, dtype) in KNOWN if entry == name}
    new = {k: v for k, v in found.items() if k not in known}
    stale = sorted(known - set(found))
    assert not new, f"{name}: differs from torch under {new}"
    assert not stale, f"{name}: now agrees with torch under {stale}: remove from KNOWN"


@pytest.mark.parametrize("dtype", ["int64", "int32", "bool", "uint8"])
@pytest.mark.parametrize("name", ["softmax", "log_softmax"])
@pytest.mark.parametrize("shape, dim", [((0, 3), -1), ((2, 0), 0), ((0,), 0)])
def test_softmax_of_an_empty_integer_tensor_is_returned_before_the_kernel(name, dtype, shape, dim):
    # torch returns an empty result before picking a kernel: no refusal of the dtype there
    def run(lib):
        x = lib.zeros(shape, dtype=getattr(lib, dtype))
        try:
            out = getattr(lib, name)(x, dim)
        except NotImplementedError as error:
            return str(error)
        return str(out.dtype).split(".")[-1], tuple(out.shape)

    assert run(numtorch) == run(torch)
