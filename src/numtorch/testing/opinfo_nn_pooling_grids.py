"""Op samples for the nn primitives behind pooling and grid layers (part of ``opinfo.OP_DB``):
embedding bags, max unpooling, LP pooling, affine grids and grid sampling; also weight
normalization and the CTC loss."""

from __future__ import annotations

from .opinfo import OpInfo, Sample, _distinct, _n, _pos
from .opinfo_nn import _indices, _pool_gradient


def _fractional(t, x, dims, **kwargs):
    # fixed samples (one per plane and spatial dim): the windows do not depend on a stream
    planes = x.shape[0] * x.shape[1] if x.ndim == dims + 2 else x.shape[0]
    u = t.linspace(0.1, 0.9, planes * dims, dtype=x.dtype).reshape(-1, x.shape[-dims - 1], dims)
    pool = _f(t).fractional_max_pool2d if dims == 2 else _f(t).fractional_max_pool3d
    return pool(x, _random_samples=u, **kwargs)


def _f(t):
    return t.nn.functional


def _embedding_bag(mode, offsets=(0, 2, 2, 5), **kwargs):
    def op(t, weight, *per_sample_weights):
        return t.nn.functional.embedding_bag(
            _indices(t, [1, 2, 4, 4, 3, 0, 1]),
            weight,
            _indices(t, offsets),
            mode=mode,
            per_sample_weights=per_sample_weights[0] if per_sample_weights else None,
            **kwargs,
        )

    return op


def _grid_sample(mode, padding_mode, align_corners):
    def op(t, input, grid):
        return t.nn.functional.grid_sample(
            input, grid, mode=mode, padding_mode=padding_mode, align_corners=align_corners
        )

    return op


def _grid(rng, *shape):
    # inside and a little outside [-1, 1], away from the kinks at pixel centres is not needed:
    # random points almost surely miss them
    return rng.uniform(-1.2, 1.2, shape)


NN_POOLING_GRIDS = [
    OpInfo(
        "_weight_norm",
        lambda t, v, g, dim: t._weight_norm(v, g, dim),
        lambda rng: [
            Sample((_n(rng, 3, 4), _pos(rng, 3, 1), 0)),
            Sample((_n(rng, 2, 3, 2), _pos(rng, 1, 1, 2), 2)),
            Sample((_n(rng, 2, 3, 2), _pos(rng, 1, 3, 1), 1)),
            Sample((_n(rng, 3, 2), _pos(rng), -1)),
        ],
        # at the outer dims torch's second order holds the norms constant, so it is not the
        # derivative of the first (Note [Weight norm's double backward])
        gradgrad=False,
    ),
    OpInfo(
        "embedding_bag_sum",
        _embedding_bag("sum", padding_idx=3),
        lambda rng: [Sample((_n(rng, 5, 3),)), Sample((_n(rng, 5, 3), _n(rng, 7)))],
        gradgrad=False,  # torch cannot differentiate the bag's gradients
    ),
    OpInfo(
        "embedding_bag_mean",
        _embedding_bag("mean", (0, 2, 2, 7), include_last_offset=True),
        lambda rng: [Sample((_n(rng, 5, 3),))],
        gradgrad=False,  # torch cannot differentiate the bag's gradients
    ),
    OpInfo(
        "embedding_bag_max",
        _embedding_bag("max", padding_idx=0),
        lambda rng: [Sample((_distinct(rng, 5, 3),))],
        gradgrad=False,  # torch cannot differentiate the bag's gradients
    ),
    *[
        OpInfo(
            f"grid_sample_{mode}_{padding}_{int(corners)}",
            _grid_sample(mode, padding, corners),
            lambda rng: [
                Sample((_n(rng, 1, 2, 3, 4), _grid(rng, 1, 2, 3, 2))),
                Sample((_n(rng, 1, 1, 2, 3, 2), _grid(rng, 1, 2, 1, 2, 3))),
            ],
        )
        for mode, padding, corners in [
            ("bilinear", "zeros", False),
            ("bilinear", "border", True),
            ("bilinear", "reflection", False),
            ("bilinear", "reflection", True),
            ("nearest", "zeros", True),
        ]
    ],
    *[
        OpInfo(
            f"grid_sample_bicubic_{padding}_{int(corners)}",
            _grid_sample("bicubic", padding, corners),
            lambda rng: [Sample((_n(rng, 1, 2, 3, 4), _grid(rng, 1, 2, 3, 2)))],
        )
        for padding, corners in [("zeros", False), ("border", True), ("reflection", False)]
    ],
    OpInfo(
        "max_unpool2d",
        lambda t, x: t.nn.functional.max_unpool2d(
            x, _indices(t, [[[[0, 3], [9, 10]], [[5, 2], [8, 15]]]]), 2, output_size=(4, 4)
        ),
        lambda rng: [Sample((_n(rng, 1, 2, 2, 2),))],
    ),
    OpInfo(
        "max_unpool1d",
        lambda t, x: t.nn.functional.max_unpool1d(x, _indices(t, [[[1, 2, 5]]]), 2),
        lambda rng: [Sample((_n(rng, 1, 1, 3),))],
    ),
    OpInfo(
        "max_unpool3d",
        lambda t, x: t.nn.functional.max_unpool3d(x, _indices(t, [[[[[0, 7]]]]]), 2),
        lambda rng: [Sample((_n(rng, 1, 1, 1, 1, 2),))],
    ),
    OpInfo(
        "lp_pool2d",
        lambda t, x, *args: t.nn.functional.lp_pool2d(x, *args),
        lambda rng: [
            Sample((_pos(rng, 1, 2, 4, 4), 2, 2)),
            Sample((_pos(rng, 1, 1, 3, 5), 1.5, (2, 3), 1, True)),
        ],
    ),
    OpInfo(
        # torch's CTC gradient is the one of the logits behind log_softmax: checked there;
        # like torch's, it is not differentiable again
        "ctc_loss",
        lambda t, logits, *args, **kwargs: t.nn.functional.ctc_loss(
            logits.log_softmax(2), _indices(t, [[1, 2, 2], [2, 1, 0]]), *args, **kwargs
        ),
        lambda rng: [
            Sample((_n(rng, 5, 2, 4), [5, 4], [3, 1]), {"reduction": "none"}),
            Sample((_n(rng, 6, 2, 4), [6, 6], [3, 2]), {"reduction": "mean", "blank": 3}),
            Sample((_n(rng, 4, 2, 4), [2, 4], [3, 2]), {"zero_infinity": True, "reduction": "sum"}),
        ],
        gradgrad=False,
    ),
    OpInfo(
        "affine_grid",
        lambda t, theta, size, corners: t.nn.functional.affine_grid(theta, size, corners),
        lambda rng: [
            Sample((_n(rng, 2, 2, 3), [2, 1, 3, 4], False)),
            Sample((_n(rng, 1, 2, 3), [1, 3, 2, 2], True)),
            Sample((_n(rng, 1, 3, 4), [1, 1, 2, 2, 3], False)),
        ],
    ),
    OpInfo(
        "fractional_max_pool2d",
        lambda t, x, **k: _fractional(t, x, 2, **k),
        lambda rng: [
            Sample((_distinct(rng, 2, 3, 7, 6),), {"kernel_size": (2, 3), "output_size": (4, 3)}),
            Sample((_distinct(rng, 2, 6, 5),), {"kernel_size": 2, "output_ratio": (0.5, 0.7)}),
        ],
    ),
    OpInfo(
        "fractional_max_pool3d",
        lambda t, x: _fractional(t, x, 3, kernel_size=2, output_size=(2, 3, 2)),
        lambda rng: [Sample((_distinct(rng, 1, 2, 4, 5, 4),))],
    ),
    OpInfo(
        "fractional_max_pool2d_gradient",
        lambda t, x: _pool_gradient(
            t, x, lambda z, k: _fractional(t, z, 2, kernel_size=k, output_size=3)
        ),
        lambda rng: [Sample((_distinct(rng, 1, 2, 6, 5),))],
    ),
    OpInfo(
        "fractional_max_pool3d_gradient",
        lambda t, x: _pool_gradient(
            t, x, lambda z, k: _fractional(t, z, 3, kernel_size=k, output_size=(2, 2, 2))
        ),
        lambda rng: [Sample((_distinct(rng, 1, 2, 4, 5, 4),))],
    ),
]
