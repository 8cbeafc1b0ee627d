"""The issue's seed examples for nn: the two-branch MLP with a hand-written autograd walk,
``dummy_bn_forward`` against BatchNorm2d, running statistics, and eval() vs no_grad()."""

from __future__ import annotations

import gc
import weakref

import numpy as np
import pytest

import numtorch

# -- the seed MLP ----------------------------------------------------------------------------


def _mlp_class(torch):
    nn = torch.nn

    class MLP(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc1 = nn.Linear(10, 5)
            self.relu = nn.ReLU()
            self.fc2 = nn.Linear(5, 2)
            self.fc3 = nn.Linear(5, 2)
            self.fc4 = nn.Linear(2, 2)

        def forward(self, x):
            x = self.relu(self.fc1(x))
            x1 = self.fc2(x)
            x2 = self.fc4(self.relu(self.fc3(x)))
            return x1 + x2

    return MLP


def autograd(grad_fn, gradient):
    """The seed's toy backward: call each node, push its inputs' gradients onwards."""
    queue = [[grad_fn, gradient]]
    while queue != []:
        item = queue.pop()
        gradients = item[0](item[1])
        functions = [x[0] for x in item[0].next_functions]
        if type(gradients) is not tuple:
            gradients = (gradients,)
        for grad, func in zip(gradients, functions):
            if type(func).__name__ == "AccumulateGrad":
                if hasattr(func.variable, "auto_grad"):
                    func.variable.auto_grad = func.variable.auto_grad + grad
                else:
                    func.variable.auto_grad = grad
            else:
                queue.append([func, grad])


def _seed_walk(torch):
    MLP = _mlp_class(torch)
    mlp, copy = MLP(), MLP()
    copy.load_state_dict(mlp.state_dict())
    x = torch.ones([10], requires_grad=True)
    z = torch.sum(mlp(x))
    autograd(z.grad_fn, torch.tensor(1.0))
    x2 = torch.ones([10], requires_grad=True)
    torch.sum(copy(x2)).backward()
    return mlp, x, x2


def test_seed_mlp_walk_gives_the_backward_gradient():
    mlp, x, x2 = _seed_walk(numtorch)
    assert numtorch.allclose(x.auto_grad, x2.grad)
    for p in mlp.parameters():
        # node calls do not reduce broadcast gradients (the engine does): biases get (1, n),
        # as in torch
        assert p.auto_grad.numel() == p.numel()


def test_seed_mlp_graph_and_walk_match_torch():
    torch = pytest.importorskip("torch")
    ours, theirs = _seed_walk(numtorch)[0], _seed_walk(torch)[0]
    assert repr(ours) == repr(theirs)

    def names(lib, model):
        z = lib.sum(model(lib.ones([10], requires_grad=True)))
        seen, stack = [], [z.grad_fn]
        while stack:
            node = stack.pop()
            seen.append(node.name().rsplit("::", 1)[-1])
            stack.extend(n for n, _ in node.next_functions if n is not None)
        return sorted(seen)

    assert names(numtorch, ours) == names(torch, theirs)
    assert [tuple(p.auto_grad.shape) for p in ours.parameters()] == [
        tuple(p.auto_grad.shape) for p in theirs.parameters()
    ]
    # the same weights give the same walked gradient
    MLP = _mlp_class(numtorch)
    model = MLP()
    model.load_state_dict({k: numtorch.tensor(v.numpy()) for k, v in theirs.state_dict().items()})
    x = numtorch.ones([10], requires_grad=True)
    autograd(numtorch.sum(model(x)).grad_fn, numtorch.tensor(1.0))
    tx = torch.ones([10], requires_grad=True)
    torch.sum(theirs(tx)).backward()
    np.testing.assert_allclose(x.auto_grad.detach().numpy(), tx.grad.numpy(), rtol=1e-5)


def test_walk_with_an_input_that_needs_no_grad_matches_torch():
    # nodes of inputs without grad are None in next_functions; torch's own walk then fails
    # trying to call None, and so does ours, the same way
    torch = pytest.importorskip("torch")

    def walk(lib):
        model = lib.nn.Linear(3, 2)
        z = lib.sum(model(lib.ones(1, 3)))
        assert any(n is None for n, _ in z.grad_fn.next_functions[0][0].next_functions)
        autograd(z.grad_fn, lib.tensor(1.0))

    with pytest.raises(TypeError, match="'NoneType' object is not callable"):
        walk(torch)
    with pytest.raises(TypeError, match="'NoneType' object is not callable"):
        walk(numtorch)


# -- dummy_bn_forward ------------------------------------------------------------------------
def dummy_bn_forward(x, bn_weight, bn_bias, eps, mean_val=None, var_val=None):
    if mean_val is None:
        mean_val = x.mean([0, 2, 3])
    if var_val is None:
        var_val = x.var([0, 2, 3], unbiased=False)
    x = x - mean_val[None, ..., None, None]
    x = x / numtorch.sqrt(var_val[None, ..., None, None] + eps)
    x = x * bn_weight[..., None, None] + bn_bias[..., None, None]
    return mean_val, var_val, x


def test_dummy_bn_forward_equals_batchnorm2d_in_training():
    numtorch.manual_seed(0)
    bn = numtorch.nn.BatchNorm2d(3)
    with numtorch.no_grad():
        bn.weight.uniform_(0.5, 1.5)
        bn.bias.uniform_(-0.5, 0.5)
    x = numtorch.randn(4, 3, 5, 5) * 2 + 1
    mean, var, expected = dummy_bn_forward(x, bn.weight, bn.bias, bn.eps)
    out = bn(x)
    assert numtorch.allclose(out, expected, atol=1e-5)
    assert out.grad_fn.name() == "NativeBatchNormBackward0"
    # running statistics: momentum update with the *unbiased* batch variance
    n = x.numel() / x.shape[1]
    assert numtorch.allclose(bn.running_mean, 0.9 * numtorch.zeros(3) + 0.1 * mean, atol=1e-6)
    assert numtorch.allclose(bn.running_var, 0.9 + 0.1 * var * n / (n - 1), atol=1e-6)
    assert bn.num_batches_tracked.item() == 1
    # eval() normalizes with the running statistics
    bn.eval()
    _, _, expected_eval = dummy_bn_forward(
        x, bn.weight, bn.bias, bn.eps, bn.running_mean, bn.running_var
    )
    assert numtorch.allclose(bn(x), expected_eval, atol=1e-5)
    assert bn.num_batches_tracked.item() == 1  # eval leaves the statistics alone


def test_batchnorm_running_stats_match_torch_over_steps():
    torch = pytest.importorskip("torch")
    from nn_parity import pair

    for momentum in (0.1, None):
        ours, theirs = pair(lambda m: m.nn.BatchNorm2d(2, momentum=momentum), torch)
        rng = np.random.default_rng(0)
        for _ in range(3):
            x = (rng.standard_normal((3, 2, 2, 2)) * 3 + 1).astype(np.float32)
            ours(numtorch.tensor(x))
            theirs(torch.tensor(x))
        for (name, a), b in zip(ours.named_buffers(), theirs.buffers()):
            np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-5, atol=1e-6, err_msg=name)
        ours.eval()
        theirs.eval()
        x = rng.standard_normal((2, 2, 2, 2)).astype(np.float32)
        np.testing.assert_allclose(
            ours(numtorch.tensor(x)).detach().numpy(),
            theirs(torch.tensor(x)).detach().numpy(),
            rtol=1e-5,
            atol=1e-5,
        )


def test_batchnorm_in_training_needs_more_than_one_value_per_channel():
    bn = numtorch.nn.BatchNorm1d(3)
    with pytest.raises(ValueError, match=r"got input size torch.Size\(\[1, 3\]\)"):
        bn(numtorch.ones(1, 3))
    bn.eval()
    assert bn(numtorch.ones(1, 3)).shape == (1, 3)  # fine in eval: running statistics


def test_batchnorm_without_running_stats_uses_batch_stats_in_eval():
    bn = numtorch.nn.BatchNorm1d(2, track_running_stats=False).eval()
    x = numtorch.tensor([[1.0, 2.0], [3.0, 6.0]])
    assert numtorch.allclose(bn(x), numtorch.tensor([[-1.0, -1.0], [1.0, 1.0]]), atol=1e-4)
    assert bn.running_mean is None and list(bn.state_dict()) == ["weight", "bias"]


# -- eval() and no_grad() are independent ----------------------------------------------------
def test_eval_mode_and_no_grad_are_independent():
    numtorch.manual_seed(0)
    drop = numtorch.nn.Dropout(0.5)
    x = numtorch.ones(1000, requires_grad=True)
    drop.eval()
    y = drop(x)
    assert numtorch.equal(y, x) and y.requires_grad  # identity, but still differentiable
    drop.train()
    with numtorch.no_grad():
        z = drop(x)
    assert not z.requires_grad
    assert (z == 0).any() and (z == 2).any()  # dropout still active under no_grad


def test_no_grad_inference_keeps_no_graph_and_no_references():
    model = numtorch.nn.Sequential(
        numtorch.nn.Conv2d(1, 4, 3),
        numtorch.nn.BatchNorm2d(4),
        numtorch.nn.ReLU(),
        numtorch.nn.MaxPool2d(2),
        numtorch.nn.Flatten(),
        numtorch.nn.Linear(4 * 3 * 3, 2),
    ).eval()
    x = numtorch.randn(2, 1, 8, 8)
    probe = weakref.ref(x)
    with numtorch.no_grad():
        out = model(x)
    assert out.grad_fn is None and not out.requires_grad
    del x, out
    gc.collect()
    assert probe() is None  # no layer kept a reference to its input
