"""``numtorch.nn.utils.prune`` against torch.nn.utils.prune: masks (including which of
several equal magnitudes get pruned), the ``weight_orig``/``weight_mask`` reparametrisation,
state_dict keys, hooks, gradients, iterative pruning, ``remove`` and the errors."""

from __future__ import annotations

import numpy as np
import pytest

import numtorch
from numtorch.nn.utils.prune import _topk_indices

torch = pytest.importorskip("torch")
pytest.importorskip("torch.nn.utils.prune")  # torch loads it only on import


def _summary(lib, value):
    if isinstance(value, lib.Tensor):
        return (tuple(value.shape), str(value.dtype), value.detach().numpy().copy())
    if isinstance(value, (list, tuple)):
        return [_summary(lib, v) for v in value]
    if isinstance(value, dict):
        return {k: _summary(lib, v) for k, v in value.items()}
    return value


def _same(ours, theirs, where="result"):
    if isinstance(theirs, np.ndarray):
        assert ours.shape == theirs.shape, where
        np.testing.assert_allclose(ours, theirs, rtol=1e-6, atol=1e-7, err_msg=where)
    elif isinstance(theirs, (list, tuple)):
        assert len(ours) == len(theirs), f"{where}: {ours} vs {theirs}"
        for i, (a, b) in enumerate(zip(ours, theirs)):
            _same(a, b, f"{where}[{i}]")
    elif isinstance(theirs, dict):
        assert ours.keys() == theirs.keys(), where
        for k in theirs:
            _same(ours[k], theirs[k], f"{where}.{k}")
    else:
        assert ours == theirs, where


def _parity(case):
    _same(_summary(numtorch, case(numtorch)), _summary(torch, case(torch)))


def _tied_weights(lib, shape, levels=5):
    """Integer-valued weights, so that many magnitudes tie."""
    n = int(np.prod(shape))
    values = ((np.arange(n) * 7919) % (2 * levels + 1) - levels).astype(np.float32)
    return lib.tensor(values.reshape(shape))


def _linear(lib, out_features=4, in_features=6, levels=5):
    m = lib.nn.Linear(in_features, out_features)
    with lib.no_grad():
        m.weight.copy_(_tied_weights(lib, (out_features, in_features), levels))
        m.bias.copy_(lib.arange(float(out_features)))
    return m


def _state(lib, m):
    return [
        list(m.state_dict().keys()),
        [n for n, _ in m.named_parameters()],
        [n for n, _ in m.named_buffers()],
        [type(h).__name__ for h in m._forward_pre_hooks.values()],
        m.weight,
        getattr(m, "weight_mask", None),
    ]


@pytest.mark.parametrize("amount", [0, 1, 5, 0.3, 0.5, 0.9, 1.0, 24])
@pytest.mark.parametrize("levels", [1, 2, 5])
def test_l1_unstructured_mask_matches_torch(amount, levels):
    def case(lib):
        m = _linear(lib, levels=levels)
        P = lib.nn.utils.prune
        out = P.l1_unstructured(m, "weight", amount=amount)
        return [out is m, *_state(lib, m)]

    _parity(case)


@pytest.mark.parametrize("n", [1, 2, float("inf"), -float("inf")])
@pytest.mark.parametrize("dim", [0, 1, -1])
@pytest.mark.parametrize("amount", [0, 1, 0.5, 0.75])
def test_ln_structured_mask_matches_torch(n, dim, amount):
    def case(lib):
        m = lib.nn.Conv2d(3, 4, 2)
        with lib.no_grad():
            m.weight.copy_(_tied_weights(lib, (4, 3, 2, 2), levels=1))
        lib.nn.utils.prune.ln_structured(m, "weight", amount=amount, n=n, dim=dim)
        return _state(lib, m)

    _parity(case)


def test_iterative_pruning_combines_masks_like_torch():
    def case(lib):
        P = lib.nn.utils.prune
        m = _linear(lib, 6, 8, levels=3)
        out = []
        P.l1_unstructured(m, "weight", amount=0.25)
        out += _state(lib, m)
        P.ln_structured(m, "weight", amount=2, n=1, dim=0)
        out += _state(lib, m)
        P.l1_unstructured(m, "weight", amount=5)
        P.ln_structured(m, "weight", amount=0.34, n=2, dim=1)
        P.custom_from_mask(m, "weight", mask=(_tied_weights(lib, (6, 8), 1) >= 0))
        out += _state(lib, m)
        container = next(iter(m._forward_pre_hooks.values()))
        out.append([type(p).__name__ for p in container])
        out.append([len(container), type(container[0]).__name__])
        P.identity(m, "bias")
        out += [list(m.state_dict().keys()), m.bias_mask]
        return out

    _parity(case)


def test_forward_backward_and_remove_match_torch():
    def case(lib):
        P = lib.nn.utils.prune
        m = _linear(lib)
        P.l1_unstructured(m, "weight", amount=0.5)
        with lib.no_grad():
            m.weight_orig.mul_(2)  # the hook recomputes weight before the next call
        x = lib.arange(12.0).reshape(2, 6) / 10
        y = m(x)
        y.pow(2).sum().backward()
        out = [y, m.weight, m.weight_orig.grad, m.bias.grad, type(m.weight).__name__]
        out.append(P.is_pruned(lib.nn.Sequential(m)))
        P.remove(m, "weight")
        out += _state(lib, m)[:4]
        out += [type(m.weight).__name__, m.weight.requires_grad, P.is_pruned(m)]
        out.append(m(x))
        return out

    _parity(case)


def test_global_unstructured_matches_torch():
    def case(lib):
        P = lib.nn.utils.prune
        a, b = _linear(lib, 4, 6, levels=2), _linear(lib, 3, 4, levels=4)
        P.l1_unstructured(b, "weight", amount=2)
        pairs = [(a, "weight"), (b, "weight"), (a, "bias")]
        P.global_unstructured(pairs, pruning_method=P.L1Unstructured, amount=0.4)
        scores = {(a, "weight"): -_tied_weights(lib, (4, 6), 3)}
        P.global_unstructured([(a, "weight")], P.L1Unstructured, importance_scores=scores, amount=3)
        return [_state(lib, a), _state(lib, b), a.bias_mask]

    _parity(case)


def test_importance_scores_and_prune_method_match_torch():
    def case(lib):
        P = lib.nn.utils.prune
        m = _linear(lib)
        scores = lib.arange(24.0).reshape(4, 6).flip(1)
        P.l1_unstructured(m, "weight", amount=7, importance_scores=scores)
        out = _state(lib, m)
        m2 = lib.nn.Conv1d(2, 5, 3)
        P.ln_structured(
            m2,
            "weight",
            2,
            1,
            0,
            importance_scores=lib.ones(5, 2, 3) * lib.arange(5.0).view(5, 1, 1),
        )
        out.append(m2.weight_mask)
        t = _tied_weights(lib, (3, 4), 2)
        out.append(P.L1Unstructured(amount=0.5).prune(t))
        out.append(P.LnStructured(1, n=1, dim=1).prune(t, importance_scores=-t))
        out.append(P.CustomFromMask(t > 0).prune(t, default_mask=(t != 1).float()))
        return out

    _parity(case)


def test_random_methods_have_torch_shapes_and_counts():
    for lib in (numtorch, torch):
        P = lib.nn.utils.prune
        lib.manual_seed(0)
        m = lib.nn.Linear(10, 8)
        P.random_unstructured(m, "weight", amount=0.25)
        assert int((m.weight_mask == 0).sum()) == 20
        P.random_structured(m, "weight", amount=3, dim=0)
        rows_alive = (m.weight_mask.sum(1) != 0).sum()
        assert int(rows_alive) == 5
        assert int((m.weight_mask == 0).sum()) >= 20 + 30 - 10 * 3
        assert list(m.state_dict()) == ["bias", "weight_orig", "weight_mask"]
        assert (m.weight == m.weight_orig * m.weight_mask).all()


def _error(fn):
    try:
        fn()
    except Exception as e:
        return type(e).__name__, str(e).replace("numtorch", "torch")
    return "no error"


ERRORS = {
    "negative_amount": lambda P, lib: P.l1_unstructured(lib.nn.Linear(2, 2), "weight", -1),
    "amount_above_one": lambda P, lib: P.l1_unstructured(lib.nn.Linear(2, 2), "weight", 1.5),
    "amount_string": lambda P, lib: P.L1Unstructured("half"),
    "amount_too_many": lambda P, lib: P.l1_unstructured(lib.nn.Linear(2, 2), "weight", 5),
    "structured_1d": lambda P, lib: P.ln_structured(lib.nn.Linear(2, 2), "bias", 1, 2, 0),
    "structured_bad_dim": lambda P, lib: P.ln_structured(lib.nn.Linear(2, 2), "weight", 1, 2, 2),
    "remove_unpruned": lambda P, lib: P.remove(lib.nn.Linear(2, 2), "weight"),
    "missing_param": lambda P, lib: P.l1_unstructured(lib.nn.Linear(2, 2), "kernel", 1),
    "global_not_iterable": lambda P, lib: P.global_unstructured(3, P.L1Unstructured, amount=1),
    "global_structured": lambda P, lib: P.global_unstructured(
        [(lib.nn.Linear(2, 2), "weight")], P.LnStructured, amount=1, n=2, dim=0
    ),
    "global_scores_list": lambda P, lib: P.global_unstructured(
        [(lib.nn.Linear(2, 2), "weight")], P.L1Unstructured, importance_scores=[1], amount=1
    ),
    "container_wrong_name": lambda P, lib: _container_with_two_names(P),
    "container_not_method": lambda P, lib: P.PruningContainer().add_pruning_method(3),
}


def _container_with_two_names(P):
    a, b = P.Identity(), P.Identity()
    a._tensor_name, b._tensor_name = "weight", "bias"
    P.PruningContainer(a).add_pruning_method(b)


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_errors_match_torch(name):
    def case(lib):
        result = _error(lambda: ERRORS[name](lib.nn.utils.prune, lib))
        if name == "container_wrong_name":  # the message embeds an object address
            return result[0]
        return result

    _parity(case)


def test_failed_pruning_leaves_the_module_unchanged():
    for lib in (numtorch, torch):
        m = lib.nn.Linear(3, 2)
        with pytest.raises(ValueError):
            lib.nn.utils.prune.l1_unstructured(m, "weight", amount=10)
        assert [n for n, _ in m.named_parameters()] == ["bias", "weight"] or [
            n for n, _ in m.named_parameters()
        ] == ["weight", "bias"]
        assert not lib.nn.utils.prune.is_pruned(m)


def test_pruned_index_set_matches_torch_topk_on_ties():
    rng = np.random.default_rng(0)
    for _ in range(400):
        n = int(rng.integers(1, 400))
        x = rng.integers(0, int(rng.integers(1, 5)), size=n).astype(np.float32)
        if rng.random() < 0.1:
            x[rng.integers(0, n, size=2)] = np.nan
        k = int(rng.integers(0, n + 1)) if rng.random() < 0.6 else int(rng.integers(0, n // 64 + 1))
        for largest in (False, True):
            theirs = torch.topk(torch.tensor(x), k, largest=largest).indices.numpy()
            ours = _topk_indices(numtorch.tensor(x), k, largest).numpy()
            np.testing.assert_array_equal(np.sort(ours), np.sort(theirs))
