"""Selective activation checkpointing is refused with an error naming what is missing."""

import functools

import pytest

import numtorch
from numtorch.utils import checkpoint as cp
from numtorch.utils import checkpoint_helpers


def test_selective_checkpointing_names_the_missing_feature():
    context_fn = functools.partial(cp.create_selective_checkpoint_contexts, [])
    x = numtorch.ones(2, requires_grad=True)
    with pytest.raises(NotImplementedError, match=r"torch\.ops\.aten"):
        cp.checkpoint(lambda t: t * 2, x, use_reentrant=False, context_fn=context_fn)


def test_debug_switch_restores_its_setting():
    with cp.set_checkpoint_debug_enabled(True), cp.set_checkpoint_debug_enabled(None):
        assert checkpoint_helpers._debug[0] is True
    assert checkpoint_helpers._debug[0] is False
