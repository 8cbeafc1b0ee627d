"""Known differences of test_keyword_sweep.py, by check and cause: label -> cause.

The lists may only shrink: the test fails when a listed entry starts agreeing with torch.
``python tests/ops/keyword_sweep.py`` prints today's differences.
"""

from __future__ import annotations


def _by_cause(table: dict) -> dict:
    return {label: cause for cause, labels in table.items() for label in labels.split()}


_KEYWORDS = {
    (
        "as_strided reads the input's storage, which the sweep's copies of the arguments do "
        "not keep (its offsets then differ)"
    ): """
        torch.as_strided
    """,
    "the thin SVD of a tall matrix: singular vectors of other signs than torch's (both valid)": """
        torch.svd
    """,
}

_OUT = {
    (
        "with inputs that require grad, torch's out= variant of this op writes out and "
        "records a NotImplemented (or CopyBackwards) node on it instead of refusing; numtorch "
        "refuses"
    ): """
        torch.alias_copy torch.as_strided_copy torch.conj_physical torch.diag
        torch.diagonal_copy torch.expand_copy torch.fft.ifft torch.fft.ihfft torch.inner
        torch.linalg.cond torch.linalg.eigvals torch.linalg.matrix_norm
        torch.linalg.matrix_power torch.linalg.norm torch.linalg.tensorinv
        torch.linalg.tensorsolve torch.log_softmax torch.nanquantile torch.permute_copy
        torch.quantile torch.select_copy torch.slice_copy torch.softmax torch.special.ndtr
        torch.split_with_sizes_copy torch.squeeze_copy torch.t_copy torch.tensordot
        torch.transpose_copy torch.unbind_copy torch.unfold_copy torch.unsqueeze_copy
        torch.view_as_real_copy torch.view_copy
    """,
    "torch's kernel resizes this call's out without the warning numtorch gives": """
        torch.arange torch.lu
    """,
    (
        "torch runs the op in out's dtype, where numtorch computes in the inputs' and refuses "
        "the cast"
    ): """
        torch.bernoulli torch.chain_matmul
    """,
    "the thin SVD of a tall matrix: singular vectors of other signs than torch's (both valid)": """
        torch.linalg.svd torch.svd
    """,
    "torch's nansum has no integer kernel (NotImplementedError); numtorch's sums integers": """
        torch.nansum
    """,
    "torch's kernel does not resize an empty out here and raises": """
        torch.normal torch.split_copy
    """,
    (
        "a floating point result into a complex out: torch's kernel refuses it (or runs no "
        "complex kernel), numtorch casts"
    ): """
        torch.std torch.var
    """,
}

_FORMS = {}

_OTHER_FORMS = {
    (
        "torch's addbmm_ resizes a self that only broadcasts to the result; numtorch refuses, "
        "as torch's other in-place ops do"
    ): """
        torch.addbmm
    """,
    (
        "as_strided reads the input's storage, which the sweep's copies of the arguments do "
        "not keep (its offsets then differ)"
    ): """
        torch.as_strided
    """,
    "the thin SVD of a tall matrix: singular vectors of other signs than torch's (both valid)": """
        torch.svd
    """,
}

KNOWN = {
    "keywords": _by_cause(_KEYWORDS),
    "out": _by_cause(_OUT),
    "forms": _by_cause(_FORMS),
    "other_forms": _by_cause(_OTHER_FORMS),
}
