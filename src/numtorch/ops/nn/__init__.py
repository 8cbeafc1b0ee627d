"""Primitives behind ``numtorch.nn``: activations, convolution, pooling, normalization,
losses, embedding and padding. Importing this package registers them."""

from . import activation, attention, conv, embedding, loss, normalization, padding, pooling, rnn  # noqa: F401
