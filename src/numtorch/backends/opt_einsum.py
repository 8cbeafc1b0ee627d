"""``torch.backends.opt_einsum``: numtorch orders einsum contractions itself and never uses
the opt_einsum package, so it reports it unavailable (torch's answer without the package)."""

enabled = False
strategy = None


def is_available() -> bool:
    return False


def get_opt_einsum():
    return None
