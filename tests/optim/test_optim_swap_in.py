"""torch.optim.swap_in_optimizer_params_and_state against torch: the step runs on the
swapped-in parameters and state, the live optimizer comes back unchanged, in-place state
updates reach the caller's state dict, and the malformed inputs raise torch's errors."""

from __future__ import annotations

import copy

import numpy as np
import pytest

import numtorch

torch = pytest.importorskip("torch")


def _setup(lib, optimizer="SGD", **kwargs):
    lib.manual_seed(0)
    model = lib.nn.Linear(3, 2)
    with lib.no_grad():
        model.weight.copy_(lib.tensor([[0.1, -0.2, 0.3], [0.4, 0.5, -0.6]]))
        model.bias.copy_(lib.tensor([0.05, -0.05]))
    opt = getattr(lib.optim, optimizer)(model.parameters(), lr=0.1, **kwargs)
    model(lib.ones(4, 3)).pow(2).sum().backward()
    opt.step()
    return model, opt


def _run(lib, optimizer, **kwargs):
    model, opt = _setup(lib, optimizer, **kwargs)
    live = [p.detach().clone() for p in model.parameters()]
    osd = copy.deepcopy(opt.state_dict())
    osd["param_groups"][0]["lr"] = 0.5
    params = {n: p.detach().clone().requires_grad_() for n, p in model.named_parameters()}
    for p in params.values():
        p.grad = lib.ones_like(p)
    with lib.optim.swap_in_optimizer_params_and_state(opt, params, osd):
        assert opt.param_groups[0]["lr"] == 0.5
        opt.step()
    assert opt.param_groups[0]["lr"] == 0.1
    assert all(lib.equal(a, b) for a, b in zip(live, model.parameters()))
    state = [v.numpy() for s in osd["state"].values() for v in s.values() if v.ndim > 0]
    return [p.detach().numpy() for p in params.values()], state


@pytest.mark.parity
@pytest.mark.parametrize(
    "optimizer, kwargs", [("SGD", {"momentum": 0.9}), ("Adam", {}), ("RMSprop", {})]
)
def test_a_step_on_swapped_in_params_matches_torch(optimizer, kwargs):
    (ours, our_state), (theirs, their_state) = (
        _run(lib, optimizer, **kwargs) for lib in (numtorch, torch)
    )
    for a, b in zip(ours + our_state, theirs + their_state):
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-7)
    assert len(our_state) == len(their_state) > 0


def _errors(lib):
    model, opt = _setup(lib, "SGD", momentum=0.9)
    params = dict(model.named_parameters())
    good = opt.state_dict()
    fresh = lib.optim.SGD(lib.nn.Linear(2, 2).parameters(), lr=0.1)
    cases = [
        (fresh, params, good),
        (opt, params, [good]),
        (opt, params, {"state": [], "param_groups": good["param_groups"]}),
        (opt, params, {"state": {"a": 1, 0: 3}, "param_groups": good["param_groups"]}),
        (opt, params, {"state": good["state"], "param_groups": ()}),
        (opt, params, {"state": good["state"], "param_groups": good["param_groups"] * 2}),
        (opt, params, {"state": good["state"], "param_groups": [[0, 1]]}),
        (opt, params, {"state": good["state"], "param_groups": [{"params": [0]}]}),
        (opt, params, {"state": good["state"], "param_groups": [{"params": [0, 1], "x": 1}]}),
        (opt, {"w": model.weight}, good),
    ]
    messages = []
    for case in cases:
        with (
            pytest.raises(RuntimeError) as info,
            lib.optim.swap_in_optimizer_params_and_state(*case),
        ):
            pass
        messages.append(str(info.value))
    return messages


@pytest.mark.parity
def test_malformed_inputs_raise_torchs_errors():
    assert _errors(numtorch) == _errors(torch)
