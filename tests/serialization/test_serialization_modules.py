"""Whole-module checkpoints: ``save(model)`` and a ``load`` that rebuilds numtorch's own nn
classes, and a user's classes only once allowed with torch's ``safe_globals`` API."""

import io
import pickle
import zipfile

import numpy as np
import pytest

import numtorch as torch
from numtorch import nn
from numtorch.serialization import UnsafeFileError


class TinyNet(nn.Module):
    inits = 0

    def __init__(self):
        super().__init__()
        TinyNet.inits += 1
        self.body = nn.Sequential(nn.Linear(3, 4), nn.ReLU())
        self.head = nn.Linear(4, 2)
        self.scale = 0.5

    def forward(self, x):
        return self.head(self.body(x)) * self.scale


class Restored(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(2, 2)

    def __setstate__(self, state):
        super().__setstate__(state)
        self.restored = True


class Slotted:
    __slots__ = ("value",)


@pytest.fixture(autouse=True)
def _clean_allowlist():
    torch.serialization.clear_safe_globals()
    yield
    torch.serialization.clear_safe_globals()


def round_trip(obj):
    buffer = io.BytesIO()
    torch.save(obj, buffer)
    buffer.seek(0)
    return torch.load(buffer, weights_only=False)  # as torch: whole modules need it


def test_numtorch_modules_round_trip_without_asking():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Conv1d(1, 2, 3), nn.BatchNorm1d(2), nn.Flatten(), nn.Linear(4, 1))
    model.eval()
    back = round_trip(model)
    assert type(back) is nn.Sequential and [type(m) for m in back] == [type(m) for m in model]
    assert not back.training and isinstance(back[3].weight, nn.Parameter)
    x = torch.randn(3, 1, 4)
    np.testing.assert_array_equal(back(x).detach().numpy(), model(x).detach().numpy())
    assert back.state_dict().keys() == model.state_dict().keys()


def test_user_class_is_refused_with_torchs_message_then_allowed():
    model = TinyNet()
    buffer = io.BytesIO()
    torch.save(model, buffer)
    with pytest.raises(pickle.UnpicklingError) as info:
        torch.load(io.BytesIO(buffer.getvalue()), weights_only=False)
    message = str(info.value)
    assert "even with weights_only=False" in message
    assert "Unsupported global: GLOBAL test_serialization_modules.TinyNet" in message
    assert "torch.serialization.add_safe_globals([test_serialization_modules.TinyNet])" in message

    inits = TinyNet.inits
    with torch.serialization.safe_globals([TinyNet]):
        assert torch.serialization.get_safe_globals() == [TinyNet]
        back = torch.load(io.BytesIO(buffer.getvalue()), weights_only=False)
    assert torch.serialization.get_safe_globals() == []
    assert TinyNet.inits == inits  # rebuilt from its state: __init__ did not run
    assert type(back) is TinyNet and back.scale == 0.5
    x = torch.randn(2, 3)
    np.testing.assert_array_equal(back(x).detach().numpy(), model(x).detach().numpy())
    with pytest.raises(pickle.UnpicklingError, match="TinyNet"):
        torch.load(io.BytesIO(buffer.getvalue()), weights_only=False)

    torch.serialization.add_safe_globals([(TinyNet, "test_serialization_modules.TinyNet")])
    assert type(torch.load(io.BytesIO(buffer.getvalue()), weights_only=False)) is TinyNet
    # weights_only=True allows only what was allow-listed, as torch: not nn.Sequential
    with pytest.raises(pickle.UnpicklingError, match="GLOBAL numtorch.nn.modules.container"):
        torch.load(io.BytesIO(buffer.getvalue()))


def test_shared_parameters_and_submodules_stay_shared():
    torch.serialization.add_safe_globals([TinyNet])
    model = TinyNet()
    model.tied = model.head  # the same submodule twice
    back = round_trip({"model": model, "head_weight": model.head.weight})
    assert back["model"].tied is back["model"].head
    assert back["head_weight"] is back["model"].head.weight


def test_setstate_of_an_allowed_class_runs_after_the_file_is_read():
    torch.serialization.add_safe_globals([Restored])
    back = round_trip(Restored())
    assert back.restored and isinstance(back.fc, nn.Linear)


def test_objects_that_cannot_be_rebuilt_from_a_dict_are_refused():
    torch.serialization.add_safe_globals([Slotted])
    body = (
        b"\x80\x02ctest_serialization_modules\nSlotted\n)\x81N}X\x05\x00\x00\x00valueK\x01s\x86b."
    )
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("archive/data.pkl", body)
    with pytest.raises(UnsafeFileError, match="keeps its state outside __dict__"):
        torch.load(io.BytesIO(buffer.getvalue()), weights_only=False)


_UNNAMED = lambda x: x  # a function importable by no name


def test_local_classes_and_other_objects_cannot_be_saved():
    class Local(nn.Module):
        pass

    # what Python's pickle raises for a local class (AttributeError up to Python 3.13)
    with pytest.raises((AttributeError, pickle.PicklingError), match="local object"):
        torch.save(Local(), io.BytesIO())
    with pytest.raises(pickle.PicklingError, match="attribute lookup <lambda>"):
        torch.save({"f": _UNNAMED}, io.BytesIO())
    with pytest.raises(TypeError, match="cannot store an object of type builtins.generator"):
        torch.save({"g": (i for i in ())}, io.BytesIO())


def test_allowlisting_keeps_torchs_semantics():
    s = torch.serialization
    s.add_safe_globals([TinyNet])
    s.add_safe_globals([TinyNet, Restored])
    assert sorted(g.__name__ for g in s.get_safe_globals()) == ["Restored", "TinyNet"]
    with s.safe_globals([Slotted]):
        assert Slotted in s.get_safe_globals()
    assert Slotted not in s.get_safe_globals()
    with pytest.raises(ValueError, match="refusing to allowlist builtins.exec"):
        s.safe_globals([exec])
    s.clear_safe_globals()
    assert s.get_safe_globals() == []
