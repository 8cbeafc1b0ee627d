"""``torch.func.rearrange`` against torch: einops patterns (permutes, merges, splits with
lengths, ellipsis, unit axes, lists of tensors), values, shapes, gradients and errors."""

from __future__ import annotations

import numpy as np
import pytest

import numtorch

torch = pytest.importorskip("torch")

PATTERNS = [
    ("b h w c -> b h w c", {}),
    ("b h w c -> b c h w", {}),
    ("b h w c -> (b h) w c", {}),
    ("b h w c -> h (b w) c", {}),
    ("b h w c -> b (c h w)", {}),
    ("b (h1 h) w c -> b h1 h w c", {"h1": 3}),
    ("b (h h1) w c -> (b h1) h w c", {"h1": 1}),
    ("b h (w w2) c -> w2 b h w c", {"w2": 2}),
    ("b ... c -> b c ...", {}),
    ("... c -> c ...", {}),
    ("b h ... -> (b h) ...", {}),
    ("b h w c -> b h w c 1", {}),
    ("b h w c -> b () h w () c", {}),
    ("b h w c -> (h b) (c w)", {}),
]


@pytest.mark.parametrize("pattern, lengths", PATTERNS)
def test_rearrange_matches_torch(pattern, lengths):
    data = np.arange(2 * 3 * 4 * 5, dtype=np.float64).reshape(2, 3, 4, 5)
    results = []
    for lib in (numtorch, torch):
        x = lib.tensor(data, requires_grad=True)
        y = lib.func.rearrange(x, pattern, **lengths)
        (y * lib.arange(y.numel(), dtype=y.dtype).reshape(y.shape)).sum().backward()
        results.append((y, x.grad))
    (ours, ours_grad), (theirs, theirs_grad) = results
    assert tuple(ours.shape) == tuple(theirs.shape)
    np.testing.assert_array_equal(ours.detach().numpy(), theirs.detach().numpy())
    np.testing.assert_array_equal(ours_grad.numpy(), theirs_grad.numpy())


def test_unit_axes_on_the_left_and_lists_of_tensors_match_torch():
    cases = [
        (lambda t: t.arange(12.0).reshape(3, 1, 4), "a 1 b -> a b"),
        # torch sums over a unit axis of the pattern, whatever its length
        (lambda t: t.arange(24.0).reshape(3, 2, 4), "a 1 b -> b a"),
        (lambda t: [t.arange(12.0).reshape(3, 4) + i for i in range(5)], "b h w -> h b w"),
        (lambda t: t.tensor(3.0), " -> "),
    ]
    for make, pattern in cases:
        ours, theirs = (lib.func.rearrange(make(lib), pattern) for lib in (numtorch, torch))
        assert tuple(ours.shape) == tuple(theirs.shape)
        np.testing.assert_array_equal(ours.numpy(), theirs.numpy())


def _error(lib, pattern, lengths, shape=(2, 6)):
    try:
        lib.func.rearrange(lib.ones(shape), pattern, **lengths)
    except Exception as e:  # the type's name is compared (torch's comes from functorch.dim)
        return type(e).__name__
    return None


@pytest.mark.parametrize(
    "pattern, lengths",
    [
        ("a b -> a", {}),
        ("a b -> a b c", {}),
        ("a a -> a", {}),
        ("a b -> (a b", {}),
        ("a b c -> a b c", {}),
        ("a (b c) -> a b c", {"b": 4}),
        ("a (b c) -> a b c", {"b": 2, "c": 2}),
        ("(a b) c -> a b c", {}),
        ("a b -> a b", {"c": 2}),
        ("a b -> a ... b", {}),
        ("a b", {}),
        ("a 2 -> a", {}),
    ],
)
def test_errors_match_torch(pattern, lengths):
    theirs = _error(torch, pattern, lengths)
    assert theirs in ("ValueError", "DimensionBindError")
    assert _error(numtorch, pattern, lengths) == theirs
