"""Differences the fuzzer still finds, by (class, op): why each is open, and a witness.

The short budget in ``tests/test_fuzz_differential.py`` tolerates these and fails on any
other strict one; ``make fuzz`` reports every class, known or not. Each entry names a
witness, graph ``index`` of campaign ``seed`` (``graphs.program_for(seed, index)`` when the
entry was written, stored in witnesses.json), and
``test_known_differences_still_reproduce`` checks that every witness still shows its
difference run on its own, so a fixed entry cannot linger: fixing one means deleting its
line here.
"""

from __future__ import annotations

import json
import pathlib

_LAPACK_DEGENERATE = (
    "LAPACK on a (nearly) singular or non-finite matrix: torch's and NumPy's LAPACK builds "
    "differ in convergence failures, pivots and inf/NaN patterns (platform-dependent)"
)
_NONFINITE_ORDER = (
    "an infinite input: torch's fused kernel meets inf - inf or inf * 0 (NaN) where "
    "numtorch's order of the same arithmetic gives +-inf"
)
_DEGENERATE_GAUGE = (
    "a rank-deficient input (rows repeated by expand/reshape): repeated or zero singular "
    "values and R's zero pivots leave the factors' gauge free, and the gradient is then "
    "whatever torch's LAPACK build picked (up to 1/eps)"
)
_FFT_NONFINITE = (
    "a NaN or infinite input: torch's FFT (MKL on this build) and NumPy's pocketfft spread "
    "non-finite values over different outputs (an infinity times an exactly zero twiddle "
    "factor is skipped by one and NaN in the other), so outputs that one gives as NaN the "
    "other gives as 0, finite or inf; matching needs torch's FFT algorithm itself"
)
_UNTRIAGED = "not yet triaged"

# (class, op): (why, (seed, index) of a witness graph). The witness itself is stored in
# witnesses.json under "class/op" (WITNESSES): what a seed draws changes whenever the op
# sample table grows, while a stored graph names its ops and samples and stays put. A new
# entry's witness is added with `python -m fuzz --witness SEED INDEX` (it prints the graph).
KNOWN: dict[tuple[str, str], tuple[str, tuple[int, int]]] = {
    ("value", "group_norm"): (_NONFINITE_ORDER, (20261127, 28)),
    ("value", "batch_norm_eval"): (_NONFINITE_ORDER, (20261127, 62)),
    ("value", "fft.fft"): (_FFT_NONFINITE, (20261127, 487)),
    ("value", "fft.hfft"): (_FFT_NONFINITE, (5150, 242)),
    ("value", "fft.hfft2"): (_FFT_NONFINITE, (5150, 2334)),
    ("value", "fft.hfftn"): (_FFT_NONFINITE, (5150, 1852)),
    ("value", "fft.irfftn"): (_FFT_NONFINITE, (5150, 981)),
    ("value", "fft.rfftn"): (_FFT_NONFINITE, (5150, 2238)),
    ("value", "remainder_"): (_UNTRIAGED + ": remainder_ through a view", (20261127, 54)),
    ("value", "torch_svd"): (_LAPACK_DEGENERATE, (777, 2675)),
    ("value", "interpolate_trilinear"): (_NONFINITE_ORDER, (20261127, 163)),
    ("value", "scaled_dot_product_attention"): (
        "a NaN input: torch's fused flash-attention backward spreads it over the whole block, "
        "numtorch's composed backward only over the rows and columns it reaches",
        (20261127, 522),
    ),
    ("second order", "linalg_svd"): (
        _LAPACK_DEGENERATE + "; an exactly singular matrix: the zero singular value comes back "
        "as ~1e-17 or ~1e-7, and the second order divides by it",
        (20261127, 668),
    ),
    ("second order", "_weight_norm"): (
        "torch's double backward of _weight_norm_interface is wrong: it fails torch's own "
        "gradgradcheck (e.g. v (2, 3, 2), g (1, 1, 2), dim=2); numtorch's passes it",
        (20261127, 411),
    ),
    ("value", "linalg_slogdet"): (_LAPACK_DEGENERATE, (777, 251)),
    ("value", "lu"): (_LAPACK_DEGENERATE, (777, 1702)),
    ("requires_grad", "linalg.cholesky_ex"): (
        "cholesky_ex's info output with a NaN input",
        (20261127, 88),
    ),
    ("requires_grad", "grid_sample_nearest_zeros_1"): (
        "grid_sample's backward is one node in torch (differentiable again); numtorch's "
        "formula is not recorded",
        (777, 159),
    ),
    ("requires_grad", "einsum_reduce"): (_UNTRIAGED, (20261127, 8)),
    ("gradient", "polar"): (_UNTRIAGED, (20261127, 49)),
    ("gradient", "torch.batch_norm_eval"): (_UNTRIAGED, (20261127, 77)),
    ("error type", "linalg_solve"): (_LAPACK_DEGENERATE, (20261127, 318)),
    ("error type", "linalg.lstsq"): (
        "an empty right-hand side with the gelsd/gelss driver: torch's MKL call rejects it "
        "(an internal assert, or a crash), numtorch returns the empty solution",
        (20261127, 207),
    ),
    ("gradient", "torch_svd"): (_DEGENERATE_GAUGE, (20261127, 84)),
    ("gradient", "linalg_qr"): (_DEGENERATE_GAUGE, (20261127, 324)),
}

# Ops whose torch kernel approximates more coarsely than the float64 tolerance: the relative
# tolerance their forward values are compared with, and why.
COARSE: dict[str, tuple[float, str]] = {}


def is_known(found) -> bool:
    return (found.kind, found.op) in KNOWN


WITNESSES: dict = json.loads((pathlib.Path(__file__).parent / "witnesses.json").read_text())
