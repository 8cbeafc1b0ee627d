"""After the same seed, numtorch's random numbers are torch's, bit for bit.

Every sampler, layer initialisation, dropout mask and data-loading order is run under both
libraries from the same seed; values and the generator's state afterwards must be equal.
"""

from __future__ import annotations

import numpy as np
import pytest

import numtorch

torch = pytest.importorskip("torch")

SEEDS = [0, 1, 1234, 2**40 + 5]
SIZES = [0, 1, 15, 16, 17, 100, 1000]


def _array(value):
    if isinstance(value, (list, tuple)):
        return [_array(v) for v in value]
    if hasattr(value, "detach"):
        value = value.detach()
        if value.dtype in (torch.bfloat16, numtorch.bfloat16):
            value = value.float()
        return value.numpy()
    return np.asarray(value)


def _same(program, seed, atol=0.0):
    """Run ``program(lib)`` after ``lib.manual_seed(seed)`` in both libraries: equal values
    (within ``atol`` where the program computes with the draws) and equal states after."""
    torch.manual_seed(seed)
    expected = _array(program(torch))
    numtorch.manual_seed(seed)
    got = _array(program(numtorch))
    if atol:
        for g, e in zip(got, expected):
            np.testing.assert_allclose(g, e, rtol=0, atol=atol)
    else:
        np.testing.assert_equal(got, expected)
    state = numtorch.get_rng_state().numpy()
    np.testing.assert_array_equal(state, torch.get_rng_state().numpy())


# -- the generator ---------------------------------------------------------------------------
@pytest.mark.parametrize("seed", SEEDS + [-1, 2**64 - 1])
def test_state_after_seeding_and_draws_is_torchs(seed):
    _same(lambda t: t.get_rng_state(), seed)
    _same(lambda t: [t.rand(700), t.randn(3, dtype=t.float64), t.get_rng_state()], seed)
    torch.manual_seed(seed)
    numtorch.manual_seed(seed)
    assert numtorch.initial_seed() == torch.initial_seed()


def test_a_fresh_generator_is_torchs():
    a, b = torch.Generator(), numtorch.Generator()
    assert b.initial_seed() == a.initial_seed()
    np.testing.assert_array_equal(b.get_state().numpy(), a.get_state().numpy())
    np.testing.assert_array_equal(
        numtorch.rand(5, generator=b).numpy(), torch.rand(5, generator=a).numpy()
    )


def test_states_move_between_the_libraries():
    torch.manual_seed(3)
    torch.randn(5, dtype=torch.float64)  # leaves a cached normal in the state
    torch.rand(650)
    state = torch.get_rng_state()
    numtorch.set_rng_state(numtorch.tensor(state.numpy()))
    np.testing.assert_array_equal(numtorch.get_rng_state().numpy(), state.numpy())
    np.testing.assert_array_equal(numtorch.randn(3).numpy(), torch.randn(3).numpy())
    g = numtorch.Generator().set_state(numtorch.get_rng_state())
    np.testing.assert_array_equal(numtorch.rand(4, generator=g).numpy(), torch.rand(4).numpy())


def test_bad_states_raise_torchs_errors():
    with pytest.raises(TypeError, match="ByteTensor"):
        numtorch.set_rng_state(numtorch.zeros(5056))
    with pytest.raises(RuntimeError, match="size 5056"):
        numtorch.set_rng_state(numtorch.zeros(10, dtype=numtorch.uint8))
    with pytest.raises(ValueError):
        numtorch.manual_seed(2**64)


def test_fork_rng_restores_the_stream():
    def program(t):
        with t.random.fork_rng():
            t.randn(3, dtype=t.float64)
        return t.rand(3)

    _same(program, 5)


# -- distributions ---------------------------------------------------------------------------
FLOATS = ["float32", "float64"]
DISTRIBUTIONS = {
    "rand": lambda t, n, d: t.rand(n, dtype=d),
    "randn": lambda t, n, d: t.randn(n, dtype=d),
    "uniform_": lambda t, n, d: t.empty(n, dtype=d).uniform_(-0.37, 0.81),
    "normal_": lambda t, n, d: t.empty(n, dtype=d).normal_(0.3, 2.5),
    "normal": lambda t, n, d: t.normal(-1.0, 0.5, (n,), dtype=d),
    "normal_tensors": lambda t, n, d: t.normal(t.rand(n, dtype=d), t.rand(n, dtype=d)),
    "exponential_": lambda t, n, d: t.empty(n, dtype=d).exponential_(3.0),
    "geometric_": lambda t, n, d: t.empty(n, dtype=d).geometric_(0.3),
    "cauchy_": lambda t, n, d: t.empty(n, dtype=d).cauchy_(1.0, 2.0),
    "log_normal_": lambda t, n, d: t.empty(n, dtype=d).log_normal_(0.5, 0.3),
    "bernoulli": lambda t, n, d: t.bernoulli(t.rand(n, dtype=d)),
    "bernoulli_p": lambda t, n, d: t.empty(n, dtype=d).bernoulli_(0.3),
    "rand_like": lambda t, n, d: [t.rand_like(t.ones(n, dtype=d)), t.randn_like(t.ones(n))],
}


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("name", sorted(DISTRIBUTIONS))
def test_float_samplers_give_torchs_numbers(name, n, dtype):
    for seed in SEEDS[:3]:
        _same(lambda t: DISTRIBUTIONS[name](t, n, getattr(t, dtype)), seed)


INTEGERS = ["int64", "int32", "int16", "uint8", "bool", "float32", "float64"]


@pytest.mark.parametrize("dtype", INTEGERS)
@pytest.mark.parametrize("n", [0, 1, 17, 1000])
def test_integer_samplers_give_torchs_numbers(n, dtype):
    def program(t):
        d = getattr(t, dtype)
        drawn = [t.empty(n, dtype=d).random_()]
        if dtype != "bool":
            drawn += [t.randint(3, 100, (n,), dtype=d), t.empty(n, dtype=d).random_(2, 9)]
            drawn.append(t.randint_like(t.ones(n, dtype=d), 50))
        if dtype in ("int64", "float64"):
            drawn.append(t.randint(-(2**40), 2**40, (n,), dtype=d))
        return drawn

    for seed in SEEDS[:3]:
        _same(program, seed)


@pytest.mark.parametrize("n", [0, 1, 2, 17, 1000])
def test_randperm_is_torchs(n):
    for seed in SEEDS:
        _same(lambda t: [t.randperm(n), t.randperm(n, dtype=t.int32)], seed)


@pytest.mark.parametrize("replacement", [False, True])
@pytest.mark.parametrize("samples", [1, 5, 40])
def test_multinomial_is_torchs(replacement, samples):
    def program(t):
        probs = t.rand(3, 10)
        probs[0, 3] = 0.0
        return [
            t.multinomial(probs, samples, replacement=replacement),
            t.multinomial(probs[1].double(), 1, replacement=replacement),
        ]

    if samples > 10 and not replacement:
        return
    for seed in SEEDS[:3]:
        _same(program, seed)


@pytest.mark.parametrize("dtype", FLOATS)
def test_poisson_gamma_and_binomial_rejection_loops_are_torchs(dtype):
    def program(t):
        d = getattr(t, dtype)
        rates = t.tensor([0.0, 0.5, 3.0, 9.9, 10.0, 15.0, 100.0, 1e4] * 5, dtype=d)
        shapes = t.tensor([0.0, 0.1, 0.5, 1.0, 2.0, 7.5, 100.0] * 5, dtype=d)
        return [
            t.randn(3, dtype=t.float64),  # leaves a cached normal for the gamma loop
            t.poisson(rates),
            t._standard_gamma(shapes),
            t.poisson(t.rand(5, 6, dtype=d) * 20),
            t.distributions.Gamma(t.full((30,), 2.0, dtype=d), t.ones(30, dtype=d)).sample(),
            t.distributions.Chi2(t.full((10,), 3.0, dtype=d)).sample(),
            t.distributions.StudentT(t.full((10,), 3.0, dtype=d)).sample(),
            t.binomial(
                t.tensor([0.0, 5, 20, 1000, 7, 3e4, 10, 100] * 5, dtype=d),
                t.tensor([0.5, 0.1, 0.0, 0.45, 1.0, 0.7, 0.9, 0.3] * 5, dtype=d),
            ),
            t.distributions.Binomial(50, t.tensor([0.2, 0.6], dtype=d)).sample((10,)),
            t.randn(2, dtype=t.float64),
        ]

    for seed in SEEDS[:3]:
        _same(program, seed)


def test_a_stream_of_mixed_draws_stays_torchs():
    # the per-element normal caches its second value across calls and sizes
    def program(t):
        return [
            t.randn(3, dtype=t.float64),
            t.randn(1),
            t.randn(5),
            t.rand(2, 3),
            t.randint(10, (4,)),
            t.randn(2, dtype=t.float64),
            t.randn(20),
            t.empty(7).normal_(),
        ]

    for seed in SEEDS:
        _same(program, seed)


def test_complex_and_generator_draws_are_torchs():
    def program(t):
        g = t.Generator().manual_seed(9)
        return [
            t.view_as_real(t.randn(20, dtype=t.complex64)),
            t.view_as_real(t.rand(5, dtype=t.complex128)),
            t.rand(5, generator=g),
            t.randn(30, generator=g),
            t.randperm(9, generator=g),
        ]

    _same(program, 0)


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_half_types_draw_as_float(dtype):
    # torch draws half types as float and rounds; the 16-wide normal fill draws the whole
    # blocks' uniforms, then the redrawn last 16
    def program(t):
        d = getattr(t, dtype)
        return [
            t.rand(40, dtype=d),
            t.empty(40, dtype=d).uniform_(-0.3, 0.71),
            t.randn(7, dtype=d),
            t.randn(50, dtype=d),
            t.empty(33, dtype=d).normal_(1.0, 3.0),
            t.randn(64, dtype=d),
            t.empty(40, dtype=d).exponential_(),
            t.empty(40, dtype=d).random_(),
        ]

    for seed in SEEDS[:3]:
        _same(program, seed)


def test_complex_fills_use_the_real_view():
    def program(t):
        return [
            t.view_as_real(t.empty(3, dtype=t.complex64).normal_()),
            t.view_as_real(t.empty(30, dtype=t.complex64).normal_(1.0, 2.0)),
            t.view_as_real(t.empty(4, 5, dtype=t.complex128).t().normal_()),
            t.view_as_real(t.empty(4, 3, dtype=t.complex64).t().uniform_(-1.0, 2.0)),
        ]

    _same(program, 1)


def test_views_fill_in_memory_order():
    def program(t):
        a = t.empty(4, 5)
        a.t().uniform_()
        b = t.empty(20, 5)
        b.t().normal_()  # not contiguous: per-element normals in memory order
        c = t.zeros(6, 6)
        c[:, 1:4].exponential_()
        return [a, b, c]

    _same(program, 2)


# -- layers, initialisers, dropout -----------------------------------------------------------
LAYERS = {
    "Linear": lambda nn: nn.Linear(20, 7),
    "Conv2d": lambda nn: nn.Conv2d(3, 8, 3),
    "ConvTranspose1d": lambda nn: nn.ConvTranspose1d(4, 2, 5),
    "Embedding": lambda nn: nn.Embedding(50, 16),
    "LSTM": lambda nn: nn.LSTM(10, 20, num_layers=2, bidirectional=True),
    "GRU": lambda nn: nn.GRU(6, 9),
    "BatchNorm2d": lambda nn: nn.BatchNorm2d(5),
    "LayerNorm": lambda nn: nn.LayerNorm(5),
    "MultiheadAttention": lambda nn: nn.MultiheadAttention(16, 4),
    "TransformerEncoderLayer": lambda nn: nn.TransformerEncoderLayer(16, 2, 32),
    "Bilinear": lambda nn: nn.Bilinear(3, 4, 5),
    "RNN": lambda nn: nn.RNN(4, 5, num_layers=2, nonlinearity="relu", bidirectional=True),
    "LSTMCell": lambda nn: nn.LSTMCell(3, 6),
    "LSTM with projections": lambda nn: nn.LSTM(4, 6, proj_size=3),
    "EmbeddingBag": lambda nn: nn.EmbeddingBag(10, 3),
    "MultiheadAttention kdim vdim": lambda nn: nn.MultiheadAttention(8, 2, kdim=5, vdim=6),
    "Transformer": lambda nn: nn.Transformer(8, 2, 1, 1, 16),
    "Conv3d": lambda nn: nn.Conv3d(2, 3, 2),
}


@pytest.mark.parametrize("name", sorted(LAYERS))
def test_layer_initialisation_is_torchs(name):
    def program(t):
        layer = LAYERS[name](t.nn)
        return [p for _, p in sorted(layer.state_dict().items())]

    for seed in SEEDS[:2]:
        _same(program, seed)


def test_initialisers_are_torchs():
    def program(t):
        init = t.nn.init
        return [
            init.xavier_uniform_(t.empty(6, 4)),
            init.xavier_normal_(t.empty(6, 40)),
            init.kaiming_uniform_(t.empty(8, 3, 3, 3)),
            init.kaiming_normal_(t.empty(30, 7), mode="fan_out"),
            init.trunc_normal_(t.empty(100), std=0.02),
            init.trunc_normal_(t.empty(100), a=1.0, b=3.0),  # the uniform-rejection branch
            init.uniform_(t.empty(5), -2, 2),
            init.normal_(t.empty(50), 1.0, 0.1),
            init.sparse_(t.empty(6, 4), 0.5),
        ]

    for seed in SEEDS[:2]:
        _same(program, seed)


def test_orthogonal_draws_torchs_matrix():
    # the Gaussian matrix and the stream are torch's; the QR factorisation is LAPACK's, so
    # the result agrees to float32 rounding
    torch.manual_seed(0)
    expected = torch.nn.init.orthogonal_(torch.empty(6, 4)).numpy()
    numtorch.manual_seed(0)
    got = numtorch.nn.init.orthogonal_(numtorch.empty(6, 4)).numpy()
    np.testing.assert_allclose(got, expected, atol=1e-6)
    np.testing.assert_array_equal(numtorch.rand(3).numpy(), torch.rand(3).numpy())


def test_dropout_masks_are_torchs():
    def program(t):
        F = t.nn.functional
        x = t.ones(4, 6, 3, 3)
        return [
            F.dropout(x, 0.3),
            F.dropout(x.double(), 0.7),
            t.nn.Dropout(0.2).train()(x),
            F.dropout2d(x, 0.4),
            F.alpha_dropout(x, 0.3, True),
            F.feature_alpha_dropout(x, 0.3, True),
            list(t.native_dropout(x, 0.25, True)),
            F.rrelu(t.randn(40), training=True),
        ]

    def between_layers(t):  # a different mask would move the output by far more than atol
        lstm = t.nn.LSTM(3, 4, num_layers=3, dropout=0.5)
        return [lstm(t.ones(5, 2, 3))[0]]

    for seed in SEEDS[:2]:
        _same(program, seed)
        _same(between_layers, seed, atol=1e-6)


# -- data loading ----------------------------------------------------------------------------
def test_shuffled_loading_and_splits_are_torchs():
    def program(t):
        data = t.utils.data
        loader = data.DataLoader(data.TensorDataset(t.arange(23)), batch_size=5, shuffle=True)
        order = [b[0] for b in loader] + [b[0] for b in loader]
        first, second = data.random_split(range(10), [0.7, 0.3])
        g = t.Generator().manual_seed(5)
        return order + [
            list(first),
            list(second),
            list(data.RandomSampler(range(7), generator=g)),
            list(data.SubsetRandomSampler([3, 4, 5, 6])),
            list(data.WeightedRandomSampler([0.1, 0.5, 0.4], 8)),
            list(data.RandomSampler(range(5), replacement=True, num_samples=40)),
            t.rand(2),
        ]

    for seed in SEEDS[:3]:
        _same(program, seed)


class _Augmenting:
    """A dataset drawing from NumPy, Python and the library's generator in each item, as
    data augmentation does in loader workers."""

    def __init__(self, lib):
        self.lib = lib

    def __len__(self):
        return 8

    def __getitem__(self, index):
        import random

        return [index, int(np.random.randint(1000)), random.random(), self.lib.rand(2)]


def test_loader_workers_are_seeded_as_torchs():
    def program(t):
        loader = t.utils.data.DataLoader(_Augmenting(t), batch_size=2, shuffle=True, num_workers=2)
        return [[b[0], b[1], b[2].double(), b[3]] for b in loader]

    _same(program, 3)


@pytest.mark.parametrize("seed", ["np.int64(3)", "True", "3.0", "'3'", "np.float64(2.0)"])
def test_generator_manual_seed_takes_python_ints_only(seed):
    """torch.Generator.manual_seed refuses what is not a Python int (torch.manual_seed
    converts with int() first and takes them all but strings)."""

    def outcome(lib):
        try:
            lib.Generator().manual_seed(eval(seed))
        except (TypeError, RuntimeError) as e:
            return type(e).__name__, str(e)
        return "ok"

    assert outcome(numtorch) == outcome(torch)
