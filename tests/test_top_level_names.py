"""Top-level torch names real programs reach for: the autocast switches, ``TorchVersion``,
``torch.return_types``, ``torch.functional`` and ``get_device_module``, against torch."""

from __future__ import annotations

import operator
import pathlib
import warnings

import numpy as np
import pytest

import numtorch

torch = pytest.importorskip("torch")


def _outcome(fn):
    try:
        return fn()
    except Exception as error:  # the type and message are what the parity compares
        return type(error).__name__, str(error)


def _autocast_story(lib):
    """Every switch in turn, with the dtype a matrix product gets and the errors."""

    def product_dtype():
        return str((lib.ones(2, 2) @ lib.ones(2, 2)).dtype)

    seen = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        lib.set_autocast_enabled("cpu", True)
        seen += [lib.is_autocast_enabled("cpu"), product_dtype()]
        lib.set_autocast_dtype("cpu", lib.float16)
        seen += [product_dtype(), str(lib.get_autocast_dtype("cpu"))]
        lib.set_autocast_enabled("cpu", False)
        seen.append(product_dtype())
        with lib.autocast("cpu"):  # a region's default dtype is the one set above
            seen += [product_dtype(), lib.autocast_increment_nesting()]
            lib.autocast_decrement_nesting()
        lib.set_autocast_dtype("cpu", lib.bfloat16)
        lib.set_autocast_cpu_enabled(True)
        seen += [lib.is_autocast_enabled("cpu"), product_dtype()]
        lib.set_autocast_cpu_enabled(False)
        lib.set_autocast_cpu_dtype(lib.bfloat16)
        seen.append(lib.is_autocast_cache_enabled())
        lib.set_autocast_cache_enabled(False)
        seen.append(lib.is_autocast_cache_enabled())
        lib.set_autocast_cache_enabled(True)
        seen.append([lib.autocast_increment_nesting() for _ in range(2)])
        seen.append([lib.autocast_decrement_nesting() for _ in range(3)])
        lib.autocast_increment_nesting()
        seen.append(lib.clear_autocast_cache())
        lib.set_autocast_enabled(True)  # the legacy form names CUDA
        seen += [lib.is_autocast_enabled(), lib.is_autocast_enabled("cpu")]
        lib.set_autocast_enabled(False)
    for bad in (
        lambda: lib.set_autocast_enabled("cpu", 3),
        lambda: lib.set_autocast_enabled("foo", True),
        lambda: lib.set_autocast_dtype("cpu", 3),
        lambda: lib.set_autocast_cache_enabled(1),
        lambda: lib.set_autocast_cpu_enabled(1),
    ):
        seen.append(_outcome(bad))
    return seen


def test_autocast_switches_match_torch():
    assert _autocast_story(numtorch) == _autocast_story(torch)
    assert not numtorch.is_autocast_enabled("cpu")
    assert numtorch.get_autocast_dtype("cpu") is numtorch.bfloat16


def test_a_weight_cast_is_cached_only_while_the_cache_is_enabled():
    w = numtorch.ones(2, 2, requires_grad=True)
    x = numtorch.ones(2, 2)
    for enabled, shared in ((True, True), (False, False)):
        numtorch.set_autocast_cache_enabled(enabled)
        try:
            with numtorch.autocast("cpu"):
                a, b = x @ w, x @ w
        finally:
            numtorch.set_autocast_cache_enabled(True)
        cast_a = a.grad_fn.next_functions[1][0]
        cast_b = b.grad_fn.next_functions[1][0]
        assert (cast_a is cast_b) is shared


VERSIONS = [
    "2.13.0+cpu",
    "2.13.0",
    "2.13",
    "2.0.1",
    "1.13.1",
    "2.13.0a0",
    "2.13.0.dev20240101",
    "2.13.0rc1",
    "2.13.0.post1",
    "abc",
    "2.13.0+cu121",
    "3",
]
COMPARISONS = (operator.lt, operator.le, operator.eq, operator.ne, operator.gt, operator.ge)


@pytest.mark.parametrize("version", VERSIONS)
def test_torch_version_compares_like_torch(version):
    ours = numtorch.torch_version.TorchVersion(version)
    theirs = torch.torch_version.TorchVersion(version)
    for other in [*VERSIONS, (2, 13), (2, 13, 0), (1,), [2, 1], 2, 3.5, None]:
        for compare in COMPARISONS:
            expected = _outcome(lambda: compare(theirs, other))
            got = _outcome(lambda: compare(ours, other))
            # messages name the class's module: compare the exception type only
            if isinstance(expected, tuple):
                expected, got = expected[0], got[0] if isinstance(got, tuple) else got
            assert got == expected, (version, other, compare.__name__)


def test_version_reports_the_torch_api_with_numtorchs_release_as_local_label():
    version = numtorch.__version__
    assert isinstance(version, numtorch.torch_version.TorchVersion)
    assert version == numtorch.version.__version__ == "2.13.0+numtorch.0.1.0"
    public = torch.__version__.split("+")[0]
    assert version.split("+")[0] == public
    # the comparisons programs gate features on take their torch 2.x branch
    assert version >= "2.0" and version >= (2, 0) and version > "1.12.1"
    assert version.split(".")[:2] == torch.__version__.split(".")[:2]
    assert int(version.split(".")[0]) >= 2
    assert tuple(int(p) for p in version.split("+")[0].split(".")) >= (2, 13, 0)
    assert version > "2.13.0" and version < "2.13.1" and version < (2, 14)


def test_version_parses_with_packaging_as_torch_does():
    packaging_version = pytest.importorskip("packaging.version")
    ours = packaging_version.parse(numtorch.__version__)
    assert ours.local == "numtorch.0.1.0"
    assert ours.release == packaging_version.parse(torch.__version__).release
    assert ours >= packaging_version.parse("1.12")
    assert ours.base_version == packaging_version.parse(torch.__version__).base_version


def test_package_metadata_keeps_numtorchs_own_version():
    tomllib = pytest.importorskip("tomllib")
    root = pathlib.Path(numtorch.__file__).parents[2]
    pyproject = tomllib.loads((root / "pyproject.toml").read_text())
    assert pyproject["project"]["version"] == numtorch.version.NUMTORCH_VERSION


def test_return_types_name_the_classes_ops_return():
    x = numtorch.tensor([[3.0, 1.0], [2.0, 4.0]])
    assert type(x.max(0)) is numtorch.return_types.max
    assert type(x.sort()) is numtorch.return_types.sort
    assert type(numtorch.linalg.qr(x)) is numtorch.return_types.linalg_qr
    assert type(numtorch.aminmax(x)) is numtorch.return_types.aminmax
    theirs = {
        n
        for n in dir(torch.return_types)
        if not n.startswith("_")
        and isinstance(getattr(torch.return_types, n), type)
        and issubclass(getattr(torch.return_types, n), tuple)
    }
    missing = {n for n in theirs if not hasattr(numtorch.return_types, n)}
    assert missing == set()
    with pytest.raises(AttributeError, match="torch.return_types.nope is not supported"):
        _ = numtorch.return_types.nope


def test_torch_functional_holds_torchs_names():
    from numtorch.functional import F

    assert F is numtorch.nn.functional
    assert sorted(numtorch.functional.__all__) == sorted(torch.functional.__all__)
    for name in torch.functional.__all__:
        assert getattr(numtorch.functional, name) is getattr(numtorch, name)


@pytest.mark.parametrize(
    "device", [None, "cpu", "cuda", "cuda:1", "xpu", "mps", "meta", "foo", 3, "cpu_device"]
)
def test_get_device_module_matches_torch(device):
    def name(lib):
        if isinstance(device, str) and device.startswith("cpu_"):
            return lib.get_device_module(lib.device("cpu")).__name__.split(".", 1)[1]
        return lib.get_device_module(device).__name__.split(".", 1)[1]

    assert _outcome(lambda: name(numtorch)) == _outcome(lambda: name(torch))


NORMS = {
    "frobenius_all": lambda t, x: t.frobenius_norm(x, (0, 1)),
    "frobenius_one_dim": lambda t, x: t.frobenius_norm(x, (0,)),
    "frobenius_int_keepdim": lambda t, x: t.frobenius_norm(x, 1, True),
    "frobenius_negative_keepdim": lambda t, x: t.frobenius_norm(x, [-1, 0], True),
    "frobenius_three_dims": lambda t, x: t.frobenius_norm(x, (0, 1, 2)),
    "frobenius_integer": lambda t, x: t.frobenius_norm(x.long(), (0,)),
    "frobenius_no_dim": lambda t, x: t.frobenius_norm(x),
    "nuclear": lambda t, x: t.nuclear_norm(x),
    "nuclear_keepdim": lambda t, x: t.nuclear_norm(x, True),
    "nuclear_dims": lambda t, x: t.nuclear_norm(x, (0, 1), keepdim=True),
    "nuclear_of_a_matrix": lambda t, x: t.nuclear_norm(x[0]),
}


def _norm_outcome(lib, name):
    # full-rank matrices: at a zero singular value the nuclear norm's gradient U V^T holds
    # singular vectors LAPACK is free to choose, which differ between CPUs
    values = np.arange(24.0).reshape(2, 3, 4) / 7 + np.cos(np.arange(24.0)).reshape(2, 3, 4)
    x = lib.tensor(values, requires_grad=True)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # torch warns once per process: not compared
            result = NORMS[name](lib, x)
    except Exception as error:  # the type and message are what the parity compares
        return type(error).__name__, str(error)
    result.sum().backward()
    values = np.round(result.detach().numpy(), 10).tolist()
    return result.grad_fn.name(), str(result.dtype), values, np.round(x.grad.numpy(), 10).tolist()


@pytest.mark.parametrize("name", sorted(NORMS))
def test_deprecated_norms_match_torch(name):
    assert _norm_outcome(numtorch, name) == _norm_outcome(torch, name)


def test_deprecated_norms_warn_as_torch_does():
    numtorch._core.warn_once.given.clear()
    with pytest.warns(UserWarning, match=r"at::nuclear_norm is deprecated .* 'nuc'"):
        numtorch.nuclear_norm(numtorch.ones(2, 2))


CTC_CALLS = {
    "default": lambda t, lp, tg: t.ctc_loss(lp, tg, [5, 4], [2, 1]),
    "none": lambda t, lp, tg: t.ctc_loss(lp, tg, [5, 4], [2, 1], 0, 0, False),
    "mean": lambda t, lp, tg: t.ctc_loss(lp, tg, [5, 4], [2, 1], 0, 1),
    "sum": lambda t, lp, tg: t.ctc_loss(lp, tg, t.tensor([5, 4]), t.tensor([2, 1]), 0, 2),
    "blank_3": lambda t, lp, tg: t.ctc_loss(lp, tg, [5, 4], [2, 1], 3, 1),
    "impossible_zeroed": lambda t, lp, tg: t.ctc_loss(lp, tg, [1, 1], [2, 1], 0, 2, True),
    "string_reduction": lambda t, lp, tg: t.ctc_loss(lp, tg, [5, 4], [2, 1], 0, "mean"),
}


def _ctc_outcome(lib, name):
    logits = np.linspace(-1.0, 1.0, 5 * 2 * 4).reshape(5, 2, 4) ** 2
    lp = lib.tensor(logits).log_softmax(2).detach().requires_grad_()
    targets = lib.tensor([[1, 2], [2, 0]])
    try:
        loss = CTC_CALLS[name](lib, lp, targets)
    except TypeError as error:  # torch's message lists its overloads: compare the type
        return "TypeError", "reduction" in str(error)
    loss.sum().backward()
    values = np.round(loss.detach().numpy(), 10).tolist()
    return loss.grad_fn.name(), values, np.round(lp.grad.numpy(), 10).tolist()


@pytest.mark.parametrize("name", sorted(CTC_CALLS))
def test_top_level_ctc_loss_matches_torch(name):
    assert _ctc_outcome(numtorch, name) == _ctc_outcome(torch, name)
