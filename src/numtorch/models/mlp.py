"""A multi-layer perceptron builder."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from numtorch import nn

__all__ = ["mlp"]


def mlp(
    in_features: int,
    hidden_features: Sequence[int],
    out_features: int,
    *,
    activation: Callable[[], nn.Module] = nn.ReLU,
    dropout: float = 0.0,
    bias: bool = True,
) -> nn.Sequential:
    """``Linear -> activation [-> Dropout]`` per hidden width, then a last ``Linear``.

    The result is a plain ``nn.Sequential`` (parameters ``0.weight``, ``0.bias``,
    ``2.weight``, ...), so a torch ``nn.Sequential`` built the same way shares its state dict.

    Args:
        hidden_features: the width of each hidden layer, e.g. ``[512, 512]``.
        activation: a module class (or factory) called once per hidden layer.
        dropout: probability of a ``Dropout`` after each activation (none when 0).

    Example::

        >>> import numtorch as torch
        >>> from numtorch.models import mlp
        >>> model = mlp(784, [512, 512], 10)
        >>> model(torch.randn(128, 784)).shape
        torch.Size([128, 10])
        >>> [name for name, _ in model.named_parameters()][:3]
        ['0.weight', '0.bias', '2.weight']
    """
    if not 0.0 <= dropout <= 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {dropout}")
    layers: list[nn.Module] = []
    width = in_features
    for hidden in hidden_features:
        layers += [nn.Linear(width, hidden, bias=bias), activation()]
        if dropout > 0:
            layers.append(nn.Dropout(dropout))
        width = hidden
    layers.append(nn.Linear(width, out_features, bias=bias))
    return nn.Sequential(*layers)
