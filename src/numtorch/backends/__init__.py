"""``torch.backends`` stand-in: the flags scripts set for GPU libraries exist and can be
set, and the availability checks answer False (numtorch computes with NumPy on the CPU)."""

from . import cpu, cuda, cudnn, mha, mkl, mkldnn, mps, nnpack, openmp, opt_einsum, quantized

__all__ = [
    "cpu",
    "cuda",
    "cudnn",
    "mha",
    "mkl",
    "mkldnn",
    "mps",
    "nnpack",
    "openmp",
    "opt_einsum",
    "quantized",
]
