"""Tensors in NumPy's dispatch as torch's are: operators that defer to NumPy, ufuncs and
functions on tensors, result types, and torch's errors for arrays where tensors belong."""

import warnings

import numpy as np
import pytest

import numtorch

torch = pytest.importorskip("torch")

CASES = {
    "t + a": lambda lib, t, a: t + a,
    "a + t": lambda lib, t, a: a + t,
    "t * a32": lambda lib, t, a: t * a.astype(np.float32),
    "a32 * t": lambda lib, t, a: a.astype(np.float32) * t,
    "t + int array": lambda lib, t, a: t + np.array([1, 2, 3]),
    "t - a": lambda lib, t, a: t - a,
    "a - t": lambda lib, t, a: a - t,
    "a / t": lambda lib, t, a: a / t,
    "t / a": lambda lib, t, a: t / a,
    "t @ a": lambda lib, t, a: t @ a,
    "a @ t": lambda lib, t, a: a @ t,
    "t == a": lambda lib, t, a: t == np.array([1.0, 2.0, 5.0]),
    "a == t": lambda lib, t, a: np.array([1.0, 2.0, 5.0]) == t,
    "t < a": lambda lib, t, a: t < a,
    "np.exp": lambda lib, t, a: np.exp(t),
    "np.add": lambda lib, t, a: np.add(t, a),
    "np.maximum": lambda lib, t, a: np.maximum(t, 2),
    "np.isnan": lambda lib, t, a: np.isnan(t),
    "np.clip": lambda lib, t, a: np.clip(t, 0, 2),
    "np.argmax": lambda lib, t, a: np.argmax(t),
    "np.asarray": lambda lib, t, a: np.asarray(t),
    "np.array": lambda lib, t, a: np.array(t),
    "np.concatenate": lambda lib, t, a: np.concatenate([t, t]),
    "np.stack": lambda lib, t, a: np.stack([t, t]),
    "np.where": lambda lib, t, a: np.where(t > 1, t, 0),
    "np.dot": lambda lib, t, a: np.dot(t, t),
    "NumPy scalar * t": lambda lib, t, a: np.float64(2) * t,
    "t + NumPy int": lambda lib, t, a: t + np.int64(2),
    "np.exp(requires_grad)": lambda lib, t, a: np.exp(t.requires_grad_()),
    "requires_grad + a": lambda lib, t, a: t.requires_grad_() + a,
    "array item assign": lambda lib, t, a: _assign(a.copy(), lib.tensor(9.0)),
    "array indexed by tensor": lambda lib, t, a: a[lib.tensor([0, 1])],
    "torch.exp(a)": lambda lib, t, a: lib.exp(a),
    "torch.cat([a])": lambda lib, t, a: lib.cat([a]),
    "F.relu(a)": lambda lib, t, a: lib.nn.functional.relu(a),
    "F.linear(t, a)": lambda lib, t, a: lib.nn.functional.linear(t, a.reshape(1, 3)),
    "Linear(a)": lambda lib, t, a: lib.nn.Linear(3, 2)(a.astype(np.float32)),
    "Conv1d(a)": lambda lib, t, a: lib.nn.Conv1d(1, 1, 1)(a.reshape(1, 1, 3)),
    "Embedding(a)": lambda lib, t, a: lib.nn.Embedding(3, 2)(np.array([1])),
    "LayerNorm(a)": lambda lib, t, a: lib.nn.LayerNorm(3)(a.astype(np.float32)),
    "Dropout(a)": lambda lib, t, a: lib.nn.Dropout()(a),
    "MaxPool2d(a)": lambda lib, t, a: lib.nn.MaxPool2d(1)(a.reshape(1, 1, 3)),
    "F.cross_entropy(a)": lambda lib, t, a: lib.nn.functional.cross_entropy(a, lib.tensor(0)),
    "torch.mm(t, a)": lambda lib, t, a: lib.mm(t[None], a[:, None]),
    "torch.matmul(t, a)": lambda lib, t, a: lib.matmul(t, a),
    "torch.mean(a)": lambda lib, t, a: lib.mean(a),
    "torch.softmax(a)": lambda lib, t, a: lib.softmax(a, -1),
    "Tanh(a)": lambda lib, t, a: lib.nn.Tanh()(a),
    "Sigmoid(a)": lambda lib, t, a: lib.nn.Sigmoid()(a),
}


def _assign(array, value):
    array[0] = value
    return array


def _outcome(lib, fn):
    t = lib.tensor([1.0, 2.0, 3.0])
    a = np.array([0.5, 1.5, 2.5])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            r = fn(lib, t, a)
        except Exception as e:  # the type is what gets compared
            return ("raised", type(e).__name__, str(e).split("\n")[0][:60])
    if isinstance(r, lib.Tensor):
        return ("Tensor", str(r.dtype), r.tolist())
    return (type(r).__name__, str(getattr(r, "dtype", "")), np.asarray(r).tolist())


@pytest.mark.parametrize("name", list(CASES))
def test_matches_torch(name):
    ours, theirs = _outcome(numtorch, CASES[name]), _outcome(torch, CASES[name])
    if theirs[0] == "raised":  # only the exception type, and the op named for tensor checks
        assert ours[:2] == theirs[:2]
        if "must be Tensor" in theirs[2]:
            assert ours[2] == theirs[2]
    else:
        assert ours == theirs


@pytest.mark.parametrize(
    "make",
    [
        lambda lib: lib.ones(2, requires_gard=True),
        lambda lib: lib.zeros(2, foo=1),
        lambda lib: lib.empty(2, bad=1),
        lambda lib: lib.full((2,), 1.0, bad=1),
        lambda lib: lib.ones_like(lib.ones(1), bad=1),
        lambda lib: lib.zeros_like(lib.ones(1), bad=1),
        lambda lib: lib.full_like(lib.ones(1), 1, bad=1),
        lambda lib: lib.empty_like(lib.ones(1), bad=1),
        lambda lib: lib.rand_like(lib.ones(1), bad=1),
        lambda lib: lib.randn_like(lib.ones(1), bad=1),
        lambda lib: lib.rand(2, bad=1),
        lambda lib: lib.randn(2, bad=1),
        lambda lib: lib.randint(0, 2, (2,), bad=1),
        lambda lib: lib.arange(2, bad=1),
        lambda lib: lib.linspace(0, 1, 2, bad=1),
        lambda lib: lib.eye(2, bad=1),
        lambda lib: lib.tensor([1], bad=1),
        lambda lib: lib.normal(0.0, 1.0, size=(2,), bad=1),
        lambda lib: lib.normal(0.0, 1.0, size=(2,), requires_grad=True).requires_grad,
        lambda lib: lib.ones(2, memory_format=lib.contiguous_format),
        lambda lib: lib.zeros(2, names=None),
        lambda lib: lib.ones(2, layout=lib.strided, pin_memory=False).tolist(),
        lambda lib: lib.empty(2, memory_format=lib.contiguous_format).shape,
        lambda lib: lib.rand(2, layout=lib.strided, pin_memory=False).shape,
        lambda lib: lib.zeros_like(lib.ones(2), memory_format=lib.preserve_format).tolist(),
    ],
)
def test_factories_reject_unknown_keywords(make):
    def outcome(lib):
        try:
            return ("made", make(lib))
        except TypeError:
            return "TypeError"

    ours, theirs = outcome(numtorch), outcome(torch)
    assert str(ours) == str(theirs)


@pytest.mark.parametrize(
    "convert",
    [
        lambda lib, t: t.numpy(),
        lambda lib, t: np.asarray(t),
        lambda lib, t: t.numpy(force=True),
    ],
)
@pytest.mark.parametrize("mode", ["enabled", "no_grad", "inference_mode"])
def test_numpy_of_a_tensor_requiring_grad_depends_on_grad_mode(convert, mode):
    # torch refuses only while grad is recorded (a custom Function's forward runs NumPy code
    # on its inputs under no_grad)
    def outcome(lib):
        t = lib.tensor([1.0, 2.0], requires_grad=True)
        ctx = {"enabled": lib.enable_grad, "no_grad": lib.no_grad}.get(mode, lib.inference_mode)
        with ctx():
            try:
                return convert(lib, t).tolist()
            except RuntimeError:
                return "RuntimeError"

    assert outcome(numtorch) == outcome(torch)
