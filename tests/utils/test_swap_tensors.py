"""torch.utils.swap_tensors and the torch.__future__ switches for Module conversions,
against an installed torch."""

import pytest

import numtorch

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.parity


def _swap_story(lib):
    seen = []
    a = lib.ones(2, requires_grad=True)
    b = lib.zeros(3)
    a.grad = lib.ones(2)
    a.note = "from a"
    lib.utils.swap_tensors(a, b)
    seen += [a.tolist(), b.tolist(), a.grad, b.grad.tolist(), b.note, a.requires_grad]
    seen += [b.requires_grad, a.is_leaf, b.is_leaf, hasattr(a, "note")]
    p, t = lib.nn.Parameter(lib.ones(2)), lib.zeros(2)
    lib.utils.swap_tensors(p, t)
    seen += [type(p).__name__, type(t).__name__, p.requires_grad, t.requires_grad]
    x = lib.ones(2, requires_grad=True)
    y = (x * 2).sum()
    lib.utils.swap_tensors(x, lib.zeros(2))
    try:
        y.backward()
        seen.append("backward ran")
    except RuntimeError as e:
        seen.append(str(e)[:60])
    q = lib.arange(3.0) * 1
    w = lib.tensor([5.0, 6.0], requires_grad=True) * 2
    lib.utils.swap_tensors(q, w)
    seen += [q.tolist(), type(q.grad_fn).__name__, w.grad_fn is None]
    return seen


def test_swap_tensors_exchanges_data_grad_history_and_attributes():
    assert _swap_story(numtorch) == _swap_story(torch)


@pytest.mark.parametrize("mode", ["default", "overwrite", "swap"])
def test_module_conversion_follows_the_future_switches(mode):
    def story(lib):
        future = lib.__future__
        future.set_overwrite_module_params_on_conversion(mode == "overwrite")
        future.set_swap_module_params_on_conversion(mode == "swap")
        try:
            lin = lib.nn.Linear(2, 2)
            w = lin.weight
            w.grad = lib.ones(2, 2)
            y = lin(lib.ones(1, 2)).sum()
            lin.double()
            seen = [lin.weight is w, type(lin.weight).__name__, str(lin.weight.grad.dtype)]
            seen += [str(w.dtype), str(w.grad.dtype), lin.weight.requires_grad]
            try:
                y.backward()
                seen.append(None if lin.bias.grad is None else lin.bias.grad.tolist())
            except RuntimeError:
                seen.append("RuntimeError")
            seen.append(future.get_swap_module_params_on_conversion())
            return seen
        finally:
            future.set_overwrite_module_params_on_conversion(False)
            future.set_swap_module_params_on_conversion(False)

    assert story(numtorch) == story(torch)
