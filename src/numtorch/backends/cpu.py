"""``torch.backends.cpu``: which vector instructions the CPU kernels were chosen for."""


def get_cpu_capability() -> str:
    """``"DEFAULT"``: numtorch's kernels are NumPy's, not builds chosen per instruction set
    (torch answers ``"AVX2"``, ``"AVX512"``... on a machine that has them)."""
    return "DEFAULT"
