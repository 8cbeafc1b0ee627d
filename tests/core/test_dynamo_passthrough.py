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

    t0 = numtorch.ones(2)
    for disabled in (dynamo.disable(f), dynamo.disable()(f), dynamo.disable(recursive=False)(f)):
        assert disabled(t0).tolist() == [2.0, 2.0] and disabled.__name__ == "f"
    t = numtorch.ones(3, 4)
    assert dynamo.mark_dynamic(t, 0) is None and dynamo.mark_static(t) is None
    assert dynamo.maybe_mark_dynamic(t, [0, 1]) is None and dynamo.graph_break() is None
    assert dynamo.list_backends() == []
    compiled = numtorch.compile(f)
    assert compiled(t).tolist() == (t * 2).tolist()


def test_is_compiling_is_true_in_the_code_torch_would_trace():
    # torch: True in a compiled function or module's forward, False in a disabled function
    # called from it and outside (checked against torch with the eager backend)
    seen = []

    @numtorch.compiler.disable
    def kept_out(x):
        seen.append(("disabled", numtorch.compiler.is_compiling()))
        return x

    @numtorch.compile(backend="eager")
    def compiled(x):
        seen.append(("compiled", numtorch.compiler.is_compiling()))
        return kept_out(x) + 1

    class M(numtorch.nn.Module):
        def forward(self, x):
            seen.append(("module", numtorch._dynamo.is_compiling()))
            return x * 2

    compiled(numtorch.ones(2))
    seen.append(("outside", numtorch.compiler.is_compiling()))
    numtorch.compile(M())(numtorch.ones(2))
    assert seen == [("compiled", True), ("disabled", False), ("outside", False), ("module", True)]
