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


def is_initialized() -> bool:
    return True


def set_device(device) -> None:
    """No-op: there is one CPU device (device-agnostic code calls it)."""


# Streams and events exist for device-agnostic code, as torch's CPU ones: the CPU runs
# everything in order on one stream, so waiting and recording do nothing.
class Stream:
    def __init__(self, priority: int = -1) -> None:
        pass

    def wait_stream(self, stream) -> None:
        pass

    def record_event(self) -> None:
        pass

    def wait_event(self, event) -> None:
        pass


class Event:
    def query(self) -> bool:
        return True

    def record(self, stream=None) -> None:
        pass

    def synchronize(self) -> None:
        pass

    def wait(self, stream=None) -> None:
        pass


_default_stream = Stream()
_current_stream = _default_stream


def current_stream(device=None) -> Stream:
    return _current_stream


class StreamContext:
    """Selects ``stream`` as the current one inside a ``with`` block (None: unchanged)."""

    def __init__(self, stream) -> None:
        self.stream = stream
        self.prev_stream = _default_stream

    def __enter__(self) -> None:
        global _current_stream
        if self.stream is not None:
            self.prev_stream, _current_stream = _current_stream, self.stream

    def __exit__(self, *_) -> None:
        global _current_stream
        if self.stream is not None:
            _current_stream = self.prev_stream


def stream(stream) -> StreamContext:
    return StreamContext(stream)
