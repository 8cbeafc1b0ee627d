"""The profiler seed with real layers: ResNet-18 under ``autograd.profiler.profile()``,
exact call counts of conv / batch norm / pooling / linear and their backward nodes, and the
per-layer view (``group_by="module"``)."""

from __future__ import annotations

import pytest

import numtorch as torch
from numtorch.models import resnet18

pytestmark = pytest.mark.usefixtures("one_blas_thread")


def small_cnn(lib):
    nn = lib.nn
    return nn.Sequential(
        nn.Conv2d(3, 4, 3, padding=1),
        nn.BatchNorm2d(4),
        nn.ReLU(),
        nn.MaxPool2d(2),
        nn.Flatten(),
        nn.Linear(4 * 4 * 4, 5),
    )


def profile_steps(lib, model, x, steps):
    with lib.autograd.profiler.profile() as prof:
        for _ in range(steps):
            model(x).sum().backward()
    return prof


def test_seed_resnet18_table_lists_layers_and_backward_nodes():
    torch.manual_seed(0)
    model = resnet18(num_classes=10)
    steps = 2
    prof = profile_steps(torch, model, torch.randn(1, 3, 64, 64), steps)
    text = prof.key_averages().table(sort_by="self_cpu_time_total", row_limit=-1)
    wanted = [
        "aten::convolution",
        "aten::native_batch_norm",
        "aten::max_pool2d_with_indices",
        "aten::mean",  # AdaptiveAvgPool2d to 1x1, as torch
        "aten::addmm",
        "ConvolutionBackward0",
        "NativeBatchNormBackward0",
        "MaxPool2DWithIndicesBackward0",
        "MeanBackward1",
        "AddmmBackward0",
        "ReluBackward0",
    ]
    for name in wanted:
        assert name in text, name
    rows = {r.key: r.count for r in prof.key_averages()}
    convs, norms = 20, 20  # 17 in the blocks and stem, 3 in the downsample shortcuts
    assert rows["ConvolutionBackward0"] == convs * steps
    assert rows["NativeBatchNormBackward0"] == rows["aten::native_batch_norm"] == norms * steps
    assert rows["aten::convolution"] == convs * steps
    # one convolution_backward per gradient: every weight's, every input's but the stem's
    assert rows["aten::convolution_backward"] == (convs + convs - 1) * steps
    parameters = len(list(model.parameters()))
    assert rows["torch::autograd::AccumulateGrad"] == parameters * steps == 62 * steps


def test_exact_counts_on_a_small_cnn():
    torch.manual_seed(0)
    model = small_cnn(torch)
    steps = 3
    prof = profile_steps(torch, model, torch.randn(2, 3, 8, 8), steps)
    rows = {r.key: r.count for r in prof.key_averages()}
    per_step = {
        "aten::convolution": 1,
        "aten::native_batch_norm": 1,
        "aten::relu": 1,
        "aten::max_pool2d_with_indices": 1,
        "aten::addmm": 1,
        "ConvolutionBackward0": 1,
        "aten::convolution_backward": 1,  # the weight's gradient only: x needs none
        "NativeBatchNormBackward0": 1,
        "ReluBackward0": 1,
        "aten::threshold_backward": 1,
        "MaxPool2DWithIndicesBackward0": 1,
        "aten::max_pool2d_backward": 1,
        "AddmmBackward0": 1,
        "SumBackward0": 1,
        "torch::autograd::AccumulateGrad": 6,
        "autograd::engine::evaluate_function: ConvolutionBackward0": 1,
    }
    for name, count in per_step.items():
        assert rows.get(name) == count * steps, (name, rows.get(name))


@pytest.mark.parity
def test_small_cnn_backward_rows_match_torch():
    real = pytest.importorskip("torch")
    real.set_num_threads(1)
    rows = {}
    for lib in (real, torch):
        lib.manual_seed(0)
        prof = profile_steps(lib, small_cnn(lib), lib.randn(2, 3, 8, 8), 2)
        rows[lib.__name__] = {
            r.key: r.count
            for r in prof.key_averages()
            if r.key.endswith("Backward0") or r.key.endswith("AccumulateGrad")
        }
    assert rows["numtorch"] == rows["torch"]


def test_group_by_module_shows_each_layer():
    torch.manual_seed(0)
    model = small_cnn(torch)
    prof = profile_steps(torch, model, torch.randn(2, 3, 8, 8), 3)
    rows = {r.key: r for r in prof.key_averages(group_by="module")}
    layers = [
        "Sequential.0 (Conv2d)",
        "Sequential.1 (BatchNorm2d)",
        "Sequential.2 (ReLU)",
        "Sequential.3 (MaxPool2d)",
        "Sequential.4 (Flatten)",
        "Sequential.5 (Linear)",
    ]
    assert list(rows) == ["Sequential", *layers]
    assert all(rows[key].count == 3 for key in rows)
    for key in ("Sequential.0 (Conv2d)", "Sequential.1 (BatchNorm2d)", "Sequential.5 (Linear)"):
        assert 0 < rows[key].backward_time_total < rows[key].cpu_time_total
    text = prof.key_averages(group_by="module").table(width=80)
    assert all(len(line) <= 80 for line in text.splitlines())
    assert "Sequential.1 (BatchNorm2d)" in text and "Backward" in text


def test_group_by_module_on_resnet18_names_torchvision_layers():
    torch.manual_seed(0)
    model = resnet18(num_classes=10)
    prof = profile_steps(torch, model, torch.randn(2, 3, 32, 32), 1)
    keys = [r.key for r in prof.key_averages(group_by="module")]
    for key in (
        "ResNet.conv1 (Conv2d)",
        "ResNet.layer1.0.conv1 (Conv2d)",
        "ResNet.layer2.0.downsample.1 (BatchNorm2d)",
        "ResNet.avgpool (AdaptiveAvgPool2d)",
        "ResNet.fc (Linear)",
    ):
        assert key in keys, key
