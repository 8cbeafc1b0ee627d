"""torch.backends' CPU-library modules: every name torch has exists, and the answers describe
numtorch's own build (NumPy kernels, no MKL, NNPACK or opt_einsum)."""

import pytest

import numtorch


@pytest.mark.parametrize("module", ["cpu", "mkl", "mha", "nnpack", "opt_einsum"])
def test_torch_names_exist(module):
    torch = pytest.importorskip("torch")
    theirs = getattr(torch.backends, module)
    ours = getattr(numtorch.backends, module)
    names = {n for n in dir(theirs) if not n.startswith("_") and n not in ("torch", "m")}
    names -= {"ContextProp", "PropModule", "contextmanager"}  # torch's own helpers
    assert sorted(n for n in names if not hasattr(ours, n)) == []


def test_answers_describe_numtorch():
    b = numtorch.backends
    assert b.cpu.get_cpu_capability() == "DEFAULT"
    assert not b.mkl.is_available() and not b.nnpack.is_available()
    assert not b.opt_einsum.is_available() and b.opt_einsum.strategy is None
    with b.mkl.verbose(b.mkl.VERBOSE_ON):
        pass


def test_flags_read_back_what_was_set():
    b = numtorch.backends
    assert b.mha.get_fastpath_enabled()
    b.mha.set_fastpath_enabled(False)
    try:
        assert not b.mha.get_fastpath_enabled()
    finally:
        b.mha.set_fastpath_enabled(True)
    with b.nnpack.flags(enabled=True):
        assert b.nnpack.set_flags(True) == (True,)
    assert b.nnpack.set_flags(False) == (False,)
