"""A view's ``requires_grad`` after another view of its base was written in place with a
tensor that requires grad: the base now requires grad, and so does every view of it, as in
torch (which asks the base)."""

from __future__ import annotations

import pytest

import numtorch


def _views(lib):
    x = lib.zeros(3, 4)
    rows = x[:, 1:]
    first = rows[0]
    other = x[1:]
    first.mul_(lib.ones(3, requires_grad=True))
    return x.requires_grad, rows.requires_grad, other.requires_grad


def test_views_of_a_base_written_in_place_require_grad():
    assert _views(numtorch) == (True, True, True)


def test_views_match_torch():
    torch = pytest.importorskip("torch")
    assert _views(numtorch) == _views(torch)


def _unbound(lib):
    x = lib.zeros(2, 3)
    first, second = x.unbind()
    x.add_(lib.ones(3, requires_grad=True))
    return first.requires_grad, second.requires_grad


def test_reading_the_flag_of_a_multi_view_output_never_raises():
    assert _unbound(numtorch) == (True, True)
    torch = pytest.importorskip("torch")
    assert _unbound(torch) == (True, True)
