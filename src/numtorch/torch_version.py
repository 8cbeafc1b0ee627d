"""``torch.torch_version``: ``TorchVersion``, the string ``torch.__version__`` is, which compares
as a version against strings and tuples (``torch.__version__ >= (2, 1)``)."""

from __future__ import annotations

import re

__all__ = ["TorchVersion"]

# PEP 440's public form: release, pre-release, post-release, dev-release, local label
_VERSION = re.compile(
    r"^\s*v?(?P<release>\d+(?:\.\d+)*)"
    r"(?:[-_.]?(?P<pre>a|b|rc|alpha|beta|c)[-_.]?(?P<pre_n>\d*))?"
    r"(?:[-_.]?post[-_.]?(?P<post>\d*))?"
    r"(?:[-_.]?dev[-_.]?(?P<dev>\d*))?"
    r"(?:\+(?P<local>[a-z0-9]+(?:[-_.][a-z0-9]+)*))?\s*$",
    re.IGNORECASE,
)
_PRE_RANK = {"a": 0, "alpha": 0, "b": 1, "beta": 1, "c": 2, "rc": 2}


def _key(text: str):
    """A sort key ordering versions as PEP 440 does, or None when ``text`` is not one."""
    m = _VERSION.match(text)
    if m is None:
        return None
    release = [int(p) for p in m["release"].split(".")]
    while len(release) > 1 and release[-1] == 0:
        release.pop()
    dev = int(m["dev"] or 0) if m["dev"] is not None else None
    post = int(m["post"] or 0) if m["post"] is not None else None
    if m["pre"] is not None:
        pre = (0, _PRE_RANK[m["pre"].lower()], int(m["pre_n"] or 0))
    elif dev is not None and post is None:
        pre = (-1, 0, 0)  # 1.0.dev1 sorts before 1.0a1
    else:
        pre = (1, 0, 0)
    local = ()
    if m["local"]:
        parts = re.split(r"[-_.]", m["local"].lower())
        local = tuple((1, int(p), "") if p.isdigit() else (0, 0, p) for p in parts)
    return (
        tuple(release),
        pre,
        -1 if post is None else post,
        float("inf") if dev is None else dev,
        local,
    )


def _other_key(other):
    if isinstance(other, (tuple, list)):
        other = ".".join(str(part) for part in other)
    if not isinstance(other, str):
        return NotImplemented
    return _key(other)


class TorchVersion(str):
    """A version string that compares as a version.

    Example:
        >>> from numtorch.torch_version import TorchVersion
        >>> TorchVersion("2.1.0") > "2.0.1", TorchVersion("2.1.0") >= (2, 1)
        (True, True)
    """

    def _compare(self, other, test):
        theirs = _other_key(other)
        if theirs is NotImplemented:
            return NotImplemented
        ours = _key(str(self))
        if ours is None or theirs is None:  # not versions: compare as strings, as torch does
            return test(str(self), other)
        return test(ours, theirs)

    def __gt__(self, other):
        return self._compare(other, lambda a, b: a > b)

    def __ge__(self, other):
        return self._compare(other, lambda a, b: a >= b)

    def __lt__(self, other):
        return self._compare(other, lambda a, b: a < b)

    def __le__(self, other):
        return self._compare(other, lambda a, b: a <= b)

    def __eq__(self, other):
        return self._compare(other, lambda a, b: a == b)

    # torch leaves != to str: TorchVersion("2.1") != "2.1.0" is True while == is True too
    __hash__ = str.__hash__
