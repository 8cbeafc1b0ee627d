"""Tensor basics: creation, dtypes and promotion, printing, conversions, errors."""

from __future__ import annotations

import itertools
import warnings

import numpy as np
import pytest
from conftest import torch_or_skip

import numtorch as torch

DTYPES = ["float16", "float32", "float64", "uint8", "int8", "int16", "int32", "int64", "bool"]


def test_default_dtypes():
    assert torch.tensor(1.5).dtype is torch.float32
    assert torch.tensor([1, 2]).dtype is torch.int64
    assert torch.tensor([True]).dtype is torch.bool
    assert torch.tensor([1, 2.5]).dtype is torch.float32
    assert torch.zeros(2).dtype is torch.float32
    assert torch.arange(3).dtype is torch.int64
    assert torch.arange(0.0, 1.0, 0.25).dtype is torch.float32
    assert torch.full((2,), 1).dtype is torch.int64
    assert torch.tensor(np.array([1.0, 2.0])).dtype is torch.float64


def test_set_default_dtype_round_trip():
    try:
        torch.set_default_dtype(torch.float64)
        assert torch.tensor(1.5).dtype is torch.float64
        assert (torch.tensor([1, 2]) / 2).dtype is torch.float64
    finally:
        torch.set_default_dtype(torch.float32)
    with pytest.raises(TypeError):
        torch.set_default_dtype(torch.int64)


def _operand(lib, kind, dtype):
    if kind == "tensor":
        return lib.ones(2, dtype=getattr(lib, dtype))
    if kind == "zero_dim":
        return lib.ones((), dtype=getattr(lib, dtype))
    return {"int": 2, "float": 2.5, "bool": True}[dtype]


PROMOTION_CASES = [
    (k1, d1, k2, d2)
    for (k1, k2) in [
        ("tensor", "tensor"),
        ("tensor", "zero_dim"),
        ("zero_dim", "tensor"),
        ("tensor", "scalar"),
        ("zero_dim", "scalar"),
    ]
    for d1 in DTYPES
    for d2 in (DTYPES if k2 != "scalar" else ["int", "float", "bool"])
]


@pytest.mark.parametrize("k1, d1, k2, d2", PROMOTION_CASES)
def test_promotion_matches_torch(k1, d1, k2, d2):
    t = torch_or_skip()
    ours = torch.result_type(_operand(torch, k1, d1), _operand(torch, k2, d2))
    theirs = t.result_type(_operand(t, k1, d1), _operand(t, k2, d2))
    assert str(ours) == str(theirs)


@pytest.mark.parametrize("op", ["add", "mul", "sub", "div", "maximum", "lt", "eq"])
@pytest.mark.parametrize(
    "d1, d2",
    list(
        itertools.combinations_with_replacement(
            ["float32", "float64", "int32", "int64", "bool", "uint8", "float16"], 2
        )
    ),
)
def test_binary_op_dtypes_match_torch(op, d1, d2):
    t = torch_or_skip()
    results = []
    for lib in (torch, t):
        a = lib.ones(3, dtype=getattr(lib, d1))
        b = lib.ones(3, dtype=getattr(lib, d2))
        try:
            results.append(str(getattr(lib, op)(a, b).dtype))
        except (RuntimeError, TypeError) as error:
            results.append(type(error).__name__)
    assert results[0] == results[1]


REPR_CASES = [
    lambda t: t.tensor([1.0, 2.5]),
    lambda t: t.tensor([[1, 2], [3, 4]]),
    lambda t: t.tensor([True, False]),
    lambda t: t.tensor(3),
    lambda t: t.tensor(3.0),
    lambda t: t.tensor([]),
    lambda t: t.zeros(0, 3),
    lambda t: t.tensor([1e10, 1.0]),
    lambda t: t.tensor([0.1, 123456.0]),
    lambda t: t.tensor([float("nan"), float("inf"), -float("inf"), 1.5]),
    lambda t: t.tensor([1.0, 2.0], dtype=t.float16),
    lambda t: t.tensor([1, 2], dtype=t.int32),
    lambda t: t.arange(2000.0),
    lambda t: t.ones(2, 3, 4),
    lambda t: t.tensor([1.123456789, 2.0]),
    lambda t: t.tensor([100.0, 2.0]),
    lambda t: t.tensor([1e-4, 1.0]),
    lambda t: t.tensor([[1e-5, 1e5], [1.0, 2.0]]),
    lambda t: t.tensor([[1.5, 2], [3, 4]], dtype=t.float64),
    lambda t: t.arange(30.0).reshape(5, 6) / 7,
    lambda t: t.arange(1200).reshape(40, 30),
    lambda t: t.tensor([-0.0, 0.0, 1.0]),
    lambda t: t.ones(3, requires_grad=True),
    lambda t: t.ones(3, requires_grad=True) * 2,
    lambda t: t.zeros(2, dtype=t.float64, requires_grad=True).sum(),
    lambda t: t.arange(24.0).reshape(2, 3, 4) * 1e6,
    lambda t: t.tensor([1 + 2j, 3 - 1j]),
    lambda t: t.tensor([[1.5 + 2j, -3.25 - 1j], [0j, 1e5 + 1j]]),
    lambda t: t.tensor(2 + 0.5j),
]


@pytest.mark.parametrize(
    "values",
    [
        [np.float64(1.0), np.float64(2.0)],
        [np.float32(1.0), 2.0],
        [np.int32(1), np.int32(2)],
        [np.float16(1), np.float64(2)],
        [np.int16(1), 2.5],
        [[np.int8(1)], [np.int8(2)]],
    ],
)
def test_numpy_scalars_in_lists_keep_their_dtype(values):
    t = torch_or_skip()
    assert str(torch.tensor(values).dtype) == str(t.tensor(values).dtype)


@pytest.mark.parametrize("case", range(len(REPR_CASES)))
def test_repr_matches_torch(case):
    t = torch_or_skip()
    assert repr(REPR_CASES[case](torch)) == repr(REPR_CASES[case](t))


def test_repr_examples():
    x = torch.tensor([1.0], requires_grad=True)
    assert repr(x.exp()) == "tensor([2.7183], grad_fn=<ExpBackward0>)"
    assert repr(torch.tensor(1.0) + torch.tensor(2.7183)) == "tensor(3.7183)"
    assert repr(torch.float32) == "torch.float32"
    assert repr(torch.zeros(2, 3).shape) == "torch.Size([2, 3])"


def test_size_concatenation_and_repetition_stay_sizes():
    real = torch_or_skip()

    def case(lib):
        s = lib.ones(2, 3).shape
        results = [s + (4,), (1,) + s, s + s, s * 2, 2 * s]
        shown = [(type(r).__name__, repr(r).replace("numtorch", "torch")) for r in results]
        for bad in (lambda: s + [1], lambda: s + (1.5,)):
            with pytest.raises(TypeError) as info:
                bad()
            shown.append(str(info.value))
        return shown

    assert case(torch) == case(real)


def test_properties_and_conversions():
    x = torch.tensor([[1.5, 2.0], [3.0, 4.0]])
    assert x.shape == (2, 2) and x.size() == torch.Size([2, 2]) and x.size(-1) == 2
    assert x.dim() == x.ndim == 2 and x.numel() == 4
    assert str(x.device) == "cpu"
    assert x.T.tolist() == [[1.5, 3.0], [2.0, 4.0]]
    assert x[0, 0].item() == 1.5 and isinstance(torch.tensor(2).item(), int)
    assert len(x) == 2 and float(x[0, 0]) == 1.5 and int(x[1, 1]) == 4
    assert x.float() is x and x.double().dtype is torch.float64 and x.long().dtype is torch.int64
    assert x.to(torch.float64).dtype is torch.float64 and x.to("cpu") is x
    assert x.numpy() is x._data
    assert [t.tolist() for t in x] == [[1.5, 2.0], [3.0, 4.0]]


def test_conversion_errors():
    with pytest.raises(RuntimeError, match="ambiguous"):
        bool(torch.ones(2))
    with pytest.raises(TypeError, match="len\\(\\) of a 0-d tensor"):
        len(torch.tensor(1.0))
    with pytest.raises(TypeError, match="iteration over a 0-d tensor"):
        iter(torch.tensor(1.0))
    with pytest.raises(RuntimeError, match="2 elements cannot be converted to Scalar"):
        torch.ones(2).item()
    with pytest.raises(RuntimeError, match="Use tensor.detach\\(\\).numpy\\(\\)"):
        torch.ones(2, requires_grad=True).numpy()
    with pytest.raises(TypeError):
        np.ones(2) * torch.ones(2)
    with pytest.raises(TypeError):
        torch.ones(2) + "a"


def test_evenly_spaced_factories_refuse_bool_once_they_compute():
    for name in ("linspace", "logspace"):
        with pytest.raises(NotImplementedError, match=f'"{name}_cpu" not implemented for .Bool.'):
            getattr(torch, name)(-1, 1, 3, dtype=torch.bool)
        assert getattr(torch, name)(0, 1, 1, dtype=torch.bool).tolist() == [name == "logspace"]
        assert getattr(torch, name)(0, 1, 0, dtype=torch.bool).tolist() == []


def test_creation_and_errors():
    assert torch.zeros((2, 3)).shape == torch.zeros([2, 3]).shape == torch.zeros(2, 3).shape
    assert torch.eye(2, 3).tolist() == [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]
    assert torch.linspace(0, 1, 5).tolist() == [0.0, 0.25, 0.5, 0.75, 1.0]
    assert torch.arange(1, 7, 2).tolist() == [1, 3, 5]
    assert torch.ones(2).new_zeros(3).dtype is torch.float32
    with pytest.raises(RuntimeError, match="Only Tensors of floating point"):
        torch.tensor([1, 2], requires_grad=True)
    with pytest.raises(RuntimeError, match="only Tensors of floating point dtype"):
        torch.tensor([1, 2]).requires_grad_()
    with pytest.raises(ValueError, match="expected sequence of length 2 at dim 1"):
        torch.tensor([[1, 2], [3]])
    with pytest.raises(TypeError, match="invalid data type 'str'"):
        torch.tensor("abc")
    with pytest.raises(RuntimeError, match="non-negative"):
        torch.zeros(-1)
    with pytest.raises(AssertionError, match="not compiled with CUDA"):  # torch's type
        torch.zeros(2, device="cuda")
    with pytest.raises(AssertionError, match="not compiled with XPU"):
        torch.ones(2).to("xpu")
    # every factory refuses before it draws: the generator is left as it was
    state = torch.get_rng_state()
    for make in (torch.randn, torch.rand, lambda *a, **k: torch.zeros_like(torch.ones(*a), **k)):
        with pytest.raises(AssertionError, match="not compiled with CUDA"):
            make(2, device=torch.device("cuda"))
    assert torch.equal(torch.get_rng_state(), state)
    with pytest.raises(RuntimeError, match="CPU only"):
        torch.zeros(2, device="mps")
    with pytest.raises(RuntimeError, match="Expected one of cpu, cuda"):
        torch.device("gpu")
    assert torch.device("cuda", 1).index == 1 and str(torch.device("cuda:1")) == "cuda:1"


def test_from_numpy_shares_memory_and_copies_elsewhere():
    a = np.array([1.0, 2.0])
    t = torch.from_numpy(a)
    a[0] = 5
    assert t.tolist() == [5.0, 2.0]
    copied = torch.tensor(a)
    a[1] = 7
    assert copied.tolist() == [5.0, 2.0]


def test_random_is_seeded():
    torch.manual_seed(0)
    a = torch.randn(3)
    torch.manual_seed(0)
    b = torch.randn(3)
    assert a.tolist() == b.tolist()
    state = torch.get_rng_state()
    c = torch.rand(4)
    torch.set_rng_state(state)
    assert torch.rand(4).tolist() == c.tolist()
    g = torch.Generator().manual_seed(1)
    assert torch.randint(0, 10, (5,), generator=g).dtype is torch.int64
    assert sorted(torch.randperm(5).tolist()) == [0, 1, 2, 3, 4]


def test_requires_grad_rules():
    x = torch.ones(2, requires_grad=True)
    y = x * 2
    assert not y.is_leaf and y.requires_grad
    y.requires_grad_(True)  # allowed: already requires grad
    with pytest.raises(RuntimeError, match="leaf variables"):
        y.requires_grad_(False)
    d = x.detach()
    assert d.is_leaf and not d.requires_grad and d._version == x._version
    with pytest.raises(RuntimeError, match="cannot register a hook"):
        torch.ones(2).register_hook(lambda g: g)
    with pytest.raises(RuntimeError, match="retain_grad"):
        torch.ones(2).retain_grad()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert x.grad is None  # a leaf: no warning


def test_grad_assignment_checks():
    x = torch.ones(3, requires_grad=True)
    with pytest.raises(RuntimeError, match="size"):
        x.grad = torch.ones(4)
    with pytest.raises(RuntimeError, match="dtype"):
        x.grad = torch.ones(3, dtype=torch.float64)
    x.grad = torch.ones(3)
    del x.grad
    assert x.grad is None


def test_strides_and_storage_offsets_of_views_match_torch():
    views = [
        lambda x: x,
        lambda x: x[1],
        lambda x: x[:, 2],
        lambda x: x[1:, 1:].t(),
        lambda x: x.view(4, 3)[2:],
        lambda x: x[..., ::2],
    ]
    real = torch_or_skip()
    for view in views:
        ours = view(torch.arange(12.0).reshape(3, 4))
        theirs = view(real.arange(12.0).reshape(3, 4))
        assert ours.stride() == theirs.stride()
        assert ours.storage_offset() == theirs.storage_offset()
        assert ours.is_contiguous() == theirs.is_contiguous()


def _pickled(lib):
    import pickle

    leaf = lib.tensor([1.0, 2.0], requires_grad=True)
    leaf.grad = lib.ones(2)
    leaf.note = "kept"
    base = lib.arange(6.0).reshape(2, 3)
    rows = list(base)  # views of base: their bookkeeping once made base unpicklable
    out = []
    for t in (leaf, leaf * 2, rows[1], base, base.t()):
        back = pickle.loads(pickle.dumps(t))
        out.append(
            (
                back.tolist(),
                back.requires_grad,
                back.grad,
                back.grad_fn,
                getattr(back, "note", None),
                tuple(back.stride()),
            )
        )
    return out


def test_pickling_keeps_values_requires_grad_and_attributes_as_torch():
    # a view, a tensor with views and a non-leaf could not be pickled; the gradient was kept
    import numtorch

    oracle = pytest.importorskip("torch")
    assert _pickled(numtorch) == _pickled(oracle)


def test_float_of_a_tensor_requiring_grad_warns_once_as_torch():
    import numtorch
    import numtorch._core.tensor as tensor_module

    tensor_module._warned_float_of_grad = False  # once per process: start from not yet
    g = numtorch.tensor(1.5, requires_grad=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        g.item(), int(g), f"{g:.2f}"  # these never warn
        with numtorch.no_grad():
            float(g)  # nor float() under no_grad, which leaves the one warning for later
        assert not caught
        float(g), float(g)
    assert len(caught) == 1
    assert "Converting a tensor with requires_grad=True to a scalar" in str(caught[0].message)
