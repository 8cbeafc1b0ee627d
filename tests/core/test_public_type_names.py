"""``type(x)`` prints torch's class names, and named results copy and pickle."""

from __future__ import annotations

import copy
import pickle

import pytest

import numtorch

torch = pytest.importorskip("torch")


def _objects(lib):
    x = lib.ones(2, 2)
    return [x, x.shape, x.dtype, x.device, lib.finfo(lib.float32), lib.iinfo(lib.int32),
            lib.contiguous_format, lib.no_grad(), lib.enable_grad(), x.max(0), x.sort(),
            lib.linalg.qr(x)]  # fmt: skip


def test_type_reprs_match_torch():
    for ours, theirs in zip(_objects(numtorch), _objects(torch)):
        assert repr(type(ours)).replace("numtorch", "torch") == repr(type(theirs))


@pytest.mark.parametrize("make", [lambda x: x.max(0), lambda x: x.sort(), numtorch.linalg.qr])
def test_named_results_deepcopy_and_pickle(make):
    result = make(numtorch.tensor([[2.0, 1.0], [0.5, 3.0]]))
    for clone in (copy.deepcopy(result), pickle.loads(pickle.dumps(result))):
        assert type(clone) is type(result) and clone._fields == result._fields
        for a, b in zip(clone, result):
            assert numtorch.equal(a, b)


def test_tensor_pickles_by_its_public_name():
    t = numtorch.tensor([1.0, 2.0])
    assert numtorch.equal(pickle.loads(pickle.dumps(t)), t)
    assert pickle.loads(pickle.dumps(numtorch.Size([2, 3]))) == numtorch.Size([2, 3])


def test_dtypes_stay_singletons_through_copies():
    for dt in (numtorch.float32, numtorch.bfloat16, numtorch.int64, numtorch.complex64):
        assert copy.deepcopy(dt) is dt and copy.copy(dt) is dt
        assert pickle.loads(pickle.dumps(dt)) is dt
    model = numtorch.nn.Linear(2, 2)
    model.compute_dtype = numtorch.float16
    assert copy.deepcopy(model).compute_dtype is numtorch.float16
