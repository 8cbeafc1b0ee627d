"""torch._dynamo as the pass-through of an eager torch.compile, against torch."""

import pytest

import numtorch

torch = pytest.importorskip("torch")

CONFIG = [
    "suppress_errors",
    "cache_size_limit",
    "recompile_limit",
    "accumulated_cache_size_limit",
    "verbose",
    "capture_scalar_outputs",
    "capture_dynamic_output_shape_ops",
    "optimize_ddp",
    "automatic_dynamic_shapes",
    "assume_static_by_default",
    "inline_inbuilt_nn_modules",
    "specialize_int",
    "compiled_autograd",
]


@pytest.mark.parametrize("name", CONFIG)
def test_config_defaults_are_torchs(name):
    assert getattr(numtorch._dynamo.config, name) == getattr(torch._dynamo.config, name)


def test_config_keeps_what_a_script_sets():
    config = numtorch._dynamo.config
    before = config.cache_size_limit
    try:
        config.cache_size_limit = 64
        assert numtorch._dynamo.config.cache_size_limit == 64
    finally:
        config.cache_size_limit = before


def test_markers_and_queries_answer_as_for_code_not_compiled():
    dynamo = numtorch._dynamo
    assert dynamo.reset() is None and dynamo.is_compiling() is torch._dynamo.is_compiling()

    def f(x):
        return x * 2

    assert dynamo.disable(f) is f and dynamo.disable()(f) is f
    assert dynamo.disable(recursive=False)(f) is f
    t = numtorch.ones(3, 4)
    assert dynamo.mark_dynamic(t, 0) is None and dynamo.mark_static(t) is None
    assert dynamo.maybe_mark_dynamic(t, [0, 1]) is None and dynamo.graph_break() is None
    assert dynamo.list_backends() == []
    compiled = numtorch.compile(f)
    assert compiled(t).tolist() == (t * 2).tolist()
