"""Testing helpers: assert_close like torch.testing."""

from ._comparison import assert_allclose, assert_close  # noqa: F401
