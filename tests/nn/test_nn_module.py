"""Module semantics: registration, traversal, state dicts, modes, conversion, hooks, repr,
containers and Parameter, compared with torch where it is installed."""

from __future__ import annotations

import copy

import numpy as np
import pytest
from nn_parity import assert_same_error, copy_state

import numtorch
from numtorch import nn


def _net(lib):
    class Net(lib.nn.Module):
        def __init__(self):
            super().__init__()
            self.fc1 = lib.nn.Linear(3, 4)
            self.block = lib.nn.Sequential(lib.nn.ReLU(), lib.nn.Linear(4, 2))
            self.bn = lib.nn.BatchNorm1d(2)
            self.register_buffer("scale", lib.ones(2))
            self.register_buffer("cache", lib.zeros(1), persistent=False)

        def forward(self, x):
            return self.bn(self.block(self.fc1(x))) * self.scale

    return Net()


# -- registration and traversal --------------------------------------------------------------
def test_names_of_parameters_buffers_and_modules_match_torch():
    torch = pytest.importorskip("torch")
    ours, theirs = _net(numtorch), _net(torch)
    assert [n for n, _ in ours.named_parameters()] == [n for n, _ in theirs.named_parameters()]
    assert [n for n, _ in ours.named_buffers()] == [n for n, _ in theirs.named_buffers()]
    assert [n for n, _ in ours.named_modules()] == [n for n, _ in theirs.named_modules()]
    assert [n for n, _ in ours.named_children()] == [n for n, _ in theirs.named_children()]
    assert list(ours.state_dict()) == list(theirs.state_dict())
    assert ours.state_dict()._metadata == theirs.state_dict()._metadata
    assert repr(ours) == repr(theirs)
    assert len(list(ours.parameters(recurse=False))) == 0
    assert [n for n, _ in ours.block.named_parameters(prefix="b")] == ["b.1.weight", "b.1.bias"]


def test_shared_parameters_and_modules_are_listed_once():
    shared = nn.Linear(2, 2)
    model = nn.Sequential(shared, nn.ReLU(), shared)
    assert len(list(model.parameters())) == 2
    assert len(list(model.modules())) == 3
    names = [n for n, _ in model.named_parameters(remove_duplicate=False)]
    assert names == ["0.weight", "0.bias", "2.weight", "2.bias"]


def test_setattr_registers_and_moves_between_kinds():
    m = nn.Module()
    m.p = nn.Parameter(numtorch.ones(2))
    m.sub = nn.Linear(1, 1)
    m.register_buffer("b", numtorch.zeros(1))
    m.plain = 3
    assert list(m._parameters) == ["p"] and list(m._modules) == ["sub"]
    assert list(m._buffers) == ["b"] and m.plain == 3
    m.b = numtorch.ones(1)  # assigning a tensor to a buffer name keeps it a buffer
    assert m._buffers["b"].tolist() == [1.0]
    m.p = None
    assert m.p is None and "p" in m._parameters
    del m.sub
    assert "sub" not in m._modules
    with pytest.raises(AttributeError, match="'Module' object has no attribute 'sub'"):
        _ = m.sub
    m.buf = nn.Buffer(numtorch.zeros(3), persistent=False)
    assert "buf" in m._buffers and "buf" not in m.state_dict()


@pytest.mark.parametrize(
    "action",
    [
        lambda t: setattr(t.nn.Linear(1, 1), "weight", t.ones(1, 1)),
        lambda t: setattr(t.nn.Sequential(t.nn.ReLU()), "0", 3),
        lambda t: t.nn.Module().register_buffer("a.b", t.ones(1)),
        lambda t: t.nn.Module().register_buffer("", t.ones(1)),
        lambda t: t.nn.Module().register_buffer("x", 3),
        lambda t: t.nn.Module().register_buffer(1, t.ones(1)),
        lambda t: t.nn.Linear(1, 1).register_buffer("weight", t.ones(1)),
        lambda t: t.nn.Module().register_parameter("w", t.ones(1)),
        lambda t: t.nn.Module().register_parameter("w", t.nn.Parameter(t.ones(1)) * 2),
        lambda t: t.nn.Module().add_module("m", 3),
        lambda t: t.nn.Module().add_module("a.b", t.nn.ReLU()),
        lambda t: t.nn.Module().train("yes"),
        lambda t: t.nn.Module()(t.ones(1)),
        lambda t: t.nn.Linear(2, 2).get_submodule("nothing"),
    ],
)
def test_registration_errors_match_torch(action):
    assert_same_error(action, pytest.importorskip("torch"))


def test_assigning_before_init_raises_like_torch():
    torch = pytest.importorskip("torch")

    def early(t):
        class Early(t.nn.Module):
            def __init__(self):
                self.fc = t.nn.Linear(1, 1)
                super().__init__()

        Early()

    assert_same_error(early, torch)


def test_get_submodule_parameter_buffer():
    model = _net(numtorch)
    assert model.get_submodule("block.1") is model.block[1]
    assert model.get_parameter("block.1.bias") is model.block[1].bias
    assert model.get_buffer("bn.running_mean") is model.bn.running_mean


def test_apply_visits_children_first():
    seen = []
    nn.Sequential(nn.Linear(1, 1), nn.Sequential(nn.ReLU())).apply(
        lambda m: seen.append(type(m).__name__)
    )
    assert seen == ["Linear", "ReLU", "Sequential", "Sequential"]


# -- state dicts -----------------------------------------------------------------------------
def test_state_dict_round_trip_between_instances():
    a, b = _net(numtorch), _net(numtorch)
    b.load_state_dict(a.state_dict())
    for (name, x), y in zip(a.state_dict().items(), b.state_dict().values()):
        assert numtorch.equal(x, y), name
    x = numtorch.randn(5, 3)
    assert numtorch.equal(a(x), b(x))
    state = a.state_dict()
    assert not state["fc1.weight"].requires_grad
    assert state["fc1.weight"].data_ptr() == a.fc1.weight.data_ptr()  # shares storage
    kept = a.state_dict(keep_vars=True)
    assert kept["fc1.weight"] is a.fc1.weight


def _load_errors(t):
    model = t.nn.Sequential(t.nn.Linear(2, 3), t.nn.ReLU(), t.nn.Linear(3, 1))
    state = model.state_dict()
    del state["0.bias"]
    state["2.extra"] = t.ones(1)
    state["9.weight"] = t.ones(1)
    state["2.weight"] = t.ones(2, 3)
    return model, state


def test_state_dict_reads_positional_arguments_with_a_future_warning():
    # older modules override state_dict(destination, prefix, keep_vars) and pass them on
    # to the base class by position
    class Old(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(2, 1)

        def state_dict(self, destination=None, prefix="", keep_vars=False):
            sd = super().state_dict(destination, prefix, keep_vars)
            sd[prefix + "extra"] = numtorch.ones(1)
            return sd

    model = nn.Sequential(Old())
    with pytest.warns(FutureWarning, match="Positional args are being deprecated"):
        assert list(model.state_dict()) == ["0.fc.weight", "0.fc.bias", "0.extra"]
    with pytest.warns(FutureWarning):
        sd = model[0].state_dict(None, "p.", True)
    assert list(sd) == ["p.fc.weight", "p.fc.bias", "p.extra"]
    assert sd["p.fc.weight"].requires_grad


def test_load_state_dict_strict_errors_match_torch():
    torch = pytest.importorskip("torch")
    assert_same_error(lambda t: _load_errors(t)[0].load_state_dict(_load_errors(t)[1]), torch)


def test_load_state_dict_non_strict_reports_keys_like_torch():
    torch = pytest.importorskip("torch")

    def report(t):
        model, state = _load_errors(t)
        state["2.weight"] = t.ones(1, 3)
        return model.load_state_dict(state, strict=False)

    ours, theirs = report(numtorch), report(torch)
    assert ours.missing_keys == theirs.missing_keys
    assert ours.unexpected_keys == theirs.unexpected_keys
    assert repr(nn.Linear(1, 1).load_state_dict(nn.Linear(1, 1).state_dict())) == repr(
        torch.nn.Linear(1, 1).load_state_dict(torch.nn.Linear(1, 1).state_dict())
    )


def test_load_state_dict_size_mismatch_is_always_an_error():
    model = nn.Linear(2, 3)
    with pytest.raises(RuntimeError, match=r"size mismatch for weight: copying a param with shape"):
        model.load_state_dict({"weight": numtorch.ones(3, 3), "bias": numtorch.ones(3)}, False)


def test_load_state_dict_copies_without_recording_and_assign_replaces():
    model = nn.Linear(2, 1)
    weight = model.weight
    model.load_state_dict({"weight": numtorch.ones(1, 2), "bias": numtorch.zeros(1)})
    assert model.weight is weight and weight.tolist() == [[1.0, 1.0]]
    assert weight.grad_fn is None and weight.requires_grad
    new = numtorch.full((1, 2), 2.0)
    model.load_state_dict({"weight": new, "bias": numtorch.zeros(1)}, assign=True)
    assert isinstance(model.weight, nn.Parameter) and model.weight.tolist() == [[2.0, 2.0]]


def test_batchnorm_loads_old_checkpoints_without_num_batches_tracked():
    bn = nn.BatchNorm1d(2)
    state = bn.state_dict()
    del state["num_batches_tracked"]
    state._metadata[""] = {"version": 1}
    assert bn.load_state_dict(state).missing_keys == []


def test_state_dict_from_torch_loads_and_gives_the_same_outputs():
    torch = pytest.importorskip("torch")
    theirs, ours = _net(torch), _net(numtorch)
    theirs.train()(torch.randn(6, 3))  # move the running statistics away from their init
    copy_state(theirs, ours, numtorch)
    theirs.eval()
    ours.eval()
    x = np.random.default_rng(0).standard_normal((4, 3)).astype(np.float32)
    np.testing.assert_allclose(
        ours(numtorch.tensor(x)).detach().numpy(),
        theirs(torch.tensor(x)).detach().numpy(),
        rtol=1e-5,
        atol=1e-6,
    )


# -- modes, gradients, conversion ------------------------------------------------------------
def test_train_eval_propagate():
    model = _net(numtorch)
    assert model.eval() is model and not any(m.training for m in model.modules())
    model.train()
    assert all(m.training for m in model.modules())


def test_zero_grad_and_requires_grad():
    model = nn.Linear(2, 2)
    model(numtorch.ones(1, 2)).sum().backward()
    model.zero_grad(set_to_none=False)
    assert model.weight.grad.tolist() == [[0.0, 0.0], [0.0, 0.0]]
    model.zero_grad()
    assert model.weight.grad is None
    model.requires_grad_(False)
    assert not any(p.requires_grad for p in model.parameters())


def test_to_double_and_float_convert_parameters_in_place():
    model = _net(numtorch)
    weight = model.fc1.weight
    model.double()
    assert model.fc1.weight is weight and weight.dtype == numtorch.float64
    assert model.bn.running_mean.dtype == numtorch.float64
    assert model.bn.num_batches_tracked.dtype == numtorch.int64
    assert model(numtorch.randn(3, 3, dtype=numtorch.float64)).dtype == numtorch.float64
    model.to(numtorch.float32)
    assert weight.dtype == numtorch.float32
    with pytest.raises(TypeError, match="nn.Module.to only accepts floating point"):
        model.to(numtorch.int64)


def test_deepcopy_is_independent():
    model = _net(numtorch)
    clone = copy.deepcopy(model)
    assert isinstance(clone.fc1.weight, nn.Parameter)
    with numtorch.no_grad():
        clone.fc1.weight.fill_(0)
    assert model.fc1.weight.abs().sum().item() > 0


# -- hooks -----------------------------------------------------------------------------------
def test_forward_hooks_order_and_replacement():
    calls = []
    model = nn.Linear(2, 2)
    h1 = model.register_forward_pre_hook(lambda m, args: calls.append("pre") or (args[0] * 2,))
    h2 = model.register_forward_hook(lambda m, args, out: calls.append("post") or out * 0)
    h3 = model.register_forward_pre_hook(lambda m, args: calls.append("first"), prepend=True)
    out = model(numtorch.ones(1, 2))
    assert calls == ["first", "pre", "post"] and out.abs().sum().item() == 0
    for h in (h1, h2, h3):
        h.remove()
    calls.clear()
    model(numtorch.ones(1, 2))
    assert calls == []


def test_forward_hooks_with_kwargs_and_always_call():
    seen = {}

    class Scale(nn.Module):
        def forward(self, x, factor=1.0):
            if factor < 0:
                raise ValueError("negative")
            return x * factor

    m = Scale()
    m.register_forward_pre_hook(lambda mod, a, k: (a, {"factor": 3.0}), with_kwargs=True)
    m.register_forward_hook(lambda mod, a, k, out: seen.update(k=k), with_kwargs=True)
    assert m(numtorch.ones(1), factor=2.0).item() == 3.0 and seen["k"] == {"factor": 3.0}
    n = Scale()
    n.register_forward_hook(lambda mod, a, out: seen.update(failed=out), always_call=True)
    with pytest.raises(ValueError):
        n(numtorch.ones(1), factor=-1.0)
    assert seen["failed"] is None


def test_global_forward_hooks_see_every_module():
    from numtorch.nn.modules.module import (
        register_module_forward_hook,
        register_module_forward_pre_hook,
    )

    order = []
    pre = register_module_forward_pre_hook(lambda m, a: order.append(("in", type(m).__name__)))
    post = register_module_forward_hook(lambda m, a, o: order.append(("out", type(m).__name__)))
    try:
        nn.Sequential(nn.Linear(2, 2), nn.ReLU())(numtorch.ones(1, 2))
    finally:
        pre.remove()
        post.remove()
    assert order == [
        ("in", "Sequential"),
        ("in", "Linear"),
        ("out", "Linear"),
        ("in", "ReLU"),
        ("out", "ReLU"),
        ("out", "Sequential"),
    ]


def _hooked_gradients(lib, with_pre_hook):
    lib.manual_seed(0)
    model = lib.nn.Sequential(lib.nn.Linear(3, 2), lib.nn.Tanh())
    record = {}

    def hook(module, grad_input, grad_output):
        record["in"] = [None if g is None else g.detach().numpy().copy() for g in grad_input]
        record["out"] = [g.detach().numpy().copy() for g in grad_output]
        return (grad_input[0] * 2,)

    def pre_hook(module, grad_output):
        return (grad_output[0] * 10,)

    model[1].register_full_backward_hook(hook)
    if with_pre_hook:
        model[1].register_full_backward_pre_hook(pre_hook)
    x = lib.tensor(np.linspace(-1, 1, 6).reshape(2, 3).astype(np.float32), requires_grad=True)
    model[0].weight.data = lib.tensor(np.arange(6.0).reshape(2, 3).astype(np.float32) / 10)
    model[0].bias.data = lib.tensor(np.array([0.1, -0.2], dtype=np.float32))
    model(x).sum().backward()
    return record, x.grad.numpy()


@pytest.mark.parametrize("with_pre_hook", [False, True])
def test_full_backward_hooks_match_torch(with_pre_hook):
    torch = pytest.importorskip("torch")
    (ours, our_grad), (theirs, their_grad) = (
        _hooked_gradients(numtorch, with_pre_hook),
        _hooked_gradients(torch, with_pre_hook),
    )
    for key in ("in", "out"):
        for a, b in zip(ours[key], theirs[key]):
            np.testing.assert_allclose(a, b, rtol=1e-6)
    np.testing.assert_allclose(our_grad, their_grad, rtol=1e-6)


def test_full_backward_hook_when_no_input_requires_grad():
    calls = []
    model = nn.Linear(2, 1)
    model.register_full_backward_hook(lambda m, gi, go: calls.append((gi, go[0].shape)))
    model(numtorch.ones(3, 2)).sum().backward()
    assert calls == [((None,), (3, 1))]
    assert model.weight.grad is not None


def test_global_full_backward_hook():
    from numtorch.nn.modules.module import register_module_full_backward_hook

    names = []
    handle = register_module_full_backward_hook(lambda m, gi, go: names.append(type(m).__name__))
    try:
        x = numtorch.ones(1, 2, requires_grad=True)
        nn.Sequential(nn.Linear(2, 2), nn.ReLU())(x).sum().backward()
    finally:
        handle.remove()
    assert names == ["ReLU", "Linear", "Sequential"]


# -- containers ------------------------------------------------------------------------------
def test_sequential_indexing_slicing_and_editing():
    torch = pytest.importorskip("torch")
    for lib in (numtorch, torch):
        seq = lib.nn.Sequential(lib.nn.Linear(1, 2), lib.nn.ReLU(), lib.nn.Linear(2, 1))
        assert isinstance(seq[1:], lib.nn.Sequential) and len(seq[1:]) == 2
        assert isinstance(seq[-1], lib.nn.Linear)
        del seq[0]
        assert list(seq._modules) == ["0", "1"]
        seq.append(lib.nn.Tanh())
        seq.insert(0, lib.nn.Identity())
        assert [type(m).__name__ for m in seq] == ["Identity", "ReLU", "Linear", "Tanh"]
    assert_same_error(lambda t: t.nn.Sequential(t.nn.ReLU())[3], torch)
    ordered = nn.Sequential(__import__("collections").OrderedDict(act=nn.ReLU()))
    assert ordered.act is ordered[0]


def test_module_list_and_dict_match_torch_repr():
    torch = pytest.importorskip("torch")

    def build(t):
        layers = t.nn.ModuleList([t.nn.Linear(2, 2) for _ in range(3)])
        layers.append(t.nn.ReLU())
        layers.insert(1, t.nn.Tanh())
        table = t.nn.ModuleDict({"a": t.nn.ReLU(), "b": layers})
        return table

    ours, theirs = build(numtorch), build(torch)
    assert repr(ours) == repr(theirs)
    assert list(ours.keys()) == ["a", "b"] and "a" in ours and len(ours) == 2
    assert [n for n, _ in ours.named_parameters()] == [n for n, _ in theirs.named_parameters()]
    with pytest.raises(TypeError, match="ModuleList.extend should be called with an iterable"):
        nn.ModuleList().extend(nn.ReLU())


def test_parameter_list_and_dict():
    torch = pytest.importorskip("torch")

    def build(t):
        params = t.nn.ParameterList([t.nn.Parameter(t.ones(2)), t.zeros(2, 3)])
        table = t.nn.ParameterDict({"w": t.ones(1)})
        table["v"] = t.nn.Parameter(t.zeros(2))
        holder = t.nn.Module()
        holder.params, holder.table = params, table
        return holder

    ours, theirs = build(numtorch), build(torch)
    assert repr(ours) == repr(theirs)
    assert [n for n, _ in ours.named_parameters()] == [n for n, _ in theirs.named_parameters()]
    assert all(isinstance(p, nn.Parameter) for p in ours.params)
    assert list(ours.table.keys()) == ["w", "v"]


# -- Parameter -------------------------------------------------------------------------------
def test_parameter_repr_deepcopy_and_storage():
    torch = pytest.importorskip("torch")
    data = numtorch.tensor([1.0, 2.0])
    p = nn.Parameter(data)
    assert repr(p) == repr(torch.nn.Parameter(torch.tensor([1.0, 2.0])))
    assert p.requires_grad and p.is_leaf and p.data_ptr() == data.data_ptr()
    assert not nn.Parameter(data, requires_grad=False).requires_grad
    q = copy.deepcopy(p)
    assert isinstance(q, nn.Parameter) and q.requires_grad and q.data_ptr() != p.data_ptr()
    assert type(p * 2) is numtorch.Tensor and type(p.detach()) is numtorch.Tensor
    assert_same_error(lambda t: t.nn.Parameter(t.tensor([1, 2])), torch, exact=False)


# -- nn.utils --------------------------------------------------------------------------------
@pytest.mark.parametrize("norm_type", [2.0, 1.0, float("inf")])
def test_clip_grad_norm_matches_torch(norm_type):
    torch = pytest.importorskip("torch")

    def clip(t):
        w = t.tensor([[1.0, -2.0], [3.0, 4.0]], requires_grad=True)
        b = t.tensor([0.5], requires_grad=True)
        ((w * w).sum() + (b * 3).sum()).backward()
        total = t.nn.utils.clip_grad_norm_([w, b], 1.0, norm_type)
        return total.item(), w.grad.numpy().copy(), b.grad.numpy().copy()

    ours, theirs = clip(numtorch), clip(torch)
    assert ours[0] == pytest.approx(theirs[0], rel=1e-6)
    np.testing.assert_allclose(ours[1], theirs[1], rtol=1e-5)
    np.testing.assert_allclose(ours[2], theirs[2], rtol=1e-5)


def test_clip_grad_value_and_parameter_vectors():
    model = nn.Linear(3, 2)
    model(numtorch.ones(1, 3) * 10).sum().backward()
    nn.utils.clip_grad_value_(model.parameters(), 0.5)
    assert model.weight.grad.abs().max().item() <= 0.5
    vector = nn.utils.parameters_to_vector(model.parameters())
    assert vector.shape == (8,)
    nn.utils.vector_to_parameters(vector * 0, model.parameters())
    assert model.weight.abs().sum().item() == 0 and model.weight.grad_fn is None
