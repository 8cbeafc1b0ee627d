"""``torch.backends.cudnn``: settable flags with torch's defaults; cuDNN is never available."""

enabled = True
benchmark = False
deterministic = False
allow_tf32 = True


def is_available() -> bool:
    return False


def version() -> None:
    return None
