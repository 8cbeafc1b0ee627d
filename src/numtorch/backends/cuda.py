"""``torch.backends.cuda``: settable matmul flags; CUDA is never built in."""

from types import SimpleNamespace

matmul = SimpleNamespace(allow_tf32=False, allow_fp16_reduced_precision_reduction=True)


def is_built() -> bool:
    return False
