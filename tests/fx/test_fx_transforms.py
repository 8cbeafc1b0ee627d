"""Graph editing, Interpreter, Transformer, ShapeProp and replace_pattern against torch's:
each scenario runs under both libraries and what it prints and returns is compared."""

from __future__ import annotations

import contextlib
import importlib
import io

import numpy as np
import pytest

import numtorch

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.parity


def _run(scenario):
    results = {}
    for lib in (numtorch, torch):
        nn = importlib.import_module(f"{lib.__name__}.nn")
        F = importlib.import_module(f"{lib.__name__}.nn.functional")
        printed = io.StringIO()
        lib.manual_seed(0)
        with contextlib.redirect_stdout(printed):
            value = scenario(lib, nn, F)
        results[lib.__name__] = (value, printed.getvalue().replace("numtorch", "torch"))
    return results["numtorch"], results["torch"]


def _same(scenario):
    (ours, our_print), (theirs, their_print) = _run(scenario)
    assert our_print == their_print
    return ours, theirs


def _array(lib, t):
    return t.detach().numpy()


class _Net:
    """A small network built the same way under either library."""

    @staticmethod
    def build(lib, nn, F):
        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.conv = nn.Conv2d(1, 2, 3)
                self.bn = nn.BatchNorm2d(2)
                self.fc = nn.Linear(2 * 4 * 4, 3)

            def forward(self, x):
                x = F.relu(self.bn(self.conv(x)))
                x = torch_flatten(lib, x)
                return self.fc(x).neg()

        return Net().eval()


def torch_flatten(lib, x):
    return lib.flatten(x, 1)


def test_graph_editing_prints_as_torchs():
    def scenario(lib, nn, F):
        gm = lib.fx.symbolic_trace(_Net.build(lib, nn, F))
        graph = gm.graph
        for node in graph.nodes:
            if node.op == "call_function" and node.name == "relu":
                with graph.inserting_after(node):
                    new = graph.call_function(lib.sigmoid, (node,))
                node.replace_all_uses_with(new)
                new.update_arg(0, node)
            if node.op == "call_method" and node.target == "neg":
                with graph.inserting_before(node):
                    doubled = graph.call_method("mul", (node.args[0], 2))
                node.replace_input_with(node.args[0], doubled)
        output = graph.output_node()
        with graph.inserting_before(output):
            spare = graph.create_node("call_function", lib.add, (output.args[0], 1), name="spare")
        output.prepend(spare)
        print(spare.name, spare.prev.name, spare.next.name)
        print(graph)
        print(graph.eliminate_dead_code())
        graph.lint()
        gm.recompile()
        print(gm.code)
        x = lib.randn(1, 1, 6, 6)
        return _array(lib, gm(x))

    ours, theirs = _same(scenario)
    np.testing.assert_allclose(ours, theirs, rtol=1e-5, atol=1e-6)


def test_erase_node_with_users_raises_as_torchs():
    def scenario(lib, nn, F):
        gm = lib.fx.symbolic_trace(lambda x: lib.relu(x) + 1)
        relu = list(gm.graph.nodes)[1]
        try:
            gm.graph.erase_node(relu)
        except Exception as e:
            print(type(e).__name__)
        return len(gm.graph.nodes)

    ours, theirs = _same(scenario)
    assert ours == theirs == 4


def test_interpreter_runs_and_can_be_overridden():
    def scenario(lib, nn, F):
        gm = lib.fx.symbolic_trace(_Net.build(lib, nn, F))

        class Profiler(lib.fx.Interpreter):
            def run_node(self, n):
                result = super().run_node(n)
                shape = tuple(result.shape) if isinstance(result, lib.Tensor) else None
                print(n.op, n.name, n.format_node(), shape)
                return result

            def call_function(self, target, args, kwargs):
                if target is lib.flatten:
                    print("flatten called with", args[1])
                return super().call_function(target, args, kwargs)

        x = lib.randn(2, 1, 6, 6)
        out = Profiler(gm).run(x)
        return _array(lib, out), _array(lib, gm(x))

    (ours, ours_direct), (theirs, _) = _same(scenario)
    np.testing.assert_allclose(ours, theirs, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(ours, ours_direct)


def test_transformer_swaps_functions_and_keeps_modules():
    def scenario(lib, nn, F):
        gm = lib.fx.symbolic_trace(_Net.build(lib, nn, F))

        class ReluToGelu(lib.fx.Transformer):
            def call_function(self, target, args, kwargs):
                if target == F.relu:
                    return super().call_function(F.gelu, args[:1], {})
                return super().call_function(target, args, kwargs)

            def call_method(self, target, args, kwargs):
                if target == "neg":
                    return super().call_method("abs", args, kwargs)
                return super().call_method(target, args, kwargs)

        new = ReluToGelu(gm).transform()
        print(new.code)
        print(new.graph)
        x = lib.randn(2, 1, 6, 6)
        return _array(lib, new(x))

    ours, theirs = _same(scenario)
    np.testing.assert_allclose(ours, theirs, rtol=1e-5, atol=1e-6)


def test_shape_prop_records_torchs_tensor_meta():
    def scenario(lib, nn, F):
        gm = lib.fx.symbolic_trace(_Net.build(lib, nn, F))
        lib.fx.passes.shape_prop.ShapeProp(gm).propagate(lib.randn(2, 1, 6, 6))
        for node in gm.graph.nodes:
            meta = node.meta["tensor_meta"]
            print(
                node.name,
                meta.dtype,
                meta.shape,
                meta.stride,
                meta.requires_grad,
                meta.memory_format,
            )
            print(node.meta["type"].__name__)
        gm.print_readable()
        return None

    _same(scenario)


def test_replace_pattern_returns_torchs_matches():
    def scenario(lib, nn, F):
        def f(x, w):
            a = lib.relu(x) + w
            b = lib.relu(a) + w
            return lib.sigmoid(b), lib.relu(w)

        def pattern(x, w):
            return lib.relu(x) + w

        def replacement(x, w):
            return lib.sub(x, w).neg()

        gm = lib.fx.symbolic_trace(f)
        matches = lib.fx.replace_pattern(gm, pattern, replacement)
        print(matches)
        print(gm.code)
        print(gm.graph)
        x, w = lib.randn(3), lib.randn(3)
        return [_array(lib, t) for t in gm(x, w)]

    ours, theirs = _same(scenario)
    np.testing.assert_allclose(np.stack(ours), np.stack(theirs), rtol=1e-6)


def test_custom_tracer_and_wrap():
    def scenario(lib, nn, F):
        class Inner(nn.Module):
            def __init__(self):
                super().__init__()
                self.lin = nn.Linear(3, 3)

            def forward(self, x):
                return self.lin(x).relu()

        class Outer(nn.Module):
            def __init__(self):
                super().__init__()
                self.inner = Inner()
                self.act = nn.ReLU()

            def forward(self, x):
                return self.act(self.inner(x)) * 2

        class InnerIsLeaf(lib.fx.Tracer):
            def is_leaf_module(self, m, qualname):
                return isinstance(m, Inner) or super().is_leaf_module(m, qualname)

        class CountingTracer(lib.fx.Tracer):
            def create_proxy(self, kind, target, args, kwargs, name=None, type_expr=None, *a, **k):
                print("create_proxy", kind, target if isinstance(target, str) else target.__name__)
                return super().create_proxy(kind, target, args, kwargs, name, type_expr, *a, **k)

        model = Outer()
        for tracer in (InnerIsLeaf(), CountingTracer()):
            graph = tracer.trace(model)
            gm = lib.fx.GraphModule(tracer.root, graph, "Traced")
            print(gm)
            print([n.meta.get("nn_module_stack") is not None for n in graph.nodes])
        x = lib.randn(2, 3)
        return _array(lib, gm(x)), _array(lib, model(x))

    (ours, ours_model), (theirs, _) = _same(scenario)
    np.testing.assert_allclose(ours, theirs, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(ours, ours_model)


def test_graph_module_state_and_copies():
    def scenario(lib, nn, F):
        import copy

        gm = lib.fx.symbolic_trace(_Net.build(lib, nn, F))
        print(sorted(gm.state_dict()))
        clone = copy.deepcopy(gm)
        print(clone.code == gm.code, clone.conv is gm.conv, type(clone).__name__)
        gm.delete_submodule("bn")
        print(gm.get_submodule("conv"))
        x = lib.randn(1, 1, 6, 6)
        return _array(lib, clone(x))

    ours, theirs = _same(scenario)
    np.testing.assert_allclose(ours, theirs, rtol=1e-5, atol=1e-6)


def test_torch_functions_on_proxies_outside_a_trace():
    def scenario(lib, nn, F):
        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.relu = nn.ReLU()

            def forward(self, x):
                return lib.sigmoid(self.relu(x) + 1.0)

        traced = lib.fx.symbolic_trace(M())

        class NegSigmSwap(lib.fx.Transformer):
            def call_function(self, target, args, kwargs):
                if target == lib.sigmoid:
                    return lib.neg(*args, **kwargs)
                return super().call_function(target, args, kwargs)

        print(NegSigmSwap(traced).transform().code)

        # inline the ReLU module: run its forward on Proxies where the call was
        graph = traced.graph
        for node in list(graph.nodes):
            if node.op == "call_module":
                with graph.inserting_before(node):
                    tracer = lib.fx.proxy.GraphAppendingTracer(graph)
                    proxy_args = lib.fx.node.map_arg(node.args, lambda n: lib.fx.Proxy(n, tracer))
                    output = traced.get_submodule(node.target).forward(*proxy_args)
                    node.replace_all_uses_with(output.node)
                    graph.erase_node(node)
        traced.recompile()
        print(traced.code)
        print(lib.relu is lib.relu, lib.fx.Proxy.__name__)
        return _array(lib, traced(lib.tensor([-1.0, 2.0])))

    ours, theirs = _same(scenario)
    np.testing.assert_allclose(ours, theirs)


def test_graph_built_from_proxies_of_a_graph_appending_tracer():
    def scenario(lib, nn, F):
        graph = lib.fx.Graph()
        tracer = lib.fx.proxy.GraphAppendingTracer(graph)
        x = lib.fx.Proxy(graph.placeholder("x"), tracer)
        y = lib.fx.Proxy(graph.placeholder("y"), tracer)
        b = lib.tanh(lib.cat([x, y]))
        c = F.relu(lib.neg(b)) + lib.add(b, 1)
        graph.output(c.node)
        gm = lib.fx.GraphModule(nn.Module(), graph)
        print(gm.code)
        print(graph)
        return _array(lib, gm(lib.ones(2), lib.zeros(2)))

    ours, theirs = _same(scenario)
    np.testing.assert_allclose(ours, theirs, rtol=1e-6)
    # once the Proxies are gone, torch's functions are the plain ones again
    assert type(numtorch.relu).__name__ == "function"
    assert numtorch.fx._patching._Recording.holders == 0


def test_tracer_overrides_of_the_examples_and_print_tabular():
    def scenario(lib, nn, F):
        class M1(nn.Module):
            def __init__(self):
                super().__init__()
                self.relu = nn.ReLU()
                self.lin = nn.Linear(2, 2)

            def forward(self, x: lib.Tensor) -> lib.Tensor:
                return self.relu(self.lin(x)) + lib.ones(1)

        class LowerRelu(lib.fx.Tracer):
            def is_leaf_module(self, m, qualname):
                return not isinstance(m, nn.ReLU) and super().is_leaf_module(m, qualname)

        tracer = LowerRelu()
        graph = tracer.trace(M1())
        print(graph)
        print(lib.fx.GraphModule(tracer.root, graph).code)

        class Tagging(lib.fx.Tracer):
            def create_node(self, kind, target, args, kwargs, name=None, type_expr=None):
                n = super().create_node(kind, target, args, kwargs, name)
                n.tag = kind[:4]
                return n

        print([n.tag for n in Tagging().trace(M1()).nodes])

        class ModulePathTracer(lib.fx.Tracer):
            current = ""
            origin = {}

            def call_module(self, m, forward, args, kwargs):
                old, self.current = self.current, self.path_of_module(m)
                try:
                    return super().call_module(m, forward, args, kwargs)
                finally:
                    self.current = old

            def create_proxy(self, kind, target, args, kwargs, name=None, type_expr=None):
                proxy = super().create_proxy(kind, target, args, kwargs, name, type_expr)
                self.origin[proxy.node] = self.current
                return proxy

        class Outer(nn.Module):
            def __init__(self):
                super().__init__()
                self.w = nn.Parameter(lib.ones(2))
                self.inner = M1()

            def forward(self, x):
                return self.inner(x * self.w)

        tracer = ModulePathTracer()
        for n in tracer.trace(Outer()).nodes:
            print(n.name, repr(tracer.origin.get(n)))
        # reprs of operators and modules' names are the same in both: the whole table is
        lib.fx.symbolic_trace(lambda a, b: a + b - a * 2).graph.print_tabular()
        lib.fx.symbolic_trace(nn.Sequential(nn.Linear(2, 2), nn.ReLU())).graph.print_tabular()

    _same(scenario)


def test_missing_parts_of_fx_say_so():
    with pytest.raises(
        AttributeError, match=r"torch\.fx\.experimental is not supported by numtorch"
    ):
        numtorch.fx.experimental  # noqa: B018
    assert hasattr(torch.fx, "experimental")
