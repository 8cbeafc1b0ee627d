"""torch.Stream and torch.Event as torch's CPU-only build has them."""

from __future__ import annotations

import pytest

import numtorch

torch = pytest.importorskip("torch")


def _outcome(fn):
    try:
        value = fn()
    except Exception as error:
        return type(error).__name__, str(error)
    return "ok", value if isinstance(value, (bool, int, type(None))) else repr(value)


CASES = {
    "event": lambda lib: lib.Event(),
    "event on cpu": lambda lib: lib.Event("cpu", enable_timing=True),
    "event on a device object": lambda lib: lib.Event(device=lib.device("cpu")),
    "event on meta": lambda lib: lib.Event("meta"),
    "event on cuda": lambda lib: lib.Event(device="cuda"),
    "event on an index": lambda lib: lib.Event(device=3),
    "event on a float": lambda lib: lib.Event(3.0),
    "event with an int flag": lambda lib: lib.Event(enable_timing=1),
    "event with blocking as int": lambda lib: lib.Event(blocking=1),
    "event with noop flags": lambda lib: lib.Event(blocking=True, interprocess=True),
    "event query": lambda lib: lib.Event().query(),
    "event record": lambda lib: lib.Event().record(),
    "event record on meta": lambda lib: lib.Event("meta").record(),
    "event record on a stream": lambda lib: lib.Event().record(lib.Stream()),
    "event synchronize": lambda lib: lib.Event().synchronize(),
    "event wait": lambda lib: lib.Event().wait(),
    "event device": lambda lib: lib.Event().device,
    "event id": lambda lib: lib.Event().event_id,
    "elapsed without timing": lambda lib: lib.Event().elapsed_time(lib.Event()),
    "elapsed unrecorded": lambda lib: lib.Event(enable_timing=True).elapsed_time(
        lib.Event(enable_timing=True)
    ),
    "ipc handle": lambda lib: lib.Event().ipc_handle(),
    "from ipc handle": lambda lib: lib.Event.from_ipc_handle("cpu", b""),
    "events are distinct": lambda lib: lib.Event() == lib.Event(),
    "stream": lambda lib: lib.Stream(),
    "stream on meta": lambda lib: lib.Stream("meta"),
    "stream with ids": lambda lib: lib.Stream(stream_id=3, device_index=0, device_type=0),
    "stream with a priority": lambda lib: lib.Stream("cpu", priority=-1),
    "stream with a float priority": lambda lib: lib.Stream(priority=1.5),
    "stream on cuda": lambda lib: lib.Stream("cuda"),
    "stream on an index": lambda lib: lib.Stream(3),
    "stream on a float": lambda lib: lib.Stream(device=3.0),
    "stream query": lambda lib: lib.Stream().query(),
    "stream synchronize": lambda lib: lib.Stream().synchronize(),
    "stream record event": lambda lib: lib.Stream().record_event(),
    "stream wait event": lambda lib: lib.Stream().wait_event(lib.Event()),
    "stream wait stream": lambda lib: lib.Stream().wait_stream(lib.Stream()),
    "stream native handle": lambda lib: lib.Stream().native_handle,
    "stream capturing": lambda lib: lib.Stream().is_capturing(),
    "stream fields": lambda lib: (
        lib.Stream().stream_id,
        lib.Stream().device_index,
        lib.Stream().device_type,
        lib.Stream("meta").device_type,
        repr(lib.Stream().device),
    ),
    "streams compare by id": lambda lib: (
        lib.Stream() == lib.Stream(),
        hash(lib.Stream()) == hash(lib.Stream()),
        lib.Stream() == 3,
    ),
    "stream priority is not kept": lambda lib: hasattr(lib.Stream(priority=-1), "priority"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_stream_and_event_match_torch_cpu_build(case):
    assert _outcome(lambda: CASES[case](numtorch)) == _outcome(lambda: CASES[case](torch))


def test_a_stream_is_a_context_manager_and_ops_run_inside_it():
    for lib in (torch, numtorch):
        stream = lib.Stream()
        with stream as inside:
            value = lib.ones(2) + 1
        assert inside is stream
        assert value.tolist() == [2.0, 2.0]
