"""``torch.backends.mkldnn``: torch's CPU build has oneDNN; numtorch's NumPy kernels stand
in for it, so it reports available and its flag is settable."""

enabled = True


def is_available() -> bool:
    return True
