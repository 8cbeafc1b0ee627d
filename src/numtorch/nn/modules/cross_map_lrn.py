"""``nn.CrossMapLRN2d``: Lua Torch's cross-channel local response normalization, a Python
autograd Function in torch (its node is ``CrossMapLRN2dBackward``).

``scale = k + alpha / size * (sum of x**2 over a window of channels)`` and
``y = x * scale**-beta``. Channel ``c``'s window is kept as a running sum from the channel
before it, in torch's order, and the arithmetic runs as numtorch ops, so that float32
results round as torch's do. The gradient is torch's hand-written backward, which is not
the exact derivative (torch's own gradcheck fails on it): programs get torch's numbers.
"""

from __future__ import annotations

from ..._core.tensor import Tensor
from ...autograd.function import Function
from .module import Module


def _window_sums(squares: Tensor, size: int) -> Tensor:
    channels = squares.shape[1]
    pre_pad = int((size - 1) / 2 + 1)
    sums = squares.new_zeros(squares.shape)
    for c in range(min(pre_pad, channels)):
        sums[:, 0] += squares[:, c]
    for c in range(1, channels):
        sums[:, c] = sums[:, c - 1]
        if c < channels - pre_pad + 1:
            sums[:, c] += squares[:, c + pre_pad - 1]
        if c > pre_pad:
            sums[:, c] -= squares[:, c - pre_pad]
    return sums


# named as torch's Function, whose node is CrossMapLRN2dBackward; the module below takes the
# public name
class CrossMapLRN2d(Function):
    @staticmethod
    def forward(ctx, input, size, alpha=1e-4, beta=0.75, k=1):
        if input.dim() != 4:
            raise ValueError(f"CrossMapLRN2d: Expected input to be 4D, got {input.dim()}D instead.")
        scale = _window_sums(input.pow(2), size).mul_(alpha / size).add_(k)
        output = scale.pow(-beta).mul_(input)
        ctx.size, ctx.alpha, ctx.beta, ctx.scale = size, alpha, beta, scale
        ctx.save_for_backward(input, output)
        return output

    @staticmethod
    def backward(ctx, grad_output):
        input, output = ctx.saved_tensors
        size, scale = ctx.size, ctx.scale
        channels = input.shape[1]
        grad_input = scale.pow(-ctx.beta).mul_(grad_output)
        # g*y/scale sits at channels [offset, offset + channels) of a zero-padded stack; a
        # running sum over ``size`` of its entries scales each channel's correction
        offset = int(size - (size - 1) / 2)
        padded = input.new_zeros((input.shape[0], channels + size - 1, *input.shape[2:]))
        padded[:, offset : offset + channels] = grad_output * output / scale
        accum = padded[:, : size - 1].sum(1)
        cache = 2 * ctx.alpha * ctx.beta / size
        for c in range(channels):
            accum += padded[:, c + size - 1]
            grad_input[:, c].addcmul_(input[:, c], accum, value=-cache)
            accum -= padded[:, c]
        return grad_input, None, None, None, None


_CrossMapLRN2dFunction = CrossMapLRN2d


class CrossMapLRN2d(Module):
    """Normalize each element of a 4-D input by the squares of ``size`` neighbouring channels.

    Example:
        >>> import numtorch as torch
        >>> torch.nn.CrossMapLRN2d(3)(torch.ones(1, 2, 1, 1))
        tensor([[[[0.9999]],
        <BLANKLINE>
                 [[0.9999]]]])
    """

    def __init__(self, size: int, alpha: float = 1e-4, beta: float = 0.75, k: float = 1) -> None:
        super().__init__()
        self.size, self.alpha, self.beta, self.k = size, alpha, beta, k

    def forward(self, input):
        return _CrossMapLRN2dFunction.apply(input, self.size, self.alpha, self.beta, self.k)

    def extra_repr(self) -> str:
        return f"{self.size}, alpha={self.alpha}, beta={self.beta}, k={self.k}"
