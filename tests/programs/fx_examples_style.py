# wrapping a traced module's output in an activation traced from an nn.Module, via a Proxy
from enum import Enum, auto


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.param = nn.Parameter(torch.rand(3, 4))
        self.linear = nn.Linear(4, 5)

    def forward(self, x):
        return self.linear(x + self.param).clamp(min=0.0, max=1.0)


class Activation(Enum):
    RELU = auto()
    LEAKY_RELU = auto()
    GELU = auto()


activations = {
    Activation.RELU: nn.ReLU(),
    Activation.LEAKY_RELU: nn.LeakyReLU(),
    Activation.GELU: nn.GELU(),
}


def wrap_in_activation(m, fn):
    output_node = next(n for n in reversed(m.graph.nodes) if n.op == "output")
    wrap_node = output_node.all_input_nodes[0]
    wrap_proxy = torch.fx.Proxy(wrap_node)
    activation = torch.fx.symbolic_trace(activations[fn])
    with m.graph.inserting_after(wrap_node):
        new_output = activation(wrap_proxy)
        output_node.args = (new_output.node,)
    m.recompile()


for fn in Activation:
    traced = torch.fx.symbolic_trace(Model())
    wrap_in_activation(traced, fn)
    print(traced.code)
    out(traced(torch.randn(3, 4)))
# ---
# replacing add in all its spellings (operator, function, method) with bitwise_and
import operator


class Adds(nn.Module):
    def forward(self, x, y):
        return x + y, torch.add(x, y), x.add(y)


traced = torch.fx.symbolic_trace(Adds())
patterns = {operator.add, torch.add, "add"}
for n in traced.graph.nodes:
    if any(n.target == pattern for pattern in patterns):
        with traced.graph.inserting_after(n):
            new_node = traced.graph.call_function(torch.bitwise_and, n.args, n.kwargs)
            n.replace_all_uses_with(new_node)
        traced.graph.erase_node(n)
traced.recompile()
print(traced.code)
out(traced(torch.tensor([1, 2, 7]), torch.tensor([3, 3, 5])))
# ---
# inverting a function by walking its graph backwards and building a new Graph
inverse = {}
for a, b in [(torch.sin, torch.arcsin), (torch.tan, torch.arctan), (torch.exp, torch.log)]:
    inverse[a], inverse[b] = b, a


def invert(model):
    fx_model = torch.fx.symbolic_trace(model)
    new_graph = torch.fx.Graph()
    env = {}
    for node in reversed(fx_model.graph.nodes):
        if node.op == "call_function":
            env[node.args[0].name] = new_graph.call_function(
                inverse[node.target], (env[node.name],)
            )
        elif node.op == "output":
            env[node.args[0].name] = new_graph.placeholder(node.name)
        elif node.op == "placeholder":
            new_graph.output(env[node.name])
    new_graph.lint()
    return torch.fx.GraphModule(fx_model, new_graph)


def f(x):
    return torch.exp(torch.tan(x))


inverted = invert(f)
print(inverted.code)
print(inverted.graph)
x = torch.arange(5) + 1
out(f(inverted(x)), x)


# ---
# a library of low-precision primitives, wrapped while tracing, then inlined with Proxies
def sigmoid_lowp(x: torch.Tensor):
    x = x.float()
    x = x.sigmoid()
    return x.half()


def add_lowp(a: torch.Tensor, b: torch.Tensor):
    a, b = a.float(), b.float()
    return (a + b).half()


# generated code names wrapped functions by their module (an exec'd program has none)
sigmoid_lowp.__module__ = add_lowp.__module__ = "primitives"
torch.fx.wrap("sigmoid_lowp")
torch.fx.wrap("add_lowp")


class Foo(nn.Module):
    def forward(self, x: torch.Tensor, y: torch.Tensor):
        return add_lowp(sigmoid_lowp(x), sigmoid_lowp(y))


traced = torch.fx.symbolic_trace(Foo())
print(traced.code)
print(traced.graph)


def inline_sigmoid_lowp(traced):
    for node in list(traced.graph.nodes):
        if node.op == "call_function" and node.target is sigmoid_lowp:
            with traced.graph.inserting_before(node):
                proxy_args = torch.fx.node.map_arg(node.args, torch.fx.Proxy)
                output_proxy = node.target(*proxy_args)
                node.replace_all_uses_with(output_proxy.node)
                traced.graph.erase_node(node)


inline_sigmoid_lowp(traced)
traced.recompile()
print(traced.code)
out(traced(torch.randn(3), torch.randn(3)))
