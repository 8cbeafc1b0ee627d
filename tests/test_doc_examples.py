"""torch's documentation examples run under torch and under numtorch, compared.

The examples are read from the installed torch's docstrings (``tests/doc_examples/``); each
one runs twice and its first difference is classified (``doc_examples.compare``). Examples
listed in ``doc_examples.known.KNOWN`` still differ, each for the reason given; a listed
example that agrees now fails here, so the list only shrinks. The examples in ``SLOW`` (3-D
convolutions, transformers, worker processes: seconds each) run only under
``make doc-examples``.
"""

from __future__ import annotations

import pytest
from doc_examples.compare import compare
from doc_examples.extract import examples
from doc_examples.known import KNOWN, PLATFORM_ROUNDING, SLOW, UNINITIALISED

import numtorch

torch = pytest.importorskip("torch")
torch.set_num_threads(1)  # torch's thread pool only contends on a small shared machine

EXAMPLES = {e.id: e for e in examples()}
PASSING = ("agree", "skipped", "nondeterministic")


@pytest.mark.parity
@pytest.mark.parametrize("id", sorted(set(EXAMPLES) - set(SLOW)))
def test_doc_example_matches_torch(id):
    result = compare(EXAMPLES[id], torch, numtorch)
    if id in UNINITIALISED and result.kind in ("value", "random", "nondeterministic"):
        return  # torch's values are whatever memory held
    if id in PLATFORM_ROUNDING:  # either side of a rounding bound, by the CPU's kernels
        assert result.kind in (*PASSING, "value", "random"), f"{result.kind}: {result.detail}"
        return
    if id in KNOWN:
        assert result.kind not in PASSING, f"{id} agrees with torch now: delete it from KNOWN"
    else:
        assert result.kind in PASSING, f"{result.kind}: {result.detail}"


def test_known_and_slow_name_examples_of_this_torch():
    # an id that no longer names an example (torch renamed it) is dropped from the lists
    assert not set(KNOWN) - set(EXAMPLES), sorted(set(KNOWN) - set(EXAMPLES))
    assert not set(SLOW) - set(EXAMPLES), sorted(set(SLOW) - set(EXAMPLES))
    assert not set(UNINITIALISED) - set(EXAMPLES), sorted(set(UNINITIALISED) - set(EXAMPLES))
    assert not set(PLATFORM_ROUNDING) - set(EXAMPLES), sorted(
        set(PLATFORM_ROUNDING) - set(EXAMPLES)
    )
