"""uint16, uint32 and uint64 against torch: creation, casts, limits, promotion, printing, the
ops torch has kernels for (values and dtypes) and its errors for the rest; hash_tensor."""

from __future__ import annotations

import numpy as np
import pytest

import numtorch

torch = pytest.importorskip("torch")

WIDE = ("uint16", "uint32", "uint64")


def _ops(lib, d):
    F = lib.nn.functional
    x = lib.tensor([[1, 2], [3, 4]], dtype=d)
    i = lib.tensor([0, 1])
    mask = lib.tensor([[True, False], [False, True]])
    return {
        # what torch runs
        "mul": lambda: x * x,
        "mul_scalar": lambda: x * 2,
        "div": lambda: x / x,
        "add_float_tensor": lambda: x + lib.ones(2, 2),
        "add_float_scalar": lambda: x + 1.5,
        "sum": lambda: x.sum(0),
        "prod": lambda: x.prod(),
        "cumsum": lambda: x.cumsum(0),
        "eq": lambda: x == x,
        "ne": lambda: x != 2,
        "sort": lambda: x.sort(),
        "argsort": lambda: x.argsort(),
        "bitwise": lambda: ((x & x), (x | 1), (x ^ x)),
        "cat_stack": lambda: (lib.cat([x, x]), lib.stack([x, x])),
        "views": lambda: (x.t().contiguous(), x.reshape(4), x[:1].expand(2, 2).clone(), x[i]),
        "setitem": lambda: x.clone().__setitem__(0, 5),
        "where": lambda: lib.where(mask, x, x),
        "unique": lambda: x.unique(),
        "float_math": lambda: (x.sqrt(), x.float(), x.long()),
        "fill_zero_copy": lambda: (x.clone().fill_(3), x.clone().zero_(), x.clone().copy_(i)),
        "likes": lambda: (lib.zeros_like(x), lib.ones_like(x), lib.full_like(x, 3)),
        "equal_allclose": lambda: (lib.equal(x, x), lib.allclose(x, x)),
        "any_all": lambda: (x.any(), x.all(), x.isnan()),
        "round": lambda: (x.round(), x.floor(), x.trunc(), x.nan_to_num()),
        "pad": lambda: F.pad(x, (1, 1)),
        "outer_diag": lambda: (lib.outer(x[0], x[0]), x.diag()),
        "python": lambda: (x.tolist(), x[0, 0].item(), int(x[0, 0]), float(x[0, 0])),
        # what torch refuses
        "add": lambda: x + x,
        "add_scalar": lambda: x + 1,
        "sub": lambda: x - x,
        "floor_divide": lambda: x // x,
        "remainder": lambda: x % x,
        "neg": lambda: -x,
        "abs": lambda: x.abs(),
        "max": lambda: x.max(),
        "max_dim": lambda: x.max(0),
        "amax": lambda: x.amax(),
        "argmax": lambda: x.argmax(),
        "lt": lambda: x < 2,
        "ge": lambda: x >= x,
        "topk": lambda: x.topk(1),
        "shift": lambda: x << 1,
        "bitwise_not": lambda: ~x,
        "index_put": lambda: x.clone().index_put_((i,), x[0]),
        "gather": lambda: x.gather(0, i[None]),
        "masked_fill": lambda: x.masked_fill(mask, 0),
        "nonzero": lambda: x.nonzero(),
        "clamp": lambda: x.clamp(1, 2),
        "maximum": lambda: lib.maximum(x, x),
        "pow": lambda: x**2,
        "sign": lambda: x.sign(),
        "mean": lambda: x.mean(),
        "matmul": lambda: x @ x,
        "tril": lambda: x.tril(),
        "arange": lambda: lib.arange(3, dtype=d),
        "linspace": lambda: lib.linspace(0, 3, 4, dtype=d),
        "eye": lambda: lib.eye(2, dtype=d),
        "randperm": lambda: lib.randperm(3, dtype=d),
        "isin": lambda: lib.isin(x, x),
        "logical_not": lambda: lib.logical_not(x),
        "count_nonzero": lambda: x.count_nonzero(),
        "searchsorted": lambda: lib.searchsorted(x[0], x[0]),
        "lerp": lambda: x.lerp(x, 0.5),
        "take": lambda: x.take(i),
        "hash_tensor": lambda: lib.hash_tensor(x),
        # promotion with any other integral or bool dtype
        "promote_int64": lambda: x + lib.tensor([1, 2]),
        "promote_uint8": lambda: x * lib.tensor([1, 2], dtype=lib.uint8),
        "promote_bool": lambda: x == lib.tensor([True, False]),
    }


def _outcome(lib, fn):
    try:
        value = fn()
    except Exception as e:  # the type is what is compared
        return type(e).__name__, str(e).split("\n")[0] if "not implemented" in str(e) else ""
    return _describe(lib, value)


def _describe(lib, value):
    if isinstance(value, lib.Tensor):
        return str(value.dtype), value.numpy().tolist()
    if isinstance(value, (tuple, list)):
        return [_describe(lib, v) for v in value]
    return value


@pytest.mark.parametrize("d", WIDE)
@pytest.mark.parametrize("op", sorted(_ops(numtorch, numtorch.float32)))
def test_ops_match_torch(d, op):
    ours = _outcome(numtorch, _ops(numtorch, getattr(numtorch, d))[op])
    theirs = _outcome(torch, _ops(torch, getattr(torch, d))[op])
    assert ours == theirs


@pytest.mark.parametrize("d", WIDE)
def test_dtype_facts_limits_and_printing_match_torch(d):
    ours, theirs = getattr(numtorch, d), getattr(torch, d)
    assert str(ours) == str(theirs)
    for attr in ("is_floating_point", "is_signed", "is_complex", "itemsize"):
        assert getattr(ours, attr) == getattr(theirs, attr)
    assert repr(numtorch.iinfo(ours)) == repr(torch.iinfo(theirs))
    assert (numtorch.iinfo(ours).max, numtorch.iinfo(ours).bits) == (
        torch.iinfo(theirs).max,
        torch.iinfo(theirs).bits,
    )
    values = [[0, 7, 200], [65535, 1, 3]]
    assert repr(numtorch.tensor(values, dtype=ours)) == repr(torch.tensor(values, dtype=theirs))
    assert numtorch.tensor([1], dtype=ours).type() == torch.tensor([1], dtype=theirs).type()
    # casts wrap as C casts do, and come back from NumPy with their dtype
    wrapped = numtorch.tensor([-1, 3]).to(ours)
    assert wrapped.tolist() == torch.tensor([-1, 3]).to(theirs).tolist()
    array = np.array([1, 2], dtype=d)
    assert numtorch.from_numpy(array).dtype is ours and numtorch.tensor(array).dtype is ours
    assert numtorch.tensor([1.5, 2.7]).to(ours).tolist() == [1, 2]


def test_promotion_matches_torch():
    names = ("uint8", "int8", "int16", "int64", "bool", "float16", "float32", "complex64")
    for wide in WIDE:
        for other in (*names, *WIDE):
            pair = [(getattr(lib, wide), getattr(lib, other)) for lib in (numtorch, torch)]
            results = []
            for lib, (a, b) in zip((numtorch, torch), pair):
                try:
                    results.append(str(lib.promote_types(a, b)))
                except RuntimeError as e:
                    results.append(str(e))
            assert results[0] == results[1], (wide, other)


def test_hash_tensor_matches_torch():
    def run(lib):
        x = lib.arange(6.0).reshape(2, 3)
        h = lib.hash_tensor
        out = [
            h(lib.tensor([1.0, 2.0])),
            h(lib.tensor([1.0, 2.0], dtype=lib.float16)),
            h(lib.tensor([3, -5], dtype=lib.int8)),
            h(lib.tensor([True, False, True])),
            h(x, 0),
            h(x, 1, keepdim=True),
            h(x, (0, 1)),
            h(lib.tensor(2.5)),
            h(lib.zeros(0, 3), 1),
            x.hash_tensor(),
            h(lib.tensor([1.0], requires_grad=True)).requires_grad,
        ]
        for bad in (lambda: h(lib.tensor([])), lambda: h(lib.zeros(0, 3), 0), lambda: h(x, mode=1)):
            out.append(_outcome(lib, bad))
        out.append(_outcome(lib, lambda: h(lib.tensor([1j]))))
        return [_describe(lib, v) for v in out]

    assert run(numtorch) == run(torch)
