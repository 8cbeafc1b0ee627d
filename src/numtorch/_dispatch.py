"""Switches read on every op call: one flag check when profiling and anomaly checks are off."""


class Dispatch:
    slow = False  # True while any observer below is active
    observers: list = []  # objects with .wrap(spec, args, run) (profiler, forward checks)
    anomaly = False  # record forward traces on new nodes


dispatch = Dispatch()
