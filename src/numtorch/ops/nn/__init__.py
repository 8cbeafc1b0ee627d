"""Primitives behind ``numtorch.nn``: activations, convolution, pooling, normalization,
losses, distances, embedding and padding. Importing this package registers them."""

from . import (  # noqa: F401
    activation,
    conv,
    distance,
    embedding,
    fold,
    loss,
    normalization,
    padding,
    piecewise,
    pooling,
    upsample,
)
