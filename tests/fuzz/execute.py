"""Running a program (see ``graphs``) under one library, recording what torch code can see.

Every step yields a ``Record``: the exception it raised, or the shape, dtype, values,
``requires_grad`` and ``grad_fn`` name of each tensor it returned. After the steps come
three gradient phases on a weighted sum of every result that requires grad: ``backward``
(the leaves' ``.grad``), ``grad`` (``autograd.grad`` with ``create_graph=True``) and
``grad2`` (the gradient of a weighted sum of those gradients: second order).
"""

from __future__ import annotations

import math
import os
import traceback
import warnings
from dataclasses import dataclass, field

import numpy as np

from .graphs import (
    CRASHES_WITHOUT_ROWS,
    MISREAD_EXPANDED,
    NO_RHS_CRASHES,
    READS_NAN_SIGN,
    READS_STORAGE,
    UNCHECKED_CHANNELS,
    UNCHECKED_SIZES,
    is_float_input,
    op_index,
    reads_spectral_vectors,
    uses_blas,
    uses_fft,
    uses_lapack,
)

# The exception types torch raises at its boundary; anything else from numtorch is a crash.
TORCH_ERRORS = (RuntimeError, ValueError, TypeError, IndexError, NotImplementedError)
SPECIAL_VALUES = (math.nan, math.inf, -math.inf, 0.0, -0.0)
_NUMPY_DIR = os.path.dirname(np.__file__)


@dataclass
class Record:
    label: str
    error: str | None = None  # the builtin base of the exception's type
    error_detail: str = ""
    crash: bool = False  # an exception from inside NumPy, or of a type torch never raises
    tensors: list = field(default_factory=list)  # dicts, or None for a missing gradient
    others: list = field(default_factory=list)  # non-tensor results (numbers, shapes)
    compare_names: bool = True
    skipped: bool = False  # LAPACK or an FFT on non-finite input (graphs.LAPACK, SPECTRAL)


class Skipped(Exception):
    pass


def execute(lib, program: dict, dtype: str | None = None, moved: float = 0.0) -> list[Record]:
    """Run ``program`` under ``lib``; ``dtype`` overrides every leaf's dtype (the float64
    rerun that tells float32 rounding from a real difference); ``moved`` scales every leaf
    by 1 + moved (signs, order, ties, zeros and non-finite values stay; the digits move)."""
    run = _Run(lib, program, dtype, moved)
    _run_all(run, lib, program)
    run.records.append(Record(GLOBAL_STATE, others=global_state(lib), compare_names=False))
    return run.records


def _run_all(run, lib, program: dict) -> None:
    """Every step of ``program`` and its gradient phases, NumPy's and torch's warnings off."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with np.errstate(all="ignore"):
            lib.manual_seed(program["seed"])
            for step in program["steps"]:
                run.step(step)
            run.gradients()


GLOBAL_STATE = "global state"
PHASES = ("loss", "backward", "grad", "grad2")


def nonfinite_into_fft(lib, program: dict, dtype: str | None) -> bool:
    """Whether a gradient phase of ``program`` under ``lib`` hands an FFT step's backward a
    NaN or an infinity (a hook on each FFT result's node watches what reaches it)."""
    run = _Run(lib, program, dtype)
    run.watch_fft = True
    _run_all(run, lib, program)
    return run.fft_saw_nonfinite


def results_before(lib, program: dict, dtype: str | None, stop: int) -> list:
    """The floating results (in the order later steps refer to them) once the first
    ``stop`` steps of ``program`` have run under ``lib``: (label of the step that made
    it, values) pairs."""
    run = _Run(lib, program, dtype)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with np.errstate(all="ignore"):
            lib.manual_seed(program["seed"])
            for step in program["steps"][:stop]:
                run.step(step)
    return [(label, _values_of(t)) for label, t in zip(run.pool_labels, run.pool)]


def step_given(lib, program: dict, dtype: str | None, stop: int, values: list) -> Record | None:
    """Step ``stop`` of ``program`` (the loss where ``stop`` is past the steps) run under
    ``lib`` after the earlier steps, with their floating results overwritten by ``values``
    (the other library's, from ``results_before``): how ``lib`` computes that step from the
    very inputs the other library had. None where a result that differs cannot be
    overwritten (an expanded view, a result the other library does not have)."""
    run = _Run(lib, program, dtype)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with np.errstate(all="ignore"):
            lib.manual_seed(program["seed"])
            for step in program["steps"][:stop]:
                run.step(step)
            if len(run.pool) != len(values):
                return None
            try:
                with lib.no_grad():
                    for tensor, array in zip(run.pool, values):
                        if not same_values(_values_of(tensor), array):
                            tensor.copy_(lib.tensor(array, dtype=tensor.dtype))
            except Exception:  # an expanded or overlapping result: not comparable this way
                return None
            if stop < len(program["steps"]):
                run.step(program["steps"][stop])
            else:
                run.gradients(loss_only=True)
    return run.records[-1] if run.records else None


def same_values(a, b) -> bool:
    """Whether two arrays hold the same values, NaN where NaN is and the sign of each zero
    (a later reciprocal or digamma tells -0.0 from 0.0)."""
    if not np.array_equal(a, b, equal_nan=True):
        return False
    return a.dtype.kind not in "fc" or bool(
        (np.signbit(a.real) == np.signbit(b.real)).all()
        and (np.signbit(a.imag) == np.signbit(b.imag)).all()
    )


def _values_of(tensor):
    values = tensor.detach()
    if values.is_conj():
        values = values.resolve_conj()
    if getattr(values, "_is_zerotensor", lambda: False)():
        # torch's efficient zero tensor (the gradient of sgn_ on a real tensor): reading a
        # view of one with a storage offset (diag's backward) past its storage crashes
        # torch 2.13 (a segmentation fault in numpy(force=True)); its values are all 0
        values = values.new_zeros(values.shape)
    return np.array(values.numpy(force=True), copy=True)


def global_state(lib) -> list:
    """The process-wide settings a program could leave changed for the next one (each
    program starts from the defaults, so after it they must be the defaults again)."""
    engine = getattr(lib.autograd, "engine", None)  # numtorch's: whether a backward runs
    saved = getattr(lib.autograd, "saved", None)  # numtorch's saved-tensor hooks stack
    return [
        ("grad enabled", lib.is_grad_enabled()),
        ("inference mode", lib.is_inference_mode_enabled()),
        ("default dtype", str(lib.get_default_dtype())),
        ("anomaly mode", lib.is_anomaly_enabled(), lib.is_anomaly_check_nan_enabled()),
        ("deterministic", lib.are_deterministic_algorithms_enabled()),
        ("backward running", bool(getattr(engine, "current_run", lambda: 0)())),
        ("saved tensor hooks", len(getattr(getattr(saved, "_hook_state", None), "stack", ()))),
    ]


class _Run:
    def __init__(self, lib, program, dtype, moved=0.0):
        self.lib, self.program, self.dtype = lib, program, dtype
        self.moved = moved
        self.watch_fft, self.fft_saw_nonfinite = False, False
        self.pool = []  # floating results, newest last
        self.pool_labels = []  # the step that made each
        self.leaves = []
        self.records = []
        # the records (by index) that raised in both runs of the original program: a float64
        # rerun raises there too, after making the step's inputs (compare.differential)
        self.raises = frozenset(program.get("raises", ()))

    def step(self, step):
        if step["kind"] == "op":
            label, call = step["op"], lambda: self.run_op(step)
        else:
            label, call = step["method"], lambda: self.run_inplace(step)
        record = self.attempt(label, call)
        if step["kind"] == "op":
            record.compare_names = op_index()[label].torch_grad_fn
        if record.error is None and not record.skipped:
            floating = [t["tensor"] for t in record.tensors if t["floating"]]
            self.pool.extend(floating)
            self.pool_labels.extend([label] * len(floating))
            if self.watch_fft and step["kind"] == "op" and uses_fft(label):
                # on the node, not the tensor: an in-place op on the result later moves the
                # tensor to a new node, and the FFT's backward still gets the old one's. A
                # real view of a complex transform (view_as_real) is hooked on its base's
                # node too: an in-place op through a view of the view writes into that base,
                # whose gradient then reaches the transform past the view's node
                for t in record.tensors:
                    tensor = t["tensor"]
                    nodes = {tensor.grad_fn}
                    if tensor._base is not None:
                        nodes.add(tensor._base.grad_fn)
                    for node in nodes - {None}:
                        node.register_prehook(self._watch)

    def _watch(self, grads):
        if any(g is not None and not bool(self.lib.isfinite(g).all()) for g in grads):
            self.fft_saw_nonfinite = True

    def attempt(self, label, call) -> Record:
        record = Record(label)
        try:
            if label in PHASES:
                self.raise_as_originally()
            result = call()
        except Skipped:
            record.skipped = True
            self.records.append(record)
            return record
        except Exception as exc:  # recorded, compared by type with the other library
            _record_error(record, exc)
        else:
            for value in _flatten(result):
                if isinstance(value, self.lib.Tensor):
                    record.tensors.append(_describe(value))
                else:
                    record.others.append(_plain(value))
        self.records.append(record)
        return record

    # --- steps

    def run_op(self, step):
        info = op_index()[step["op"]]
        samples = info.samples(np.random.default_rng(step["seed"]))
        sample = samples[step["sample"] % len(samples)]
        specs = iter(step["inputs"])
        rng = np.random.default_rng([step["seed"], 1])
        args = [self.input(a, next(specs), rng) if is_float_input(a) else a for a in sample.args]
        lower = "ldl" in info.name.split("_")
        if uses_lapack(info.name) and not all(_finite(a) and _full_rank(a, lower) for a in args):
            raise Skipped
        words = info.name.replace(".", "_").split("_")
        if "lu" in words and any(_pivots_tie(a) for a in args):
            raise Skipped
        if reads_spectral_vectors(info.name) and any(_spectrum_ties(a) for a in args):
            raise Skipped
        if {"qr", "geqrf"} & set(words) and any(_reflector_vanishes(a) for a in args):
            raise Skipped
        if {"cholesky", "inverse"} <= set(words) and not _factor_conditioned(args[0]):
            raise Skipped
        if uses_blas(info.name) and _products_overflow(args):
            raise Skipped
        if uses_fft(info.name) and not all(
            _finite(a) and not _empty(a) and not _sum_overflows(a) for a in args
        ):
            raise Skipped
        if info.name in READS_NAN_SIGN and len(args) > 1 and not _no_nan(args[1]):
            raise Skipped
        if info.name in CRASHES_WITHOUT_ROWS and any(_no_rows(a) for a in args):
            raise Skipped  # a torch crash, not a difference (see graphs)
        if info.name in READS_STORAGE and any(_scratch_storage(a) for a in args):
            raise Skipped  # undefined values (see graphs)
        if sample.kwargs.get("driver") in NO_RHS_CRASHES and _no_columns(args[1]):
            raise Skipped  # likewise
        if info.name in MISREAD_EXPANDED:  # a torch bug, not a difference (see graphs)
            args = [a.contiguous() if isinstance(a, self.lib.Tensor) else a for a in args]
        if info.name in UNCHECKED_CHANNELS:  # torch reads undefined memory (see graphs)
            args = _per_channel_contiguous(self.lib, args, info.name in UNCHECKED_SIZES)
        self.raise_as_originally()
        return info.op(self.lib, *args, **sample.kwargs)

    def raise_as_originally(self):
        if len(self.records) in self.raises:
            raise RuntimeError("raised in the run of the original dtypes")

    def input(self, array, spec, rng):
        array = np.asarray(array)
        if "ref" in spec and self.pool:
            fitted = _fit(self.pool[-1 - spec["ref"] % len(self.pool)], array.shape, spec["fit"])
            if fitted is not None:
                return fitted
        return self.leaf(_shaped(array, spec["shape"], rng), spec, rng)

    def leaf(self, array, spec, rng):
        if spec["special"] and array.size:
            array = array.copy()
            where = rng.choice(array.size, size=rng.integers(1, max(1, array.size // 3) + 1))
            array.reshape(-1)[where] = rng.choice(SPECIAL_VALUES, size=where.size)
        if self.moved and array.dtype.kind == "f":
            array = array * (1 + self.moved)
        dtype = getattr(self.lib, self.dtype or spec["dtype"])
        tensor = self.lib.tensor(array, dtype=dtype).requires_grad_(spec["grad"])
        if spec["grad"]:
            self.leaves.append(tensor)
        return tensor

    def run_inplace(self, step):
        if not self.pool:
            raise LookupError("no earlier result")  # cannot happen: graphs checks
        view = _view(self.pool[-1 - step["target"] % len(self.pool)], step["view"])
        if _self_overlapping(view):
            raise Skipped
        rng = np.random.default_rng(step["seed"])
        args = []
        if "other" in step:
            shape = {"same": view.shape, "last": view.shape[-1:], "scalar": ()}
            if step["other"] == "number":
                args.append(float(rng.choice((0.5, -1.5, 2.0))))
            else:
                spec = {"dtype": str(view.dtype).split(".")[-1], "grad": True}
                spec["special"] = step["special"]
                values = rng.standard_normal(tuple(shape[step["other"]]))
                args.append(self.leaf(values, spec, rng))
        self.raise_as_originally()
        return getattr(view, step["method"])(*args)

    # --- gradient phases

    def gradients(self, loss_only=False):
        lib = self.lib
        rng = np.random.default_rng([self.program["seed"], 2])
        terms = [t for t in self.pool if t.requires_grad and not t.is_complex()]
        if not terms or not self.leaves:
            return
        loss_record = self.attempt("loss", lambda: _weighted_sum(lib, terms, rng))
        if loss_only:
            return
        if loss_record.error is not None:
            return
        loss = loss_record.tensors[0]["tensor"]
        leaves = self.leaves

        def backward():
            loss.backward(retain_graph=True)
            return [leaf.grad for leaf in leaves]

        self.attempt("backward", backward)
        grads = self.attempt(
            "grad",
            lambda: lib.autograd.grad(loss, leaves, create_graph=True, allow_unused=True),
        )
        if grads.error is not None:
            return
        firsts = [g["tensor"] for g in grads.tensors if g is not None]
        firsts = [g for g in firsts if g.requires_grad and not g.is_complex()]
        if firsts:
            rng2 = np.random.default_rng([self.program["seed"], 3])
            self.attempt(
                "grad2",
                lambda: lib.autograd.grad(
                    _weighted_sum(lib, firsts, rng2), leaves, allow_unused=True
                ),
            )
        for record in self.records[-3:]:
            record.compare_names = False  # gradients' own graphs are formulas, not API


def _per_channel_contiguous(lib, args, unchecked_sizes):
    input, *rest = args
    for a in rest:
        sizes = (input.shape[1], 0) if input.ndim > 1 else (a.numel(),)
        if unchecked_sizes and isinstance(a, lib.Tensor) and a.numel() not in sizes:
            raise Skipped
    return [input] + [a.contiguous() if isinstance(a, lib.Tensor) else a for a in rest]


def _self_overlapping(view) -> bool:
    """Whether elements of ``view`` share memory where torch's overlap check lets a write
    through (no dim of stride 0 and size above 1, which torch refuses, and numtorch with
    it): an overlapping as_strided view. torch's kernel then reads elements that it has
    already written, in its own loop order (vectorized or not): the result is what its
    documentation calls incorrect behaviour, defined by no semantics to compare with."""
    shape, strides = tuple(view.shape), view.stride()
    if view.numel() < 2 or any(st == 0 and n > 1 for n, st in zip(shape, strides)):
        return False
    offsets = {0}
    for n, stride in zip(shape, strides):
        offsets = {o + k * stride for o in offsets for k in range(n)}
    return len(offsets) < view.numel()


def _finite(value) -> bool:
    if not hasattr(value, "is_floating_point") or not value.is_floating_point():
        return True
    return bool(np.isfinite(value.detach().numpy(force=True)).all())


def _no_nan(value) -> bool:
    """Whether a floating tensor holds no NaN."""
    if not hasattr(value, "is_floating_point") or not value.is_floating_point():
        return True
    return not bool(np.isnan(value.detach().numpy(force=True)).any())


def _sum_overflows(value) -> bool:
    """Whether twice the sum of ``value``'s magnitudes (a bound of every partial sum of an
    FFT of it, Hermitian halves included) passes its dtype's range."""
    if not hasattr(value, "is_floating_point") or not (
        value.is_floating_point() or value.is_complex()
    ):
        return False
    array = value.detach().numpy(force=True)
    return bool(2 * np.abs(array.astype(np.complex128)).sum() > np.finfo(array.dtype).max)


def _products_overflow(args) -> bool:
    """Whether the largest finite magnitudes of two of ``args`` multiply past their dtype's
    range (see graphs.PRODUCTS)."""
    largest, top = [], np.inf
    for a in args:
        if hasattr(a, "is_floating_point") and a.is_floating_point() and a.numel():
            values = np.abs(a.detach().numpy(force=True))
            finite = values[np.isfinite(values)]
            largest.append(float(finite.max()) if finite.size else 0.0)
            top = min(top, float(np.finfo(values.dtype).max))
    largest.sort()
    return len(largest) > 1 and largest[-1] * largest[-2] > top


def _scratch_storage(value) -> bool:
    """Whether ``value``'s storage holds more than its base's elements reach."""
    if not hasattr(value, "untyped_storage") or str(value.layout) != "torch.strided":
        return False
    base = value if value._base is None else value._base
    extent = base.storage_offset() + 1 if base.numel() else 0
    extent += sum((n - 1) * st for n, st in zip(base.shape, base.stride()) if n)
    return value.untyped_storage().nbytes() > extent * value.element_size()


def _no_rows(value) -> bool:
    shape = getattr(value, "shape", ())
    return len(shape) >= 2 and shape[-2] == 0 and shape[-1] != 0


def _no_columns(value) -> bool:
    shape = getattr(value, "shape", ())
    return len(shape) >= 2 and shape[-1] == 0


def _empty(value) -> bool:
    return hasattr(value, "numel") and value.numel() == 0


def _full_rank(value, lower: bool = False) -> bool:
    """Whether every matrix (the last two dims) of a floating tensor is numerically of full
    rank: its smallest singular value above its largest times max(m, n) times the dtype's
    epsilon, where rounding noise ends (see graphs.LAPACK). A tensor of more dims that holds
    n * n values is also taken as that n x n matrix: tensorinv and tensorsolve see it so. A
    wide m x n matrix also needs its first m columns independent: LU and QR factor column by
    column, and a pivot there is mathematically 0 (rounding noise) even at full rank. With
    ``lower`` (the LDL factorization reads only the lower triangle) a square matrix is also
    taken as the symmetric one its lower triangle makes: a full-rank matrix can have a
    singular one (repeated values), whose zero pivot is rounding noise all the same."""
    if not hasattr(value, "is_floating_point") or not value.is_floating_point():
        return True
    if value.ndim < 2 or min(value.shape[-2:]) < 2 or value.numel() == 0:
        return True
    array = value.detach().numpy(force=True)
    matrices = [array]
    side = math.isqrt(array.size)
    if array.ndim > 2 and side * side == array.size:
        matrices.append(array.reshape(side, side))
    if array.shape[-1] > array.shape[-2]:
        matrices.append(array[..., : array.shape[-2]])
    if lower and array.shape[-1] == array.shape[-2]:
        below = np.tril(array, -1)
        matrices.append(below + np.swapaxes(below, -1, -2) + np.tril(np.triu(array)))
    for matrix in matrices:
        singular = np.linalg.svd(matrix.astype(np.float64), compute_uv=False)
        floor = singular[..., :1] * max(matrix.shape[-2:]) * np.finfo(array.dtype).eps
        if not (singular[..., -1:] > floor).all():
            return False
    return True


def _pivots_tie(value) -> bool:
    """Whether partial pivoting meets two candidates of equal magnitude, to rounding, in a
    matrix (the last two dims) of a floating tensor: which row LAPACK swaps up (and so every
    factor) is then its rounding's choice (MKL's for torch, OpenBLAS's for NumPy), as with
    a repeated row magnitude the fuzzer's repeated values make."""
    if not hasattr(value, "is_floating_point") or not value.is_floating_point():
        return False
    if value.ndim < 2 or value.numel() == 0:
        return False
    array = value.detach().numpy(force=True).astype(np.float64)
    tolerance = 1e3 * max(array.shape[-2:]) * np.finfo(value.detach().numpy().dtype).eps
    for matrix in array.reshape(-1, *array.shape[-2:]):
        matrix = matrix.copy()
        for k in range(min(matrix.shape) - 1):
            column = np.abs(matrix[k:, k])
            order = np.argsort(-column, kind="stable")
            if (
                len(order) > 1
                and column[order[0]] - column[order[1]] <= tolerance * column[order[0]]
            ):
                return True
            pivot = k + order[0]
            matrix[[k, pivot]] = matrix[[pivot, k]]
            if matrix[k, k] != 0:
                matrix[k + 1 :] -= np.outer(matrix[k + 1 :, k] / matrix[k, k], matrix[k])
    return False


def _factor_conditioned(value) -> bool:
    """Whether ``(L L^H)^-1`` from a Cholesky factor (the last two dims) of a floating tensor
    is defined to the dtype's precision: cholesky_inverse reads one triangle only, whose
    condition number (a small diagonal under large entries, as repeated values put there)
    can be far from the whole matrix's that ``_full_rank`` sees, and the product squares
    it. Either triangle is taken (``upper=`` picks one)."""
    if not hasattr(value, "is_floating_point") or not value.is_floating_point():
        return True
    if value.ndim < 2 or value.shape[-1] != value.shape[-2] or value.numel() == 0:
        return True
    array = value.detach().numpy(force=True)
    floor = math.sqrt(array.shape[-1] * np.finfo(array.dtype).eps)
    for triangle in (np.tril(array), np.triu(array)):
        singular = np.linalg.svd(triangle.astype(np.complex128), compute_uv=False)
        if not (singular[..., -1:] > floor * singular[..., :1]).all():
            return False
    return True


def _reflector_vanishes(value) -> bool:
    """Whether Householder QR (geqrf, which torch's qr runs) of a matrix (the last two dims)
    of a floating tensor meets, past its first column, a column whose part below the
    diagonal is zero to rounding: LAPACK's reflector is the identity (tau 0) where that part
    is exactly 0 and a reflection (tau 2, the row's sign flipped) where rounding left any
    number in it, which the earlier reflections' arithmetic decides (MKL's for torch,
    OpenBLAS's for NumPy), as with the proportional rows of powers vander and repeated
    values make."""
    if not hasattr(value, "is_floating_point") or not value.is_floating_point():
        return False
    if value.ndim < 2 or value.numel() == 0:
        return False
    array = value.detach().numpy(force=True)
    tolerance = 1e3 * max(array.shape[-2:]) * np.finfo(array.dtype).eps
    rows, columns = array.shape[-2:]
    for matrix in array.astype(np.float64).reshape(-1, rows, columns):
        scale = np.abs(matrix).max()
        if not np.isfinite(scale) or scale == 0:
            continue
        r, reflected = matrix.copy(), False  # (untouched columns hold the input's zeros)
        for k in range(min(rows - 1, columns)):
            below = np.linalg.norm(r[k + 1 :, k])
            if reflected and below <= tolerance * scale:
                return True
            if below == 0:
                continue
            reflected = True
            alpha = r[k, k]
            beta = -math.copysign(math.hypot(alpha, below), alpha)
            v = np.concatenate([[1.0], r[k + 1 :, k] / (alpha - beta)])
            r[k:, k:] -= ((beta - alpha) / beta) * np.outer(v, v @ r[k:, k:])
    return False


def _spectrum_ties(value) -> bool:
    """Whether a matrix (the last two dims) of a floating tensor has two singular values, or
    (square) two eigenvalues, equal to rounding (see graphs.SPECTRAL_VECTORS); a square one
    is also taken as the symmetric ``a + a^T`` the eigh entries decompose."""
    if not hasattr(value, "is_floating_point") or not value.is_floating_point():
        return False
    if value.ndim < 2 or min(value.shape[-2:]) < 2 or value.numel() == 0:
        return False
    array = value.detach().numpy(force=True)
    tolerance = 1e3 * max(array.shape[-2:]) * np.finfo(array.dtype).eps
    array = array.astype(np.float64)
    spectra = [np.linalg.svd(array, compute_uv=False)]
    if array.shape[-1] == array.shape[-2]:
        spectra.append(np.linalg.eigvalsh(array + np.swapaxes(array, -1, -2)))
        spectra.append(np.sort_complex(np.linalg.eigvals(array)))
    for spectrum in spectra:
        scale = np.abs(spectrum).max(axis=-1, keepdims=True)
        # neighbours in sorted order: eigvals' complex ones by real part, then imaginary
        gaps = np.abs(np.diff(np.sort(spectrum, axis=-1), axis=-1))
        if (gaps <= tolerance * scale).any():
            return True
    return False


def _weighted_sum(lib, tensors, rng):
    total = None
    for t in tensors:
        weight = lib.tensor(rng.standard_normal(tuple(t.shape)), dtype=t.dtype)
        term = (t * weight).sum()
        total = term if total is None else total + term
    return total


def _fit(tensor, shape, how):
    """``tensor`` as a tensor of ``shape``: itself, broadcast, or its flat values."""
    if tuple(tensor.shape) == tuple(shape):
        return tensor
    if how == "expand":
        try:
            if np.broadcast_shapes(tuple(tensor.shape), shape) == tuple(shape):
                return tensor.expand(*shape)
        except ValueError:
            pass
    size, have = math.prod(shape), tensor.numel()
    if have == 0:
        return None
    flat = tensor.reshape(-1)
    if have < size:
        flat = flat.repeat(-(-size // have))
    return flat[:size].reshape(*shape) if shape else flat[0]


def _shaped(array, how, rng):
    if how == "scalar":
        return array.reshape(-1)[:1].reshape(()) if array.size else np.zeros(())
    if how == "empty":
        if not array.ndim:
            return np.zeros((0,))
        return np.take(array, [], axis=int(rng.integers(array.ndim)))
    return array


def _view(tensor, how):
    if how == "select":
        return tensor[0]
    if how == "slice":
        return tensor[..., 1:]
    if how == "transpose":
        return tensor.transpose(0, -1)
    if how == "flatten":
        return tensor.view(-1)
    if how == "diagonal":
        return tensor.diagonal()
    if how == "unsqueeze":
        return tensor.unsqueeze(0)
    if how == "expand":
        return tensor.unsqueeze(0).expand(2, *tensor.shape)
    return tensor


def _flatten(value):
    if isinstance(value, (tuple, list)):
        for v in value:
            yield from _flatten(v)
    else:
        yield value


def _describe(tensor):
    if tensor is None:
        return None
    try:
        node = tensor.grad_fn
    except RuntimeError as exc:  # a stale view of a multi-view op refuses a new grad_fn
        node = exc
    return {
        "tensor": tensor,
        "shape": tuple(tensor.shape),
        "dtype": str(tensor.dtype).split(".")[-1],
        "values": _values_of(tensor),
        "requires_grad": tensor.requires_grad,
        "grad_fn": None if node is None else type(node).__name__,  # RuntimeError: refused
        "floating": tensor.is_floating_point(),
    }


def _plain(value):
    if isinstance(value, (bool, int, float, str, type(None))):
        return value
    if hasattr(value, "__iter__"):
        return tuple(_plain(v) for v in value)
    return type(value).__name__


def _record_error(record, exc):
    record.error = next(
        (base.__name__ for base in type(exc).__mro__ if base.__module__ == "builtins"),
        type(exc).__name__,
    )
    record.error_detail = f"{type(exc).__name__}: {str(exc)[:200]}"
    frames = traceback.extract_tb(exc.__traceback__)
    inside_numpy = bool(frames) and frames[-1].filename.startswith(_NUMPY_DIR)
    record.crash = inside_numpy or not isinstance(exc, TORCH_ERRORS)
