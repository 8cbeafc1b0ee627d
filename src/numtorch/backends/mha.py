"""``torch.backends.mha``: the switch of MultiheadAttention's fused inference path.

numtorch has one path; the flag is kept so that scripts can read back what they set.
"""

_fastpath = [True]


def get_fastpath_enabled() -> bool:
    return _fastpath[0]


def set_fastpath_enabled(value: bool) -> None:
    _fastpath[0] = bool(value)
