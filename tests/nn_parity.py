"""Helpers for the nn tests: build the same layer in numtorch and torch, compare them."""

from __future__ import annotations

import numpy as np

import numtorch


def copy_state(source, target, lib):
    """Load ``source``'s state dict (either library) into ``target`` (built with ``lib``)."""
    state = {k: lib.tensor(np.array(v.detach().numpy())) for k, v in source.state_dict().items()}
    target.load_state_dict(state)


def pair(make, torch):
    """(numtorch module, torch module) with the same parameters and buffers."""
    theirs = make(torch)
    ours = make(numtorch)
    copy_state(theirs, ours, numtorch)
    return ours, theirs


def grad_fn_name(t):
    return None if t.grad_fn is None else t.grad_fn.name()


def outcome(fn, lib):
    """(exception type name, message) of ``fn(lib)``, or ('ok', None)."""
    try:
        fn(lib)
    except Exception as error:
        return type(error).__name__, str(error)
    return "ok", None


def assert_same_error(fn, torch, exact=True):
    ours, theirs = outcome(fn, numtorch), outcome(fn, torch)
    assert ours[0] == theirs[0], (ours, theirs)
    if exact:
        assert ours[1] == theirs[1], (ours, theirs)
