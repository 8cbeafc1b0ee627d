# gradient edges: a tensor's node and output number, usable as autograd.grad's inputs
from importlib import import_module

graph = import_module(torch.__name__ + ".autograd.graph")
x = torch.ones(2, requires_grad=True)
y = x * 2
edge = graph.get_gradient_edge(y)
print(type(edge).__name__, type(edge.node).__name__, edge.output_nr, edge.node is y.grad_fn)
leaf = graph.get_gradient_edge(x)
print(type(leaf.node).__name__, leaf.output_nr)
z = (y**2).sum()
out(torch.autograd.grad(z, edge, retain_graph=True))
out(torch.autograd.grad(z, [edge, x], retain_graph=True))
out(torch.autograd.grad(z, (leaf,), retain_graph=True))
a, b = torch.ones(2, requires_grad=True).unbind()
second = graph.get_gradient_edge(b)
print(type(second.node).__name__, second.output_nr)
out(torch.autograd.grad(a * 2 + b * 5, second))
err(lambda: graph.get_gradient_edge(torch.ones(2)))
err(lambda: torch.autograd.grad((x * 3).sum(), graph.get_gradient_edge(y)))
