"""``numtorch.nn.functional``: the stateless functions behind the layers."""

from ...ops.boundary import publish_all as _publish_all
from ...ops.nn.channel_shuffle import channel_shuffle, native_channel_shuffle
from ...ops.nn.conv_functions import (
    conv1d,
    conv2d,
    conv3d,
    conv_transpose1d,
    conv_transpose2d,
    conv_transpose3d,
)
from ...ops.nn.grid_sample import MODES as GRID_SAMPLE_INTERPOLATION_MODES  # noqa: F401
from ...ops.nn.grid_sample import PADDING_MODES as GRID_SAMPLE_PADDING_MODES  # noqa: F401
from ...overrides import (  # noqa: F401  (torch's functional re-exports them)
    handle_torch_function,
    has_torch_function,
    has_torch_function_unary,
    has_torch_function_variadic,
)
from .activation import (
    celu,
    celu_,
    elu,
    elu_,
    gelu,
    glu,
    gumbel_softmax,
    hardshrink,
    hardsigmoid,
    hardswish,
    hardtanh,
    hardtanh_,
    leaky_relu,
    leaky_relu_,
    log_softmax,
    logsigmoid,
    mish,
    prelu,
    relu,
    relu6,
    relu_,
    rrelu,
    rrelu_,
    selu,
    selu_,
    sigmoid,
    silu,
    softmax,
    softmin,
    softplus,
    softshrink,
    softsign,
    tanh,
    tanhshrink,
    threshold,
    threshold_,
)
from .attention import multi_head_attention_forward, scaled_dot_product_attention
from .ctc import ctc_loss
from .distance import cosine_similarity, pairwise_distance, pdist
from .dropout import (
    alpha_dropout,
    dropout,
    dropout1d,
    dropout2d,
    dropout3d,
    feature_alpha_dropout,
)
from .fractional_pooling import (
    fractional_max_pool2d,
    fractional_max_pool2d_with_indices,
    fractional_max_pool3d,
    fractional_max_pool3d_with_indices,
)
from .linear import bilinear, linear
from .linear_cross_entropy import linear_cross_entropy
from .loss import (
    binary_cross_entropy,
    binary_cross_entropy_with_logits,
    cross_entropy,
    gaussian_nll_loss,
    huber_loss,
    kl_div,
    l1_loss,
    mse_loss,
    nll_loss,
    poisson_nll_loss,
    smooth_l1_loss,
)
from .margin_loss import (
    cosine_embedding_loss,
    hinge_embedding_loss,
    margin_ranking_loss,
    multi_margin_loss,
    multilabel_margin_loss,
    multilabel_soft_margin_loss,
    soft_margin_loss,
    triplet_margin_loss,
    triplet_margin_with_distance_loss,
)
from .normalization import (
    batch_norm,
    group_norm,
    instance_norm,
    layer_norm,
    local_response_norm,
    normalize,
    rms_norm,
)
from .padding import pad
from .pooling import (
    adaptive_avg_pool1d,
    adaptive_avg_pool2d,
    adaptive_avg_pool3d,
    adaptive_max_pool1d,
    adaptive_max_pool2d,
    adaptive_max_pool3d,
    avg_pool1d,
    avg_pool2d,
    avg_pool3d,
    lp_pool1d,
    lp_pool2d,
    lp_pool3d,
    max_pool1d,
    max_pool2d,
    max_pool3d,
    max_unpool1d,
    max_unpool2d,
    max_unpool3d,
)
from .pooling_indices import (
    adaptive_max_pool1d_with_indices,
    adaptive_max_pool2d_with_indices,
    adaptive_max_pool3d_with_indices,
    max_pool1d_with_indices,
    max_pool2d_with_indices,
    max_pool3d_with_indices,
)
from .sampling import affine_grid, grid_sample
from .sparse import embedding, embedding_bag, one_hot
from .vision import (
    fold,
    interpolate,
    pixel_shuffle,
    pixel_unshuffle,
    unfold,
    upsample,
    upsample_bilinear,
    upsample_nearest,
)

__all__ = [
    "adaptive_max_pool1d_with_indices",
    "adaptive_max_pool2d_with_indices",
    "adaptive_max_pool3d_with_indices",
    "max_pool1d_with_indices",
    "max_pool2d_with_indices",
    "max_pool3d_with_indices",
    "upsample",
    "upsample_bilinear",
    "upsample_nearest",
    "fractional_max_pool2d",
    "fractional_max_pool2d_with_indices",
    "fractional_max_pool3d",
    "fractional_max_pool3d_with_indices",
    "channel_shuffle",
    "native_channel_shuffle",
    "max_unpool3d",
    "max_unpool2d",
    "max_unpool1d",
    "lp_pool3d",
    "lp_pool2d",
    "lp_pool1d",
    "adaptive_avg_pool1d",
    "affine_grid",
    "adaptive_avg_pool2d",
    "adaptive_avg_pool3d",
    "adaptive_max_pool1d",
    "adaptive_max_pool2d",
    "adaptive_max_pool3d",
    "avg_pool1d",
    "avg_pool2d",
    "avg_pool3d",
    "batch_norm",
    "bilinear",
    "binary_cross_entropy",
    "binary_cross_entropy_with_logits",
    "celu",
    "celu_",
    "conv1d",
    "conv2d",
    "conv3d",
    "conv_transpose1d",
    "conv_transpose2d",
    "conv_transpose3d",
    "cosine_embedding_loss",
    "cosine_similarity",
    "cross_entropy",
    "alpha_dropout",
    "ctc_loss",
    "dropout",
    "feature_alpha_dropout",
    "dropout1d",
    "dropout2d",
    "dropout3d",
    "elu",
    "elu_",
    "embedding",
    "embedding_bag",
    "fold",
    "gaussian_nll_loss",
    "gelu",
    "glu",
    "gumbel_softmax",
    "grid_sample",
    "group_norm",
    "hardshrink",
    "hardsigmoid",
    "hardswish",
    "hardtanh",
    "hardtanh_",
    "hinge_embedding_loss",
    "huber_loss",
    "instance_norm",
    "interpolate",
    "kl_div",
    "l1_loss",
    "layer_norm",
    "leaky_relu",
    "leaky_relu_",
    "linear",
    "local_response_norm",
    "log_softmax",
    "logsigmoid",
    "margin_ranking_loss",
    "max_pool1d",
    "max_pool2d",
    "max_pool3d",
    "mish",
    "mse_loss",
    "multi_margin_loss",
    "multilabel_margin_loss",
    "multilabel_soft_margin_loss",
    "multi_head_attention_forward",
    "nll_loss",
    "normalize",
    "one_hot",
    "pad",
    "pairwise_distance",
    "pdist",
    "pixel_shuffle",
    "pixel_unshuffle",
    "poisson_nll_loss",
    "prelu",
    "relu",
    "relu6",
    "relu_",
    "rms_norm",
    "rrelu",
    "rrelu_",
    "selu",
    "selu_",
    "scaled_dot_product_attention",
    "sigmoid",
    "silu",
    "smooth_l1_loss",
    "soft_margin_loss",
    "softmax",
    "softmin",
    "softplus",
    "softshrink",
    "softsign",
    "tanh",
    "tanhshrink",
    "threshold",
    "threshold_",
    "triplet_margin_loss",
    "triplet_margin_with_distance_loss",
    "unfold",
    "linear_cross_entropy",
]


# the functions torch's take out= (its built-in ones with an out overload, and normalize):
# published as the numtorch.<name> functions are, with out= and the boundary's errors.
# Not linear: every Linear layer calls it, and a wrapper would cost each call a frame
_publish_all(
    globals(),
    ("adaptive_avg_pool1d", "avg_pool1d", "avg_pool2d", "avg_pool3d", "channel_shuffle",
     "gelu", "hardshrink", "logsigmoid", "normalize", "pixel_shuffle", "pixel_unshuffle",
     "softplus", "softshrink"),
)  # fmt: skip


def __getattr__(name: str):
    # a torch.nn.functional name numtorch lacks: name the missing feature
    if name.startswith("_"):
        raise AttributeError(f"module 'numtorch.nn.functional' has no attribute '{name}'")
    raise AttributeError(
        f"torch.nn.functional.{name} is not supported by numtorch (module "
        f"'numtorch.nn.functional' has no attribute '{name}')"
    )


# torch's functional names nn.grad (the convolutions' gradient helpers) too; nn.grad is
# built from these functions, so it is imported once they exist
from .. import grad  # noqa: E402, F401
