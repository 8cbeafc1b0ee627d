"""Primitives behind ``numtorch.nn``: activations, convolution, pooling, normalization,
losses, distances, embedding and padding. Importing this package registers them."""

from . import (  # noqa: F401
    activation,
    conv,
    distance,
    embedding,
    loss,
    normalization,
    padding,
    piecewise,
    pooling,
)
