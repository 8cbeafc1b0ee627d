"""Known differences of test_exact_dtype_support.py, by cause: (op, dtype key) -> cause.

The list may only shrink: the test fails when a listed entry starts agreeing with torch.
``python tests/ops/test_exact_dtype_support.py`` prints the table for today's differences.
"""

from __future__ import annotations

_BY_CAUSE: dict = {
    "both raise, with different exception types": """
        histc[uint8] soft_margin_loss[bool] index_reduce_amax_True[complex64,grad]
        index_reduce_amax_True[complex128,grad] index_reduce_amin_True[complex64,grad]
        index_reduce_amin_True[complex128,grad] mkldnn_rnn_layer[bool] mkldnn_rnn_layer[uint8]
        mkldnn_rnn_layer[int8] mkldnn_rnn_layer[int16] mkldnn_rnn_layer[int32]
        mkldnn_rnn_layer[int64] complex_angle[float16] complex_angle[float16,grad]
        complex_conj[float16] complex_conj[float16,grad] complex_mul_div[float16]
        complex_mul_div[float16,grad] complex_log_reciprocal[float16]
        complex_log_reciprocal[float16,grad] complex_pow_sqrt[float16]
        complex_pow_sqrt[float16,grad] complex_mm_mv_dot[float16]
        complex_mm_mv_dot[float16,grad] masked_amax[complex64] masked_amax[complex64,grad]
        masked_amax[complex128] masked_amax[complex128,grad] masked_amax_all[complex64]
        masked_amax_all[complex64,grad] masked_amax_all[complex128]
        masked_amax_all[complex128,grad] masked_amin[complex64] masked_amin[complex64,grad]
        masked_amin[complex128] masked_amin[complex128,grad] masked_amin_all[complex64]
        masked_amin_all[complex64,grad] masked_amin_all[complex128]
        masked_amin_all[complex128,grad] masked_softmax[complex64]
        masked_softmax[complex64,grad] masked_softmax[complex128]
        masked_softmax[complex128,grad] masked_log_softmax[complex64]
        masked_log_softmax[complex64,grad] masked_log_softmax[complex128]
        masked_log_softmax[complex128,grad] masked_softmin[complex64]
        masked_softmin[complex64,grad] masked_softmin[complex128]
        masked_softmin[complex128,grad] masked_logaddexp[complex64]
        masked_logaddexp[complex64,grad] masked_logaddexp[complex128]
        masked_logaddexp[complex128,grad]
        nested_gelu_silu[complex128,grad] nested_gelu_silu[complex64,grad]
        nested_masked_fill[complex128,grad] nested_masked_fill[complex64,grad]
        nested_softmax[complex128,grad] nested_softmax[complex64,grad]
        nested_sum[complex128,grad] nested_sum[complex64,grad]
    """,
    "numtorch refuses a dtype torch runs": """
        conv2d[complex64]
        conv2d[complex64,grad] conv2d[complex128] conv2d[complex128,grad] conv1d[complex64]
        conv1d[complex64,grad] conv1d[complex128] conv1d[complex128,grad] conv3d[complex64]
        conv3d[complex64,grad] conv3d[complex128] conv3d[complex128,grad]
        conv_transpose2d[complex64] conv_transpose2d[complex64,grad]
        conv_transpose2d[complex128] conv_transpose2d[complex128,grad] rms_norm[complex64]
        rms_norm[complex64,grad] rms_norm[complex128] rms_norm[complex128,grad]
        interpolate_bilinear[uint8] interpolate_bicubic[uint8]
        interpolate_bilinear_antialias[uint8] interpolate_bicubic_antialias[uint8]
        view_as_complex[float16] view_as_complex[float16,grad] complex_abs[float16]
        complex_abs[float16,grad] complex_sgn[float16] complex_sgn[float16,grad]
        complex_real_imag[float16] complex_real_imag[float16,grad] complex_conj_parts[float16]
        complex_conj_parts[float16,grad]
        complex_conj_physical[float16] complex_conj_physical[float16,grad] complex[float16]
        complex[float16,grad] view_as_real_copy[float16] view_as_real_copy[float16,grad]
        view_as_complex_copy[float16] view_as_complex_copy[float16,grad] lobpcg[complex128,grad]
        lobpcg[complex128] lobpcg[complex64,grad] lobpcg[complex64]
        lobpcg_vectors[complex128,grad] lobpcg_vectors[complex128]
        lobpcg_vectors[complex64,grad] lobpcg_vectors[complex64] to_sparse_bsc[bfloat16,grad]
        to_sparse_bsc[bfloat16] to_sparse_bsr[bfloat16,grad] to_sparse_bsr[bfloat16]
        to_sparse_csc[bfloat16,grad] to_sparse_csc[bfloat16] to_sparse_csr[bfloat16,grad]
        to_sparse_csr[bfloat16] to_sparse_csr_coo[bfloat16,grad] to_sparse_csr_coo[bfloat16]
    """,
    "numtorch runs a dtype torch's kernel refuses": """
        vander[float16] vander[float16,grad] native_dropout[bool] native_dropout[uint8]
        native_dropout[int8] native_dropout[int16] native_dropout[int32] native_dropout[int64]
        torch.binary_cross_entropy_with_logits[uint8]
        torch.binary_cross_entropy_with_logits[int8]
        torch.binary_cross_entropy_with_logits[int16]
        torch.binary_cross_entropy_with_logits[int32]
        torch.binary_cross_entropy_with_logits[int64]
        torch.binary_cross_entropy_with_logits[complex64]
        torch.binary_cross_entropy_with_logits[complex128] bernoulli[bool] bernoulli[uint8]
        bernoulli[int8] bernoulli[int16] bernoulli[int32] bernoulli[int64] bernoulli[complex64]
        bernoulli[complex128] rrelu_training[float16] rrelu_training[float16,grad]
        soft_margin_loss[uint8] soft_margin_loss[int8] soft_margin_loss[int16]
        soft_margin_loss[int32] soft_margin_loss[int64] mvlgamma[complex64] mvlgamma[complex128]
        special_multigammaln[complex64] special_multigammaln[complex128] lstm_cell[uint8]
        lstm_cell[int8] lstm_cell[int16] lstm_cell[int32] lstm_cell[int64] gru_cell[uint8]
        gru_cell[int8] gru_cell[int16] gru_cell[int32] gru_cell[int64]
        index_reduce_mean_True[bool] index_reduce_amax_True[complex64]
        index_reduce_amax_True[complex128] index_reduce_amin_True[complex64]
        index_reduce_amin_True[complex128] gradient[bool] gradient[uint8] binomial[complex64]
        binomial[complex64,grad] binomial[complex128] binomial[complex128,grad] stft[complex64]
        stft[complex128] stft[complex64,grad] stft[complex128,grad] sparse_add[bool]
        sparse_add[float16] sparse_add[float16,grad] select_copy[complex64,grad]
        select_copy[complex128,grad] slice_copy[complex64,grad] slice_copy[complex128,grad]
        lobpcg[bfloat16,grad] lobpcg[bfloat16] lobpcg[float16,grad] lobpcg[float16]
        lobpcg_vectors[bfloat16,grad] lobpcg_vectors[bfloat16]
        lobpcg_vectors[float16,grad] lobpcg_vectors[float16]
        nested_as_nested_tensor[complex128,grad] nested_as_nested_tensor[complex64,grad]
        nested_bmm[complex128,grad] nested_bmm[complex64,grad]
        nested_elementwise[complex128,grad] nested_elementwise[complex64,grad]
        nested_linear[complex128,grad] nested_linear[complex64,grad]
        nested_matmul[complex128,grad] nested_matmul[complex64,grad]
        nested_reshape[complex128,grad] nested_reshape[complex64,grad]
        nested_scaled_dot_product_attention[complex128,grad]
        nested_scaled_dot_product_attention[complex64,grad] nested_select[complex128,grad]
        nested_select[complex64,grad] nested_to_padded_tensor_size[complex128,grad]
        nested_to_padded_tensor_size[complex64,grad] nested_to_padded_tensor_size[uint8]
        nested_transpose[complex128,grad] nested_transpose[complex64,grad]
        nested_unary[complex128,grad] nested_unary[complex64,grad]
        nested_unbind[complex128,grad] nested_unbind[complex64,grad]
        nested_unsqueeze[complex128,grad] nested_unsqueeze[complex64,grad]
        nested_view[complex128,grad] nested_view[complex64,grad]
    """,
    # torch runs these in half precision with its own intermediate roundings (numtorch: in
    # float32, rounded once); the differences exceed a half's tolerance
    "half-precision intermediate rounding": """
        matrix_exp[float16] matrix_exp[float16,grad] matrix_exp[bfloat16]
        matrix_exp[bfloat16,grad] grid_sample_bicubic_border_1[bfloat16]
        grid_sample_bicubic_border_1[bfloat16,grad] grid_sample_bicubic_reflection_0[bfloat16]
        grid_sample_bicubic_reflection_0[bfloat16,grad]
    """,
    # eigenvectors are defined up to a phase per vector, which LAPACK's path picks
    "eigenvector phase (platform-dependent)": """
        linalg.eig[complex64] linalg.eig[complex64,grad]
    """,
    # integer matrices: the sample's fixed start vectors, made in the input's dtype, round to
    # a degenerate block, from which the two runs converge to different vectors
    "the results differ (values)": """
        lobpcg_vectors[int16] lobpcg_vectors[int32] lobpcg_vectors[int64] lobpcg_vectors[int8]
    """,
}

KNOWN = {
    (entry.split("[")[0], entry.split("[")[1].rstrip("]")): cause
    for cause, entries in _BY_CAUSE.items()
    for entry in entries.split()
}
