"""``torch.masked.MaskedTensor`` against torch: construction and its errors, printing,
elementwise ops, reductions, shape ops, conversions and autograd (``grad_fn`` names and a
MaskedTensor ``.grad``)."""

from __future__ import annotations

import copy
import pickle
import warnings

import numpy as np
import pytest

import numtorch

torch = pytest.importorskip("torch")

DATA = [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]
MASK = [[True, False, True], [False, False, True]]


@pytest.fixture(autouse=True)
def _quiet():
    # both libraries warn that MaskedTensor is a prototype on every construction
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


def _mt(t, data=DATA, mask=MASK, requires_grad=False):
    return t.masked.masked_tensor(t.tensor(data), t.tensor(mask), requires_grad=requires_grad)


def _summary(value):
    """What a program sees: the type's name, the printed form, the grad_fn's name."""
    if isinstance(value, Exception):
        return type(value).__name__
    node = getattr(value, "grad_fn", None)
    return type(value).__name__, repr(value), None if node is None else type(node).__name__


def _both(fn):
    results = []
    for t in (numtorch, torch):
        try:
            results.append(_summary(fn(t)))
        except Exception as e:  # the type is compared
            results.append(_summary(e))
    return results


CASES = {
    "repr_2d": lambda t: _mt(t),
    "repr_0d": lambda t: t.masked.masked_tensor(t.tensor(3.0), t.tensor(True)),
    "repr_0d_masked_out": lambda t: t.masked.masked_tensor(t.tensor(3.0), t.tensor(False)),
    "repr_int": lambda t: _mt(t, [1, 2, 3], [True, False, True]),
    "repr_bool": lambda t: _mt(t, [True, False, True], [True, False, True]),
    "repr_3d": lambda t: _mt(t, [DATA, DATA], [MASK, MASK]),
    "str": lambda t: str(_mt(t)),
    "mul_scalar": lambda t: _mt(t, requires_grad=True) * 2,
    "add_masked": lambda t: _mt(t) + _mt(t),
    "add_tensor": lambda t: _mt(t) + t.ones(2, 3),
    "exp": lambda t: t.exp(_mt(t, requires_grad=True)),
    "sin_method": lambda t: _mt(t).sin(),
    "neg": lambda t: -_mt(t),
    "pow": lambda t: _mt(t) ** 2,
    "compare": lambda t: _mt(t) > 2,
    "where": lambda t: t.where(t.tensor(MASK), _mt(t), _mt(t)),
    "sum_all": lambda t: _mt(t, requires_grad=True).sum(),
    "torch_sum_dim": lambda t: t.sum(_mt(t), 1),
    "sum_keepdim": lambda t: _mt(t).sum(0, keepdim=True),
    "mean": lambda t: _mt(t).mean(),
    "mean_dim": lambda t: _mt(t).mean(0),
    "amax": lambda t: _mt(t).amax(1),
    "amin_all": lambda t: _mt(t).amin(),
    "argmax": lambda t: _mt(t).argmax(),
    "prod": lambda t: _mt(t).prod(),
    "std": lambda t: _mt(t).std(),
    "var_dim": lambda t: _mt(t).var(1),
    "all": lambda t: _mt(t, [[True, False], [True, True]], [[True, False], [False, True]]).all(),
    "softmax": lambda t: _mt(t, requires_grad=True).softmax(1),
    "reshape": lambda t: _mt(t).reshape(3, 2),
    "index": lambda t: _mt(t)[0],
    "slice": lambda t: _mt(t)[:, 1:],
    "transpose": lambda t: _mt(t, requires_grad=True).t(),
    "to_float64": lambda t: _mt(t, requires_grad=True).to(t.float64),
    "detach": lambda t: _mt(t, requires_grad=True).detach(),
    "clone": lambda t: _mt(t).clone(),
    "get_data": lambda t: _mt(t, requires_grad=True).get_data(),
    "get_mask": lambda t: _mt(t).get_mask(),
    "to_tensor": lambda t: _mt(t).to_tensor(0),
    "as_masked_tensor": lambda t: t.masked.as_masked_tensor(
        t.tensor(DATA, requires_grad=True) * 1, t.tensor(MASK)
    ),
    "masks_differ": lambda t: _mt(t) + _mt(t, mask=[[True] * 3] * 2),
    "rsub": lambda t: 1 - _mt(t),
    "matmul": lambda t: t.matmul(_mt(t), _mt(t).t()),
    "data_not_tensor": lambda t: t.masked.masked_tensor([1.0], t.tensor([True])),
    "mask_not_bool": lambda t: t.masked.masked_tensor(t.ones(2), t.ones(2)),
    "sizes_differ": lambda t: t.masked.masked_tensor(t.ones(2), t.ones(3, dtype=t.bool)),
    "dims_differ": lambda t: t.masked.masked_tensor(t.ones(2), t.ones(1, 2, dtype=t.bool)),
    "dtype_unsupported": lambda t: t.masked.masked_tensor(
        t.ones(2, dtype=t.complex64), t.ones(2, dtype=t.bool)
    ),
    "add_": lambda t: _mt(t).add_(1),
    "mul_masked_": lambda t: _mt(t).mul_(_mt(t)),
    "exp_": lambda t: _mt(t).exp_(),
    "iadd": lambda t: _mt(t).__iadd__(2),
    "inplace_nonleaf": lambda t: (_mt(t, requires_grad=True) * 2).add_(1),
    "inplace_leaf": lambda t: _mt(t, requires_grad=True).add_(1),
    "inplace_masks_differ": lambda t: _mt(t).add_(_mt(t, mask=[[True] * 3] * 2)),
    "fill_": lambda t: _mt(t).fill_(0),
    "deepcopy": lambda t: copy.deepcopy(_mt(t, requires_grad=True)),
    "deepcopy_requires_grad": lambda t: copy.deepcopy(_mt(t, requires_grad=True)).requires_grad,
    "pickle": lambda t: pickle.loads(pickle.dumps(_mt(t))),
    "is_masked_tensor": lambda t: (t.masked.is_masked_tensor(_mt(t)), isinstance(_mt(t), t.Tensor)),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_case_matches_torch(name):
    ours, theirs = _both(CASES[name])
    assert ours == theirs


def test_attributes_match_torch():
    ours, theirs = (_mt(t, requires_grad=True) for t in (numtorch, torch))
    for attribute in ("shape", "dtype", "requires_grad", "is_leaf", "layout", "is_sparse"):
        assert str(getattr(ours, attribute)) == str(getattr(theirs, attribute))
    assert ours.dim() == theirs.dim() and ours.numel() == theirs.numel()


@pytest.mark.parametrize(
    "loss",
    [
        lambda mt: (mt * 2).sum(),
        lambda mt: mt.exp().sum(),
        lambda mt: mt.sum(1).sum(),
        lambda mt: mt.mean(),
        lambda mt: mt.get_data().sum(),
        lambda mt: (mt * mt).amax(),
    ],
)
def test_gradient_is_a_masked_tensor_as_in_torch(loss):
    grads = []
    for t in (numtorch, torch):
        mt = _mt(t, requires_grad=True)
        result = loss(mt)
        result.backward()
        grads.append(mt.grad)
    ours, theirs = grads
    assert type(ours).__name__ == type(theirs).__name__ == "MaskedTensor"
    assert repr(ours) == repr(theirs)
    # what the mask hides may differ; what it shows may not
    mask = np.array(MASK)
    np.testing.assert_allclose(
        ours.get_data().numpy()[mask], theirs.get_data().numpy()[mask], rtol=1e-6
    )
