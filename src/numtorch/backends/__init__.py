"""``torch.backends`` stand-in: the flags scripts set for GPU libraries exist and can be
set, and the availability checks answer False (numtorch computes with NumPy on the CPU)."""

from . import cuda, cudnn, mkldnn, mps, openmp

__all__ = ["cuda", "cudnn", "mkldnn", "mps", "openmp"]
