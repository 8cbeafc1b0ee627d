"""Names real torch programs touch at start-up: nn.DataParallel on the CPU, torch.jit as a
pass-through, torch.nn.modules.<x> import paths, torch.dist's node, and a clear error for
torch names numtorch lacks."""

import importlib
import warnings

import pytest

import numtorch

torch = pytest.importorskip("torch")


def _data_parallel(lib):
    lib.manual_seed(0)
    inner = lib.nn.Linear(2, 1)
    model = lib.nn.DataParallel(inner)
    out = model(lib.ones(3, 2))
    model.load_state_dict({"module.weight": lib.zeros(1, 2), "module.bias": lib.ones(1)})
    return (
        repr(model),
        list(model.state_dict()),
        [n for n, _ in model.named_parameters()],
        model.module is inner,
        model.device_ids,
        tuple(out.shape),
        type(out.grad_fn).__name__,
        model(lib.ones(1, 2)).tolist(),
        isinstance(model, lib.nn.Module),
        lib.nn.parallel.DataParallel is lib.nn.DataParallel,
    )


def test_data_parallel_wraps_and_forwards_as_on_torch_cpu():
    assert _data_parallel(numtorch) == _data_parallel(torch)


def test_data_parallel_function_needs_a_device():
    for lib in (numtorch, torch):
        with pytest.raises(RuntimeError):
            lib.nn.parallel.data_parallel(lib.nn.Linear(2, 1), lib.ones(1, 2))


def test_jit_script_and_trace_return_the_module_and_warn_once():
    model = numtorch.nn.Linear(2, 1)
    numtorch._core.warn_once.given.clear()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert numtorch.jit.script(model) is model
        assert numtorch.jit.script(model) is model
        assert numtorch.jit.trace(model, numtorch.ones(1, 2)) is model
    messages = [str(w.message) for w in caught]
    assert len(messages) == 2 and all("numtorch has no TorchScript" in m for m in messages)


def test_jit_decorators_and_probes():
    for lib in (numtorch, torch):

        @lib.jit.ignore
        def f(x):
            return x + 1

        @lib.jit.unused
        def g(x):
            return x * 2

        class M(lib.nn.Module):
            @lib.jit.export
            def h(self):
                return 3

        assert f(1) == 2 and g(2) == 4 and M().h() == 3
        assert lib.jit.is_scripting() is False and lib.jit.is_tracing() is False
        assert lib.jit.annotate(int, 3) == 3
        assert lib.jit.isinstance([1], list[int])
        assert issubclass(lib.jit.ScriptModule, lib.nn.Module)
    with pytest.raises(NotImplementedError, match="state_dict"):
        numtorch.jit.save(numtorch.nn.Linear(1, 1), "model.pt")


@pytest.mark.parametrize(
    "path, names",
    [
        ("nn.modules.pixelshuffle", ["PixelShuffle", "PixelUnshuffle"]),
        ("nn.modules.channelshuffle", ["ChannelShuffle"]),
        ("nn.modules.fold", ["Fold", "Unfold"]),
        ("nn.modules.utils", ["_single", "_pair", "_triple", "_quadruple"]),
        ("nn.modules.conv", ["Conv2d", "ConvTranspose2d"]),
        ("nn.modules.linear", ["Linear", "Identity"]),
        ("nn.modules.loss", ["CrossEntropyLoss", "MSELoss"]),
        ("nn.modules.activation", ["ReLU", "MultiheadAttention"]),
        ("nn.modules.batchnorm", ["BatchNorm2d"]),
        ("nn.modules.container", ["Sequential", "ModuleList"]),
        ("nn.modules.module", ["Module"]),
        ("nn.modules.rnn", ["LSTM", "GRU"]),
        ("nn.modules.sparse", ["Embedding"]),
        ("nn.parallel", ["DataParallel", "DistributedDataParallel"]),
    ],
)
def test_module_paths(path, names):
    ours = importlib.import_module(f"numtorch.{path}")
    theirs = importlib.import_module(f"torch.{path}")
    for name in names:
        assert hasattr(theirs, name) and hasattr(ours, name), name
    if path.endswith("utils"):
        for n in (1, 3, [2, 5]):
            assert ours._pair(n) == theirs._pair(n)
            assert ours._triple(n) == theirs._triple(n)


@pytest.mark.parametrize("p", [2.0, 1.0, 3.0, 0.0, float("inf")])
def test_dist_is_one_op(p):
    results = []
    for lib in (numtorch, torch):
        a = lib.tensor([[1.0, -2.0], [3.0, 4.0]], requires_grad=True)
        b = lib.tensor([0.5, 1.0], requires_grad=True)
        d = lib.dist(a, b, p)
        values = [d.item()]
        if p != 0:  # torch's backward of dist with p=0 fails (an undefined gradient)
            d.backward()
            values += a.grad.flatten().tolist() + b.grad.tolist()
        results.append((type(d.grad_fn).__name__, values))
    assert results[0][0] == results[1][0] == "DistBackward0"
    assert results[0][1] == pytest.approx(results[1][1], rel=1e-6)


def test_dist_errors_and_promotion():
    for lib in (numtorch, torch):
        with pytest.raises(RuntimeError):
            lib.dist(lib.tensor([1, 2]), lib.tensor([0, 0]))
        mixed = lib.dist(lib.tensor([1.0, 2.0]), lib.tensor([0.0, 0.0], dtype=lib.float64))
        assert str(mixed.dtype) == "torch.float64"


@pytest.mark.parametrize("expr", ["torch.not_a_feature", "torch.nn.NotALayer", "F.not_a_fn"])
def test_missing_names_raise_attribute_error_naming_the_torch_feature(expr):
    scope = {"torch": numtorch, "F": numtorch.nn.functional}
    with pytest.raises(AttributeError, match="is not supported by numtorch"):
        eval(expr, scope)
    assert not hasattr(numtorch, "not_a_feature")


# torch's submodules that programs reach as attributes without importing them; the ones
# numtorch does not build (CUDA internals, quantized layers, distributed RPC, ...) are left out.
_ATTRIBUTE_SUBMODULES = ["nn", "nn.modules", "nn.utils", "utils", "utils.data", "optim", "autograd"]
_NOT_BUILT = {"intrinsic", "qat", "quantizable", "linear_cross_entropy_options", "datapipes"}
_NOT_BUILT |= {"graph", "graph_settings", "profiler_legacy", "backcompat", "backend_registration"}
_NOT_BUILT |= {"collect_env", "cpp_backtrace", "deterministic", "throughput_benchmark", "weak"}


def _torch_submodule_attributes() -> dict:
    """torch's submodules that are attributes of each namespace right after ``import torch``
    (a fresh interpreter: other tests' imports add more)."""
    import json
    import subprocess
    import sys

    script = (
        "import json, types, importlib, torch\n"
        f"paths = {_ATTRIBUTE_SUBMODULES!r}\n"
        "out = {}\n"
        "for path in paths:\n"
        "    m = importlib.import_module('torch.' + path)\n"
        "    out[path] = sorted(n for n in dir(m) if not n.startswith('_')\n"
        "        and isinstance(getattr(m, n), types.ModuleType)\n"
        "        and getattr(m, n).__name__.startswith('torch.' + path + '.'))\n"
        "print(json.dumps(out))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_submodules_are_attributes():
    for path, wanted in _torch_submodule_attributes().items():
        ours = importlib.import_module(f"numtorch.{path}")
        missing = [name for name in wanted if name not in _NOT_BUILT and not hasattr(ours, name)]
        assert missing == [], path
