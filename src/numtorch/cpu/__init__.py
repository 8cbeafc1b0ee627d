"""``torch.cpu``: the device module for the one device numtorch computes on."""

from . import amp as amp


def is_available() -> bool:
    return True


def device_count() -> int:
    return 1


def current_device() -> str:
    return "cpu"


def synchronize(device=None) -> None:
    """No-op: CPU work is finished when the call returns."""
