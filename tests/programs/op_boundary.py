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
# ---
# a NumPy array where a tensor goes: torch's TypeError naming the argument, for any position
a = np.array([[0.5, 2.0, 1.0], [3.0, 0.1, 0.2]], dtype=np.float32)
labels = np.array([1, 0])
t = torch.from_numpy(a)
for fn in (torch.argmax, torch.argsort, torch.sort, torch.nonzero, torch.numel, torch.sum):
    err(lambda fn=fn: fn(a))
err(lambda: torch.where(a > 1))
err(lambda: torch.gather(a, 1, torch.zeros(2, 1, dtype=torch.long)))
err(lambda: torch.gather(t, 1, np.zeros((2, 1), dtype=np.int64)))
err(lambda: torch.multinomial(a, 1))
err(lambda: torch.cdist(a, a))
err(lambda: torch.equal(t, a))
err(lambda: F.one_hot(labels))
err(lambda: F.cross_entropy(t, labels))
err(lambda: F.nll_loss(t.log_softmax(1), labels))
err(lambda: F.kl_div(a, t))
out(F.cross_entropy(t, torch.from_numpy(labels)), torch.argmax(torch.as_tensor(a), dim=1))
