"""Recognise pickles (plain, or inside a torch.save zip) and refuse them with a useful error.

Recognising uses ``pickletools.genops``, a parser that only reads opcodes: it imports and
calls nothing, so naming the globals a pickle would load is safe.
"""

from __future__ import annotations

import _compat_pickle
import pickletools

from .errors import PickleRefusedError

SCAN_LIMIT = 256 * 1024  # bytes of a pickle read to name its globals (parsed in Python)
_STRING_OPS = {"SHORT_BINUNICODE", "BINUNICODE", "BINUNICODE8", "UNICODE", "STRING",
               "BINSTRING", "SHORT_BINSTRING"}  # fmt: skip
_MEMO_PUT = {"BINPUT", "LONG_BINPUT", "PUT"}
_MEMO_GET = {"BINGET", "LONG_BINGET", "GET"}
# Globals a plain PyTorch or NumPy state-dict pickle uses; anything else is called out.
_EXPECTED_PREFIXES = ("torch.", "collections.OrderedDict", "numpy.", "_codecs.encode")


def pickle_globals(data: bytes) -> tuple[list[str], bool]:
    """The globals a pickle names, in order, and whether it parsed through to STOP."""
    names: list[str] = []
    strings: list[str] = []
    memo: dict = {}
    last_string = None
    try:
        for opcode, arg, _ in pickletools.genops(data):
            op = opcode.name
            if op in ("GLOBAL", "INST"):
                names.append(_python3_name(*arg.split(" ", 1)))
            elif op == "STACK_GLOBAL":
                names.append(".".join(strings[-2:]) if len(strings) >= 2 else "<unknown>")
            elif op == "STOP":
                return _unique(names), True
            if op in _STRING_OPS and isinstance(arg, (str, bytes)):
                last_string = arg if isinstance(arg, str) else arg.decode("latin-1")
                strings.append(last_string)
                continue
            if op == "MEMOIZE":
                memo[len(memo)] = last_string
            elif op in _MEMO_PUT:
                memo[arg] = last_string
            elif op in _MEMO_GET and isinstance(memo.get(arg), str):
                strings.append(memo[arg])
            last_string = None
    except Exception:  # truncated or not a pickle: report what was read
        pass
    return _unique(names), False


def _python3_name(module: str, name: str) -> str:
    # Protocols 0-2 write Python 2 names (__builtin__.exec); show what would be imported.
    module, name = _compat_pickle.NAME_MAPPING.get((module, name), (module, name))
    return f"{_compat_pickle.IMPORT_MAPPING.get(module, module)}.{name}"


def _unique(names: list[str]) -> list[str]:
    return list(dict.fromkeys(names))


def is_pickle(head: bytes, data: bytes) -> bool:
    """Protocol 2+ pickles start with PROTO; older ones are recognised by parsing."""
    if head[:1] == b"\x80" and head[1:2] in (b"\x02", b"\x03", b"\x04", b"\x05"):
        return True
    return pickle_globals(data)[1]


def refuse(where: str, what: str, data: bytes, weights_only: bool) -> PickleRefusedError:
    names, _ = pickle_globals(data)
    unexpected = [n for n in names if not n.startswith(_EXPECTED_PREFIXES)]
    if unexpected:
        found = (
            f" Loading it would call {', '.join(unexpected[:5])}, which no plain state dict "
            "needs: the file may be malicious."
        )
    elif names:
        found = f" It names {', '.join(names[:5])}{' and more' if len(names) > 5 else ''}."
    else:
        found = ""
    even = " (even with weights_only=False)" if not weights_only else ""
    return PickleRefusedError(
        f"numtorch.load refuses {where}: it is {what}. Unpickling it would run whatever code "
        f"the file names, so numtorch does not{even}.{found} numtorch.load reads torch.save "
        "checkpoints (zip archives, through an allow-list unpickler), safetensors and .npz "
        "files. To convert a pickle you trust, in PyTorch: torch.save(obj, 'model.pt')."
    )
