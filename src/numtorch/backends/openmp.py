"""``torch.backends.openmp``: torch's CPU build has OpenMP; numtorch reports it as torch does
(NumPy's BLAS does the threading)."""


def is_available() -> bool:
    return True
