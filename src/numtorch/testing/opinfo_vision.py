"""Op samples for resampling and rearranging (part of ``opinfo.OP_DB``): ``interpolate`` in
every mode and rank, ``pixel_shuffle``/``pixel_unshuffle``, ``unfold``/``fold`` and adaptive
max pooling. Shapes are small: gradcheck's cost grows with the number of elements."""

from __future__ import annotations

from .opinfo import OpInfo, Sample, _distinct, _n
from .opinfo_nn import _pool_gradient


def _f(t):
    return t.nn.functional


def _interpolate(mode, samples):
    return OpInfo(
        f"interpolate_{mode}",
        lambda t, x, **k: _f(t).interpolate(x, mode=mode, **k),
        lambda rng: [Sample((_n(rng, *shape),), kwargs) for shape, kwargs in samples],
    )


VISION = [
    _interpolate(
        "nearest",
        [
            ((1, 2, 3), {"scale_factor": 2}),
            ((1, 1, 3, 4), {"size": (5, 3)}),
            ((1, 1, 2, 3, 2), {"scale_factor": (1.5, 1, 2)}),
        ],
    ),
    _interpolate(
        "nearest-exact",
        [
            ((1, 2, 4), {"scale_factor": 1.5}),
            ((1, 1, 3, 4), {"size": (5, 3)}),
            ((1, 1, 2, 3, 2), {"size": (3, 2, 3)}),
        ],
    ),
    _interpolate(
        "linear",
        [((1, 2, 4), {"scale_factor": 1.7}), ((2, 1, 4), {"size": 3, "align_corners": True})],
    ),
    _interpolate(
        "bilinear",
        [
            ((1, 2, 3, 4), {"scale_factor": 2}),
            ((1, 1, 4, 3), {"size": (3, 5), "align_corners": True}),
        ],
    ),
    _interpolate(
        "bicubic",
        [
            ((1, 1, 3, 4), {"size": (5, 3)}),
            ((1, 1, 4, 3), {"scale_factor": 1.5, "align_corners": True}),
        ],
    ),
    _interpolate("trilinear", [((1, 1, 2, 3, 2), {"scale_factor": (1.5, 1, 2)})]),
    OpInfo(  # shrinking widens the filter, growing does not: both, and align_corners
        "interpolate_bilinear_antialias",
        lambda t, x, **k: _f(t).interpolate(x, mode="bilinear", antialias=True, **k),
        lambda rng: [
            Sample((_n(rng, 1, 2, 5, 4),), {"size": (2, 3)}),
            Sample((_n(rng, 1, 1, 3, 4),), {"size": (4, 2), "align_corners": True}),
        ],
    ),
    OpInfo(
        "interpolate_bicubic_antialias",
        lambda t, x, **k: _f(t).interpolate(x, mode="bicubic", antialias=True, **k),
        lambda rng: [
            Sample((_n(rng, 1, 1, 6, 5),), {"size": (3, 2)}),
            Sample((_n(rng, 1, 1, 3, 3),), {"scale_factor": 1.5, "align_corners": True}),
        ],
    ),
    _interpolate("area", [((1, 2, 4, 5), {"size": (3, 2)})]),
    OpInfo(
        "pixel_shuffle",
        lambda t, x: _f(t).pixel_shuffle(x, 2),
        lambda rng: [Sample((_n(rng, 1, 8, 2, 3),)), Sample((_n(rng, 4, 2, 1),))],
    ),
    OpInfo(
        "pixel_unshuffle",
        lambda t, x: _f(t).pixel_unshuffle(x, 2),
        lambda rng: [Sample((_n(rng, 1, 2, 4, 2),))],
    ),
    OpInfo(
        "unfold",
        lambda t, x, **k: _f(t).unfold(x, **k),
        lambda rng: [
            Sample((_n(rng, 1, 2, 3, 4),), {"kernel_size": 2}),
            Sample(
                (_n(rng, 2, 4, 5),),
                {"kernel_size": (2, 3), "dilation": (1, 2), "padding": 1, "stride": (2, 1)},
            ),
        ],
    ),
    OpInfo(
        "fold",
        lambda t, x, **k: _f(t).fold(x, **k),
        lambda rng: [
            Sample((_n(rng, 1, 4, 6),), {"output_size": (3, 4), "kernel_size": 2}),
            Sample((_n(rng, 4, 4),), {"output_size": 4, "kernel_size": 2, "stride": 2}),
        ],
    ),
    OpInfo(
        "adaptive_max_pool2d",
        lambda t, x, size: _f(t).adaptive_max_pool2d(x, size),
        lambda rng: [
            Sample((_distinct(rng, 1, 2, 5, 4), (3, 2))),
            Sample((_distinct(rng, 2, 4, 4), 2)),
        ],
    ),
    OpInfo(
        "adaptive_max_pool1d",
        lambda t, x: _f(t).adaptive_max_pool1d(x, 3),
        lambda rng: [Sample((_distinct(rng, 1, 2, 7),))],
    ),
    OpInfo(
        "adaptive_max_pool3d",
        lambda t, x: _f(t).adaptive_max_pool3d(x, (2, 1, 2)),
        lambda rng: [Sample((_distinct(rng, 1, 1, 3, 2, 4),))],
    ),
    OpInfo(
        "adaptive_max_pool2d_gradient",
        lambda t, x: _pool_gradient(t, x, _f(t).adaptive_max_pool2d),
        lambda rng: [Sample((_distinct(rng, 1, 2, 5, 4),))],
    ),
    OpInfo(
        "adaptive_max_pool3d_gradient",
        lambda t, x: _pool_gradient(t, x, _f(t).adaptive_max_pool3d),
        lambda rng: [Sample((_distinct(rng, 1, 1, 3, 2, 4),))],
    ),
]
