"""Op samples for the activation functions of ``nn.functional`` (part of ``opinfo.OP_DB``).

Samples keep clear of the kinks (``_away``, or fixed points between them): gradcheck's finite
differences are meaningless across a kink. In-place variants run on ``x * 1`` (a non-leaf), so
that their own nodes (``EluBackward1``...) are recorded and checked.
"""

from __future__ import annotations

import numpy as np

from .opinfo import OpInfo, Sample, _away, _n


def _f(t):
    return t.nn.functional


# points between the kinks of the piecewise activations (at -3, -1, -0.5, 0, 0.5, 1, 3, ...)
_KINKED = np.array([-4.0, -2.2, -0.8, -0.3, 0.2, 0.7, 1.6, 2.5, 3.5])


def _kinked(rng):
    return [Sample((_KINKED,)), Sample((_KINKED.reshape(3, 3) * 0.9,))]


def _smooth(rng):
    return [Sample((_n(rng, 2, 3) * 2,)), Sample((_n(rng, 5),))]


def _activation(name, fn, samples=_smooth, ref=None, **kw):
    return OpInfo(name, fn, samples, ref, **kw)


def _elu_ref(x, alpha=1.0, scale=1.0, input_scale=1.0):
    return np.where(x > 0, scale * x, scale * alpha * np.expm1(np.minimum(x, 0) * input_scale))


ACTIVATIONS = [
    _activation("elu", lambda t, x: _f(t).elu(x, 0.7), ref=lambda x: _elu_ref(x, 0.7)),
    _activation("elu_", lambda t, x: _f(t).elu(x * 1, 1.5, inplace=True)),
    _activation(
        "selu",
        lambda t, x: _f(t).selu(x),
        ref=lambda x: _elu_ref(
            x, 1.6732632423543772848170429916717, 1.0507009873554804934193349852946
        ),
    ),
    _activation("selu_", lambda t, x: _f(t).selu(x * 1, inplace=True)),
    _activation("celu", lambda t, x: _f(t).celu(x, 2.0), ref=lambda x: _elu_ref(x, 2.0, 1, 0.5)),
    _activation("celu_", lambda t, x: _f(t).celu_(x * 1, 0.5)),
    _activation("logsigmoid", lambda t, x: _f(t).logsigmoid(x)),
    _activation("mish", lambda t, x: _f(t).mish(x)),
    _activation("mish_", lambda t, x: _f(t).mish(x * 1, inplace=True)),
    _activation("softsign", lambda t, x: _f(t).softsign(x), ref=lambda x: x / (1 + np.abs(x))),
    _activation("tanhshrink", lambda t, x: _f(t).tanhshrink(x), ref=lambda x: x - np.tanh(x)),
    _activation("hardswish", lambda t, x: _f(t).hardswish(x), _kinked),
    _activation("hardswish_", lambda t, x: _f(t).hardswish(x * 1, inplace=True), _kinked),
    _activation(
        "hardsigmoid",
        lambda t, x: _f(t).hardsigmoid(x),
        _kinked,
        ref=lambda x: np.clip(x / 6 + 0.5, 0, 1),
        gradgrad=False,  # torch has no derivative for hardsigmoid_backward either
    ),
    _activation(
        "hardsigmoid_",
        lambda t, x: _f(t).hardsigmoid(x * 1, inplace=True),
        _kinked,
        gradgrad=False,
    ),
    _activation("hardshrink", lambda t, x: _f(t).hardshrink(x), _kinked),
    _activation("softshrink", lambda t, x: _f(t).softshrink(x, 1.0), _kinked),
    _activation(
        "threshold",
        lambda t, x: _f(t).threshold(x, 0.5, -2.0),
        _kinked,
        ref=lambda x: np.where(x > 0.5, x, -2.0),
    ),
    _activation("threshold_", lambda t, x: _f(t).threshold(x * 1, 0.5, 2.0, inplace=True), _kinked),
    _activation("hardtanh_", lambda t, x: _f(t).hardtanh(x * 1, -1.0, 3.0, inplace=True), _kinked),
    _activation("relu6_", lambda t, x: _f(t).relu6(x * 2, inplace=True), _kinked),
    _activation("leaky_relu_", lambda t, x: _f(t).leaky_relu_(x * 1, 0.3), _kinked),
    _activation("rrelu", lambda t, x: _f(t).rrelu(x, 0.1, 0.4), _kinked),
    _activation("rrelu_", lambda t, x: _f(t).rrelu_(x * 1, 0.1, 0.4), _kinked),
    # equal bounds make training deterministic (the random slopes are tested by hand)
    _activation("rrelu_training", lambda t, x: _f(t).rrelu(x, 0.2, 0.2, training=True), _kinked),
    OpInfo(
        "prelu",
        lambda t, x, w: _f(t).prelu(x, w),
        lambda rng: [
            Sample((_away(rng, 2, 3, 2), np.array([0.25, -0.5, 1.5]))),
            Sample((_away(rng, 2, 3), np.array([0.3]))),
            Sample((_away(rng, 4), np.array(0.3))),
        ],
    ),
    OpInfo(
        "glu",
        lambda t, x, **k: _f(t).glu(x, **k),
        lambda rng: [Sample((_n(rng, 2, 4),)), Sample((_n(rng, 4, 3),), {"dim": 0})],
    ),
    OpInfo(
        "softmax2d",
        lambda t, x: t.nn.Softmax2d()(x),
        lambda rng: [Sample((_n(rng, 2, 3, 2, 2),)), Sample((_n(rng, 3, 2, 2),))],
    ),
]
