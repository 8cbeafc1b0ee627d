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

_UNTRIAGED = "not yet triaged"

# (class, op): (why, (seed, index) of a witness graph). The witness itself is stored in
# witnesses.json under "class/op" (WITNESSES): what a seed draws changes whenever the op
# sample table grows, while a stored graph names its ops and samples and stays put. A new
# entry's witness is added with `python -m fuzz --witness SEED INDEX` (it prints the graph).
KNOWN: dict[tuple[str, str], tuple[str, tuple[int, int]]] = {
    ("value", "_weight_norm"): (
        "torch's CPU _weight_norm kernel reads g per slice along dim from its data pointer, "
        "unchecked: a g of fewer elements (a 0-d one) gives whatever lies past its storage "
        "(undefined values); numtorch broadcasts it",
        (77112026, 3303),
    ),
    ("second order", "sgn_"): (
        "torch's gradient of sgn on a real tensor is an efficient zero tensor (ZeroTensor): "
        "products with it are zeros whatever the other operand (0 * NaN is 0 there). "
        "numtorch's EfficientZeros does the same through NumPy's ufuncs (backend/zeros.py), "
        "but second-order gradients pass it through formulas that build new arrays (a "
        "scatter, a where, a copy), which make it ordinary zeros where torch's kernels keep "
        "it (not yet traced op by op)",
        (57079632, 5882),
    ),
    ("error type", "sgn_"): (
        "torch's gradient of sgn on a real tensor is an efficient zero tensor (ZeroTensor), "
        "and aminmax's backward writes into the gradient it receives: torch raises "
        "'ZeroTensors are immutable' where the gradient exists (zeros through sgn); "
        "numtorch's efficient zeros are copied on write and the backward returns it",
        (64250117, 5493),
    ),
    ("second order", "abs_"): (
        "the same efficient zero tensor as sgn_'s second order: abs's gradient is "
        "grad * sgn(input), whose second derivative goes through sgn's",
        (24681357, 520),
    ),
    ("second order", "polygamma_3"): (
        "the gradient of matrix_exp is the top-right block of exp([[A^T, G], [0, A^T]]), "
        "whose accuracy goes with the norm of G (4e6 here, many squarings): torch's "
        "Taylor approximant leaves 2.5e-10 relative of that block's exact value (50-digit "
        "reference), numtorch's Pade(13) 5.5e-11, and a later polygamma(3) near its pole "
        "takes the gradient's third and fifth derivatives of that error to 1e-5. Matching "
        "means torch's own approximant and its squarings",
        (80604219, 3260),
    ),
    ("value", "std"): (
        "a std of values near the float64 maximum of both signs (+-1.8e308 and small ones) "
        "overflows in the sum of its mean: torch's vectorized sum adds them in its lanes, "
        "where a lane reaching +inf meets one at -inf (mean NaN, std NaN); NumPy's pairwise "
        "sum reaches one infinity (mean -inf, std inf). torch.sum of those 24 values is NaN "
        "and NumPy's -inf alike; matching means torch's summation order in every sum, as "
        "for masked_std_all",
        (61803398, 5884),
    ),
    ("second order", "cdist_mm"): (
        "the mm form of cdist leaves the distance of coincident points at 0 or at the GEMM's "
        "rounding (CANCELLING below): on the very same inputs 18 of the witness's distances "
        "are 7.45e-9 here and 0 in torch. Its gradient masks a zero distance (0 there) and "
        "divides by a noise one, which the forward and the first order tolerate, but the "
        "second derivative of |a - b| at a noise distance is noise / distance (-2.2e-8 here, "
        "-3.9e-15 in torch); matching means torch's BLAS's summation order in the product",
        (61803398, 975),
    ),
}

# Ops whose torch kernel approximates more coarsely than the float64 tolerance: the relative
# tolerance their forward values are compared with, and why.
COARSE: dict[str, tuple[float, str]] = {
    "_standard_gamma_grad": (
        1e-4,
        "torch's series, saddle-point and rational approximations of d(draw)/d(alpha) are "
        "off by up to ~1e-4 relative; numtorch's central difference of P(alpha, x) by ~1e-9",
    ),
}


# Ops whose torch kernel cancels catastrophically by design: the absolute tolerance of their
# forward values, as a fraction of the result's largest magnitude, and why.
CANCELLING: dict[str, tuple[float, str]] = {
    "cdist_mm": (
        1e-7,
        "torch's mm form of the Euclidean distance, sqrt(max(|a|^2 + |b|^2 - 2 a.b, 0)), "
        "leaves the rounding of the squared norms (~1e-16 |a|^2) under its square root: a "
        "distance of 0 comes out anywhere up to ~1e-8 |a|, as the GEMM's summation order has it",
    ),
}


# Reductions whose choice between equal zeros of opposite signs is their SIMD layout's: torch's
# min/max kernels fold a row into as many vector accumulators as the CPU's vector has lanes
# (eight float32 or four float64 at 32 bytes on x86, two at NEON's 16 on ARM), each lane
# keeping one of two equal zeros by its min/max instruction's rule for ties, and fold the
# lanes in a tree at the end; NumPy's SIMD reductions fold in their own layout. Probed on
# rows holding one zero of the other sign: amin/amax along a dim keep the first zero of a
# row of up to 32 and later ones past that, min()/max()/aminmax() without a dim the last of
# the last full vector (index 7 of rows of 8 to 15 float32, 15 of 16 to 23, 3 of 4 to 7
# float64): a function of the vector width, so of the CPU, not of the values. The sign of
# such a zero is compared nowhere: past the step, a difference that follows from it (1/x
# as +-inf, lgamma's gradient at +-0) is not one (compare.py, _zero_sign_choice).
ZERO_SIGN_CHOICE = frozenset(
    {
        *("aminmax", "amax", "amax_ties", "amin", "max_all", "min_all"),
        *("max_dim", "max_dim_keepdim", "min_dim"),
        *("masked_amax", "masked_amax_all", "masked_amin", "masked_amin_all"),
    }
)


def is_known(found) -> bool:
    return (found.kind, found.op) in KNOWN


WITNESSES: dict = json.loads((pathlib.Path(__file__).parent / "witnesses.json").read_text())
