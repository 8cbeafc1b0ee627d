# out= writes into the given tensor and returns it
o = torch.empty(2)
r = torch.exp(torch.zeros(2), out=o)
out(r, r is o, o)
# ---
# out= resized, with or without elements; cast to a wider dtype
out(torch.add(torch.ones(2), 1, out=torch.empty(3)))
out(torch.add(torch.ones(2), 1, out=torch.empty(0)))
out(torch.add(torch.ones(2), 1, out=torch.empty(2, dtype=torch.float64)))
out(torch.sum(torch.ones(2, 3), 1, out=torch.empty(2)))
out(torch.cat([torch.ones(2), torch.zeros(1)], out=torch.empty(3)))
# ---
# out= errors: a narrowing cast, autograd, a non-tensor
err(lambda: torch.add(torch.ones(2), 1, out=torch.empty(2, dtype=torch.int64)))
err(lambda: torch.add(torch.ones(2, requires_grad=True), 1, out=torch.empty(2)))
err(lambda: torch.add(torch.ones(2), 1, out=torch.empty(2, requires_grad=True)))
err(lambda: torch.exp(torch.ones(2), out=[1]))
# ---
# errors at the op boundary: huge allocations, scatter indices, non-tensors, dims, repeats
err(lambda: torch.zeros(10**7, 10**7))
err(lambda: torch.ones(10**6, 1) + torch.ones(1, 10**7))
err(lambda: torch.zeros(3).scatter(0, torch.tensor([5]), torch.ones(1)))
err(lambda: torch.zeros(3).scatter(0, torch.tensor([-1]), 1.0))
err(lambda: torch.zeros(3).scatter_add(0, torch.tensor([3]), torch.ones(1)))
err(lambda: torch.exp(None))
err(lambda: torch.sum(None))
err(lambda: torch.ones(2).sum(dim="a"))
err(lambda: torch.ones(2).repeat(-1))
err(lambda: nn.utils.clip_grad_norm_([nn.Parameter(torch.ones(2))], 1.0, norm_type="foo"))
