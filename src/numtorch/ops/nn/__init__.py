"""Primitives behind ``numtorch.nn``: activations, convolution, pooling, normalization,
losses, distances, embedding, padding, recurrent cells and attention. Importing this package
registers them."""

from . import (  # noqa: F401
    activation,
    adaptive_pooling,
    attention,
    channel_shuffle,
    conv,
    conv_functions,
    ctc,
    distance,
    embedding,
    embedding_bag,
    fold,
    fractional_pool,
    grid_sample,
    loss,
    normalization,
    padding,
    piecewise,
    pointwise_loss,
    pooling,
    rnn,
    unpool,
    upsample,
    weight_norm,
)
