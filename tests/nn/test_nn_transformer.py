"""Transformer layers: parity with torch (torch's weights loaded through state_dict, float64;
training with dropout 0, evaluation, and inference under no_grad where torch takes its
fused and nested-tensor fast paths), gradcheck, masks, and torch's errors."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from nn_parity import assert_runs_match, assert_same_error, pair, run_both

import numtorch

R = np.random.default_rng(0)


def _n(*shape):
    return R.standard_normal(shape)


CAUSAL3 = np.triu(np.full((3, 3), -np.inf), 1)
PADDED = np.array([[False, False, False, False, True], [False] * 5])


def _encoder(m, **kwargs):
    layer = m.nn.TransformerEncoderLayer(4, 2, 8, dropout=0.0, batch_first=True, **kwargs)
    return m.nn.TransformerEncoder(layer, 2, m.nn.LayerNorm(4))


# (id, constructor, inputs, keyword arguments)
CASES = [
    ("encoder-layer", lambda m: m.nn.TransformerEncoderLayer(4, 2, 8, 0.0), [_n(5, 2, 4)], {}),
    (
        "encoder-layer-norm-first-gelu-padding",
        lambda m: m.nn.TransformerEncoderLayer(
            4, 2, 8, 0.0, "gelu", batch_first=True, norm_first=True
        ),
        [_n(2, 5, 4)],
        {"src_key_padding_mask": PADDED},
    ),
    (
        "encoder-layer-callable-activation-no-bias",
        lambda m: m.nn.TransformerEncoderLayer(
            4, 2, 8, 0.0, m.nn.functional.silu, bias=False, layer_norm_eps=1e-3
        ),
        [_n(5, 4)],
        {},
    ),
    ("encoder-padding", _encoder, [_n(2, 5, 4)], {"src_key_padding_mask": PADDED}),
    ("encoder-causal", _encoder, [_n(2, 3, 4)], {"mask": CAUSAL3}),
    (
        "decoder-layer",
        lambda m: m.nn.TransformerDecoderLayer(4, 2, 8, 0.0, activation=m.nn.GELU()),
        [_n(3, 2, 4), _n(5, 2, 4)],
        {"tgt_mask": CAUSAL3, "memory_key_padding_mask": PADDED},
    ),
    (
        "decoder-norm-first-causal-hint",
        lambda m: m.nn.TransformerDecoder(
            m.nn.TransformerDecoderLayer(4, 2, 8, 0.0, batch_first=True, norm_first=True), 2
        ),
        [_n(2, 3, 4), _n(2, 5, 4)],
        {"tgt_mask": CAUSAL3, "tgt_is_causal": True},
    ),
    (
        "transformer",
        lambda m: m.nn.Transformer(4, 2, 2, 1, 8, 0.0, batch_first=True),
        [_n(2, 5, 4), _n(2, 3, 4)],
        {"tgt_mask": CAUSAL3, "src_key_padding_mask": PADDED},
    ),
]
IDS = [case[0] for case in CASES]


@pytest.mark.parametrize("name, make, inputs, kwargs", CASES, ids=IDS)
def test_matches_torch(name, make, inputs, kwargs):
    torch = pytest.importorskip("torch")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch: nested tensors need batch_first
        for train in (True, False):
            results = run_both(make, torch, inputs, kwargs=kwargs, train=train)
            assert_runs_match(results, rtol=1e-8, atol=1e-10)
        ours, theirs = results["numtorch"][4], results["torch"][4]
    assert repr(ours) == repr(theirs)
    assert list(ours.state_dict()) == list(theirs.state_dict())


@pytest.mark.parametrize("name, make, inputs, kwargs", CASES, ids=IDS)
def test_inference_matches_torch_fast_paths(name, make, inputs, kwargs):
    torch = pytest.importorskip("torch")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours, theirs = pair(make, torch)
    outs = []
    for lib, module in ((numtorch, ours), (torch, theirs)):
        module.eval()
        args = [lib.tensor(a.astype(np.float32)) for a in inputs]
        kw = {
            k: lib.tensor(v.astype(np.float32) if v.dtype.kind == "f" else v)
            for k, v in kwargs.items()
            if isinstance(v, np.ndarray)
        }
        kw.update({k: v for k, v in kwargs.items() if not isinstance(v, np.ndarray)})
        with lib.no_grad():
            outs.append(module(*args, **kw).numpy())
    np.testing.assert_allclose(outs[0], outs[1], rtol=1e-4, atol=1e-5)


def test_nested_tensor_path_zeroes_padded_positions():
    # torch packs a padded batch into a nested tensor in inference and pads back with zeros
    encoder = _encoder(numtorch)
    encoder.norm = None
    encoder.eval()
    x = numtorch.randn(2, 5, 4)
    mask = numtorch.tensor(PADDED)
    with numtorch.no_grad():
        out = encoder(x, src_key_padding_mask=mask)
    assert not out[0, 4].numpy().any() and out[1, 4].numpy().any()
    assert encoder(x, src_key_padding_mask=mask)[0, 4].detach().numpy().any()


def test_generate_square_subsequent_mask_matches_torch():
    torch = pytest.importorskip("torch")
    ours = numtorch.nn.Transformer.generate_square_subsequent_mask(4)
    theirs = torch.nn.Transformer.generate_square_subsequent_mask(4)
    np.testing.assert_array_equal(ours.numpy(), theirs.numpy())
    assert str(ours.dtype) == str(theirs.dtype)
    half = numtorch.nn.Transformer.generate_square_subsequent_mask(2, dtype=numtorch.float64)
    assert half.dtype == numtorch.float64


def test_encoder_layer_gradcheck():
    numtorch.manual_seed(0)
    layer = numtorch.nn.TransformerEncoderLayer(4, 2, 4, dropout=0.0).double()
    x = numtorch.randn(3, 1, 4, dtype=numtorch.float64, requires_grad=True)
    mask = numtorch.nn.Transformer.generate_square_subsequent_mask(3, dtype=numtorch.float64)
    fn = lambda x, *params: layer(x, src_mask=mask)
    assert numtorch.autograd.gradcheck(fn, (x, *layer.parameters()))


def test_dropout_is_active_in_training_only():
    numtorch.manual_seed(0)
    layer = numtorch.nn.TransformerEncoderLayer(8, 2, 16, dropout=0.5).double()
    x = numtorch.randn(4, 2, 8, dtype=numtorch.float64)
    a, b = layer(x), layer(x)
    assert not np.allclose(a.detach().numpy(), b.detach().numpy())
    layer.eval()
    np.testing.assert_array_equal(layer(x).detach().numpy(), layer(x).detach().numpy())


def test_init_and_clones():
    numtorch.manual_seed(0)
    model = numtorch.nn.Transformer(8, 2, 2, 2, 16, batch_first=True)
    layers = model.encoder.layers
    assert layers[0].linear1.weight is not layers[1].linear1.weight
    bound = np.sqrt(6.0 / (8 + 16))  # xavier_uniform_ of linear1 (16, 8)
    assert np.abs(layers[0].linear1.weight.detach().numpy()).max() <= bound
    assert model.encoder.use_nested_tensor


def _x(t, *shape):
    return t.ones(*shape)


ERRORS = {
    "transformer-batch": lambda t: t.nn.Transformer(4, 2, 1, 1, 8)(_x(t, 5, 2, 4), _x(t, 3, 3, 4)),
    "transformer-d-model": lambda t: t.nn.Transformer(4, 2, 1, 1, 8)(
        _x(t, 5, 2, 3), _x(t, 3, 2, 4)
    ),
    "activation-name": lambda t: t.nn.TransformerEncoderLayer(4, 2, activation="tanh"),
    "encoder-layer-heads": lambda t: t.nn.TransformerEncoderLayer(5, 2),
    "encoder-layer-width": lambda t: t.nn.TransformerEncoderLayer(4, 2, 8)(_x(t, 3, 2, 5)),
    "decoder-mask-shape": lambda t: t.nn.TransformerDecoderLayer(4, 2, 8)(
        _x(t, 3, 2, 4), _x(t, 5, 2, 4), tgt_mask=_x(t, 3, 5)
    ),
}


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_error_matches_torch(name):
    torch = pytest.importorskip("torch")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert_same_error(ERRORS[name], torch)


def test_encoder_warns_like_torch_without_batch_first():
    layer = numtorch.nn.TransformerEncoderLayer(4, 2, 8)
    with pytest.warns(UserWarning, match="use_nested_tensor is False because encoder_layer"):
        numtorch.nn.TransformerEncoder(layer, 1)
