"""How sparse COO tensors print: torch's layout, indices and values each on their own
line, then size, nnz, dtype, layout and the autograd suffix."""

from __future__ import annotations

from .._core import dtypes as _dtypes
from .._core.tensor_str import _add_suffixes, array_body


def sparse_repr(t) -> str:
    """torch's layout: indices and values on their own lines, then size, nnz and layout."""
    parts = []
    for name, data, indent in (
        ("indices", t._index_array, 15),
        ("values", t._value_tensor.detach().numpy(), 14),
    ):
        body = array_body(data, indent + len("tensor("))
        if data.size == 0:
            body += f", size={tuple(data.shape)}"
        parts.append(f"{name}=tensor({body})")
    text = "tensor(" + parts[0] + ",\n       " + parts[1]
    suffixes = [f"size={tuple(t.shape)}", f"nnz={t._nnz()}"]
    default = _dtypes.get_default_dtype()
    if t.dtype not in (default, _dtypes.int64, _dtypes.bool_, default.to_complex()):
        suffixes.append(f"dtype={t.dtype}")
    suffixes.append("layout=torch.sparse_coo")
    grad_fn = t.grad_fn
    if grad_fn is not None:
        suffixes.append(f"grad_fn=<{grad_fn.name().rsplit('::', 1)[-1]}>")
    elif t.requires_grad:
        suffixes.append("requires_grad=True")
    return _add_suffixes(text, suffixes, 7, force_newline=True)
