"""Random programs over the op sample table, as plain data.

A program is a dict that JSON can hold, so a failure is reproduced from the file alone:

    {"dtype": "float32" | "float64" | "mixed", "seed": int, "steps": [step, ...]}

An ``op`` step runs one sample of one ``OP_DB`` entry; each floating input of the sample
is either a fresh leaf (the sample's array, perhaps made 0-d or empty, perhaps holding
NaN/±inf/±0, float32 or float64, requiring grad or not) or an earlier result fitted to the
sample's shape (used as is, broadcast by ``expand``, or reshaped from its flat values), so
results chain through views. An ``inplace`` step applies an in-place method (derived from
the table: every entry ``name`` whose tensor method ``name_`` exists) to a view of an
earlier result. Choices come from a ``Choices`` object: ``RandomChoices`` (a NumPy
generator, for long campaigns where graph ``i`` of seed ``s`` is reproducible) or
``DrawnChoices`` (Hypothesis ``draw``, so failures shrink).
"""

from __future__ import annotations

import functools

import numpy as np
from hypothesis import strategies as st

import numtorch
from numtorch.testing.opinfo import OP_DB

# Entries left out, each for a reason torch itself gives: an exactly singular matrix makes
# torch's determinant gradient depend on the CPU's LAPACK path (the parity suite compares
# that one with the mathematically defined cofactor matrix instead).
EXCLUDED = {"det_singular"}
# Nested tensors and the sparse layouts' constructors and conversions make tensors of
# another layout, which the graphs' dense ops cannot take (every later step would be an
# error of both libraries): their op-sample entries are checked by the op runners, and
# lobpcg's iterations start from the sample's fixed vectors, which a random graph's inputs
# do not keep.
EXCLUDED |= {info.name for info in OP_DB if info.name.startswith(("nested_", "lobpcg"))}
EXCLUDED |= {
    info.name
    for info in OP_DB
    if info.name.startswith(("to_sparse_", "sparse_compressed", "sparse_to", "sparse_gather"))
}
# Entries whose torch kernels index memory by computed coordinates: a NaN or infinite grid
# crashes torch (a segmentation fault in grid_sample's backward), so their inputs are always
# fresh finite leaves.
FRESH_ONLY = ("grid_sample", "affine_grid")
# torch's fused LSTM kernel crashes (a segmentation fault) on an empty weight: these entries'
# inputs keep their sample shapes.
# So does mkldnn_rnn_layer's, and _weight_norm's kernel on an empty v dies of a floating
# point exception (an integer division by the empty dim's size). torch's CPU batch-norm
# kernels read weight and bias per channel from their data pointer, unchecked (known.py's
# batch-norm entries): an empty weight crashes their backward (a segmentation fault).
# torch's native_dropout returns an empty input itself (not a new tensor) and then records
# its node on it: a leaf that requires grad gets a grad_fn, and backward fails with "leaf
# variable has been moved into the graph interior".
SAMPLE_SHAPES_ONLY = (
    *("lstm", "mkldnn_rnn_layer", "_weight_norm", "native_dropout"),
    *("batch_norm", "torch.batch_norm", "torch.native_batch_norm"),
)
# Entries that draw random numbers are deterministic only on their samples' own values
# (probability 0 or 1, standard deviation 0): they get fresh, unaltered leaves.
RANDOM = ("bernoulli", "poisson", "binomial", "normal_")
RANDOM_METHODS = {"bernoulli_", "normal_", "uniform_", "random_", "exponential_", "cauchy_"}

# LAPACK on non-finite input is undefined and torch's build shows it: MKL reports bad
# parameters and returns partly-NaN factors, eigvals can crash. Steps of these entries with
# a NaN or infinite input are skipped (in both libraries) rather than compared. So are those
# with a numerically singular matrix (rank-deficient, as rows repeated by expand or reshape
# make it): there a pivot or a singular value that is mathematically 0 is rounding noise,
# whose value and sign depend on the LAPACK build's arithmetic (MKL's fused multiply-adds
# and reciprocal pivots against OpenBLAS's), and so do the factors' free gauge, whether a
# factorization or solve fails, and every gradient that divides by it.
# Names of the entries that factor matrices with LAPACK, matched as whole words of the
# entry's name (split at "_" and "."): "lu" names an LU, not relu; "inverse" a matrix
# inverse, not unique_inverse; "det" a determinant, not detach_copy
LAPACK = frozenset(
    ("linalg", "cholesky", "lu", "svd", "pinv", "pinverse", "inverse", "det", "logdet",
     "slogdet", "triangular", "tensorinv", "tensorsolve", "eig", "eigvals", "eigh",
     "eigvalsh", "qr", "geqrf", "ormqr", "nuc", "cond", "matrix")
)  # fmt: skip
_NOT_LAPACK = ("unique_inverse", "linalg_cross", "linalg.vecdot", "linalg_vecdot", "matmul_matrix")
# Entries whose results or gradients read singular vectors or eigenvectors one by one (whole
# words, as LAPACK's). Where two singular values or eigenvalues are equal to rounding (a
# matrix of repeated values, as expand and reshape make), the vectors of that value are any
# basis of its subspace: LAPACK's choice, which its build's rounding makes (MKL's against
# OpenBLAS's), and so is every gradient that weighs them apart. Steps of these entries
# whose matrix has such a tie are skipped, as a singular one's.
# cond reads singular values only, but its second order reads their vectors (svdvals'
# backward is U diag(g) V^H).
SPECTRAL_VECTORS = frozenset(("svd", "svdvals", "eig", "eigh", "eigvals", "eigvalsh", "cond"))

# An FFT of non-finite input: every output sums every input, and where an infinity meets
# another or an exactly zero twiddle factor, the order of the butterflies decides whether an
# output is NaN, ±inf or finite (inf - inf, inf * 0). torch's answer there is its FFT
# library's (MKL on x86 builds, pocketfft on others), not the transform's: steps of these
# entries with a NaN or infinite input are skipped, as LAPACK's are, and so are those whose
# finite input may sum past the dtype's range (a partial sum overflows to an infinity in
# the butterflies, as nan_to_num's 1.8e308 do). So are those with an empty input: MKL
# refuses an empty batch of transforms ("DFTI ERROR: Inconsistent configuration
# parameters") where pocketfft returns the empty result. The shifts only move values and
# stay.
SPECTRAL = ("fft.", "stft", "istft")


# A matrix product whose elementwise products overflow: whether an output is inf or NaN is
# the BLAS kernel's, not the product's. NumPy's OpenBLAS fuses each multiply-add (the exact
# product of 1.8e308 and 6.2 added to an accumulated inf stays inf) where torch's kernels
# round it first (-inf, so inf - inf is NaN), and torch's own 1x4 @ 4x1 (a dot) and 2x4 @ 4x1
# (a gemm) differ there. Steps of these entries (whole words of the name, as LAPACK's) whose
# two largest finite magnitudes multiply past the dtype's range are skipped, as LAPACK's.
PRODUCTS = frozenset(
    ("mm", "bmm", "addmm", "addbmm", "baddbmm", "mv", "addmv", "matmul", "dot", "vdot",
     "inner", "einsum", "tensordot", "chain")
)  # fmt: skip

# The sign bit of a NaN is the platform's: x86 hardware makes 0 * inf and inf - inf a
# negative NaN, ARM a positive one, and torch's vectorized log or sqrt of a negative number
# gives a positive NaN where NumPy's gives a negative one. copysign reads that bit, so steps
# of these entries whose sign operand holds a NaN are skipped (in both libraries).
READS_NAN_SIGN = ("copysign",)


# torch 2.13's CPU median and nanmedian along a dim read the wrong memory when that dim has
# stride 0 (an expanded input): torch.median(torch.tensor([1., 5., 3.]).expand(4, 3), 0)
# gives [1, 2e-42, 0]. Their inputs are made contiguous (in both libraries) before the call.
MISREAD_EXPANDED = ("median_dim", "median_keepdim", "nanmedian_dim")

# torch's mean-reduced losses (mse_loss, smooth_l1_loss) return their 0-d result on the
# input-sized storage of their elementwise buffer: torch.nn.functional.mse_loss(x, y)
# .untyped_storage().nbytes() is x's, and past the result's one element lies scratch (here
# 0 or 4.7e-310, from run to run). An as_strided of such a tensor (or of a view of it)
# past its base's elements reads that undefined memory where numtorch's one-element
# storage refuses: steps of these entries on a tensor whose storage outgrows its base's
# elements are skipped (torch's is the only one that can).
READS_STORAGE = (
    "as_strided", "as_strided_", "as_strided_of_view", "as_strided_copy", "as_strided_scatter",
)  # fmt: skip

# torch 2.13's _pdist_backward crashes the process (SIGSEGV) for an input with no rows and
# some columns: torch.pdist(torch.empty(0, 3, requires_grad=True)).sum().backward(). Steps of
# these entries with such an input are skipped (in both libraries).
CRASHES_WITHOUT_ROWS = ("pdist",)

# torch 2.13's linalg.lstsq with the gelsd or gelss driver hands MKL a right-hand side
# without columns that it refuses: gelsd ends in an INTERNAL ASSERT, gelss in SIGSEGV
# (torch.linalg.lstsq(torch.randn(4, 2), torch.empty(4, 0), driver="gelsd")). Steps of these
# drivers on such a right-hand side are skipped (in both libraries).
NO_RHS_CRASHES = ("gelsd", "gelss")

# torch 2.13's CPU batch-norm kernels read weight and bias per channel through their data
# pointers, unchecked: strides are ignored (an expanded weight's channel 1 lies past its one
# element) and native_batch_norm does not check their sizes (a 1-element weight is read past
# its end); torch.native_batch_norm(x, torch.tensor(2.), None, None, None, True, 0.1, 1e-5)
# gives ~1e97 in channel 1. These entries' per-channel inputs are made contiguous (in both
# libraries); a native_batch_norm step where one holds neither one element per channel nor
# none (read as absent) is skipped (the others check the sizes and raise).
UNCHECKED_CHANNELS = (
    "batch_norm", "batch_norm_eval", "torch.batch_norm", "torch.batch_norm_eval",
    "torch.native_batch_norm",
)  # fmt: skip
UNCHECKED_SIZES = ("torch.native_batch_norm",)

VIEWS = ("whole", "select", "slice", "transpose", "flatten", "diagonal", "unsqueeze", "expand")
FITS = ("reshape", "expand")
SHAPES = ("sample", "sample", "sample", "sample", "sample", "sample", "scalar", "empty")


def is_float_input(value) -> bool:
    """The sample values that become tensors requiring grad (as the op tests treat them)."""
    return isinstance(value, (np.ndarray, np.floating)) and np.asarray(value).dtype.kind == "f"


@functools.cache
def catalog():
    """The usable entries (name, float-input count of each sample) and the in-place methods
    derived from the entry names: ``name_`` for every entry ``name`` whose tensor method
    exists, unary or binary by which call numtorch accepts on a probe."""
    ops, unary, binary = [], [], []
    for info in OP_DB:
        if info.name in EXCLUDED:
            continue
        samples = info.samples(np.random.default_rng(0))
        if samples:
            ops.append((info.name, tuple(sum(map(is_float_input, s.args)) for s in samples)))
        method = info.name + "_"
        if method in RANDOM_METHODS or not hasattr(numtorch.Tensor, method):
            continue
        arity = _arity(method)
        if arity is not None and method not in unary + binary:
            (unary if arity == 0 else binary).append(method)
    return tuple(ops), tuple(unary), tuple(binary)


def _arity(method):
    probe = numtorch.linspace(0.1, 0.9, 6, dtype=numtorch.float64).reshape(2, 3)
    for args in ((), (probe.flip(0),)):
        try:
            getattr(probe.clone(), method)(*args)
        except (TypeError, RuntimeError, ValueError, IndexError):
            continue
        return len(args)
    return None


def uses_lapack(name: str) -> bool:
    words = name.replace(".", "_").split("_")
    return not name.startswith(_NOT_LAPACK) and any(word in LAPACK for word in words)


def reads_spectral_vectors(name: str) -> bool:
    return any(word in SPECTRAL_VECTORS for word in name.replace(".", "_").split("_"))


def uses_blas(name: str) -> bool:
    return any(word in PRODUCTS for word in name.replace(".", "_").split("_"))


def uses_fft(name: str) -> bool:
    return name.startswith(SPECTRAL) and "shift" not in name


@functools.cache
def op_index():
    return {info.name: info for info in OP_DB}


class RandomChoices:
    """Choices from a NumPy generator."""

    def __init__(self, seed: int):
        self.rng = np.random.default_rng(seed)

    def integer(self, lo: int, hi: int) -> int:
        return int(self.rng.integers(lo, hi + 1))

    def chance(self, p: float) -> bool:
        return bool(self.rng.random() < p)


class DrawnChoices:
    """Choices drawn by Hypothesis; every choice shrinks towards 0 / False."""

    def __init__(self, draw):
        self.draw = draw

    def integer(self, lo: int, hi: int) -> int:
        return self.draw(st.integers(lo, hi))

    def chance(self, p: float) -> bool:
        return self.draw(st.integers(0, 999)) >= 1000 - int(p * 1000)


def pick(choices, seq):
    return seq[choices.integer(0, len(seq) - 1)]


def build_program(choices, min_steps: int = 4, max_steps: int = 14) -> dict:
    ops, unary, binary = catalog()
    dtype = pick(choices, ("float64", "float32", "mixed"))
    program = {"dtype": dtype, "seed": choices.integer(0, 2**31 - 1), "steps": []}
    for produced in range(choices.integer(min_steps, max_steps)):  # steps that can feed this
        if produced and choices.chance(0.2):
            method = pick(choices, unary + binary)
            step = {
                "kind": "inplace",
                "method": method,
                "target": choices.integer(0, 3),
                "view": pick(choices, VIEWS),
                "seed": choices.integer(0, 2**31 - 1),
            }
            if method in binary:
                step["other"] = pick(choices, ("same", "same", "last", "scalar", "number"))
                step["special"] = choices.chance(0.15)
        else:
            name, counts = pick(choices, ops)
            sample = choices.integer(0, len(counts) - 1)
            fresh = name.startswith(FRESH_ONLY + RANDOM)
            whole = name.startswith(SAMPLE_SHAPES_ONLY)
            inputs = [_input(choices, dtype, produced, fresh, whole) for _ in range(counts[sample])]
            step = {"kind": "op", "op": name, "sample": sample, "inputs": inputs}
            step["seed"] = choices.integer(0, 2**31 - 1)
        program["steps"].append(step)
    return program


def _input(choices, dtype, produced, fresh, whole=False) -> dict:
    leaf_dtype = dtype if dtype != "mixed" else pick(choices, ("float64", "float32"))
    spec = {
        "dtype": leaf_dtype,
        "grad": not choices.chance(0.1),
        "shape": pick(choices, SHAPES) if choices.chance(0.25) else "sample",
        "special": choices.chance(0.15) and not fresh,
    }
    if whole:  # drawn all the same, so the rest of the graph is unchanged
        spec["shape"] = "sample"
    if produced and not fresh and choices.chance(0.6):
        spec["ref"] = choices.integer(0, 3)
        spec["fit"] = pick(choices, FITS)
    return spec


def programs():
    """A Hypothesis strategy of programs."""
    return st.composite(lambda draw: build_program(DrawnChoices(draw)))()


def program_for(seed: int, index: int) -> dict:
    """Graph ``index`` of campaign ``seed`` (each graph has its own generator)."""
    return build_program(RandomChoices([seed, index]))
