# rewriting a traced graph: swap relu for gelu in place, then a Transformer and replace_pattern
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)

    def forward(self, x):
        y = torch.relu(self.lin(x))
        z = F.relu(y) + torch.neg(x)
        return torch.sigmoid(z).sum(dim=1)


model = Net()
gm = torch.fx.symbolic_trace(model)
print(gm.graph)
for node in gm.graph.nodes:
    if node.op == "call_function" and node.target in (torch.relu, F.relu):
        node.target = F.gelu
        node.kwargs = {}
gm.recompile()
print(gm.code)
x = torch.randn(3, 4)
out(gm(x))


class NegSigmSwap(torch.fx.Transformer):
    def call_function(self, target, args, kwargs):
        if target == torch.sigmoid:
            return super().call_function(torch.neg, args, kwargs)
        if target == torch.neg:
            return super().call_function(torch.sigmoid, args, kwargs)
        return super().call_function(target, args, kwargs)


swapped = NegSigmSwap(torch.fx.symbolic_trace(model)).transform()
print(swapped.code)
out(swapped(x), model(x))


# ---
# subgraph rewriting with replace_pattern: fold (x * w) + b into addcmul
def program(x, w, b):
    y = x * w + b
    z = torch.relu(y) * w + b
    return z, y


def pattern(x, w, b):
    return x * w + b


def replacement(x, w, b):
    return torch.addcmul(b, x, w)


traced = torch.fx.symbolic_trace(program)
matches = torch.fx.replace_pattern(traced, pattern, replacement)
print(len(matches), [sorted(m.nodes_map[k].name for k in m.nodes_map) for m in matches])
print(traced.code)
args = (torch.randn(3), torch.randn(3), torch.randn(3))
out(traced(*args), program(*args))
# ---
# inserting nodes: wrap every relu's output in a scaling call_method and check with lint
gm = torch.fx.symbolic_trace(nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 2), nn.ReLU()))
graph = gm.graph
for node in list(graph.nodes):
    if node.op == "call_module" and isinstance(gm.get_submodule(node.target), nn.ReLU):
        with graph.inserting_after(node):
            scaled = graph.call_method("mul", (node, 0.5))
        node.replace_all_uses_with(scaled, delete_user_cb=lambda user: user is not scaled)
graph.lint()
gm.recompile()
print(gm.code)
print(graph)
x = torch.randn(4, 2)
out(gm(x))
out([n.name for n in graph.nodes], [len(n.users) for n in graph.nodes])
