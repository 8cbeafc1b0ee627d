"""Tensor.sparse_mask against torch: pattern, dtype, gradient, errors."""

from __future__ import annotations

import warnings

import pytest

import numtorch

torch = pytest.importorskip("torch")

MASKS = {
    "uncoalesced": lambda lib: lib.sparse_coo_tensor(
        lib.tensor([[0, 1, 0], [2, 0, 2]]), lib.tensor([1.0, 2, 3]), (2, 3)
    ),
    "coalesced": lambda lib: lib.tensor([[0.0, 5.0, 0.0], [7.0, 0.0, 8.0]]).to_sparse(),
    "dense_dims": lambda lib: lib.sparse_coo_tensor(lib.tensor([[1]]), lib.ones(1, 3), (2, 3)),
}


def _masked(lib, case, dtype):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        mask = MASKS[case](lib)
    x = lib.arange(6.0, dtype=dtype).reshape(2, 3).requires_grad_()
    out = x.sparse_mask(mask)
    out.to_dense().pow(2).sum().backward()
    return (
        out._indices().tolist(),
        out._values().tolist(),
        str(out.dtype),
        out.is_coalesced(),
        out.grad_fn.name(),
        x.grad.tolist(),
    )


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("case", sorted(MASKS))
def test_sparse_mask_matches_torch(case, dtype):
    ours = _masked(numtorch, case, getattr(numtorch, dtype))
    assert ours == _masked(torch, case, getattr(torch, dtype))


@pytest.mark.parametrize("case", ["size", "dense_mask"])
def test_sparse_mask_errors_match_torch(case):
    def run(lib):
        mask = MASKS["uncoalesced"](lib)
        with pytest.raises(Exception) as info:
            if case == "size":
                lib.zeros(3, 3).sparse_mask(mask)
            else:
                lib.zeros(2, 3).sparse_mask(lib.zeros(2, 3))
        return info.type, str(info.value).split(".")[0].split(":")[0]

    assert run(numtorch) == run(torch)


def test_second_order_raises_as_torch():
    # torch's gradient comes from _sparse_mask_projection, which has no derivative
    torch = pytest.importorskip("torch")
    outcomes = []
    for lib in (numtorch, torch):
        x = lib.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=lib.float64, requires_grad=True)
        mask = lib.tensor([[0.0, 1.0], [1.0, 0.0]]).to_sparse()
        values = x.sparse_mask(mask).values()
        (g,) = lib.autograd.grad((values * values).sum(), x, create_graph=True)
        with pytest.raises(RuntimeError) as info:
            lib.autograd.grad(g.sum(), x)
        outcomes.append((g.tolist(), g.requires_grad, str(info.value)))
    assert outcomes[0] == outcomes[1]
