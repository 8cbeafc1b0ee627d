"""The 8x8 handwritten digits shipped with numtorch (see ``data/README.md``: UCI, CC BY 4.0)."""

from __future__ import annotations

from importlib import resources

import numpy as np

import numtorch as torch
from numtorch.utils.data import TensorDataset


def load_digits() -> tuple[np.ndarray, np.ndarray]:
    """The 1,797 images as uint8 ``(1797, 8, 8)`` pixel counts 0..16, and their labels.

    Example::

        >>> from numtorch.demo.digits import load_digits
        >>> images, labels = load_digits()
        >>> images.shape, images.max(), sorted(set(labels.tolist())) == list(range(10))
        ((1797, 8, 8), np.uint8(16), True)
    """
    source = resources.files(__package__).joinpath("data/digits.npz")
    with source.open("rb") as f, np.load(f, allow_pickle=False) as data:
        return data["images"], data["labels"]


def digits_dataset() -> TensorDataset:
    """``(image, label)`` pairs: float32 images ``(1, 8, 8)`` scaled to [0, 1], int64 labels.

    Example::

        >>> from numtorch.demo.digits import digits_dataset
        >>> image, label = digits_dataset()[0]
        >>> image.shape, image.dtype, label
        (torch.Size([1, 8, 8]), torch.float32, tensor(0))
    """
    images, labels = load_digits()
    x = torch.tensor(images[:, None].astype(np.float32) / 16.0)
    y = torch.tensor(labels.astype(np.int64))
    return TensorDataset(x, y)
