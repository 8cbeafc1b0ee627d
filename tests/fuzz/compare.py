"""Comparing the records of two runs of one program and naming the first difference.

Classes: ``internal crash`` (numtorch raised from inside NumPy or a type torch never
raises), ``error type`` (one library raised and the other did not, or the types differ),
``structure`` (a different number of results or missing gradients), ``shape``, ``dtype``,
``requires_grad``, ``grad_fn name``, ``value`` (forward), ``gradient`` (``backward`` and
``autograd.grad``), ``second order``, ``state leak`` (a process-wide setting the program
left changed: grad mode, default dtype, anomaly mode, saved-tensor hooks...).

Tolerances: float64 results agree to 1e-6 relative (plus 1e-9 of the result's largest
finite magnitude: cancellation leaves noise near zero); float32 to 1e-4, and so is a loss
or gradient of any dtype once a step gave a float32 result (it carries that rounding). A
float32 program whose numbers differ beyond that is run again with every leaf in float64:
when the numbers then agree, the difference was rounding and the program counts as
agreeing (where the rerun takes another path, a mixed-dtype call that raises in one run
only, every value of the original is held to the float32 tolerance instead). The forward
values of the few ops in ``known.COARSE`` (torch's kernel is a coarser approximation) get
that op's own relative tolerance; those in ``known.CANCELLING`` (torch's kernel cancels
catastrophically by design) their own absolute one, scaled as the default is.

A forward difference that remains in float64 (or a shape that depends on values, as
nonzero's) is still rounding when the step only amplified it: every earlier result agrees
within the tolerance (and in the sign of every zero, unless that result has a zero in one
run where the other has rounding noise, or is an FFT's or a LAPACK routine's, whose zeros
take their library's signs, or copies such zeros on; and where NaN and infinities lie)
without being bit for bit the same, and numtorch's step run on torch's very values of
those results agrees with torch's (a log2 of an FFT's rounding noise near 0, a floor of a
value one ulp under an integer). Past that step, what follows sees different numbers by
construction: only the classes values cannot change (error types, dtypes, names,
``requires_grad``) are compared.

So is what follows from the sign of a zero that a min or max reduction kept of two equal
zeros (``known.ZERO_SIGN_CHOICE``: a choice of its SIMD layout, not of the values).

A gradient difference is rounding too where torch's own gradient moves beyond the
tolerance once every leaf is scaled by 1 + 1e-12 (``_ill_conditioned``), and a first- or
second-order one that lies only where a run has NaN or infinities is the FFT library's
where torch's backward hands an FFT step non-finite values (``_fft_places_nonfinite``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .execute import (
    GLOBAL_STATE,
    execute,
    nonfinite_into_fft,
    results_before,
    same_values,
    step_given,
)
from .graphs import uses_fft, uses_lapack
from .known import CANCELLING, COARSE, ZERO_SIGN_CHOICE

NUMERIC = ("value", "gradient", "second order")
# what rounding can change: numbers, a shape that counts values (nonzero), whether a step
# runs at all (LAPACK and FFT steps skip non-finite input)
VALUE_DEPENDENT = (*NUMERIC, "shape", "structure")
TOLERANCES = {"float64": (1e-6, 1e-9), "float32": (1e-4, 1e-5), "float16": (1e-2, 1e-3)}


@dataclass
class Mismatch:
    kind: str
    label: str  # the op, in-place method or gradient phase where the runs first differ
    step: int
    detail: str
    op: str = ""  # the step that makes the shortest failing prefix fail (see ``localize``)


# the phases that combine every result of the program: the loss sums them, the gradients run
# back through every step
COMBINING = ("loss", "backward", "grad", "grad2")


def first_difference(ours, theirs, loosest=None) -> Mismatch | None:
    """The first difference; ``loosest`` (a dtype name) holds every record to that dtype's
    tolerance at least."""
    coarsest = None  # the least precise floating dtype of any step's result so far
    for index, (a, b) in enumerate(zip(ours, theirs)):
        if a.skipped != b.skipped:
            # a LAPACK or FFT step one library skipped: its input was numerically singular
            # (or non-finite) there and differs from the other's by rounding, so the other's
            # factors are that rounding's noise too, and every later step reads them
            return None
        if b.label not in COMBINING:
            coarsest = _coarser(coarsest, b)
        # a float64 loss or gradient that passed through a float32 step (to_float32, a
        # float32 operand in a mixed program) carries that step's rounding: it is compared
        # with the float32 tolerance
        tolerance = _looser(loosest, coarsest if b.label in COMBINING else None)
        found = _compare_record(a, b, tolerance)
        if found is not None:
            kind, detail = found
            return Mismatch(kind, b.label, index, detail)
    if len(ours) != len(theirs):
        label = (ours if len(ours) > len(theirs) else theirs)[min(len(ours), len(theirs))].label
        return Mismatch("structure", label, min(len(ours), len(theirs)), "phases differ")
    return None


def differential(numtorch, torch, program) -> Mismatch | None:
    """The first difference between the two libraries on ``program``, rounding excluded."""
    ours, theirs = _runs(numtorch, torch, program)
    found = first_difference(ours, theirs)
    if found is None:
        return None
    chose = _zero_sign_choice(ours, theirs, found.step)
    if chose is not None:
        return _later(ours, theirs, chose)
    dtype = None
    past = None  # the original records and the step to compare past, where the rerun parts
    if found.kind in NUMERIC and program["dtype"] != "float64":
        dtype = "float64"
        again = _runs(numtorch, torch, program, dtype)
        if _other_path(ours, again[0]) or _other_path(theirs, again[1]):
            # a dtype check fails in the original and passes in float64 (a mixed-dtype
            # call): the rerun raises where both original runs raised, after making that
            # step's inputs, and so runs the original's graph in float64
            raised = [i for i, (a, b) in enumerate(zip(ours, theirs)) if a.error and b.error]
            program = dict(program, raises=raised)
            again = _runs(numtorch, torch, program, dtype)
        if _other_path(ours, again[0]) or _other_path(theirs, again[1]):
            # still another graph from the step that raises in float64 only: past it the
            # rerun cannot tell rounding. Every value may carry the program's float32
            # rounding, so its float32 tolerance judges the original; a difference beyond
            # it before that step is judged by the rerun's records up to there
            loose = first_difference(ours, theirs, loosest="float32")
            parting = min(_parting(ours, again[0]), _parting(theirs, again[1]))
            if loose is None or loose.kind not in NUMERIC:
                return loose
            if loose.step >= parting:
                # no rerun to tell rounding there: a step that only amplified the original's
                # float32 rounding still shows it, run on torch's very inputs
                if _amplified_rounding(numtorch, torch, program, None, loose):
                    return _later(ours, theirs, loose.step)
                return loose
            past = (ours, theirs, loose.step)
            again = (again[0][:parting], again[1][:parting])
        ours, theirs = again
        found = first_difference(ours, theirs)
        if found is None or found.kind not in NUMERIC:
            return _later(*past) if past else None
    elif found.kind not in VALUE_DEPENDENT:
        return found
    if found.kind in ("gradient", "second order"):
        if not (
            _ill_conditioned(torch, program, dtype, found, ours, theirs)
            or _fft_places_nonfinite(torch, program, dtype, found, ours, theirs)
        ):
            return found
    elif not _amplified_rounding(numtorch, torch, program, dtype, found):
        return found
    return _later(*past) if past else _later(ours, theirs, found.step)


def _zero_sign_choice(ours, theirs, before) -> int | None:
    """The first step before ``before`` of a reduction in known.ZERO_SIGN_CHOICE whose
    results differ only in the signs of zeros (the values compared equal there): which of
    two equal zeros such a reduction keeps is its SIMD layout's, so what follows from that
    sign is compared as past a step that amplified rounding (``_later``)."""
    for index in range(min(before, len(ours), len(theirs))):
        a, b = ours[index], theirs[index]
        if b.label not in ZERO_SIGN_CHOICE or a.error or b.error:
            continue
        for x, y in zip(a.tensors, b.tensors):
            if x is None or y is None or x["values"].shape != y["values"].shape:
                continue
            u, v = x["values"], y["values"]
            if u.dtype.kind == "f" and v.dtype.kind == "f" and _zero_signs_differ(u, v):
                return index
    return None


def _later(ours, theirs, step) -> Mismatch | None:
    """Past a step that amplified rounding only what values cannot change is compared, and
    only while both runs hold the same results (a step one skipped, or results of other
    shapes, make later steps take other inputs)."""
    for index in range(step + 1, min(len(ours), len(theirs))):
        later = _compare_record(ours[index], theirs[index])
        if later is not None and later[0] in ("shape", "structure"):
            return None
        if later is not None and later[0] not in NUMERIC:
            return Mismatch(later[0], theirs[index].label, index, later[1])
    return None


def _other_path(records, rerun) -> bool:
    """Whether a float64 rerun took another path: a step raised in one run only."""
    return _parting(records, rerun) < max(len(records), len(rerun))


def _parting(records, rerun) -> int:
    """The first record where a float64 rerun takes another path (raises in one run only)."""
    for index, (a, b) in enumerate(zip(records, rerun)):
        if (a.error is None) != (b.error is None):
            return index
    return min(len(records), len(rerun))


GRADIENT_PHASES = ("backward", "grad", "grad2")


def _runs(numtorch, torch, program, dtype=None):
    """Both libraries' records of ``program``. Where it has an FFT step, an element of a
    gradient that is non-finite in both runs counts as NaN in both: a transform's sums meet
    an infinite gradient through its twiddle factors, and whether a factor of exactly 1 or 0
    is multiplied (inf * 0 is NaN) or skipped as trivial depends on the FFT's plan (pocketfft
    in NumPy, pocketfft or MKL in torch, each with its own radices); the forward steps skip
    non-finite input instead (execute.py)."""
    ours, theirs = execute(numtorch, program, dtype), execute(torch, program, dtype)
    _overflowing_loss(ours, theirs)
    if not any(uses_fft(step.get("op", "")) for step in program["steps"]):
        return ours, theirs
    for a, b in zip(ours, theirs):
        if b.label not in GRADIENT_PHASES or a.error or b.error:
            continue
        for x, y in zip(a.tensors, b.tensors):
            if x is None or y is None or x["values"].shape != y["values"].shape:
                continue
            u, v = x["values"], y["values"]
            if u.dtype.kind not in "fc" or v.dtype.kind not in "fc":
                continue
            both = ~np.isfinite(u) & ~np.isfinite(v)
            if both.any():
                x["values"], y["values"] = np.where(both, np.nan, u), np.where(both, np.nan, v)
    return ours, theirs


def _overflowing_loss(ours, theirs) -> None:
    """A loss that is NaN or infinite in both runs counts as NaN in both. The loss is the
    harness's weighted sum of results compared before it, and its products are elementwise;
    where they sum past the dtype's range (values near its largest, as nan_to_num makes),
    whether a partial sum overflows into an infinity of the other sign (NaN) or not (±inf)
    is the summation order's: torch's vectorized cascade sum splits it across as many
    accumulators as the CPU's SIMD width has lanes, NumPy's pairwise sum in blocks of eight.
    A loss finite in one run only is still a difference."""
    for a, b in zip(ours, theirs):
        if b.label != "loss" or a.label != b.label or a.error or b.error:
            continue
        for x, y in zip(a.tensors, b.tensors):
            u, v = x["values"], y["values"]
            if u.shape == v.shape == () and not np.isfinite(u) and not np.isfinite(v):
                x["values"], y["values"] = (
                    np.full((), np.nan, u.dtype),
                    np.full((), np.nan, v.dtype),
                )


def _amplified_rounding(numtorch, torch, program, dtype, found) -> bool:
    """Whether the forward step ``found`` differs only by amplifying earlier rounding (see
    the module's docstring)."""
    if found.kind not in ("value", "shape") or found.step > len(program["steps"]):
        return False  # gradients: a backward has no inputs to hand over
    ours = results_before(numtorch, program, dtype, found.step)
    theirs = results_before(torch, program, dtype, found.step)
    if len(ours) != len(theirs) or not ours:
        return False
    # each earlier result is held to the tolerance its own step was compared with (a
    # CANCELLING op's noise is rounding that later steps may amplify)
    # a zero whose sign is an FFT's or LAPACK's library's keeps it through the steps that
    # copy it on (a view, an unfold): past one, the signs of zeros are that library's
    signs = False
    for (label, a), (_, b) in zip(ours, theirs):
        if not _rounding_apart(a, b, label, signs):
            return False
        signs = signs or ((uses_fft(label) or uses_lapack(label)) and _zero_signs_differ(a, b))
    ours, theirs = [a for _, a in ours], [b for _, b in theirs]
    if all(same_values(a, b) for a, b in zip(ours, theirs)):
        return False  # the same inputs: the step itself differs
    given = step_given(numtorch, program, dtype, found.step, theirs)
    reference = execute(torch, program, dtype)[found.step]
    return (
        given is not None
        and given.label == reference.label
        and (_compare_record(given, reference) is None)
    )


# How far every leaf is scaled to see whether torch's own gradient holds still: thousands
# of float64 ulps, far below any tolerance (a few scales: a rounding that cancels exactly at
# one may not at another)
MOVED = (1e-12, -2e-12, 3e-12)


def _ill_conditioned(torch, program, dtype, found, ours, theirs) -> bool:
    """Whether torch's own gradient moves beyond the tolerance, at every element where the
    runs differ, once every leaf is scaled by 1 + one of MOVED: the gradient there is
    decided by the last digits of the inputs (a std of values equal up to rounding divides
    rounding noise by rounding noise), so it is the runs' rounding that tells them apart.
    Scaling keeps signs, order, ties and zeros: a kink, a tie or a masked NaN holds still."""
    mine, reference = ours[found.step], theirs[found.step]
    differ = [
        None if x is None or y is None else ~_close(x["values"], y["values"], y["dtype"])
        for x, y in zip(mine.tensors, reference.tensors)
    ]
    for scale in MOVED:
        shifted = execute(torch, program, dtype, scale)
        if len(shifted) <= found.step or shifted[found.step].label != reference.label:
            return False
        shifted = shifted[found.step]
        if shifted.error or len(shifted.tensors) != len(reference.tensors):
            return False
        for i, (y, z) in enumerate(zip(reference.tensors, shifted.tensors)):
            if differ[i] is None or z is None or z["shape"] != y["shape"]:
                continue
            differ[i] &= _close(z["values"], y["values"], y["dtype"])  # torch held still
    return not any(d is not None and d.any() for d in differ)


def _fft_places_nonfinite(torch, program, dtype, found, ours, theirs) -> bool:
    """Whether a gradient (of first or second order) differs only where one run has NaN or
    an infinity, and torch's backward handed an FFT step a non-finite gradient: where NaN
    or infinity meets a zero twiddle factor, the order of the butterflies decides which
    outputs it reaches (MKL's on x86 builds of torch, pocketfft's in NumPy), as
    graphs.SPECTRAL says of the forward transforms. A second-order gradient reaches the
    transform's inputs through its backward again."""
    if found.kind not in ("gradient", "second order"):
        return False
    for x, y in zip(ours[found.step].tensors, theirs[found.step].tensors):
        if x is None or y is None:
            continue
        differ = ~_close(x["values"], y["values"], y["dtype"])
        nonfinite = ~np.isfinite(x["values"]) | ~np.isfinite(y["values"])
        if not nonfinite[differ].all():
            return False
    return nonfinite_into_fft(torch, program, dtype)


def _zero_signs_differ(a, b) -> bool:
    zeros = (a == 0) & (b == 0)
    return bool((np.signbit(a) != np.signbit(b))[zeros].any())


def _rounding_apart(a, b, label=None, signs=False) -> bool:
    if a.shape != b.shape or a.dtype != b.dtype:
        return False
    if _values_differ(a, b, str(a.dtype), COARSE.get(label), CANCELLING.get(label)) is not None:
        return False
    same_class = (np.isnan(a) == np.isnan(b)) & (np.isinf(a) == np.isinf(b))
    equal = a == b  # zeros (and infinities) of one sign
    # a result with an exact zero in one run where the other has rounding noise holds values
    # that cancel (an FFT's imaginary parts): the sign of a zero that cancellation left is
    # that rounding's too (x - x is +0.0, -(x - x) is -0.0). An FFT's zeros cancel even where
    # both runs have them (the imaginary parts of a constant's transform): their signs are
    # the order of its library's butterflies (MKL's in torch, pocketfft's in NumPy). So are a
    # LAPACK routine's zeros its library's kernels' (torch's cholesky_inverse runs potri,
    # whose trtri scales a column of zeros by -1/L_jj: -0.0 below a positive pivot, where an
    # inverse through LU gives +0.0)
    label = label or ""
    cancelled = signs or uses_fft(label) or uses_lapack(label)
    cancelled = cancelled or bool(((a == 0) != (b == 0)).any())
    return bool(same_class.all() and (cancelled or (np.signbit(a) == np.signbit(b))[equal].all()))


def _coarser(coarsest, record):
    for tensor in record.tensors:
        dtype = tensor and {"complex64": "float32"}.get(tensor["dtype"], tensor["dtype"])
        if dtype in TOLERANCES:
            coarsest = _looser(coarsest, dtype)
    return coarsest


def _looser(a, b):
    """Of two dtype names (or None), the one with the looser tolerance."""
    if a is None or b is None:
        return b if a is None else a
    return a if TOLERANCES[a] > TOLERANCES[b] else b


def _compare_record(a, b, coarsest=None):
    if a.skipped and b.skipped:
        return None
    if a.error or b.error:
        if a.error and b.error and a.error == b.error:
            return None
        kind = "internal crash" if a.error and a.crash else "error type"
        return (
            kind,
            f"numtorch: {a.error_detail or 'no error'} | torch: {b.error_detail or 'no error'}",
        )
    if a.label == GLOBAL_STATE and a.others != b.others:
        changed = [x for x, y in zip(a.others, b.others) if x != y]
        return "state leak", f"left changed after the program: {changed}"
    if len(a.tensors) != len(b.tensors) or a.others != b.others:
        return (
            "structure",
            f"{len(a.tensors)} vs {len(b.tensors)} tensors, {a.others} vs {b.others}",
        )
    numeric = {"grad2": "second order", "backward": "gradient", "grad": "gradient"}
    for i, (x, y) in enumerate(zip(a.tensors, b.tensors)):
        if x is None or y is None:
            if x is not y:
                return "structure", f"result {i}: {x is None and 'None'} vs {y is None and 'None'}"
            continue
        for key in ("shape", "dtype", "requires_grad"):
            if x[key] != y[key]:
                return key, f"result {i}: {x[key]} vs {y[key]}"
        if a.compare_names and x["grad_fn"] != y["grad_fn"]:
            return "grad_fn name", f"result {i}: {x['grad_fn']} vs {y['grad_fn']}"
        dtype = x["dtype"]
        if coarsest is not None and TOLERANCES.get(dtype, (0,)) < TOLERANCES[coarsest]:
            dtype = coarsest
        problem = _values_differ(
            x["values"], y["values"], dtype, COARSE.get(b.label), CANCELLING.get(b.label)
        )
        if problem:
            return numeric.get(b.label, "value"), f"result {i}: {problem}"
    return None


def _values_differ(ours, theirs, dtype, coarse=None, cancelling=None):
    if ours.dtype.kind in "biu" or theirs.dtype.kind in "biu":
        if np.array_equal(ours, theirs):
            return None
        return f"exact values differ: {_where(ours != theirs, ours, theirs)}"
    close = _close(ours, theirs, dtype, coarse, cancelling)
    if close.all():
        return None
    return f"values differ: {_where(~close, ours, theirs)}"


def _close(ours, theirs, dtype, coarse=None, cancelling=None):
    rtol, atol = TOLERANCES.get(dtype, (1e-4, 1e-5))
    if coarse is not None:
        rtol = max(rtol, coarse[0])
    if cancelling is not None:
        atol = max(atol, cancelling[0])
    finite = np.abs(theirs[np.isfinite(theirs)])
    atol *= max(1.0, float(finite.max())) if finite.size else 1.0
    return np.isclose(ours, theirs, rtol=rtol, atol=atol, equal_nan=True)


def _where(bad, ours, theirs):
    index = tuple(int(i[0]) for i in np.nonzero(bad)) if np.ndim(bad) else ()
    count = int(np.sum(bad))
    return f"{count} element(s), first at {index}: {ours[index]!r} vs {theirs[index]!r}"


def localize(numtorch, torch, program, found: Mismatch) -> Mismatch:
    """Name the op behind a difference: the step where the runs differ, or for a gradient
    phase the last step of the shortest prefix of the program that differs in the same way
    (found by bisection: a prefix is taken to differ when a shorter one does)."""
    steps = program["steps"]
    if found.step < len(steps):
        found.op = found.label
        return found
    low, high = 0, len(steps)  # a prefix of `high` steps differs; of `low` steps, not known
    while high - low > 1:
        middle = (low + high) // 2
        shorter = differential(numtorch, torch, dict(program, steps=steps[:middle]))
        if shorter is not None and shorter.kind == found.kind:
            high = middle
        else:
            low = middle
    step = steps[high - 1]
    found.op = step.get("op") or step["method"]
    return found


def shrink(numtorch, torch, program, found: Mismatch) -> dict:
    """A shorter program with the same kind of difference: steps are dropped one at a time
    while the difference stays (refs to earlier results count back from the newest, so every
    shorter program is still a valid one)."""
    steps = list(program["steps"])
    i = len(steps) - 1
    while i >= 0:
        trial = dict(program, steps=steps[:i] + steps[i + 1 :])
        again = differential(numtorch, torch, trial) if trial["steps"] else None
        if again is not None and again.kind == found.kind:
            steps = trial["steps"]
        i -= 1
    return dict(program, steps=steps)
