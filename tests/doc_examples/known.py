"""torch documentation examples that still differ under numtorch, and the slow ones.

``KNOWN``: example id (the name whose docstring holds it) -> why it still differs. The test
fails when a listed example agrees with torch: fixing one means deleting its line, so the list
only shrinks. ``SLOW``: examples that take seconds each (3-D convolutions and pooling,
transformers, worker processes); the test skips them, ``make doc-examples`` runs them.
"""

from __future__ import annotations

_ALLCLOSE_ROUNDING = (
    "allclose(A @ X, B) with default tolerances on a float32 draw: the solutions differ from "
    "torch's LAPACK and BLAS in rounding only, and whether an element lands on the other side "
    "of the bound depends on the CPU's kernels (on one machine lu_solve's does, on another "
    "solve_triangular's)"
)

# Examples whose printed check lands on either side by the CPU's LAPACK and BLAS rounding:
# agreeing or differing in a value (or a random draw's check) both pass; any other
# difference fails.
PLATFORM_ROUNDING: dict[str, str] = {
    "torch.linalg.lu_solve": _ALLCLOSE_ROUNDING,
    "torch.linalg.solve": _ALLCLOSE_ROUNDING,
    "torch.linalg.solve_triangular": _ALLCLOSE_ROUNDING,
}

KNOWN: dict[str, str] = {
    "torch.func.functionalize": "functionalize needs torch.fx, which numtorch lacks",
    "torch.resolve_neg": "the negative bit (is_neg of conj().imag) is not modelled",
    "torch.set_default_dtype": (
        "with float16 as the default dtype complex numbers give float16 "
        "(torch: complex32, which numtorch lacks)"
    ),
    "torch.sort": "torch's unstable sort orders ties its own way; numtorch's is stable",
    "torch.utils.checkpoint.create_selective_checkpoint_contexts": (
        "the policy names torch.ops.aten overloads, which numtorch lacks"
    ),
}

SLOW: tuple[str, ...] = (
    "torch.Tensor.col_indices",
    "torch.conv_transpose3d",
    "torch.nn.AvgPool3d",
    "torch.nn.BatchNorm3d",
    "torch.nn.CircularPad3d",
    "torch.nn.Conv3d",
    "torch.nn.ConvTranspose3d",
    "torch.nn.FractionalMaxPool3d",
    "torch.nn.InstanceNorm3d",
    "torch.nn.LPPool3d",
    "torch.nn.MaxPool3d",
    "torch.nn.MaxUnpool3d",
    "torch.nn.ReplicationPad3d",
    "torch.nn.Transformer",
    "torch.nn.TransformerDecoder",
    "torch.nn.TransformerDecoderLayer",
    "torch.nn.TransformerEncoder",
    "torch.nn.TransformerEncoderLayer",
    "torch.nn.functional.fractional_max_pool3d",
    "torch.utils.data.IterableDataset",
)

# examples that print uninitialised memory (torch.empty and friends) or a seed drawn from the
# OS: torch differs from itself, though not always between two runs, so a value difference
# is not one of numtorch's
UNINITIALISED: tuple[str, ...] = (
    "torch.Generator.seed",
    "torch.Tensor.new_empty",
    "torch.Tensor.new_empty_strided",
    "torch.empty",
    "torch.empty_strided",
    "torch.nn.utils.skip_init",
)
