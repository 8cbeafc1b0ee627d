"""Beyond torch: raise at the first op whose forward output holds NaN or Inf.

Enabled by ``detect_anomaly(check_forward=True)``; it observes every op through the
registry's slow path, so it costs nothing when off.
"""

from __future__ import annotations

from .observers import add_observer, remove_observer


class _ForwardCheck:
    def wrap(self, spec, args, run):
        def checked():
            out = run()
            for i, t in enumerate(out if isinstance(out, tuple) else (out,)):
                data = getattr(t, "_data", None)
                if data is not None and data.dtype.kind in "fcV" and not _finite(data):
                    shapes = [list(a._data.shape) for a in args if hasattr(a, "_data")]
                    kind = "NaN" if (data != data).any() else "Inf"
                    raise RuntimeError(
                        f"Forward anomaly: {spec.name}() produced {kind} in output {i} "
                        f"(input shapes {shapes}). Check this op's inputs for values outside "
                        "its domain."
                    )
            return out

        return checked


def _finite(data) -> bool:
    return bool(data.size == 0 or abs(data).max() < float("inf"))


_check = _ForwardCheck()


def set_active(active: bool) -> None:
    if active:
        add_observer(_check)
    else:
        remove_observer(_check)
