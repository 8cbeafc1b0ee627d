"""torch.rsub checks its alpha as sub does: a float alpha with integral operands and a bool
alpha with non-bool results are refused, with either overload (tensor or number other)."""

import pytest

import numtorch

torch = pytest.importorskip("torch")


@pytest.mark.parametrize(
    "make_other, alpha",
    [
        (lambda lib: lib.tensor([3, 4]), 2.5),
        (lambda lib: 2, 2.5),
        (lambda lib: lib.tensor([3.0, 4.0]), True),
        (lambda lib: lib.tensor([3, 4]), 2),
    ],
)
def test_rsub_checks_alpha_as_torch(make_other, alpha):
    found = []
    for lib in (numtorch, torch):
        try:
            out = lib.rsub(lib.tensor([1, 2]), make_other(lib), alpha=alpha)
            found.append(("ok", out.tolist(), str(out.dtype).split(".")[-1]))
        except RuntimeError as error:
            found.append(("RuntimeError", str(error)))
    assert found[0] == found[1]
