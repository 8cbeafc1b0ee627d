"""scaled_dot_product_attention and MultiheadAttention: parity with torch (torch's weights
loaded through state_dict, float64, outputs, attention weights and gradients, grad_fn names,
repr), gradcheck, dropout, init, and torch's errors. The functional forms' gradcheck and
gradgradcheck run from the op sample table (testing/opinfo_seq.py)."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from nn_parity import assert_runs_match, assert_same_error, pair, run_both

import numtorch

R = np.random.default_rng(0)


def _n(*shape):
    return R.standard_normal(shape)


def _self_attention(mod, x, **kwargs):
    return mod(x, x, x, **kwargs)


def _cross_attention(mod, q, k, v, **kwargs):
    return mod(q, k, v, **kwargs)


PADDING = np.array([[False, False, False, True, True], [False] * 5])
SPARSE = R.random((3, 5)) > 0.7
CAUSAL = np.triu(np.full((3, 3), -np.inf), 1)

# (id, constructor, call, inputs, keyword arguments)
MHA_CASES = [
    ("self", lambda m: m.nn.MultiheadAttention(4, 2), _self_attention, [_n(3, 2, 4)], {}),
    (
        "self-no-weights",
        lambda m: m.nn.MultiheadAttention(4, 2),
        _self_attention,
        [_n(3, 2, 4)],
        {"need_weights": False},
    ),
    (
        "cross-batch-first-per-head-weights",
        lambda m: m.nn.MultiheadAttention(4, 2, batch_first=True),
        _cross_attention,
        [_n(2, 3, 4), _n(2, 5, 4), _n(2, 5, 4)],
        {"average_attn_weights": False},
    ),
    (
        "kdim-vdim-bias-kv-zero-attn-masks",
        lambda m: m.nn.MultiheadAttention(
            4, 2, kdim=3, vdim=6, add_bias_kv=True, add_zero_attn=True
        ),
        _cross_attention,
        [_n(3, 2, 4), _n(5, 2, 3), _n(5, 2, 6)],
        {"key_padding_mask": PADDING, "attn_mask": SPARSE},
    ),
    (
        "kdim-vdim-masks-no-weights",
        lambda m: m.nn.MultiheadAttention(4, 2, kdim=3, vdim=6),
        _cross_attention,
        [_n(3, 2, 4), _n(5, 2, 3), _n(5, 2, 6)],
        {"key_padding_mask": PADDING, "attn_mask": SPARSE, "need_weights": False},
    ),
    (
        "unbatched-no-bias",
        lambda m: m.nn.MultiheadAttention(4, 1, bias=False),
        _cross_attention,
        [_n(3, 4), _n(5, 4), _n(5, 4)],
        {"key_padding_mask": PADDING[0]},
    ),
    (
        "causal-hint",
        lambda m: m.nn.MultiheadAttention(4, 2),
        _self_attention,
        [_n(3, 2, 4)],
        {"attn_mask": CAUSAL, "is_causal": True, "need_weights": False},
    ),
    (
        "float-3d-mask",
        lambda m: m.nn.MultiheadAttention(4, 2),
        _cross_attention,
        [_n(3, 2, 4), _n(5, 2, 4), _n(5, 2, 4)],
        {"attn_mask": _n(4, 3, 5), "key_padding_mask": np.where(PADDING, -1.5, 0.0)},
    ),
]
MHA_IDS = [case[0] for case in MHA_CASES]


@pytest.mark.parametrize("name, make, call, inputs, kwargs", MHA_CASES, ids=MHA_IDS)
def test_multihead_attention_matches_torch(name, make, call, inputs, kwargs):
    torch = pytest.importorskip("torch")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch: mismatched mask types are deprecated
        results = run_both(make, torch, inputs, call=call, kwargs=kwargs)
    assert_runs_match(results)
    ours, theirs = results["numtorch"][4], results["torch"][4]
    assert repr(ours) == repr(theirs)
    assert list(ours.state_dict()) == list(theirs.state_dict())


def test_multihead_attention_inference_matches_torch_fast_path():
    # eval, no grad, batch_first self-attention: torch takes its fused fast path
    torch = pytest.importorskip("torch")
    ours, theirs = pair(lambda m: m.nn.MultiheadAttention(4, 2, batch_first=True), torch)
    ours.eval(), theirs.eval()
    x = _n(2, 5, 4).astype(np.float32)
    for kwargs in ({}, {"key_padding_mask": PADDING}):
        with numtorch.no_grad(), torch.no_grad():
            a = ours(
                *[numtorch.tensor(x)] * 3, **{k: numtorch.tensor(v) for k, v in kwargs.items()}
            )
            b = theirs(*[torch.tensor(x)] * 3, **{k: torch.tensor(v) for k, v in kwargs.items()})
        for u, v in zip(a, b):
            np.testing.assert_allclose(u.numpy(), v.numpy(), rtol=1e-5, atol=1e-6)


def test_multihead_attention_gradcheck():
    numtorch.manual_seed(0)
    mha = numtorch.nn.MultiheadAttention(4, 2, kdim=3, add_bias_kv=True).double()
    q = numtorch.randn(2, 1, 4, dtype=numtorch.float64, requires_grad=True)
    k = numtorch.randn(3, 1, 3, dtype=numtorch.float64, requires_grad=True)
    v = numtorch.randn(3, 1, 4, dtype=numtorch.float64, requires_grad=True)
    mask = numtorch.tensor([[False, True, False], [False, False, False]])
    fn = lambda q, k, v, *params: mha(q, k, v, attn_mask=mask)
    assert numtorch.autograd.gradcheck(fn, (q, k, v, *mha.parameters()))


def test_multihead_attention_init():
    numtorch.manual_seed(0)
    mha = numtorch.nn.MultiheadAttention(16, 4, add_bias_kv=True)
    bound = math.sqrt(6.0 / (16 + 48))  # xavier_uniform_ of a (3E, E) matrix
    assert np.abs(mha.in_proj_weight.detach().numpy()).max() <= bound
    assert not mha.in_proj_bias.detach().numpy().any()
    assert not mha.out_proj.bias.detach().numpy().any()
    assert type(mha.out_proj).__name__ == "NonDynamicallyQuantizableLinear"
    assert tuple(mha.bias_k.shape) == (1, 1, 16)


def test_sdpa_dropout():
    torch = pytest.importorskip("torch")
    F = numtorch.nn.functional
    q = numtorch.tensor(_n(2, 3, 4, 5), requires_grad=True)
    out = F.scaled_dot_product_attention(q, q, q, dropout_p=1.0)
    assert not out.detach().numpy().any()
    numtorch.manual_seed(0)
    a = F.scaled_dot_product_attention(q, q, q, dropout_p=0.5)
    b = F.scaled_dot_product_attention(q, q, q)
    assert not np.allclose(a.detach().numpy(), b.detach().numpy())
    tq = torch.tensor(q.detach().numpy(), requires_grad=True)
    theirs = torch.nn.functional.scaled_dot_product_attention(tq, tq, tq, dropout_p=0.5)
    assert a.grad_fn.name() == theirs.grad_fn.name()


def test_sdpa_double_backward_raises_as_torch_on_the_fused_kernel():
    # torch's fused CPU kernel (4-D inputs) has no double backward; the 3-D math path has
    q = numtorch.randn(1, 2, 3, 2, dtype=numtorch.float64, requires_grad=True)
    k = numtorch.randn(1, 2, 4, 2, dtype=numtorch.float64, requires_grad=True)
    out = numtorch.nn.functional.scaled_dot_product_attention(q, k, k, is_causal=True)
    (grad,) = numtorch.autograd.grad(out.pow(2).sum(), q, create_graph=True)
    assert grad.requires_grad
    assert grad.grad_fn.name() == "torch::autograd::NotImplemented"
    with pytest.raises(RuntimeError, match="_scaled_dot_product_flash_attention_for_cpu_backward"):
        grad.sum().backward()
    assert numtorch.autograd.gradgradcheck(
        lambda q, k: numtorch.nn.functional.scaled_dot_product_attention(q, k, k), (q[0], k[0])
    )


def _x(t, *shape):
    return t.ones(*shape)


def _sdpa(t, q, k, v, **kwargs):
    return t.nn.functional.scaled_dot_product_attention(q, k, v, **kwargs)


ERRORS = {
    "sdpa-dtype": lambda t: _sdpa(
        t, _x(t, 1, 2, 3, 4), _x(t, 1, 2, 3, 4).double(), _x(t, 1, 2, 3, 4)
    ),
    "sdpa-rank": lambda t: _sdpa(t, _x(t, 4), _x(t, 1, 3, 4), _x(t, 1, 3, 4)),
    "sdpa-mask-dtype": lambda t: _sdpa(
        t, *[_x(t, 1, 2, 3, 4)] * 3, attn_mask=t.zeros(3, 3, dtype=t.int64)
    ),
    "sdpa-mask-double": lambda t: _sdpa(
        t, *[_x(t, 1, 2, 3, 4)] * 3, attn_mask=_x(t, 3, 3).double()
    ),
    "sdpa-head-dim": lambda t: _sdpa(t, _x(t, 2, 3, 4), _x(t, 2, 5, 3), _x(t, 2, 5, 4)),
    "sdpa-mask-shape": lambda t: _sdpa(t, *[_x(t, 1, 2, 3, 4)] * 3, attn_mask=_x(t, 2, 3)),
    "sdpa-dropout": lambda t: _sdpa(t, *[_x(t, 1, 2, 3, 4)] * 3, dropout_p=1.5),
    "sdpa-causal-and-mask": lambda t: _sdpa(
        t, *[_x(t, 3, 4)] * 3, attn_mask=_x(t, 3, 3), is_causal=True
    ),
    "mha-divisible": lambda t: t.nn.MultiheadAttention(5, 2),
    "mha-positive": lambda t: t.nn.MultiheadAttention(0, 2),
    "mha-query-rank": lambda t: t.nn.MultiheadAttention(4, 2)(*[_x(t, 1, 3, 2, 4)] * 3),
    "mha-key-rank": lambda t: t.nn.MultiheadAttention(4, 2)(_x(t, 3, 2, 4), *[_x(t, 3, 4)] * 2),
    "mha-unbatched-key-rank": lambda t: t.nn.MultiheadAttention(4, 2)(
        _x(t, 3, 4), *[_x(t, 3, 1, 4)] * 2
    ),
    "mha-padding-rank": lambda t: t.nn.MultiheadAttention(4, 2)(
        *[_x(t, 3, 2, 4)] * 3, key_padding_mask=t.zeros(2, 3, 1, dtype=t.bool)
    ),
    "mha-padding-size": lambda t: t.nn.MultiheadAttention(4, 2)(
        *[_x(t, 3, 2, 4)] * 3, key_padding_mask=t.zeros(2, 4, dtype=t.bool)
    ),
    "mha-mask-rank": lambda t: t.nn.MultiheadAttention(4, 2)(
        *[_x(t, 3, 2, 4)] * 3, attn_mask=t.zeros(3, dtype=t.bool)
    ),
    "mha-mask-2d-shape": lambda t: t.nn.MultiheadAttention(4, 2)(
        *[_x(t, 3, 2, 4)] * 3, attn_mask=t.zeros(3, 4, dtype=t.bool)
    ),
    "mha-mask-3d-shape": lambda t: t.nn.MultiheadAttention(4, 2)(
        *[_x(t, 3, 2, 4)] * 3, attn_mask=t.zeros(2, 3, 3)
    ),
    "mha-unbatched-mask-3d": lambda t: t.nn.MultiheadAttention(4, 2)(
        *[_x(t, 3, 4)] * 3, attn_mask=t.zeros(1, 3, 3)
    ),
    "mha-mask-dtype": lambda t: t.nn.MultiheadAttention(4, 2)(
        *[_x(t, 3, 2, 4)] * 3, attn_mask=t.zeros(3, 3, dtype=t.int64)
    ),
    "mha-embed-dim": lambda t: t.nn.MultiheadAttention(4, 2)(*[_x(t, 3, 2, 3)] * 3),
    "mha-key-value-shape": lambda t: t.nn.MultiheadAttention(4, 2)(
        _x(t, 3, 2, 4), _x(t, 5, 2, 4), _x(t, 4, 2, 4)
    ),
    "mha-causal-without-mask": lambda t: t.nn.MultiheadAttention(4, 2)(
        *[_x(t, 3, 2, 4)] * 3, is_causal=True
    ),
}


# numtorch's matmul names other sizes in this message than torch's bmm does
TYPE_ONLY = {"sdpa-head-dim"}


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_error_matches_torch(name):
    torch = pytest.importorskip("torch")
    assert_same_error(ERRORS[name], torch, exact=name not in TYPE_ONLY)


EMPTY_ATTENTION = [
    ((2, 3, 2), (2, 0, 2), (2, 0, 2)),  # no keys
    ((2, 0, 2), (2, 4, 2), (2, 4, 5)),  # no queries
    ((2, 3, 2), (2, 4, 2), (0, 4, 5)),  # an empty value batch
    ((2, 3, 2), (2, 4, 2), (2, 4, 0)),  # empty value features
    ((1, 2, 3, 2), (1, 2, 0, 2), (1, 2, 0, 2)),  # the fused kernel's shapes
    ((2, 3, 0), (2, 4, 0), (2, 4, 2)),  # no features: scale 1 / sqrt(0) = inf
]


@pytest.mark.parametrize("shapes", EMPTY_ATTENTION)
def test_empty_attention_matches_torch(shapes):
    # torch returns zeros linked to every input when there is no query or no value
    torch = pytest.importorskip("torch")
    found = []
    for lib in (numtorch, torch):
        inputs = [lib.ones(shape, requires_grad=True) for shape in shapes]
        out = lib.nn.functional.scaled_dot_product_attention(*inputs)
        out.sum().backward()
        found.append((out, type(out.grad_fn).__name__, [x.grad for x in inputs]))
    (ours, ours_fn, ours_grads), (theirs, theirs_fn, theirs_grads) = found
    assert ours_fn == theirs_fn
    np.testing.assert_array_equal(ours.detach().numpy(), theirs.detach().numpy())
    for a, b in zip(ours_grads, theirs_grads):
        np.testing.assert_array_equal(a.numpy(), b.numpy())


def test_attention_with_no_keys_but_values_raises_runtime_error():
    q, k, v = numtorch.ones(2, 3, 2), numtorch.ones(2, 0, 2), numtorch.ones(2, 4, 2)
    with pytest.raises(RuntimeError):
        numtorch.nn.functional.scaled_dot_product_attention(q, k, v)


@pytest.mark.parametrize("shape", [(), (3,), (3, 3)])
@pytest.mark.parametrize("requires_grad", [False, True])
def test_attention_mask_of_fewer_than_two_dims_as_torch(shape, requires_grad):
    # torch's choice of its fused kernel reads the mask's size(-2) (an IndexError), unless
    # the mask requires grad (the fused kernel is out before that)
    torch = pytest.importorskip("torch")

    def fn(lib):
        q = lib.ones(1, 2, 3, 2)
        mask = lib.full(shape, 0.5).requires_grad_(requires_grad)
        return lib.nn.functional.scaled_dot_product_attention(q, q, q, attn_mask=mask)

    assert_same_error(fn, torch)


def test_backend_switches_share_sdpa_kernels_state_as_torch():
    torch = pytest.importorskip("torch")

    def case(lib):
        cuda = lib.backends.cuda
        attention = __import__(f"{lib.__name__}.nn.attention", fromlist=["sdpa_kernel"])
        q = lib.ones(1, 2, 3, 4, requires_grad=True)

        def state():
            flags = [cuda.flash_sdp_enabled(), cuda.mem_efficient_sdp_enabled()]
            return flags + [cuda.math_sdp_enabled(), cuda.cudnn_sdp_enabled()]

        def node():
            attended = lib.nn.functional.scaled_dot_product_attention(q, q, q)
            return type(attended.grad_fn).__name__

        seen = [state(), cuda.fp16_bf16_reduction_math_sdp_allowed()]
        with attention.sdpa_kernel(attention.SDPBackend.MATH):
            seen.append(state())
        deprecated = pytest.warns(FutureWarning, match="sdp_kernel")
        with deprecated, cuda.sdp_kernel(enable_flash=False, enable_mem_efficient=False):
            seen += [state(), node()]
        try:
            cuda.enable_flash_sdp(False)
            seen += [state(), node()]
            cuda.enable_math_sdp(False)
            with pytest.raises(RuntimeError):
                node()
        finally:
            cuda.enable_flash_sdp(True)
            cuda.enable_math_sdp(True)
        return seen + [state(), node()]

    assert case(numtorch) == case(torch)
