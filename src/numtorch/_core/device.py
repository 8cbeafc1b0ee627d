"""``torch.device``: numtorch computes on the CPU (and the meta device) only."""

from __future__ import annotations

import re

from .meta import default_devices

# torch's device string: a type name, then optionally ":" and an index without leading zeros
_DEVICE_STRING = re.compile(r"([a-zA-Z_]+)(?::([1-9][0-9]*|0))?")

_DEVICE_TYPES = [
    "cpu",
    "cuda",
    "ipu",
    "xpu",
    "mkldnn",
    "opengl",
    "opencl",
    "ideep",
    "hip",
    "ve",
    "fpga",
    "maia",
    "xla",
    "lazy",
    "vulkan",
    "mps",
    "meta",
    "hpu",
    "mtia",
    "privateuseone",
]


class device:
    """A device description, as ``torch.device``; numtorch computes on the CPU only, so
    tensors refuse any other device (see ``check_device``)."""

    def __init__(self, type="cpu", index=None):
        if isinstance(type, device):
            type, index = type.type, type.index
        name = str(type)
        if name not in _DEVICE_TYPES:
            match = _DEVICE_STRING.fullmatch(name)
            if match is None:
                raise RuntimeError(f"Invalid device string: '{name}'")
            name, idx = match.groups()
            if idx is not None:
                index = int(idx)
        if name not in _DEVICE_TYPES:
            raise RuntimeError(
                f"Expected one of {', '.join(_DEVICE_TYPES)} device type at start of device "
                f"string: {name}"
            )
        if index is not None and index < 0:
            raise RuntimeError("Device index must not be negative")
        self.type = name
        self.index = index

    def __repr__(self) -> str:
        index = "" if self.index is None else f", index={self.index}"
        return f"device(type='{self.type}'{index})"

    def __enter__(self) -> device:
        # factories given no device use this one inside the block (torch's DeviceContext)
        default_devices.append(self)
        return self

    def __exit__(self, *exc) -> None:
        if len(default_devices) > 1:  # the innermost block ends (entry 0 is the global)
            default_devices.pop()

    def __str__(self) -> str:
        return self.type if self.index is None else f"{self.type}:{self.index}"

    def __eq__(self, other) -> bool:
        if not isinstance(other, device):
            return NotImplemented  # as torch: device('cpu') == 'cpu' is False
        return (self.type, self.index) == (other.type, other.index)

    def __hash__(self) -> int:
        return hash((self.type, self.index))


def check_device(d) -> None:
    """Refuse devices other than the CPU, with torch's error types."""
    if d is None:
        return
    d = d if isinstance(d, device) else device(d)
    if d.type in ("cuda", "xpu"):  # torch's CPU build answers these two with an assertion
        name = "CUDA" if d.type == "cuda" else "XPU"
        raise AssertionError(
            f"Torch not compiled with {name} enabled (numtorch runs on the CPU only)"
        )
    if d.type != "cpu":
        raise RuntimeError(f"numtorch computes on the CPU only; device '{d}' is not available")
