"""torch.bfloat16 on ml_dtypes' NumPy dtype: values bit for bit as torch computes them
(in float32, rounded once), dtypes, promotion, finfo, printing and gradients."""

import numpy as np
import pytest

import numtorch

torch = pytest.importorskip("torch")

DATA = [[1.1, 2.3, -3.7, 0.001], [1e10, -5e-3, 3.14159, 7.0]]


def _bf16(lib, data=DATA):
    return lib.tensor(data, dtype=lib.bfloat16)


def _bits(lib, t):
    """The exact bfloat16 values as float32 (lossless)."""
    return t.float().detach().numpy()


@pytest.mark.parametrize(
    "op",
    [
        lambda lib, b: b + b,
        lambda lib, b: b * b,
        lambda lib, b: b / 3,
        lambda lib, b: b - 1.5,
        lambda lib, b: 2 ** b.clamp(-5, 5),
        lambda lib, b: b.exp(),
        lambda lib, b: b.abs().sqrt(),
        lambda lib, b: b.tanh(),
        lambda lib, b: b.sigmoid(),
        lambda lib, b: b.sum(),
        lambda lib, b: b.sum(1),
        lambda lib, b: b.mean(0),
        lambda lib, b: b[:, :3].var(1),
        lambda lib, b: b.cumsum(1),
        lambda lib, b: b.softmax(1),
        lambda lib, b: b @ b.T,
        lambda lib, b: lib.nn.functional.linear(b, b, b[0, :2]),
        lambda lib, b: lib.nn.functional.layer_norm(b, (4,)),
        lambda lib, b: lib.nn.functional.relu(b),
        lambda lib, b: b.max(1).values,
        lambda lib, b: b + lib.tensor([1, 2, 3, 4]),
        lambda lib, b: lib.where(b > 0, b, 0.5),
        lambda lib, b: lib.cat([b, b]),
        lambda lib, b: b.reshape(4, 2).t(),
        lambda lib, b: lib.randn(1000, generator=None).mul(0).bfloat16() + b.sum(),
    ],
)
def test_arithmetic_matches_torch_bit_for_bit(op):
    theirs = op(torch, _bf16(torch))
    ours = op(numtorch, _bf16(numtorch))
    assert str(ours.dtype) == str(theirs.dtype)
    np.testing.assert_array_equal(_bits(numtorch, ours), _bits(torch, theirs))


@pytest.mark.parametrize(
    "op",
    [lambda lib, b: b.log_softmax(1), lambda lib, b: lib.nn.functional.gelu(b)],
)
def test_transcendental_composites_within_one_rounding_step(op):
    # torch's vectorised kernels order their float32 steps differently: results may differ
    # by one bfloat16 step (2**-8 relative)
    theirs = _bits(torch, op(torch, _bf16(torch)))
    ours = _bits(numtorch, op(numtorch, _bf16(numtorch)))
    np.testing.assert_allclose(ours, theirs, rtol=2**-7, atol=1e-30)


def test_sum_of_many_terms_accumulates_in_float32():
    values = np.linspace(0.001, 1.0, 4096, dtype=np.float32)
    ours = numtorch.tensor(values).bfloat16().sum().float().item()
    theirs = torch.tensor(values).bfloat16().sum().float().item()
    assert ours == theirs


@pytest.mark.parametrize(
    "other", ["float16", "float32", "float64", "int64", "uint8", "bool", "complex64"]
)
def test_promotion(other):
    for lib in (numtorch, torch):
        assert str(lib.promote_types(lib.bfloat16, getattr(lib, other))) == str(
            torch.promote_types(torch.bfloat16, getattr(torch, other))
        )
    a = _bf16(numtorch) + numtorch.ones(4, dtype=getattr(numtorch, other))
    b = _bf16(torch) + torch.ones(4, dtype=getattr(torch, other))
    assert str(a.dtype) == str(b.dtype)


def test_finfo_and_dtype_flags():
    ours, theirs = numtorch.finfo(numtorch.bfloat16), torch.finfo(torch.bfloat16)
    for field in ("bits", "eps", "max", "min", "tiny", "smallest_normal", "resolution"):
        assert getattr(ours, field) == getattr(theirs, field), field
    assert ours.dtype == theirs.dtype
    for lib in (numtorch, torch):
        d = lib.bfloat16
        assert (d.is_floating_point, d.is_complex, d.is_signed, d.itemsize) == (
            True,
            False,
            True,
            2,
        )
        assert _bf16(lib).is_floating_point()
        assert _bf16(lib).element_size() == 2


@pytest.mark.parametrize(
    "make",
    [
        lambda lib: _bf16(lib),
        lambda lib: lib.tensor(3.14159, dtype=lib.bfloat16),
        lambda lib: lib.zeros(2, dtype=lib.bfloat16),
        lambda lib: lib.arange(3, dtype=lib.bfloat16),
        lambda lib: lib.tensor([1.5, 2.0], requires_grad=True).bfloat16(),
        lambda lib: lib.tensor([[0.1, 200.0], [-3.0, 4.0]]).bfloat16(),
    ],
)
def test_printing(make):
    assert repr(make(numtorch)) == repr(make(torch))


def test_casts_and_python_values():
    for lib in (numtorch, torch):
        b = lib.tensor([1.1, -2.7]).bfloat16()
        assert b.dtype == lib.bfloat16
        assert b.tolist() == [1.1015625, -2.703125]
        assert b.long().tolist() == [1, -2]
        assert b.to(lib.float64).tolist() == [1.1015625, -2.703125]
        assert b[0].item() == 1.1015625
        assert b.type() == "torch.BFloat16Tensor"
        assert lib.tensor([1.0], dtype=lib.bfloat16).numpy  # exists
        with pytest.raises(TypeError):
            b.numpy()  # NumPy has no bfloat16 of its own: torch refuses


def test_gradients_flow_in_bfloat16_and_back_to_float32():
    results = []
    for lib in (numtorch, torch):
        x = lib.tensor([0.3, -1.2, 2.5], requires_grad=True)
        y = (x.bfloat16() * x.bfloat16()).sum()
        y.backward()
        results.append((str(y.dtype), type(y.grad_fn).__name__, x.grad.tolist()))
    assert results[0] == results[1]


def test_module_bfloat16():
    for lib in (numtorch, torch):
        lib.manual_seed(0)
        m = lib.nn.Linear(3, 2).bfloat16()
        assert m.weight.dtype == lib.bfloat16 and m.bias.dtype == lib.bfloat16
        out = m(lib.ones(1, 3, dtype=lib.bfloat16))
        assert out.dtype == lib.bfloat16
