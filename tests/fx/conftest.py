"""Every fx test leaves torch's functions plain (Note [Recording torch functions])."""

import gc

import pytest


@pytest.fixture(autouse=True)
def _no_recording_left_behind():
    yield
    from numtorch.fx._patching import _Recording

    gc.collect()
    assert _Recording.holders == 0, "a Proxy outlived its test: torch functions still record"
