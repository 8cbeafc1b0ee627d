# normal's parameters get zero gradients that are constants: they never require grad, even
# when the incoming gradient does
std = torch.zeros(2, requires_grad=True)
mean = torch.tensor([0.0, 1.0], requires_grad=True)
w = torch.tensor([2.0, 3.0], requires_grad=True)
y = torch.normal(0.0, std)
z = torch.normal(mean, 0.0)
g = torch.autograd.grad((y * w).sum() + (z * w).sum(), [std, mean], create_graph=True)
out(g[0], g[1], y, z)
