"""numtorch.models: torchvision's ResNet names and numbers (against a torch.nn copy), mlp."""

from __future__ import annotations

import numpy as np
import pytest
from nn_parity import copy_state
from torch_reference import torch_resnet

import numtorch
from numtorch.models import BasicBlock, Bottleneck, ResNet, mlp, resnet18, resnet34, resnet50

pytestmark = pytest.mark.usefixtures("one_blas_thread")

ARCHITECTURES = {
    "resnet18": (resnet18, False, [2, 2, 2, 2]),
    "resnet34": (resnet34, False, [3, 4, 6, 3]),
    "resnet50": (resnet50, True, [3, 4, 6, 3]),
}


def randomize_batch_norm_stats(model, seed=0):
    """Non-trivial running stats and affine parameters, so eval mode is really tested."""
    rng = np.random.default_rng(seed)
    for module in model.modules():
        if type(module).__name__ == "BatchNorm2d":
            n = module.num_features
            with numtorch.no_grad():
                module.running_mean.copy_(numtorch.tensor(rng.normal(0, 0.1, n)))
                module.running_var.copy_(numtorch.tensor(rng.uniform(0.5, 1.5, n)))
                module.weight.copy_(numtorch.tensor(rng.uniform(0.5, 1.5, n)))
                module.bias.copy_(numtorch.tensor(rng.normal(0, 0.1, n)))


# torchvision's documented sizes
PARAMETER_COUNTS = {"resnet18": 11_689_512, "resnet34": 21_797_672, "resnet50": 25_557_032}


@pytest.mark.parametrize("name", sorted(ARCHITECTURES))
def test_state_dict_matches_torchvision_names_and_shapes(name):
    torch = pytest.importorskip("torch")
    build, bottleneck, layers = ARCHITECTURES[name]
    model = build()
    assert sum(p.numel() for p in model.parameters()) == PARAMETER_COUNTS[name]
    ours = {k: tuple(v.shape) for k, v in model.state_dict().items()}
    theirs = {
        k: tuple(v.shape) for k, v in torch_resnet(torch, bottleneck, layers).state_dict().items()
    }
    assert list(ours) == list(theirs)
    assert ours == theirs


def test_state_dict_names():
    keys = list(resnet18(num_classes=10).state_dict())
    assert keys[:6] == [
        "conv1.weight",
        "bn1.weight",
        "bn1.bias",
        "bn1.running_mean",
        "bn1.running_var",
        "bn1.num_batches_tracked",
    ]
    assert "layer2.0.downsample.0.weight" in keys and "layer2.0.downsample.1.running_var" in keys
    assert keys[-2:] == ["fc.weight", "fc.bias"]


def test_torchvision_init():
    numtorch.manual_seed(0)
    model = resnet18(num_classes=10)
    weight = model.layer3[0].conv1.weight.detach().numpy()
    fan_out = weight.shape[0] * 3 * 3
    assert abs(weight.std() - np.sqrt(2.0 / fan_out)) < 0.05 * np.sqrt(2.0 / fan_out)
    assert np.all(model.bn1.weight.detach().numpy() == 1)
    assert np.all(model.bn1.bias.detach().numpy() == 0)
    assert model.fc.weight.shape == (10, 512)
    zero = ResNet(Bottleneck, [1, 1, 1, 1], zero_init_residual=True, num_classes=10)
    assert np.all(zero.layer1[0].bn3.weight.detach().numpy() == 0)
    assert np.all(zero.layer1[0].bn2.weight.detach().numpy() == 1)
    zero = ResNet(BasicBlock, [1, 1, 1, 2], zero_init_residual=True, num_classes=10)
    assert np.all(zero.layer4[1].bn2.weight.detach().numpy() == 0)


def test_pretrained_weights_are_refused_clearly():
    with pytest.raises(ValueError, match="cannot load pretrained weights"):
        resnet18(weights="IMAGENET1K_V1")
    with pytest.raises(ValueError, match="pretrained=True"):
        resnet50(pretrained=True)
    assert resnet18(weights=None, pretrained=False, num_classes=3).fc.out_features == 3


@pytest.mark.parametrize("mode", ["eval", "train"])
def test_resnet18_forward_matches_torch(mode):
    torch = pytest.importorskip("torch")
    numtorch.manual_seed(0)
    ours = resnet18(num_classes=10)
    randomize_batch_norm_stats(ours)
    theirs = torch_resnet(torch, False, [2, 2, 2, 2], num_classes=10)
    copy_state(ours, theirs, torch)
    getattr(ours, mode)()
    getattr(theirs, mode)()
    x = np.random.default_rng(1).standard_normal((2, 3, 64, 64)).astype(np.float32)
    out = ours(numtorch.tensor(x))
    expected = theirs(torch.tensor(x))
    assert out.grad_fn.name() == expected.grad_fn.name() == "AddmmBackward0"
    np.testing.assert_allclose(out.detach().numpy(), expected.detach().numpy(), atol=2e-4)
    # train mode updated the running stats the same way
    for (key, a), b in zip(ours.state_dict().items(), theirs.state_dict().values()):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-4, atol=1e-5, err_msg=key)


def test_resnet50_forward_matches_torch():
    torch = pytest.importorskip("torch")
    ours = resnet50(num_classes=10).eval()
    randomize_batch_norm_stats(ours)
    theirs = torch_resnet(torch, True, [3, 4, 6, 3], num_classes=10).eval()
    copy_state(ours, theirs, torch)
    x = np.random.default_rng(2).standard_normal((1, 3, 32, 32)).astype(np.float32)
    with numtorch.no_grad():
        out = ours(numtorch.tensor(x))
    with torch.no_grad():
        expected = theirs(torch.tensor(x))
    np.testing.assert_allclose(out.numpy(), expected.numpy(), rtol=1e-4, atol=1e-4)


def test_resnet18_backward_matches_torch_float64():
    torch = pytest.importorskip("torch")
    numtorch.manual_seed(0)
    ours = resnet18(num_classes=10).double()
    theirs = torch_resnet(torch, False, [2, 2, 2, 2], num_classes=10).double()
    copy_state(ours, theirs, torch)
    # batch 2 so the 1x1 maps of layer4 still have two values per channel in train mode
    x = np.random.default_rng(3).standard_normal((2, 3, 32, 32))
    target = np.array([3, 7])
    x_ours = numtorch.tensor(x, requires_grad=True)
    x_theirs = torch.tensor(x, requires_grad=True)
    numtorch.nn.functional.cross_entropy(ours(x_ours), numtorch.tensor(target)).backward()
    torch.nn.functional.cross_entropy(theirs(x_theirs), torch.tensor(target)).backward()
    pairs = [("input", x_ours.grad, x_theirs.grad)]
    theirs_params = dict(theirs.named_parameters())
    pairs += [(name, p.grad, theirs_params[name].grad) for name, p in ours.named_parameters()]
    for name, ours_grad, theirs_grad in pairs:
        expected = theirs_grad.numpy()
        # batch norm's backward cancels large terms: compare relative to the gradient's scale
        atol = 1e-9 * np.abs(expected).max()
        np.testing.assert_allclose(ours_grad.numpy(), expected, rtol=1e-7, atol=atol, err_msg=name)


def test_state_dict_from_torch_safetensors_loads(tmp_path):
    torch = pytest.importorskip("torch")
    safetensors_torch = pytest.importorskip("safetensors.torch")
    theirs = torch_resnet(torch, False, [2, 2, 2, 2], num_classes=10).eval()
    path = tmp_path / "resnet18.safetensors"
    safetensors_torch.save_file(theirs.state_dict(), str(path))
    ours = resnet18(num_classes=10).eval()
    ours.load_state_dict(numtorch.load(str(path)))
    x = np.random.default_rng(4).standard_normal((1, 3, 32, 32)).astype(np.float32)
    with numtorch.no_grad():
        out = ours(numtorch.tensor(x)).numpy()
    with torch.no_grad():
        expected = theirs(torch.tensor(x)).numpy()
    np.testing.assert_allclose(out, expected, rtol=1e-4, atol=1e-5)


def test_state_dict_from_torch_save_loads(tmp_path):
    torch = pytest.importorskip("torch")
    theirs = torch_resnet(torch, False, [2, 2, 2, 2], num_classes=10).eval()
    torch.save(theirs.state_dict(), tmp_path / "resnet18.pt")
    ours = resnet18(num_classes=10).eval()
    ours.load_state_dict(numtorch.load(tmp_path / "resnet18.pt"))
    x = np.random.default_rng(5).standard_normal((1, 3, 32, 32)).astype(np.float32)
    with numtorch.no_grad():
        out = ours(numtorch.tensor(x)).numpy()
    with torch.no_grad():
        expected = theirs(torch.tensor(x)).numpy()
    np.testing.assert_allclose(out, expected, rtol=1e-4, atol=1e-5)


def test_mlp_matches_torch_sequential():
    torch = pytest.importorskip("torch")
    nn = torch.nn
    ours = mlp(6, [5, 4], 3, activation=numtorch.nn.Tanh, dropout=0.1).eval()
    theirs = nn.Sequential(
        nn.Linear(6, 5), nn.Tanh(), nn.Dropout(0.1), nn.Linear(5, 4), nn.Tanh(), nn.Dropout(0.1),
        nn.Linear(4, 3),
    ).eval()  # fmt: skip
    assert list(ours.state_dict()) == list(theirs.state_dict())
    copy_state(ours, theirs, torch)
    x = np.random.default_rng(5).standard_normal((4, 6)).astype(np.float32)
    np.testing.assert_allclose(
        ours(numtorch.tensor(x)).detach().numpy(),
        theirs(torch.tensor(x)).detach().numpy(),
        rtol=1e-5,
        atol=1e-6,
    )
    assert repr(ours) == repr(theirs)


def test_mlp_options():
    model = mlp(3, [], 2, bias=False)
    assert [type(m).__name__ for m in model] == ["Linear"]
    assert model[0].bias is None
    with pytest.raises(ValueError, match="dropout probability"):
        mlp(3, [4], 2, dropout=1.5)
