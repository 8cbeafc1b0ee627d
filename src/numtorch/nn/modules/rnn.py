"""Recurrent layers: RNN, LSTM, GRU and their single-step cells.

The recurrences themselves are ``numtorch.rnn_tanh``/``rnn_relu``/``lstm``/``gru`` and the
``*_cell`` functions (ops/nn/rnn.py); these modules hold the parameters, check shapes and
handle unbatched inputs, initial states and packed sequences, as torch's modules do.
"""

from __future__ import annotations

import math
import numbers
import warnings

from ... import _creation
from ..._core.tensor import Tensor
from ...ops.nn import rnn as R
from .. import init
from ..parameter import Parameter
from ..utils.rnn import PackedSequence
from .module import Module

_GATES = {"LSTM": 4, "GRU": 3, "RNN_TANH": 1, "RNN_RELU": 1}


class RNNBase(Module):
    """Parameters, checks and ``repr`` shared by RNN, LSTM and GRU.

    Layer ``k`` (suffix ``_reverse`` for the backward direction) has ``weight_ih_lk``
    (gates * hidden, input), ``weight_hh_lk`` (gates * hidden, hidden or proj_size),
    ``bias_ih_lk``, ``bias_hh_lk`` and, with ``proj_size``, ``weight_hr_lk``
    (proj_size, hidden). Init (as torch): every parameter ~ U(-1/sqrt(hidden), 1/sqrt(hidden)).
    """

    def __init__(
        self,
        mode: str,
        input_size: int,
        hidden_size: int,
        num_layers: int = 1,
        bias: bool = True,
        batch_first: bool = False,
        dropout: float = 0.0,
        bidirectional: bool = False,
        proj_size: int = 0,
        device=None,
        dtype=None,
    ) -> None:
        super().__init__()
        self.mode = mode
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.bias = bias
        self.batch_first = batch_first
        self.dropout = float(dropout)
        self.bidirectional = bidirectional
        self.proj_size = proj_size
        _check_arguments(dropout, num_layers, bias, batch_first, input_size, hidden_size, proj_size)
        if mode not in _GATES:
            raise ValueError("Unrecognized RNN mode: " + mode)
        gate_size = _GATES[mode] * hidden_size
        directions = 2 if bidirectional else 1
        real_hidden_size = proj_size if proj_size > 0 else hidden_size
        self._flat_weights_names = []
        self._all_weights = []
        for layer in range(num_layers):
            for direction in range(directions):
                layer_input_size = input_size if layer == 0 else real_hidden_size * directions
                shapes = [(gate_size, layer_input_size), (gate_size, real_hidden_size)]
                names = ["weight_ih_l{}{}", "weight_hh_l{}{}"]
                if bias:
                    shapes += [(gate_size,), (gate_size,)]
                    names += ["bias_ih_l{}{}", "bias_hh_l{}{}"]
                if proj_size > 0:
                    shapes.append((proj_size, hidden_size))
                    names.append("weight_hr_l{}{}")
                suffix = "_reverse" if direction == 1 else ""
                names = [n.format(layer, suffix) for n in names]
                for name, shape in zip(names, shapes):
                    setattr(self, name, Parameter(_creation.empty(shape, dtype=dtype)))
                self._flat_weights_names.extend(names)
                self._all_weights.append(names)
        self.reset_parameters()

    @property
    def _flat_weights(self) -> list:
        # read from the parameters' dict, which Module.__getattr__ would search after two
        # failed lookups; a name not there (deleted, or a parametrization's) by attribute
        params = self._parameters
        return [
            params[name] if name in params else getattr(self, name, None)
            for name in self._flat_weights_names
        ]

    @property
    def all_weights(self) -> list:
        return [[getattr(self, name) for name in names] for names in self._all_weights]

    def flatten_parameters(self) -> None:
        """A no-op, as in torch on CPU (it packs weights for cuDNN)."""

    def reset_parameters(self) -> None:
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def check_input(self, input: Tensor, batch_sizes) -> None:
        weight_dtype = self._flat_weights[0].dtype
        if input.dtype != weight_dtype:
            raise ValueError(
                f"RNN input dtype ({input.dtype}) does not match weight dtype ({weight_dtype}). "
                f"Convert input: input.to({weight_dtype}), or convert model: "
                f"model.to({input.dtype})"
            )
        expected_input_dim = 2 if batch_sizes is not None else 3
        if input.ndim != expected_input_dim:
            raise RuntimeError(f"input must have {expected_input_dim} dimensions, got {input.ndim}")
        if self.input_size != input.shape[-1]:
            raise RuntimeError(
                "input.size(-1) must be equal to input_size. Expected "
                f"{self.input_size}, got {input.shape[-1]}"
            )

    def get_expected_hidden_size(self, input: Tensor, batch_sizes) -> tuple:
        if batch_sizes is not None:
            mini_batch = int(batch_sizes[0])
        else:
            mini_batch = input.shape[0] if self.batch_first else input.shape[1]
        directions = 2 if self.bidirectional else 1
        size = self.proj_size if self.proj_size > 0 else self.hidden_size
        return (self.num_layers * directions, mini_batch, size)

    def check_hidden_size(self, hx, expected, msg="Expected hidden size {}, got {}") -> None:
        if tuple(hx.shape) != tuple(expected):
            raise RuntimeError(msg.format(expected, list(hx.shape)))

    def check_forward_args(self, input, hidden, batch_sizes) -> None:
        self.check_input(input, batch_sizes)
        self.check_hidden_size(hidden, self.get_expected_hidden_size(input, batch_sizes))

    def permute_hidden(self, hx, permutation):
        if permutation is None:
            return hx
        return hx.index_select(1, permutation)

    def extra_repr(self) -> str:
        s = "{input_size}, {hidden_size}"
        if getattr(self, "proj_size", 0) != 0:  # (the dynamic quantized LSTM has none)
            s += ", proj_size={proj_size}"
        if self.num_layers != 1:
            s += ", num_layers={num_layers}"
        if self.bias is not True:
            s += ", bias={bias}"
        if self.batch_first is not False:
            s += ", batch_first={batch_first}"
        if self.dropout != 0:
            s += ", dropout={dropout}"
        if self.bidirectional is not False:
            s += ", bidirectional={bidirectional}"
        return s.format(**self.__dict__)

    def _zeros(self, input, batch, size):
        directions = 2 if self.bidirectional else 1
        return _creation.zeros(
            self.num_layers * directions, batch, size, dtype=input.dtype, device=input.device
        )

    def _run(self, input, hx):
        """torch's RNN/GRU forward: unbatched and packed inputs, default state, checks."""
        name = "RNN" if self.mode.startswith("RNN") else self.mode
        packed = isinstance(input, PackedSequence)
        if packed:
            input, batch_sizes, sorted_indices, unsorted_indices = input
            if hx is None:
                hx = self._zeros(input, int(batch_sizes[0]), self.hidden_size)
            else:
                hx = self.permute_hidden(hx, sorted_indices)
        else:
            batch_sizes = sorted_indices = unsorted_indices = None
            if input.ndim not in (2, 3):
                tensor = " tensor" if name == "RNN" else ""
                raise ValueError(
                    f"{name}: Expected input to be 2D or 3D, got {input.ndim}D{tensor} instead"
                )
            is_batched = input.ndim == 3
            batch_dim = 0 if self.batch_first else 1
            if not is_batched:
                input = input.unsqueeze(batch_dim)
                if hx is not None:
                    if hx.ndim != 2:
                        raise RuntimeError(
                            "For unbatched 2-D input, hx should also be 2-D but got "
                            f"{hx.ndim}-D tensor"
                        )
                    hx = hx.unsqueeze(1)
            elif hx is not None and hx.ndim != 3:
                raise RuntimeError(
                    f"For batched 3-D input, hx should also be 3-D but got {hx.ndim}-D tensor"
                )
            if hx is None:
                batch = input.shape[0] if self.batch_first else input.shape[1]
                hx = self._zeros(input, batch, self.hidden_size)
        self.check_forward_args(input, hx, batch_sizes)
        function = {"RNN_TANH": R.rnn_tanh, "RNN_RELU": R.rnn_relu, "GRU": R.gru}[self.mode]
        options = (self.bias, self.num_layers, self.dropout, self.training, self.bidirectional)
        if batch_sizes is None:
            output, hidden = function(input, hx, self._flat_weights, *options, self.batch_first)
        else:
            output, hidden = function(input, batch_sizes, hx, self._flat_weights, *options)
        if packed:
            output = PackedSequence(output, batch_sizes, sorted_indices, unsorted_indices)
            return output, self.permute_hidden(hidden, unsorted_indices)
        if not is_batched:
            output, hidden = output.squeeze(batch_dim), hidden.squeeze(1)
        return output, hidden


def _check_arguments(dropout, num_layers, bias, batch_first, input_size, hidden_size, proj_size):
    if (
        not isinstance(dropout, numbers.Number)
        or not 0 <= dropout <= 1
        or isinstance(dropout, bool)
    ):
        raise ValueError(
            "dropout should be a number in range [0, 1] representing the probability of an "
            "element being zeroed"
        )
    if dropout > 0 and num_layers == 1:
        warnings.warn(
            "dropout option adds dropout after all but last recurrent layer, so non-zero "
            "dropout expects num_layers greater than 1, but got "
            f"dropout={dropout} and num_layers={num_layers}",
            stacklevel=4,
        )
    for name, value in (("bias", bias), ("batch_first", batch_first)):
        if not isinstance(value, bool):
            raise TypeError(f"{name} should be of type bool, got: {type(value).__name__}")
    for name, value in (("input_size", input_size), ("hidden_size", hidden_size)):
        if not isinstance(value, int):
            raise TypeError(f"{name} should be of type int, got: {type(value).__name__}")
        if value <= 0:
            raise ValueError(f"{name} must be greater than zero")
    if num_layers <= 0:
        raise ValueError("num_layers must be greater than zero")
    if proj_size < 0:
        raise ValueError("proj_size should be a positive integer or zero to disable projections")
    if proj_size >= hidden_size:
        raise ValueError("proj_size has to be smaller than hidden_size")


class RNN(RNNBase):
    """Elman RNN: ``h_t = tanh(x_t W_ih^T + b_ih + h_{t-1} W_hh^T + b_hh)`` (or relu),
    stacked ``num_layers`` deep, optionally bidirectional.

    Example:
        >>> import numtorch as torch
        >>> rnn = torch.nn.RNN(3, 4, num_layers=2)
        >>> output, h_n = rnn(torch.ones(5, 2, 3))
        >>> tuple(output.shape), tuple(h_n.shape), output.grad_fn
        ((5, 2, 4), (2, 2, 4), <StackBackward0 object at ...>)
    """

    def __init__(self, *args, **kwargs):
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        if len(args) > 3:
            self.nonlinearity = args[3]
            args = args[:3] + args[4:]
        else:
            self.nonlinearity = kwargs.pop("nonlinearity", "tanh")
        if self.nonlinearity == "tanh":
            mode = "RNN_TANH"
        elif self.nonlinearity == "relu":
            mode = "RNN_RELU"
        else:
            raise ValueError(
                f"Unknown nonlinearity '{self.nonlinearity}'. Select from 'tanh' or 'relu'."
            )
        super().__init__(mode, *args, **kwargs)

    def forward(self, input, hx=None):
        """``(output, h_n)``; a packed input gives a packed output."""
        return self._run(input, hx)


class GRU(RNNBase):
    """Gated recurrent unit, torch's gate layout (r, z, n):
    ``r = s(W_ir x + W_hr h)``, ``z = s(W_iz x + W_hz h)``, ``n = tanh(W_in x + r (W_hn h))``,
    ``h' = (1 - z) n + z h`` (biases inside each ``W``)."""

    def __init__(self, *args, **kwargs):
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        super().__init__("GRU", *args, **kwargs)

    def forward(self, input, hx=None):
        """``(output, h_n)``; a packed input gives a packed output."""
        return self._run(input, hx)


class LSTM(RNNBase):
    """Long short-term memory, torch's gate layout (i, f, g, o):
    ``c' = s(f) c + s(i) tanh(g)``, ``h' = s(o) tanh(c')``, with ``proj_size`` then
    ``h' = h' W_hr^T``.

    Example:
        >>> import numtorch as torch
        >>> lstm = torch.nn.LSTM(3, 4, batch_first=True, bidirectional=True)
        >>> output, (h_n, c_n) = lstm(torch.ones(2, 5, 3))
        >>> tuple(output.shape), tuple(h_n.shape), output.grad_fn
        ((2, 5, 8), (2, 2, 4), <TransposeBackward0 object at ...>)
    """

    def __init__(self, *args, **kwargs):
        super().__init__("LSTM", *args, **kwargs)

    def get_expected_cell_size(self, input: Tensor, batch_sizes) -> tuple:
        expected = self.get_expected_hidden_size(input, batch_sizes)
        return expected[:2] + (self.hidden_size,)

    def check_forward_args(self, input, hidden, batch_sizes) -> None:
        self.check_input(input, batch_sizes)
        self.check_hidden_size(
            hidden[0],
            self.get_expected_hidden_size(input, batch_sizes),
            "Expected hidden[0] size {}, got {}",
        )
        self.check_hidden_size(
            hidden[1],
            self.get_expected_cell_size(input, batch_sizes),
            "Expected hidden[1] size {}, got {}",
        )

    def permute_hidden(self, hx, permutation):
        if permutation is None:
            return hx
        return hx[0].index_select(1, permutation), hx[1].index_select(1, permutation)

    def forward(self, input, hx=None):
        """``(output, (h_n, c_n))``; a packed input gives a packed output."""
        real_hidden_size = self.proj_size if self.proj_size > 0 else self.hidden_size
        packed = isinstance(input, PackedSequence)
        if packed:
            input, batch_sizes, sorted_indices, unsorted_indices = input
            if hx is None:
                batch = int(batch_sizes[0])
                hx = (
                    self._zeros(input, batch, real_hidden_size),
                    self._zeros(input, batch, self.hidden_size),
                )
            else:
                hx = self.permute_hidden(hx, sorted_indices)
        else:
            batch_sizes = sorted_indices = unsorted_indices = None
            if input.ndim not in (2, 3):
                raise ValueError(f"LSTM: Expected input to be 2D or 3D, got {input.ndim}D instead")
            is_batched = input.ndim == 3
            batch_dim = 0 if self.batch_first else 1
            if not is_batched:
                input = input.unsqueeze(batch_dim)
            if hx is None:
                batch = input.shape[0] if self.batch_first else input.shape[1]
                hx = (
                    self._zeros(input, batch, real_hidden_size),
                    self._zeros(input, batch, self.hidden_size),
                )
            else:
                ranks = (hx[0].ndim, hx[1].ndim)
                wanted = 3 if is_batched else 2
                if ranks != (wanted, wanted):
                    kind = "batched 3-D" if is_batched else "unbatched 2-D"
                    raise RuntimeError(
                        f"For {kind} input, hx and cx should also be {wanted}-D but got "
                        f"({ranks[0]}-D, {ranks[1]}-D) tensors"
                    )
                if not is_batched:
                    hx = (hx[0].unsqueeze(1), hx[1].unsqueeze(1))
        self.check_forward_args(input, hx, batch_sizes)
        options = (self.bias, self.num_layers, self.dropout, self.training, self.bidirectional)
        if batch_sizes is None:
            result = R.lstm(input, hx, self._flat_weights, *options, self.batch_first)
        else:
            result = R.lstm(input, batch_sizes, hx, self._flat_weights, *options)
        output, hidden = result[0], result[1:]
        if packed:
            output = PackedSequence(output, batch_sizes, sorted_indices, unsorted_indices)
            return output, self.permute_hidden(hidden, unsorted_indices)
        if not is_batched:
            output = output.squeeze(batch_dim)
            hidden = (hidden[0].squeeze(1), hidden[1].squeeze(1))
        return output, hidden


# -- cells -----------------------------------------------------------------------------------
class RNNCellBase(Module):
    """Parameters of a single-step cell: ``weight_ih`` (chunks * hidden, input),
    ``weight_hh`` (chunks * hidden, hidden), ``bias_ih``, ``bias_hh``; all
    U(-1/sqrt(hidden), 1/sqrt(hidden))."""

    def __init__(self, input_size, hidden_size, bias, num_chunks, device=None, dtype=None):
        super().__init__()
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.bias = bias
        rows = num_chunks * hidden_size
        self.weight_ih = Parameter(_creation.empty(rows, input_size, dtype=dtype))
        self.weight_hh = Parameter(_creation.empty(rows, hidden_size, dtype=dtype))
        if bias:
            self.bias_ih = Parameter(_creation.empty(rows, dtype=dtype))
            self.bias_hh = Parameter(_creation.empty(rows, dtype=dtype))
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)
        self.reset_parameters()

    def extra_repr(self) -> str:
        s = "{input_size}, {hidden_size}"
        if "bias" in self.__dict__ and self.bias is not True:
            s += ", bias={bias}"
        if "nonlinearity" in self.__dict__ and self.nonlinearity != "tanh":
            s += ", nonlinearity={nonlinearity}"
        return s.format(**self.__dict__)

    def reset_parameters(self) -> None:
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def _check_ranks(self, input, hiddens, label):
        name = type(self).__name__
        if input.ndim not in (1, 2):
            raise ValueError(f"{name}: Expected input to be 1D or 2D, got {input.ndim}D instead")
        for i, hx in enumerate(hiddens):
            if hx is not None and hx.ndim not in (1, 2):
                which = label.format(i)
                raise ValueError(f"{name}: Expected {which} to be 1D or 2D, got {hx.ndim}D instead")


class RNNCell(RNNCellBase):
    """One Elman step: ``h' = tanh(x W_ih^T + b_ih + h W_hh^T + b_hh)`` (or relu).

    Example:
        >>> import numtorch as torch
        >>> cell = torch.nn.RNNCell(3, 4)
        >>> cell(torch.ones(2, 3)).grad_fn
        <TanhBackward0 object at ...>
    """

    def __init__(self, input_size, hidden_size, bias=True, nonlinearity="tanh", device=None,
                 dtype=None):  # fmt: skip
        super().__init__(input_size, hidden_size, bias, num_chunks=1, dtype=dtype)
        self.nonlinearity = nonlinearity

    def forward(self, input, hx=None):
        self._check_ranks(input, (hx,), "hidden")
        is_batched = input.ndim == 2
        if not is_batched:
            input = input.unsqueeze(0)
        if hx is None:
            hx = _creation.zeros(
                input.shape[0], self.hidden_size, dtype=input.dtype, device=input.device
            )
        elif not is_batched:
            hx = hx.unsqueeze(0)
        if self.nonlinearity == "tanh":
            cell = R.rnn_tanh_cell
        elif self.nonlinearity == "relu":
            cell = R.rnn_relu_cell
        else:
            raise RuntimeError(f"Unknown nonlinearity: {self.nonlinearity}")
        ret = cell(input, hx, self.weight_ih, self.weight_hh, self.bias_ih, self.bias_hh)
        return ret if is_batched else ret.squeeze(0)


class LSTMCell(RNNCellBase):
    """One LSTM step on ``(h, c)``: ``(h', c')``."""

    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, num_chunks=4, dtype=dtype)

    def forward(self, input, hx=None):
        self._check_ranks(input, () if hx is None else tuple(hx), "hx[{}]")
        is_batched = input.ndim == 2
        if not is_batched:
            input = input.unsqueeze(0)
        if hx is None:
            zeros = _creation.zeros(
                input.shape[0], self.hidden_size, dtype=input.dtype, device=input.device
            )
            hx = (zeros, zeros)
        elif not is_batched:
            hx = (hx[0].unsqueeze(0), hx[1].unsqueeze(0))
        ret = R.lstm_cell(input, hx, self.weight_ih, self.weight_hh, self.bias_ih, self.bias_hh)
        return ret if is_batched else (ret[0].squeeze(0), ret[1].squeeze(0))


class GRUCell(RNNCellBase):
    """One GRU step: ``h'``."""

    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, num_chunks=3, dtype=dtype)

    def forward(self, input, hx=None):
        self._check_ranks(input, (hx,), "hidden")
        is_batched = input.ndim == 2
        if not is_batched:
            input = input.unsqueeze(0)
        if hx is None:
            hx = _creation.zeros(
                input.shape[0], self.hidden_size, dtype=input.dtype, device=input.device
            )
        elif not is_batched:
            hx = hx.unsqueeze(0)
        ret = R.gru_cell(input, hx, self.weight_ih, self.weight_hh, self.bias_ih, self.bias_hh)
        return ret if is_batched else ret.squeeze(0)
