"""``torch.Stream`` and ``torch.Event`` as torch's CPU-only build has them.

The CPU runs every op to completion in order, so a stream is always idle (``query()`` is
True, ``synchronize()`` returns at once) and an event can be waited on but never recorded:
torch's CPU backend has no events and says so, and ``elapsed_time`` therefore never has two
recorded events to measure between.
"""

from __future__ import annotations

from ._core.device import device as _device

# c10::DeviceType's values, which Stream.device_type reports
_DEVICE_TYPE = {"cpu": 0, "meta": 14}


def _parse_device(owner: str, value, position: str = " (position 1)"):
    if value is None:
        return _device("cpu")  # a CPU-only build's current accelerator is none: the CPU
    if isinstance(value, bool) or not isinstance(value, (int, str, _device)):
        raise TypeError(
            f"{owner}(): argument 'device'{position} must be torch.device, not "
            f"{type(value).__name__}"
        )
    if isinstance(value, int):
        raise RuntimeError("Cannot access accelerator device when none is available.")
    value = _device(value)
    if value.type not in _DEVICE_TYPE:
        raise RuntimeError(f"PyTorch is not linked with support for {value.type} devices")
    return value


def _check_flag(owner: str, name: str, value, kind=bool) -> None:
    if type(value) is not kind:
        raise TypeError(
            f"{owner}(): argument '{name}' must be {kind.__name__}, not {type(value).__name__}"
        )


def _no_events(device) -> RuntimeError:
    return RuntimeError(f"{device.type} backend doesn't support events.")


class Stream:
    """An in-order queue of work on a device; on the CPU every op has finished already.

    Example::

        >>> import numtorch as torch
        >>> s = torch.Stream()
        >>> s
        torch.Stream device_type=cpu, device_index=-1, stream_id=0
        >>> s.query()
        True
    """

    def __init__(
        self,
        device=None,
        *,
        priority: int = 0,
        stream_id: int = 0,
        device_index: int = -1,
        device_type: int | None = None,
    ):
        self.device = _parse_device("Stream", device, position="")
        _check_flag("Stream", "priority", priority, int)
        self.stream_id = stream_id
        self.device_index = device_index
        self.device_type = _DEVICE_TYPE[self.device.type] if device_type is None else device_type

    def query(self) -> bool:
        return True

    def synchronize(self) -> None:
        return None

    def wait_event(self, event: Event) -> None:
        return None  # the event can never be pending

    def wait_stream(self, stream: Stream) -> None:
        raise _no_events(self.device)

    def record_event(self, event: Event | None = None) -> Event:
        raise _no_events(self.device)

    def is_capturing(self) -> bool:
        return False

    @property
    def native_handle(self):
        raise RuntimeError("Backend doesn't support getting stream native handle.")

    def __enter__(self) -> Stream:
        return self

    def __exit__(self, *exc) -> None:
        return None

    def _key(self):
        return self.device_type, self.device_index, self.stream_id

    def __eq__(self, other) -> bool:
        return isinstance(other, Stream) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return (
            f"torch.Stream device_type={self.device.type}, device_index={self.device_index}, "
            f"stream_id={self.stream_id}"
        )


class Event:
    """A marker in a stream's work; the CPU backend cannot record one.

    Example::

        >>> import numtorch as torch
        >>> torch.Event(enable_timing=True)
        torch.Event device_type=cpu, device_index=-1, event_flag=1, event_id=0
    """

    def __init__(self, device=None, *, enable_timing=False, blocking=False, interprocess=False):
        self.device = _parse_device("Event", device)
        _check_flag("Event", "enable_timing", enable_timing)
        _check_flag("Event", "blocking", blocking)
        _check_flag("Event", "interprocess", interprocess)
        self._enable_timing = enable_timing
        self.event_id = 0

    def query(self) -> bool:
        return True

    def record(self, stream: Stream | None = None) -> None:
        raise _no_events(self.device)

    def synchronize(self) -> None:
        return None

    def wait(self, stream: Stream | None = None) -> None:
        return None

    def elapsed_time(self, end_event: Event) -> float:
        if not (self._enable_timing and getattr(end_event, "_enable_timing", False)):
            raise ValueError("Both events must be created with argument 'enable_timing=True'.")
        raise ValueError("Both events must be recorded before calculating elapsed time.")

    def ipc_handle(self):
        raise NotImplementedError(
            "torch.Event ipc is not supported yet, please open an issue if you need this!"
        )

    @classmethod
    def from_ipc_handle(cls, device, ipc_handle):
        raise NotImplementedError(
            "torch.Event ipc is not supported yet, please open an issue if you need this!"
        )

    def __repr__(self) -> str:
        return (
            f"torch.Event device_type={self.device.type}, device_index=-1, "
            f"event_flag={int(self._enable_timing)}, event_id={self.event_id}"
        )
