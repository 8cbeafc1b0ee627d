"""Testing helpers: assert_close and make_tensor like torch.testing."""

from ._comparison import assert_allclose, assert_close  # noqa: F401
from ._creation import make_tensor  # noqa: F401
