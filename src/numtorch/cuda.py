"""``torch.cuda`` stand-in: numtorch computes on the CPU, so nothing is available."""


def is_available() -> bool:
    return False


def device_count() -> int:
    return 0


def manual_seed(seed: int) -> None:
    """No-op (there is no GPU generator)."""


manual_seed_all = manual_seed
