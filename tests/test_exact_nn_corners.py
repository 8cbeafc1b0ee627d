"""nn functions at torch's corners (empty states, zero vectors), with torch's errors and
values."""

from __future__ import annotations

import pytest

import numtorch as nt


def _gru_weights(layers):
    nt.manual_seed(0)
    shapes = [(6, 2), (6, 2), (6,), (6,)] * layers
    return [nt.randn(*shape) for shape in shapes]


@pytest.mark.parametrize("h0_shape", [(0,), (0, 3, 2), (1, 3, 2)])
@pytest.mark.parametrize("packed", [True, False])
def test_rnn_with_too_few_initial_states_raises_torchs_error(h0_shape, packed):
    # two layers need two initial states; torch counts them before running any layer
    weights = _gru_weights(2)
    h0 = nt.zeros(*h0_shape)
    with pytest.raises(RuntimeError, match="Expected more hidden states in stacked_rnn"):
        if packed:
            nt.gru(nt.randn(6, 2), nt.tensor([3, 2, 1]), h0, weights, True, 2, 0.0, False, False)
        else:
            nt.gru(nt.randn(3, 2, 2), h0, weights, True, 2, 0.0, False, False, False)


def test_rnn_tanh_with_an_empty_initial_state_raises_torchs_error():
    weights = [nt.randn(2, 2), nt.randn(2, 2)]
    with pytest.raises(RuntimeError, match="Expected more hidden states"):
        nt.rnn_tanh(nt.randn(6, 2), nt.tensor([3, 2, 1]), nt.zeros(0), weights, False, 1, 0.0,
                    False, False)  # fmt: skip
