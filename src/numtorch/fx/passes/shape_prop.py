"""torch.fx.passes.shape_prop: runs a GraphModule and records each node's result's shape,
dtype and layout in ``node.meta['tensor_meta']``."""

from __future__ import annotations

from typing import Any, NamedTuple

import numtorch

from ..interpreter import Interpreter
from ..node import map_aggregate

__all__ = ["TensorMetadata", "ShapeProp"]


class TensorMetadata(NamedTuple):
    shape: Any
    dtype: Any
    requires_grad: bool
    stride: tuple
    memory_format: Any
    is_quantized: bool
    qparams: dict


def _extract_tensor_metadata(result) -> TensorMetadata:
    memory_format = None
    for fmt in (numtorch.contiguous_format, numtorch.channels_last, numtorch.channels_last_3d):
        try:
            if result.is_contiguous(memory_format=fmt):
                memory_format = fmt
                break
        except RuntimeError:
            continue
    return TensorMetadata(
        result.shape, result.dtype, result.requires_grad, result.stride(), memory_format, False, {}
    )


class ShapeProp(Interpreter):
    """Runs the module on example inputs, node by node, storing what each result looks like.

    Example::

        >>> import numtorch as torch
        >>> gm = torch.fx.symbolic_trace(torch.nn.Sequential(torch.nn.Linear(3, 2)))
        >>> _ = torch.fx.passes.shape_prop.ShapeProp(gm).propagate(torch.randn(4, 3))
        >>> [n.meta["tensor_meta"].shape for n in gm.graph.nodes]
        [torch.Size([4, 3]), torch.Size([4, 2]), torch.Size([4, 2])]
    """

    def __init__(self, gm, fake_mode=None) -> None:
        super().__init__(gm)
        self.fake_mode = fake_mode

    def run_node(self, n):
        result = super().run_node(n)
        found_tensor = False

        def extract(obj):
            nonlocal found_tensor
            if isinstance(obj, numtorch.Tensor):
                found_tensor = True
                return _extract_tensor_metadata(obj)
            return obj

        meta = map_aggregate(result, extract)
        if found_tensor:
            n.meta["tensor_meta"] = meta
        n.meta["type"] = type(result)
        return result

    def propagate(self, *args):
        """Runs the module on ``args``; returns its result."""
        return super().run(*args)
