# custom tracers: leaf modules of one's own, wrapped functions, concrete_args and trace errors
def clamp_positive(x, limit):
    return x.clamp(min=0) if limit is None else x.clamp(0, limit)


# generated code names a wrapped function by its module (an exec'd program has none)
clamp_positive.__module__ = "helpers"
torch.fx.wrap("clamp_positive")


class Expert(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(3, 3)

    def forward(self, x):
        return torch.tanh(self.lin(x))


class Mixture(nn.Module):
    def __init__(self):
        super().__init__()
        self.experts = nn.ModuleList([Expert(), Expert()])
        self.gate = nn.Linear(3, 2)

    def forward(self, x, temperature=1.0):
        weights = F.softmax(self.gate(x) / temperature, dim=-1)
        outs = torch.stack([e(x) for e in self.experts], dim=-1)
        mixed = (outs * weights.unsqueeze(1)).sum(-1)
        return clamp_positive(mixed, None)


class ExpertLeafTracer(torch.fx.Tracer):
    def is_leaf_module(self, m, qualname):
        return isinstance(m, Expert) or super().is_leaf_module(m, qualname)


model = Mixture()
default = torch.fx.symbolic_trace(model)
print(default.code)
tracer = ExpertLeafTracer()
graph = tracer.trace(model)
leafy = torch.fx.GraphModule(tracer.root, graph, "Mixture")
print(leafy.code)
print(graph)
x = torch.randn(4, 3)
out(default(x), leafy(x), model(x))
out([n.target for n in graph.nodes if n.op == "call_module"])


# ---
# control flow on a traced value fails with torch's errors; concrete_args specialise it
def branchy(x, scale):
    if scale > 1:
        return x * scale
    return x


err(lambda: torch.fx.symbolic_trace(branchy))
special = torch.fx.symbolic_trace(branchy, concrete_args={"scale": 2})
print(special.code)
out(special(torch.ones(2), 2))


def loops(x):
    total = 0
    for row in x:
        total = total + row
    return total


err(lambda: torch.fx.symbolic_trace(loops))
err(lambda: torch.fx.symbolic_trace(lambda x: len(x)))


def unpacked(x):
    a, b = x.chunk(2)
    n, m = x.shape
    return a * n + b * m


print(torch.fx.symbolic_trace(unpacked).code)
# ---
# building a Graph by hand, then running it as a GraphModule
graph = torch.fx.Graph()
x = graph.placeholder("x")
w = graph.get_attr("weight")
mm = graph.call_function(torch.matmul, (x, w))
act = graph.call_method("relu", (mm,))
total = graph.call_function(torch.sum, (act,), {"dim": 1})
graph.output((act, total))
root = nn.Module()
root.weight = nn.Parameter(torch.randn(3, 2))
gm = torch.fx.GraphModule(root, graph, "Handmade")
print(gm.code)
print(graph)
out(*gm(torch.randn(4, 3)))
with graph.inserting_before(graph.output_node()):
    proxy = torch.fx.Proxy(act)
    doubled = proxy * 2 + proxy.sum()
graph.output_node().args = ((doubled.node,),)
graph.eliminate_dead_code()
gm.recompile()
print(gm.code)
out(*gm(torch.randn(4, 3)))
