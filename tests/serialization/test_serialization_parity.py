"""Checkpoints exchanged with an installed torch as safetensors, both ways, and torch's
pre-1.6 format read."""

import io
import pickle

import numpy as np
import pytest

import numtorch

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


def test_bfloat16_round_trips_with_torch(tmp_path):
    values = torch.tensor([1.0, -2.5, 1 / 3, 3e38]).to(torch.bfloat16)
    safetensors_torch.save_file({"w": values}, tmp_path / "b.st")
    loaded = numtorch.load(tmp_path / "b.st")["w"]
    assert loaded.dtype is numtorch.bfloat16
    np.testing.assert_array_equal(loaded.float().numpy(), values.float().numpy())
    numtorch.save({"w": loaded}, tmp_path / "ours.safetensors")
    theirs = safetensors_torch.load_file(tmp_path / "ours.safetensors")["w"]
    assert theirs.dtype == torch.bfloat16
    np.testing.assert_array_equal(theirs.float().numpy(), values.float().numpy())


def test_bfloat16_checkpoints_round_trip_with_torch(tmp_path):
    values = torch.tensor([[1.0, -2.5], [1 / 3, 3e38]]).to(torch.bfloat16)
    torch.save({"w": values, "col": values[:, 1]}, tmp_path / "theirs.pt")
    loaded = numtorch.load(tmp_path / "theirs.pt")
    assert loaded["w"].dtype is numtorch.bfloat16 and loaded["col"].stride() == (2,)
    np.testing.assert_array_equal(loaded["col"].float().numpy(), values[:, 1].float().numpy())
    numtorch.save(loaded, tmp_path / "ours.pt")
    theirs = torch.load(tmp_path / "ours.pt")
    assert theirs["w"].dtype == torch.bfloat16
    np.testing.assert_array_equal(theirs["w"].float().numpy(), values.float().numpy())


def test_legacy_torch_save_files_load_with_the_same_tensors(tmp_path):
    path = tmp_path / "model.pt"
    state = torch_state_dict()
    x = torch.arange(6.0).reshape(2, 3)
    state.update(x=x, row=x[1])
    torch.save(state, path, _use_new_zipfile_serialization=False)
    loaded = numtorch.load(path)
    assert list(loaded) == list(state)
    for name, value in state.items():
        assert str(loaded[name].dtype) == str(value.dtype), name
        np.testing.assert_array_equal(loaded[name].numpy(), value.numpy(), err_msg=name)
    loaded["row"][0] = -1.0  # views of one storage still share it
    assert loaded["x"][1, 0].item() == -1.0


def test_legacy_whole_module_loads_with_weights_only_false(tmp_path):
    model = torch.nn.Sequential(torch.nn.Linear(2, 3), torch.nn.Sigmoid())
    torch.save(model, tmp_path / "m.pt", _use_new_zipfile_serialization=False)
    with pytest.raises(pickle.UnpicklingError, match="torch.nn.modules.container.Sequential"):
        numtorch.load(tmp_path / "m.pt")
    ours = numtorch.load(tmp_path / "m.pt", weights_only=False)
    x = np.ones((4, 2), np.float32)
    with torch.no_grad():
        expected = model(torch.tensor(x)).numpy()
    np.testing.assert_allclose(ours(numtorch.tensor(x)).detach().numpy(), expected, atol=1e-6)


class WritesMarker:
    def __init__(self, marker):
        self.marker = str(marker)

    def __reduce__(self):
        return (exec, (f"open({self.marker!r}, 'w').write('pwned')",))


@pytest.mark.parametrize("weights_only", [True, False])
@pytest.mark.parametrize("zipfile_format", [True, False])
def test_malicious_torch_save_is_refused_and_never_run(tmp_path, weights_only, zipfile_format):
    marker = tmp_path / "marker"
    buffer = io.BytesIO()
    torch.save({"weight": torch.ones(2), "payload": WritesMarker(marker)}, buffer,
               _use_new_zipfile_serialization=zipfile_format)  # fmt: skip
    buffer.seek(0)
    with pytest.raises(pickle.UnpicklingError, match=r"Unsupported global: GLOBAL builtins\.exec"):
        numtorch.load(buffer, weights_only=weights_only)
    assert not marker.exists()
