"""torch.save's format exchanged with an installed torch: state dicts, nested checkpoints
and whole modules, both ways, read by numtorch through its allow-list unpickler."""

import io
import os
import pickle
import zipfile

import numpy as np
import pytest

import numtorch
from numtorch.serialization import UnsafeFileError

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.parity


def assert_same(ours, theirs, path="obj"):
    if isinstance(theirs, torch.Tensor):
        assert isinstance(ours, numtorch.Tensor), path
        assert str(ours.dtype) == str(theirs.dtype) and list(ours.shape) == list(theirs.shape)
        assert ours.requires_grad == theirs.requires_grad, path
        assert isinstance(ours, numtorch.nn.Parameter) == isinstance(theirs, torch.nn.Parameter)
        np.testing.assert_array_equal(ours.detach().numpy(), theirs.detach().numpy(), path)
    elif isinstance(theirs, dict):
        assert type(ours).__name__ == type(theirs).__name__ and list(ours) == list(theirs), path
        for key in theirs:
            assert_same(ours[key], theirs[key], f"{path}[{key!r}]")
    elif isinstance(theirs, (list, tuple)):
        assert type(ours).__name__ == type(theirs).__name__ and len(ours) == len(theirs), path
        for i, (a, b) in enumerate(zip(ours, theirs)):
            assert_same(a, b, f"{path}[{i}]")
    elif isinstance(theirs, torch.dtype):
        assert str(ours) == str(theirs), path
    else:
        assert ours == theirs, path


def torch_checkpoint():
    torch.manual_seed(0)
    model = torch.nn.Sequential(
        torch.nn.Conv2d(1, 2, 3), torch.nn.BatchNorm2d(2), torch.nn.Flatten(), torch.nn.Linear(8, 3)
    )
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    model(torch.randn(4, 1, 4, 4)).sum().backward()
    optimizer.step()
    x = torch.arange(12.0).reshape(3, 4)
    return {
        "model": model.state_dict(),
        "optimizer": optimizer.state_dict(),
        "epoch": 7,
        "best": (0.25, float("inf")),
        "dtypes": [torch.float16, torch.int64],
        "size": torch.Size([2, 3]),
        "views": {"x": x, "t": x.t(), "row": x[1], "every_other": x[:, ::2]},
        "all_dtypes": [
            torch.arange(4).to(dt)
            for dt in (
                torch.float16,
                torch.float64,
                torch.int8,
                torch.int16,
                torch.int32,
                torch.uint8,
                torch.bool,
                torch.complex64,
                torch.complex128,
            )
        ],  # fmt: skip
        "scalar": torch.tensor(3.5),
        "empty": torch.zeros(0, 3),
        "param": torch.nn.Parameter(torch.ones(2)),
        "frozen": torch.nn.Parameter(torch.ones(2), requires_grad=False),
        "leaf": torch.ones(2, requires_grad=True),
        "bytes": b"\x00\xff",
        "set": {1, 2},
        "complex": 1 - 2j,
    }


def test_torch_written_checkpoint_loads_and_matches_exactly(tmp_path):
    state = torch_checkpoint()
    path = tmp_path / "ckpt.pt"
    torch.save(state, path)
    loaded = numtorch.load(path)
    assert_same(loaded, state)
    assert loaded["model"]._metadata == state["model"]._metadata
    # views of one storage still share it
    loaded["views"]["t"][0, 1] = -1.0
    assert loaded["views"]["x"][1, 0].item() == -1.0 and loaded["views"]["row"][0].item() == -1.0


def test_torch_written_state_dict_restores_a_numtorch_model(tmp_path):
    torch.manual_seed(0)
    theirs = torch.nn.Sequential(torch.nn.Linear(5, 4), torch.nn.Tanh(), torch.nn.Linear(4, 2))
    torch.save(theirs.state_dict(), tmp_path / "m.pth")
    ours = numtorch.nn.Sequential(
        numtorch.nn.Linear(5, 4), numtorch.nn.Tanh(), numtorch.nn.Linear(4, 2)
    )
    ours.load_state_dict(numtorch.load(tmp_path / "m.pth"))
    x = np.random.default_rng(0).standard_normal((3, 5)).astype(np.float32)
    with torch.no_grad():
        expected = theirs(torch.tensor(x)).numpy()
    np.testing.assert_allclose(ours(numtorch.tensor(x)).detach().numpy(), expected, atol=1e-6)


def numtorch_checkpoint():
    numtorch.manual_seed(0)
    model = numtorch.nn.Sequential(numtorch.nn.Linear(3, 4), numtorch.nn.BatchNorm1d(4))
    optimizer = numtorch.optim.Adam(model.parameters(), lr=0.1)
    model(numtorch.randn(5, 3)).pow(2).sum().backward()
    optimizer.step()
    x = numtorch.arange(6.0).reshape(2, 3)
    return (
        model,
        optimizer,
        {
            "model": model.state_dict(),
            "optimizer": optimizer.state_dict(),
            "epoch": 3,
            "history": [0.5, 0.25],
            "views": {"x": x, "t": x.t(), "col": x[:, 1]},
            "dtype": numtorch.float64,
            "ints": numtorch.tensor([1, 2], dtype=numtorch.int32),
            "half": numtorch.ones(2, dtype=numtorch.float16),
            "mask": numtorch.tensor([True, False]),
            "c": numtorch.tensor([1 + 2j]),
        },
    )


@pytest.mark.parametrize("name", ["ckpt.pt", "ckpt.pth", "ckpt.bin", None])
def test_numtorch_written_checkpoint_loads_in_torch_with_weights_only(tmp_path, name):
    _, _, state = numtorch_checkpoint()
    target = io.BytesIO() if name is None else tmp_path / name
    numtorch.save(state, target)
    if name is None:
        target.seek(0)
    theirs = torch.load(target)  # weights_only=True, torch's default
    assert_same(state, theirs)
    assert theirs["model"]._metadata == state["model"]._metadata
    theirs["views"]["t"][1, 0] = 100.0  # numtorch's views were saved as views
    assert theirs["views"]["x"][0, 1].item() == 100.0 and theirs["views"]["col"][0] == 100.0


def test_checkpoints_round_trip_through_torch_and_resume_training(tmp_path):
    model, optimizer, state = numtorch_checkpoint()
    numtorch.save(state, tmp_path / "a.pt")
    torch.save(torch.load(tmp_path / "a.pt"), tmp_path / "b.pt")  # rewritten by torch
    back = numtorch.load(tmp_path / "b.pt")
    assert_same(back, torch.load(tmp_path / "a.pt"))

    model2 = numtorch.nn.Sequential(numtorch.nn.Linear(3, 4), numtorch.nn.BatchNorm1d(4))
    model2.load_state_dict(back["model"])
    optimizer2 = numtorch.optim.Adam(model2.parameters(), lr=0.1)
    optimizer2.load_state_dict(back["optimizer"])
    x = numtorch.randn(5, 3)
    for m, opt in ((model, optimizer), (model2, optimizer2)):
        opt.zero_grad()
        m(x).pow(2).sum().backward()
        opt.step()
    for a, b in zip(model.parameters(), model2.parameters()):
        np.testing.assert_array_equal(a.detach().numpy(), b.detach().numpy())


def test_torch_loads_numtorch_state_dict_into_its_model(tmp_path):
    numtorch.manual_seed(0)
    ours = numtorch.nn.Linear(4, 2)
    numtorch.save(ours.state_dict(), tmp_path / "linear.pt")
    theirs = torch.nn.Linear(4, 2)
    theirs.load_state_dict(torch.load(tmp_path / "linear.pt"))
    np.testing.assert_array_equal(theirs.weight.detach().numpy(), ours.weight.detach().numpy())


def test_file_name_picks_the_format(tmp_path, monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "safetensors", None)  # written without the package
    state = {"w": numtorch.ones(2)}
    for name in ("x.safetensors", "x.npz", "x.pt", "x.ckpt"):
        numtorch.save(state, tmp_path / name)
        head = (tmp_path / name).read_bytes()[:16]
        if name.endswith(".safetensors"):
            assert head[8:9] == b"{"
        else:
            with zipfile.ZipFile(tmp_path / name) as archive:
                names = archive.namelist()
            assert ("archive/data.pkl" in names) == (not name.endswith(".npz"))
        assert numtorch.load(tmp_path / name)["w"].tolist() == [1.0, 1.0]


def test_whole_module_files_are_refused_under_weights_only_as_in_torch(tmp_path):
    numtorch.save(numtorch.nn.Linear(2, 2), tmp_path / "model.pt")
    for lib in (torch, numtorch):
        with pytest.raises(pickle.UnpicklingError, match="numtorch.nn.modules.linear.Linear"):
            lib.load(tmp_path / "model.pt")
    assert type(numtorch.load(tmp_path / "model.pt", weights_only=False)) is numtorch.nn.Linear


def test_torch_written_whole_module_loads_as_numtorch_classes(tmp_path):
    torch.manual_seed(0)
    theirs = torch.nn.Sequential(
        torch.nn.Linear(3, 4), torch.nn.ReLU(), torch.nn.LayerNorm(4), torch.nn.Linear(4, 1)
    )
    torch.save(theirs, tmp_path / "whole.pt")
    for lib in (torch, numtorch):  # both refuse module classes under weights_only=True
        with pytest.raises(pickle.UnpicklingError, match="torch.nn.modules.container.Sequential"):
            lib.load(tmp_path / "whole.pt")
    ours = numtorch.load(tmp_path / "whole.pt", weights_only=False)
    assert type(ours) is numtorch.nn.Sequential and type(ours[2]) is numtorch.nn.LayerNorm
    x = np.random.default_rng(1).standard_normal((2, 3)).astype(np.float32)
    with torch.no_grad():
        expected = theirs(torch.tensor(x)).numpy()
    np.testing.assert_allclose(ours(numtorch.tensor(x)).detach().numpy(), expected, atol=1e-6)


class Payload:
    def __init__(self, marker):
        self.marker = str(marker)

    def __reduce__(self):
        return (os.system, (f"touch {self.marker}",))


def test_malicious_torch_checkpoint_runs_nothing(tmp_path):
    marker = tmp_path / "ran"
    model = torch.nn.Linear(2, 2)
    model.extra = Payload(marker)  # a whole module whose state hides a payload
    torch.save({"model": model, "weights": model.state_dict()}, tmp_path / "evil.pt")
    with pytest.raises(pickle.UnpicklingError, match=r"GLOBAL posix\.system|GLOBAL os\.system"):
        numtorch.load(tmp_path / "evil.pt", weights_only=False)
    assert not marker.exists()
    with pytest.raises(UnsafeFileError):  # the one error type, whatever weights_only says
        numtorch.load(tmp_path / "evil.pt")
    assert not marker.exists()
