"""Primitives behind ``numtorch.nn``: activations, convolution, pooling, normalization,
losses, distances, embedding, padding, recurrent cells and attention. Importing this package
registers them."""

from . import (  # noqa: F401
    activation,
    attention,
    conv,
    distance,
    embedding,
    fold,
    loss,
    normalization,
    padding,
    piecewise,
    pointwise_loss,
    pooling,
    rnn,
    upsample,
)
