"""torch.compile runs eagerly in numtorch (not compared with torch: its compiler needs
seconds and a C toolchain, and fuses float operations differently)."""

import pytest

import numtorch as torch


def test_compile_wraps_a_module_as_torch_and_works_as_a_decorator():
    model = torch.nn.Linear(3, 2)
    compiled = torch.compile(model)
    assert type(compiled) is torch._dynamo.OptimizedModule
    assert compiled._orig_mod is model and compiled.in_features == 3
    assert list(compiled.state_dict()) == ["_orig_mod.weight", "_orig_mod.bias"]
    x = torch.ones(1, 3)
    assert torch.equal(compiled(x), model(x))
    compiled.eval()
    assert not model.training
    assert type(torch.compile(model, mode="max-autotune", dynamic=False)).__name__ == (
        "OptimizedModule"
    )
    assert torch.compile(model, disable=True) is model
    with pytest.raises(AttributeError, match="no attribute 'missing'"):
        compiled.missing  # noqa: B018

    @torch.compile(fullgraph=True)
    def f(t):
        return (t * 2).sum()

    y = torch.tensor([1.0, 2.0], requires_grad=True)
    f(y).backward()
    assert y.grad.tolist() == [2.0, 2.0]


def test_compiled_outputs_share_one_graph_node_as_torchs_default_backend_gives():
    import copy
    import io

    model = torch.nn.Linear(3, 2)
    x = torch.ones(4, 3)
    y = torch.compile(model)(x)
    assert type(y.grad_fn).__name__ == "CompiledFunctionBackward"
    edges = [type(f).__name__ if f else None for f, _ in y.grad_fn.next_functions]
    assert edges == ["AccumulateGrad", "AccumulateGrad", None]  # parameters, then inputs
    y.sum().backward()
    assert model.weight.grad.tolist() == [[4.0] * 3] * 2
    assert type(torch.compile(model, backend="eager")(x).grad_fn).__name__ == "AddmmBackward0"
    with torch.no_grad():
        assert torch.compile(model)(x).grad_fn is None
    t = torch.ones(2, requires_grad=True)
    assert torch.compile(lambda a: a.view(2))(t).grad_fn.name() == "ViewBackward0"  # an alias
    model.compile()
    assert type(model(x).grad_fn).__name__ == "CompiledFunctionBackward"
    # a copy or a saved and loaded module runs uncompiled, as torch drops its compiled call
    assert type(copy.deepcopy(model)(x).grad_fn).__name__ == "AddmmBackward0"
    buffer = io.BytesIO()
    torch.save(model, buffer)
    buffer.seek(0)
    loaded = torch.load(buffer, weights_only=False)
    assert type(loaded(x).grad_fn).__name__ == "AddmmBackward0"


def test_set_num_threads_reaches_numpy_blas_when_threadpoolctl_is_installed():
    threadpoolctl = pytest.importorskip("threadpoolctl")
    before = torch.get_num_threads()
    try:
        torch.set_num_threads(1)
        pools = [p for p in threadpoolctl.threadpool_info() if p["user_api"] == "blas"]
        assert pools and all(p["num_threads"] == 1 for p in pools)
        assert torch.get_num_threads() == 1
    finally:
        threadpoolctl.threadpool_limits(before, user_api="blas")
