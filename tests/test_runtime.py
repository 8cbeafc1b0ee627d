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
