"""Named results like ``torch.return_types``: tuples with field names, printed as torch does."""

from __future__ import annotations

# name -> class, for ``torch.return_types.<name>`` (numtorch/return_types.py)
CLASSES: dict = {}


def structseq(name: str, fields: tuple):
    """A tuple class ``torch.return_types.<name>`` with the given field names.

    Example:
        >>> Pair = structseq("pair", ("first", "second"))
        >>> Pair(1, 2).second
        2
    """

    def new(cls, *values):
        if len(values) != len(fields):
            raise TypeError(f"{name}() takes {len(fields)} values, got {len(values)}")
        return tuple.__new__(cls, values)

    def __repr__(self) -> str:
        body = ",\n".join(f"{f}={v!r}" for f, v in zip(fields, self))
        return f"torch.return_types.{name}(\n{body})"

    def __reduce__(self):  # copy.deepcopy and pickle rebuild it from its fields
        return (type(self), tuple(self))

    namespace = {"__new__": new, "__repr__": __repr__, "_fields": fields, "__slots__": ()}
    namespace["__reduce__"] = __reduce__
    namespace["__module__"] = "numtorch.return_types"  # type(...) prints torch's name
    for i, field in enumerate(fields):
        namespace[field] = property(lambda self, i=i: self[i])
    CLASSES[name] = cls = type(name, (tuple,), namespace)
    return cls
