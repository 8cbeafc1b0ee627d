"""Checkpoints exchanged with an installed torch as safetensors, both ways."""

import io
import pickle

import numpy as np
import pytest

import numtorch
from numtorch.serialization import PickleRefusedError

torch = pytest.importorskip("torch")
safetensors_torch = pytest.importorskip("safetensors.torch")
pytestmark = pytest.mark.parity


def torch_state_dict():
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(4, 3), torch.nn.BatchNorm1d(3))
    state = dict(model.state_dict())  # includes int64 num_batches_tracked, a 0-d tensor
    state["half"] = torch.randn(2, 2).half()
    state["mask"] = torch.tensor([True, False])
    state["bytes"] = torch.arange(4, dtype=torch.uint8)
    return state


def test_torch_written_safetensors_load_with_the_same_tensors(tmp_path):
    state = torch_state_dict()
    path = tmp_path / "model.safetensors"
    safetensors_torch.save_file(state, path)
    loaded = numtorch.load(path)
    assert sorted(loaded) == sorted(state)
    for name, value in state.items():
        ours = loaded[name]
        assert isinstance(ours, numtorch.Tensor), name
        assert str(ours.dtype) == str(value.dtype) and list(ours.shape) == list(value.shape)
        np.testing.assert_array_equal(ours.numpy(), value.numpy(), err_msg=name)


def test_torch_written_weights_give_the_same_outputs(tmp_path):
    torch.manual_seed(1)
    linear = torch.nn.Linear(5, 3)
    safetensors_torch.save_file(linear.state_dict(), tmp_path / "linear.safetensors")
    weights = numtorch.load(tmp_path / "linear.safetensors")
    x = np.random.default_rng(0).standard_normal((4, 5)).astype(np.float32)
    ours = numtorch.tensor(x) @ weights["weight"].t() + weights["bias"]
    with torch.no_grad():
        theirs = linear(torch.tensor(x))
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-6, atol=1e-6)


def test_numtorch_state_dict_loads_in_torch(tmp_path):
    state = {
        "w": numtorch.randn(3, 2),
        "n": numtorch.tensor(5),
        "h": numtorch.ones(2, dtype=numtorch.float16),
    }
    numtorch.save(state, tmp_path / "ours.safetensors")
    theirs = safetensors_torch.load_file(tmp_path / "ours.safetensors")
    assert sorted(theirs) == sorted(state)
    for name, value in state.items():
        assert str(theirs[name].dtype) == str(value.dtype)
        np.testing.assert_array_equal(theirs[name].numpy(), value.numpy())


def test_bfloat16_is_refused_by_name(tmp_path):
    safetensors_torch.save_file({"w": torch.ones(2, dtype=torch.bfloat16)}, tmp_path / "b.st")
    with pytest.raises(TypeError, match="tensor 'w' has dtype BF16, which numtorch cannot hold"):
        numtorch.load(tmp_path / "b.st")


def test_legacy_torch_save_files_are_refused_by_name(tmp_path):
    path = tmp_path / "model.pt"
    torch.save(torch.nn.Linear(2, 2).state_dict(), path, _use_new_zipfile_serialization=False)
    with pytest.raises(PickleRefusedError) as info:
        numtorch.load(path)
    message = str(info.value)
    assert "torch.save before 1.6" in message and "torch.save(obj, 'model.pt')" in message
    assert "may be malicious" not in message  # a plain state dict names only torch globals


class WritesMarker:
    def __init__(self, marker):
        self.marker = str(marker)

    def __reduce__(self):
        return (exec, (f"open({self.marker!r}, 'w').write('pwned')",))


@pytest.mark.parametrize("weights_only", [True, False])
def test_malicious_torch_save_is_refused_and_never_run(tmp_path, weights_only):
    marker = tmp_path / "marker"
    buffer = io.BytesIO()
    torch.save({"weight": torch.ones(2), "payload": WritesMarker(marker)}, buffer)
    buffer.seek(0)
    with pytest.raises(pickle.UnpicklingError, match=r"Unsupported global: GLOBAL builtins\.exec"):
        numtorch.load(buffer, weights_only=weights_only)
    assert not marker.exists()
