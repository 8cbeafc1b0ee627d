"""``*_like`` results and dropout masks follow the input's memory layout, as torch's
``empty_like`` does: the strides, and the order in which random values are drawn."""

import pytest

import numtorch

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.parity


def _inputs(lib):
    return {
        "transposed": lib.ones(3, 5).t(),
        "permuted": lib.ones(2, 3, 4).permute(2, 0, 1),
        "permuted slice": lib.ones(2, 3, 4).permute(1, 0, 2)[:, :, ::2],
        "transposed slice": lib.ones(3, 4).t()[::2],
        "expanded": lib.ones(3).expand(4, 3),
        # an expanded dim keeps its place while the others keep their memory order
        "expanded transpose": lib.ones(3, 4).t().unsqueeze(0).expand(2, 4, 3),
        "expanded permute": lib.ones(3, 1, 4).expand(3, 5, 4).transpose(0, 2),
        "channels last": lib.ones(2, 3, 2, 2).to(memory_format=lib.channels_last),
        "row-major": lib.ones(3, 4),
    }


@pytest.mark.parametrize("name", list(_inputs(torch)))
def test_like_results_and_dropout_follow_the_input_layout(name):
    def story(lib):
        x = _inputs(lib)[name]
        F = lib.nn.functional
        seen = [lib.empty_like(x).stride(), lib.zeros_like(x).stride()]
        seen += [lib.full_like(x, 2.0).stride(), lib.ones_like(x, dtype=lib.float64).stride()]
        seen += [lib.zeros_like(x, memory_format=lib.contiguous_format).stride()]
        for draw in (
            lambda: lib.rand_like(x),
            lambda: lib.randn_like(x),
            lambda: lib.randint_like(x, 10),
            lambda: F.dropout(x, 0.5),
            lambda: lib.native_dropout(x, 0.3, True)[0],
            lambda: F.alpha_dropout(x, 0.4, True),
        ):
            lib.manual_seed(0)
            seen.append(draw().tolist())
        return seen

    assert story(numtorch) == story(torch)
