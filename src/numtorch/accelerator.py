"""``torch.accelerator``: the device-agnostic probes, answered as torch's CPU build does."""

_NONE = "Cannot access accelerator device when none is available."


def is_available() -> bool:
    return False


def current_accelerator(check_available: bool = False):
    """The accelerator device, or None: numtorch has none."""
    return None


def device_count() -> int:
    return 0


def _none_available(*args, **kwargs):
    raise RuntimeError(_NONE)


current_device_index = current_device_idx = set_device_index = set_device_idx = _none_available
synchronize = current_stream = set_stream = _none_available
