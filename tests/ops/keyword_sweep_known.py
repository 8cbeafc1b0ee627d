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
    (
        "torch's RNN entry points (torch.lstm, gru, rnn_tanh) take their schema's names; "
        "numtorch's take the arguments after input positionally (*args)"
    ): """
        torch.gru torch.lstm torch.rnn_tanh
    """,
    "stft lacks torch's align_to_window parameter": """
        torch.stft
    """,
    "torch.svd's singular vectors differ in sign from torch's (LAPACK driver choice)": """
        torch.svd
    """,
}

_OUT = {
    (
        "torch's kernel requires out to have the result's dtype exactly (its structured "
        "kernels check it), where numtorch casts the result to out's dtype when allowed"
    ): """
        torch.addbmm torch.addmm torch.addmv torch.alias_copy torch.amax torch.amin
        torch.aminmax torch.argsort torch.as_strided_copy torch.baddbmm torch.bmm
        torch.bucketize torch.clamp torch.cross torch.cummax torch.cummin torch.detach_copy
        torch.diag torch.diagonal_copy torch.dot torch.expand_copy torch.eye torch.float_power
        torch.frac torch.frexp torch.gather torch.hardshrink torch.histc torch.histogram
        torch.index_add torch.index_copy torch.index_select torch.inner torch.isin
        torch.kthvalue torch.ldexp torch.linalg.cholesky torch.linalg.cholesky_ex
        torch.linalg.cross torch.linalg.det torch.linalg.eigh torch.linalg.eigvalsh
        torch.linalg.inv torch.linalg.ldl_factor torch.linalg.ldl_factor_ex
        torch.linalg.ldl_solve torch.linalg.lu torch.linalg.lu_factor torch.linalg.lu_factor_ex
        torch.linalg.lu_solve torch.linalg.matrix_norm torch.linalg.multi_dot torch.linalg.norm
        torch.linalg.qr torch.linalg.slogdet torch.linalg.solve torch.linalg.solve_triangular
        torch.linalg.svdvals torch.linalg.vecdot torch.linalg.vector_norm torch.linspace
        torch.log_softmax torch.logcumsumexp torch.lu_solve torch.lu_unpack torch.masked_select
        torch.matmul torch.mm torch.mode torch.msort torch.mv torch.nanquantile
        torch.native_batch_norm torch.nn.functional.avg_pool2d torch.nn.functional.avg_pool3d
        torch.nn.functional.gelu torch.nn.functional.logsigmoid torch.nn.functional.softplus
        torch.nn.functional.softshrink torch.norm torch.ones torch.ormqr torch.permute_copy
        torch.quantile torch.round torch.scatter torch.scatter_add torch.searchsorted
        torch.select_copy torch.slice_copy torch.softmax torch.sort torch.special.round
        torch.split_with_sizes_copy torch.squeeze_copy torch.t_copy torch.take
        torch.take_along_dim torch.tensordot torch.topk torch.transpose_copy
        torch.triangular_solve torch.tril torch.triu torch.unbind_copy torch.unfold_copy
        torch.unsqueeze_copy torch.vdot torch.view_as_real_copy torch.view_copy torch.where
    """,
    "whether torch's kernel warns when it resizes out differs per kernel": """
        torch.arange torch.lu
    """,
    (
        "torch computes in out's dtype (or raises its own error) where numtorch refuses the "
        "cast: the cat family raises TypeError, the scans and reductions take out's dtype"
    ): """
        torch.bernoulli torch.cat torch.chain_matmul torch.column_stack torch.cumprod
        torch.cumsum torch.dstack torch.hstack torch.nansum torch.row_stack torch.stack
        torch.vstack
    """,
    (
        "torch's composite functions run their inner ops with out= and raise there, or copy "
        "into out recording CopyBackwards; numtorch refuses at the boundary"
    ): """
        torch.conj_physical torch.fft.ifft torch.fft.ihfft torch.linalg.cond
        torch.linalg.eigvals torch.linalg.matrix_power torch.linalg.tensorinv
        torch.linalg.tensorsolve torch.special.ndtr
    """,
    (
        "a floating point result into a complex out: torch's kernel refuses it (or runs no "
        "complex kernel), numtorch casts"
    ): """
        torch.fft.hfft torch.fft.hfft2 torch.fft.hfftn torch.fft.irfft torch.fft.irfftn
    """,
    "torch.svd's singular vectors differ in sign from torch's (LAPACK driver choice)": """
        torch.linalg.svd torch.svd
    """,
    "torch's kernel does not resize an empty out here and raises": """
        torch.normal torch.split_copy
    """,
}

_FORMS = {}

_OTHER_FORMS = {
    ("torch refuses in-place abs on a complex tensor (its result is real); numtorch writes it"): """
        Tensor.abs
    """,
    (
        "as_strided reads the input's storage, which the sweep's copies of the arguments do "
        "not keep (its offsets then differ)"
    ): """
        torch.as_strided
    """,
    "stft lacks torch's align_to_window parameter": """
        torch.stft
    """,
    "torch.svd's singular vectors differ in sign from torch's (LAPACK driver choice)": """
        torch.svd
    """,
}

KNOWN = {
    "keywords": _by_cause(_KEYWORDS),
    "out": _by_cause(_OUT),
    "forms": _by_cause(_FORMS),
    "other_forms": _by_cause(_OTHER_FORMS),
}
