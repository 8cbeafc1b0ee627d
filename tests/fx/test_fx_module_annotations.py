"""The table of torch.nn modules whose forward torch annotates with Tensor, read again from
torch: fails when torch's annotations change or numtorch gains a module the table misses."""

from __future__ import annotations

import pytest

import numtorch
from numtorch.fx._module_annotations import TENSOR_INPUT, TENSOR_PARAMETERS

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.parity


def _tensor_annotated():
    found = {}
    for name in dir(torch.nn):
        cls = getattr(torch.nn, name)
        if not (isinstance(cls, type) and issubclass(cls, torch.nn.Module)):
            continue
        annotations = cls.forward.__annotations__
        if annotations.get("return") is torch.Tensor and all(
            v is torch.Tensor for v in annotations.values()
        ):
            found[name] = " ".join(k for k in annotations if k != "return")
    return found


def test_table_is_torchs():
    ours = {**dict.fromkeys(TENSOR_INPUT, "input"), **TENSOR_PARAMETERS}
    assert ours == _tensor_annotated()


def test_traced_numtorch_module_prints_torchs_annotations():
    gm = numtorch.fx.symbolic_trace(numtorch.nn.ReLU())
    assert "def forward(self, input : torch.Tensor) -> torch.Tensor:" in gm.code
    assert gm.code == torch.fx.symbolic_trace(torch.nn.ReLU()).code
