"""torch.ao.nn.quantized.dynamic.LSTM: an LSTM whose matrix products are dynamic quantized
linears (Note [Dynamic quantized linear]); the gates are computed in float32.

As torch's CPU kernel: each layer's input product runs once over the whole sequence (one
activation scale for all time steps), the hidden product once per step, and the cell is
gates = W_hh h + b_hh + (W_ih x + b_ih); i, f, o = sigmoid, g = tanh; c' = f c + i g;
h' = o tanh(c').
"""

from __future__ import annotations

from ......_core import dtypes as _dtypes
from ......_core.tensor import Tensor
from ......_creation import randn
from ......_quantized.quantize import quantize_per_tensor
from ......backend import xp
from ......nn.modules.module import Module
from ......nn.modules.rnn import LSTM as FloatLSTM
from ......nn.modules.rnn import RNNBase
from ......ops.concatenation import cat, stack
from .linear import linear_dynamic


def _quantized_weight(weight, observer_factory):
    observer = observer_factory()
    observer(weight)
    scale, zero_point = observer.calculate_qparams()
    data = Tensor._make(weight._data.astype(xp.float32))
    return quantize_per_tensor(data, float(scale), int(zero_point), _dtypes.qint8)


class LSTM(Module):
    """A dynamically quantized LSTM (qint8 weights, float32 gates and states)."""

    _FLOAT_MODULE = FloatLSTM

    def __init__(
        self,
        input_size: int,
        hidden_size: int,
        num_layers: int = 1,
        bias: bool = True,
        batch_first: bool = False,
        dropout: float = 0.0,
        bidirectional: bool = False,
        dtype=None,
    ):
        super().__init__()
        self.mode = "LSTM"
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.bias = bias
        self.batch_first = batch_first
        self.dropout = float(dropout)
        self.bidirectional = bidirectional
        self.dtype = _dtypes.qint8 if dtype is None else dtype
        self.version = 2
        # (w_ih, w_hh, b_ih, b_hh) per layer and direction, in torch's order; torch starts
        # from random placeholders (scale 0.1), and drawing them keeps its random stream
        self._cell_weights = []
        directions = 2 if bidirectional else 1
        gate_size = 4 * hidden_size
        for layer in range(num_layers):
            for _ in range(directions):
                width = input_size if layer == 0 else hidden_size * directions
                w_ih, w_hh = randn(gate_size, width), randn(gate_size, hidden_size)
                b_ih, b_hh = randn(gate_size), randn(gate_size)
                w_ih = quantize_per_tensor(w_ih, 0.1, 0, _dtypes.qint8)
                w_hh = quantize_per_tensor(w_hh, 0.1, 0, _dtypes.qint8)
                self._cell_weights.append((w_ih, w_hh, b_ih, b_hh))

    def _get_name(self) -> str:
        return "DynamicQuantizedLSTM"

    extra_repr = RNNBase.extra_repr  # the float layer's arguments, in its words

    def __repr__(self) -> str:
        return f"{self._get_name()}({self.extra_repr()})"

    @classmethod
    def from_float(cls, mod, use_precomputed_fake_quant: bool = False):
        """The dynamic quantized LSTM of float ``mod``: each weight matrix quantized per
        tensor with its own weight observer."""
        if type(mod) is not FloatLSTM:
            raise AssertionError(
                "nn.quantized.dynamic.RNNBase.from_float only works for nn.LSTM and nn.GRU"
            )
        qconfig = getattr(mod, "qconfig", None)
        if qconfig is None:
            # imported here as torch does: the quantization package imports this module
            from .....quantization.qconfig import default_dynamic_qconfig

            qconfig = default_dynamic_qconfig
        if not mod.bias:
            raise AssertionError("mod.bias must be True")
        if getattr(mod, "proj_size", 0):
            raise NotImplementedError("dynamic quantized LSTM with proj_size is not implemented")
        qlstm = cls(
            mod.input_size,
            mod.hidden_size,
            mod.num_layers,
            mod.bias,
            mod.batch_first,
            mod.dropout,
            mod.bidirectional,
        )
        qlstm._cell_weights = []
        for layer in range(mod.num_layers):
            for suffix in ("", "_reverse")[: 2 if mod.bidirectional else 1]:
                name = f"l{layer}{suffix}"
                w_ih = _quantized_weight(getattr(mod, "weight_ih_" + name), qconfig.weight)
                w_hh = _quantized_weight(getattr(mod, "weight_hh_" + name), qconfig.weight)
                b_ih = getattr(mod, "bias_ih_" + name) if mod.bias else None
                b_hh = getattr(mod, "bias_hh_" + name) if mod.bias else None
                qlstm._cell_weights.append((w_ih, w_hh, b_ih, b_hh))
        return qlstm

    def _direction(self, inputs, weights, h, c, reverse: bool):
        w_ih, w_hh, b_ih, b_hh = weights
        projected = linear_dynamic(inputs, w_ih, b_ih)
        steps = range(inputs.shape[0] - 1, -1, -1) if reverse else range(inputs.shape[0])
        outputs = [None] * inputs.shape[0]
        for t in steps:
            gates = linear_dynamic(h, w_hh, b_hh) + projected[t]
            i, f, g, o = gates.chunk(4, 1)
            c = f.sigmoid() * c + i.sigmoid() * g.tanh()
            h = o.sigmoid() * c.tanh()
            outputs[t] = h
        return stack(outputs), h, c

    def forward(self, input, hx=None):
        if input.ndim != 3:
            raise NotImplementedError(
                "dynamic quantized LSTM takes batched (3-D) input in numtorch; add a batch "
                "dimension with unsqueeze"
            )
        x = input.transpose(0, 1) if self.batch_first else input
        directions = 2 if self.bidirectional else 1
        batch = x.shape[1]
        if hx is None:
            zeros = Tensor._make(
                xp.zeros((self.num_layers * directions, batch, self.hidden_size), xp.float32)
            )
            hx = (zeros, zeros)
        h0, c0 = hx
        last_h, last_c = [], []
        for layer in range(self.num_layers):
            results = []
            for d in range(directions):
                k = layer * directions + d
                out, h, c = self._direction(x, self._cell_weights[k], h0[k], c0[k], d == 1)
                results.append(out)
                last_h.append(h)
                last_c.append(c)
            x = results[0] if directions == 1 else cat(results, 2)
        output = x.transpose(0, 1) if self.batch_first else x
        return output, (stack(last_h), stack(last_c))

    def _save_to_state_dict(self, destination, prefix, keep_vars):
        raise NotImplementedError(
            "the state_dict of a dynamic quantized LSTM (torch's packed cell parameters, "
            "TorchScript objects) is not implemented in numtorch; save the float model's "
            "state_dict and quantize again after loading"
        )
