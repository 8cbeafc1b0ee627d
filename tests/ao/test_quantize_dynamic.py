"""Dynamic quantization of nn.Linear against torch (x86/FBGEMM): weights, outputs bit for bit,
printing, state dicts, checkpoints torch loads, errors."""

from __future__ import annotations

import io
import warnings
import zipfile

import numpy as np
import pytest

import numtorch

torch = pytest.importorskip("torch")

pytestmark = pytest.mark.filterwarnings("ignore:torch.quantize_per_tensor:UserWarning")


def _models(sizes, seed=0):
    """The same float MLP in both libraries, quantized dynamically."""
    layers = []
    for lib in (numtorch, torch):
        mods = []
        for i, (k, n) in enumerate(sizes):
            mods.append(lib.nn.Linear(k, n))
            if i < len(sizes) - 1:
                mods.append(lib.nn.ReLU())
        layers.append(lib.nn.Sequential(*mods))
    ours, theirs = layers
    rng = np.random.default_rng(seed)
    with numtorch.no_grad(), torch.no_grad():
        for a, b in zip(ours.parameters(), theirs.parameters()):
            values = (rng.standard_normal(tuple(b.shape)) * 0.3).astype(np.float32)
            a.copy_(numtorch.tensor(values))
            b.copy_(torch.tensor(values))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        q_ours = numtorch.ao.quantization.quantize_dynamic(
            ours, {numtorch.nn.Linear}, numtorch.qint8
        )
        q_theirs = torch.ao.quantization.quantize_dynamic(theirs, {torch.nn.Linear}, torch.qint8)
    return ours, q_ours, q_theirs


@pytest.mark.parametrize(
    "sizes", [[(64, 32), (32, 5)], [(6, 3)], [(6, 8)], [(64, 7)], [(1, 1)], [(33, 9), (9, 40)]]
)
def test_outputs_match_torch_bit_for_bit(sizes):
    _, ours, theirs = _models(sizes)
    rng = np.random.default_rng(1)
    for shape in ((13, sizes[0][0]), (2, 5, sizes[0][0]), (1, sizes[0][0])):
        x = (rng.standard_normal(shape) * 2).astype(np.float32)
        a = ours(numtorch.tensor(x))
        b = theirs(torch.tensor(x))
        assert tuple(a.shape) == tuple(b.shape) and str(a.dtype) == str(b.dtype)
        np.testing.assert_array_equal(a.numpy(), b.detach().numpy())


def test_weights_and_modules_match_torch():
    float_model, ours, theirs = _models([(16, 8), (8, 4)])
    assert repr(ours) == repr(theirs)
    assert float_model[0].__class__ is numtorch.nn.Linear  # the float model is not changed
    for i in (0, 2):
        a, b = ours[i].weight(), theirs[i].weight()
        assert repr(a) == repr(b)
        np.testing.assert_array_equal(a.int_repr().numpy(), b.int_repr().numpy())
        assert repr(ours[i].bias()) == repr(theirs[i].bias())
        assert type(ours[i]).__name__ == type(theirs[i]).__name__ == "Linear"
        assert ours[i].training == theirs[i].training
    assert ours.training == theirs.training
    assert list(ours.parameters()) == [] == list(theirs.parameters())
    assert repr(ours[0]._packed_params) == repr(theirs[0]._packed_params)
    assert numtorch.nn.quantized.dynamic.Linear is numtorch.ao.nn.quantized.dynamic.Linear
    assert numtorch.quantization.quantize_dynamic is numtorch.ao.quantization.quantize_dynamic


def test_state_dict_matches_torch():
    _, ours, theirs = _models([(16, 8), (8, 4)])
    a, b = ours.state_dict(), theirs.state_dict()
    assert list(a) == list(b)
    for key in b:
        if isinstance(b[key], tuple):
            assert [repr(t) for t in a[key]] == [repr(t) for t in b[key]]
        else:
            assert repr(a[key]) == repr(b[key])
    assert a._metadata == b._metadata


def test_checkpoint_loads_in_torch_and_computes_the_same():
    _, ours, theirs = _models([(16, 8), (8, 4)], seed=2)
    buffer = io.BytesIO()
    numtorch.save(ours.state_dict(), buffer)
    buffer.seek(0)
    state = torch.load(buffer, weights_only=True)
    _, _, fresh = _models([(16, 8), (8, 4)], seed=3)
    fresh.load_state_dict(state)
    x = np.random.default_rng(4).standard_normal((5, 16)).astype(np.float32)
    np.testing.assert_array_equal(fresh(torch.tensor(x)).numpy(), theirs(torch.tensor(x)).numpy())
    reference = io.BytesIO()
    torch.save(theirs.state_dict(), reference)
    # torch's archive adds a serialization id and aligns records; the payload is the same
    assert abs(len(buffer.getvalue()) - len(reference.getvalue())) < 200


def test_observers_give_torch_qparams():
    values = np.random.default_rng(5).standard_normal((7, 3)).astype(np.float32) * 3
    for kwargs in (
        {"dtype": "qint8", "qscheme": "per_tensor_symmetric"},
        {"dtype": "quint8", "qscheme": "per_tensor_affine"},
        {"dtype": "quint8", "qscheme": "per_tensor_affine", "reduce_range": True},
        {"dtype": "quint8", "qscheme": "per_tensor_symmetric"},
    ):
        results = []
        for lib in (numtorch, torch):
            args = {k: getattr(lib, v) if isinstance(v, str) else v for k, v in kwargs.items()}
            observer = lib.ao.quantization.MinMaxObserver(**args)
            observer(lib.tensor(values))
            observer(lib.tensor(values[:2] * 2))
            scale, zero = observer.calculate_qparams()
            results.append((scale.numpy().tolist(), zero.numpy().tolist(), str(scale.dtype)))
        assert results[0] == results[1]


@pytest.mark.parametrize(
    "call",
    [
        lambda lib, m: m(lib.randn(2, 16).double()),
        lambda lib, m: m(lib.randn(2, 5)),
        lambda lib, m: m(lib.randn(16)),
        lambda lib, m: lib.ao.nn.quantized.dynamic.Linear.from_float(lib.nn.Conv1d(2, 2, 1)),
    ],
)
def test_errors_match_torch(call):
    _, ours, theirs = _models([(16, 8)])
    kinds = []
    for lib, model in ((numtorch, ours), (torch, theirs)):
        try:
            call(lib, model)
            kinds.append("no error")
        except Exception as error:
            kinds.append(type(error).__name__)
    assert kinds[0] == kinds[1] != "no error"


def test_recurrent_layers_are_refused_by_name():
    # torch quantizes nn.GRU dynamically; numtorch does not yet and says so, rather than
    # leaving the layer in float and giving other numbers than torch
    model = numtorch.nn.Sequential(numtorch.nn.GRU(4, 3))
    with pytest.raises(NotImplementedError, match=r"nn\.GRU.*'0'"):
        numtorch.ao.quantization.quantize_dynamic(model, {numtorch.nn.GRU, numtorch.nn.Linear})


def test_torch_checkpoint_loads_into_numtorch_and_computes_the_same():
    _, ours, theirs = _models([(16, 8), (8, 4)], seed=6)
    buffer = io.BytesIO()
    torch.save(theirs.state_dict(), buffer)
    buffer.seek(0)
    state = numtorch.load(buffer)
    _, fresh, _ = _models([(16, 8), (8, 4)], seed=7)
    assert str(fresh.load_state_dict(state)) == "<All keys matched successfully>"
    x = np.random.default_rng(8).standard_normal((5, 16)).astype(np.float32)
    np.testing.assert_array_equal(
        fresh(numtorch.tensor(x)).numpy(), theirs(torch.tensor(x)).numpy()
    )
    weight = state["0._packed_params._packed_params"][0]
    assert weight.is_quantized and repr(weight) == repr(theirs[0].weight())


def test_a_quantized_tensor_of_a_checkpoint_is_checked():
    q = numtorch.quantize_per_tensor(numtorch.tensor([1.0, -2.0]), 0.5, 3, numtorch.qint8)
    buffer = io.BytesIO()
    numtorch.save({"q": q}, buffer)
    data = buffer.getvalue()
    loaded = numtorch.load(io.BytesIO(data))["q"]
    assert repr(loaded) == repr(q)
    assert repr(torch.load(io.BytesIO(data), weights_only=True)["q"]) == repr(q)
    # a zero point outside the dtype's range is refused, not built
    source = zipfile.ZipFile(io.BytesIO(data))
    bad = io.BytesIO()
    with zipfile.ZipFile(bad, "w") as target:
        for name in source.namelist():
            member = source.read(name)
            if name.endswith("data.pkl"):
                assert b"K\x03\x87" in member
                member = member.replace(b"K\x03\x87", b"K\xc8\x87")  # zero point 3 -> 200
            target.writestr(name, member)
    bad.seek(0)
    with pytest.raises(Exception, match="quantized tensor"):
        numtorch.load(bad)
