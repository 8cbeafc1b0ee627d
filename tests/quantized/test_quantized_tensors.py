"""Quantized tensors against torch: quantization arithmetic, qparams, printing, views, errors."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import numtorch

torch = pytest.importorskip("torch")

pytestmark = pytest.mark.filterwarnings("ignore:torch.quantize_per_tensor:UserWarning")


def _pair(values):
    array = np.asarray(values, dtype=np.float32)
    return numtorch.tensor(array), torch.tensor(array)


def _outcome(fn, lib):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return "ok", fn(lib)
        except Exception as error:  # the exception type is what is compared
            return "raised", type(error).__name__


@pytest.mark.parametrize(
    "scale, zero_point, name",
    [(0.1, 10, "quint8"), (0.037, -3, "qint8"), (0.0123, 0, "qint32"), (1 / 3, 5, "quint8")],
)
def test_quantize_per_tensor_matches_torch_bit_for_bit(scale, zero_point, name):
    rng = np.random.default_rng(0)
    values = (rng.standard_normal(20000) * 3).astype(np.float32)
    values[:6] = [0.05, 0.15, 0.25, -0.35, 1e9, -1e9]  # halves and saturation
    ours, theirs = _pair(values)
    q = numtorch.quantize_per_tensor(ours, scale, zero_point, getattr(numtorch, name))
    t = torch.quantize_per_tensor(theirs, scale, zero_point, getattr(torch, name))
    np.testing.assert_array_equal(q.int_repr().numpy(), t.int_repr().numpy())
    np.testing.assert_array_equal(q.dequantize().numpy(), t.dequantize().numpy())
    assert str(q.int_repr().dtype) == str(t.int_repr().dtype)
    assert (q.q_scale(), q.q_zero_point()) == (t.q_scale(), t.q_zero_point())
    assert str(q.dtype) == str(t.dtype) and str(q.qscheme()) == str(t.qscheme())


@pytest.mark.parametrize("axis", [0, 1])
def test_quantize_per_channel_matches_torch(axis):
    rng = np.random.default_rng(1)
    values = (rng.standard_normal((3, 4)) * 2).astype(np.float32)
    ours, theirs = _pair(values)
    n = values.shape[axis]
    scales = np.linspace(0.01, 0.1, n)
    zeros = np.arange(n) - 1
    q = numtorch.quantize_per_channel(
        ours, numtorch.tensor(scales), numtorch.tensor(zeros), axis, numtorch.qint8
    )
    t = torch.quantize_per_channel(
        theirs, torch.tensor(scales), torch.tensor(zeros), axis, torch.qint8
    )
    np.testing.assert_array_equal(q.int_repr().numpy(), t.int_repr().numpy())
    np.testing.assert_array_equal(q.dequantize().numpy(), t.dequantize().numpy())
    np.testing.assert_array_equal(q.q_per_channel_scales().numpy(), t.q_per_channel_scales())
    assert q.q_per_channel_scales().dtype == numtorch.float64
    np.testing.assert_array_equal(
        q.q_per_channel_zero_points().numpy(), t.q_per_channel_zero_points()
    )
    assert q.q_per_channel_axis() == t.q_per_channel_axis() == axis
    assert repr(q) == repr(t)


@pytest.mark.parametrize("name", ["quint8", "qint8"])
@pytest.mark.parametrize("reduce_range", [False, True])
def test_quantize_per_tensor_dynamic_chooses_torch_qparams(name, reduce_range):
    rng = np.random.default_rng(2)
    for values in (
        rng.standard_normal(50) * 3,
        np.abs(rng.standard_normal(10)),
        -np.abs(rng.standard_normal(10)),
        np.zeros(4),
        [-1.0, 0.0, 1.0, 2.0],
    ):
        ours, theirs = _pair(values)
        q = numtorch.quantize_per_tensor_dynamic(ours, getattr(numtorch, name), reduce_range)
        t = torch.quantize_per_tensor_dynamic(theirs, getattr(torch, name), reduce_range)
        assert (q.q_scale(), q.q_zero_point()) == (t.q_scale(), t.q_zero_point())
        np.testing.assert_array_equal(q.int_repr().numpy(), t.int_repr().numpy())


def test_list_form_and_tensor_qparams():
    a, ta = _pair([-1.0, 0.0])
    b, tb = _pair([-2.0, 2.0])
    qs = numtorch.quantize_per_tensor(
        [a, b], numtorch.tensor([0.1, 0.2]), numtorch.tensor([10, 20]), numtorch.quint8
    )
    ts = torch.quantize_per_tensor(
        [ta, tb], torch.tensor([0.1, 0.2]), torch.tensor([10, 20]), torch.quint8
    )
    assert [repr(q) for q in qs] == [repr(t) for t in ts]
    x, tx = _pair([-1.0, 0.0, 1.0, 2.0])
    q = numtorch.quantize_per_tensor(x, numtorch.tensor(0.1), numtorch.tensor(10), numtorch.quint8)
    t = torch.quantize_per_tensor(tx, torch.tensor(0.1), torch.tensor(10), torch.quint8)
    assert q.q_scale() == t.q_scale() and repr(q) == repr(t)


@pytest.mark.parametrize(
    "shape, scale, zero_point, name",
    [
        ((8,), 0.1, 10, "quint8"),
        ((2, 3), 0.023622047244094488, -22, "qint8"),
        ((3, 2, 2), 1.5, 3, "quint8"),
        ((0,), 0.5, 0, "qint8"),
        ((), 0.25, 1, "qint32"),
        ((40,), 0.01, 0, "qint8"),
    ],
)
def test_repr_matches_torch(shape, scale, zero_point, name):
    rng = np.random.default_rng(3)
    ours, theirs = _pair(rng.standard_normal(shape))
    q = numtorch.quantize_per_tensor(ours, scale, zero_point, getattr(numtorch, name))
    t = torch.quantize_per_tensor(theirs, scale, zero_point, getattr(torch, name))
    assert repr(q) == repr(t)
    assert str(q) == str(t)


def test_views_and_copies_stay_quantized():
    rng = np.random.default_rng(4)
    ours, theirs = _pair(rng.standard_normal((2, 3, 4)))
    q = numtorch.quantize_per_tensor(ours, 0.05, 3, numtorch.qint8)
    t = torch.quantize_per_tensor(theirs, 0.05, 3, torch.qint8)
    cases = [
        lambda x: x[0],
        lambda x: x[:, 1:],
        lambda x: x.reshape(6, 4),
        lambda x: x.view(-1),
        lambda x: x.transpose(0, 2),
        lambda x: x.permute(2, 0, 1),
        lambda x: x.flatten(),
        lambda x: x.unsqueeze(0),
        lambda x: x.squeeze(),
        lambda x: x.clone(),
        lambda x: x.detach(),
        lambda x: x.contiguous(),
        lambda x: x.narrow(2, 1, 2),
        lambda x: x.chunk(2, dim=2)[1],
        lambda x: x.unbind(1)[2],
        lambda x: x[:1].squeeze(0),
        lambda x: x.expand(2, 2, 3, 4),
        lambda x: numtorch.cat([x, x]) if isinstance(x, numtorch.Tensor) else torch.cat([x, x]),
    ]
    for case in cases:
        a, b = case(q), case(t)
        assert a.is_quantized and b.is_quantized
        assert repr(a) == repr(b)
        np.testing.assert_array_equal(a.int_repr().numpy(), b.int_repr().numpy())


def test_properties_match_torch():
    ours, theirs = _pair([[1.0, 2.0], [3.0, 4.0]])
    q = numtorch.quantize_per_tensor(ours, 0.5, 1, numtorch.quint8)
    t = torch.quantize_per_tensor(theirs, 0.5, 1, torch.quint8)
    for read in (
        lambda x: x.is_quantized,
        lambda x: tuple(x.shape),
        lambda x: x.numel(),
        lambda x: x.element_size(),
        lambda x: x.requires_grad,
        lambda x: x.grad_fn,
        lambda x: x.is_floating_point(),
        lambda x: x.stride(),
        lambda x: str(x.dtype),
        lambda x: x.dtype.is_floating_point,
        lambda x: x.dtype.itemsize,
        lambda x: x[1, 0].item(),
        lambda x: len(x),
    ):
        assert read(q) == read(t)
    assert not numtorch.tensor([1.0]).is_quantized
    x = numtorch.tensor([1.0])
    assert x.dequantize() is x


@pytest.mark.parametrize(
    "call",
    [
        lambda lib, q, x: q + q,
        lambda lib, q, x: q.sum(),
        lambda lib, q, x: q.exp(),
        lambda lib, q, x: q.abs(),
        lambda lib, q, x: q.float(),
        lambda lib, q, x: q.to(lib.float32),
        lambda lib, q, x: lib.matmul(q, q.t()),
        lambda lib, q, x: q.numpy(),
        lambda lib, q, x: q.tolist(),
        lambda lib, q, x: q.item(),
        lambda lib, q, x: q.requires_grad_(),
        lambda lib, q, x: q.q_per_channel_scales(),
        lambda lib, q, x: q.q_per_channel_axis(),
        lambda lib, q, x: x.int_repr(),
        lambda lib, q, x: x.q_scale(),
        lambda lib, q, x: x.q_zero_point(),
        lambda lib, q, x: lib.dequantize([x]),
        lambda lib, q, x: lib.quantize_per_tensor(x, 0.1, 10, lib.int8),
        lambda lib, q, x: lib.quantize_per_tensor(x, 0.1, 10, lib.float32),
        lambda lib, q, x: lib.quantize_per_tensor(x.double(), 0.1, 10, lib.qint8),
        lambda lib, q, x: lib.quantize_per_tensor(x.long(), 0.1, 10, lib.qint8),
        lambda lib, q, x: lib.quantize_per_tensor(x, 0.1, 300, lib.qint8),
        lambda lib, q, x: lib.quantize_per_tensor(x, 0.1, -1, lib.quint8),
        lambda lib, q, x: lib.quantize_per_tensor(q, 0.1, 1, lib.quint8),
        lambda lib, q, x: lib.quantize_per_tensor_dynamic(x, lib.qint32, False),
        lambda lib, q, x: lib.quantize_per_channel(
            x, lib.tensor([0.1]), lib.tensor([1, 2]), 0, lib.qint8
        ),
        lambda lib, q, x: lib.quantize_per_channel(
            x, lib.tensor([0.1, 0.2]), lib.tensor([1, 2]), 2, lib.qint8
        ),
        lambda lib, q, x: lib.quantize_per_channel(x, [0.1, 0.2], lib.tensor([1, 2]), 0, lib.qint8),
    ],
)
def test_errors_match_torch(call):
    def run(lib):
        x = lib.tensor([[1.0, 2.0], [3.0, 4.0]])
        q = lib.quantize_per_tensor(x, 0.5, 1, lib.quint8)
        return call(lib, q, x)

    ours, theirs = _outcome(run, numtorch), _outcome(run, torch)
    assert ours[0] == theirs[0] == "raised"
    assert ours[1] == theirs[1]


def test_refusal_names_the_op_and_the_backend():
    q = numtorch.quantize_per_tensor(numtorch.tensor([1.0]), 0.5, 1, numtorch.quint8)
    with pytest.raises(NotImplementedError, match="aten::add.*'QuantizedCPU' backend"):
        q + q


def test_dispatch_hook_is_off_once_no_quantized_tensor_lives():
    from numtorch._core.observers import dispatch

    slow = dispatch.slow  # (another feature used earlier in the process may have set it)
    q = numtorch.quantize_per_tensor(numtorch.tensor([1.0]), 0.5, 1, numtorch.quint8)
    view = q[0]
    assert dispatch.quantized is not None
    del q, view
    assert dispatch.quantized is None
    assert dispatch.slow == slow


def test_quantized_engine_setting():
    engine = numtorch.backends.quantized
    assert engine.engine == torch.backends.quantized.engine == "x86"
    assert engine.supported_engines == torch.backends.quantized.supported_engines
    engine.engine = "fbgemm"
    assert engine.engine == "fbgemm"
    engine.engine = "x86"
    with pytest.raises(RuntimeError, match="foo is not a valid value"):
        engine.engine = "foo"
    with pytest.raises(NotImplementedError, match="qnnpack"):
        engine.engine = "qnnpack"
    assert engine.engine == "x86"


@pytest.mark.parametrize(
    "call",
    [
        lambda lib, q: lib.relu(q),
        lambda lib, q: lib.nn.functional.relu(q),
        lambda lib, q: (q.relu_(), q)[1],
        lambda lib, q: (q.fill_(0.7), q)[1],
        lambda lib, q: (q.copy_(lib.tensor([0.3, -2.0, 9.0, 1.0])), q)[1],
        lambda lib, q: (q.__setitem__(0, 1.0), q)[1],
        lambda lib, q: q.max(),
        lambda lib, q: q.min(),
        lambda lib, q: q.sort(descending=True),
        lambda lib, q: q.topk(2),
        lambda lib, q: q.reshape(2, 2).max(1),
        lambda lib, q: q.copy_(lib.quantize_per_tensor(lib.ones(4), 0.5, 1, lib.qint8)),
    ],
)
def test_kernels_torch_runs_on_quantized_tensors(call):
    def run(lib):
        q = lib.quantize_per_tensor(lib.tensor([-1.0, 2.0, 0.5, 3.0]), 0.5, 1, lib.quint8)
        return repr(call(lib, q)).replace("numtorch", "torch")

    assert _outcome(run, numtorch) == _outcome(run, torch)
