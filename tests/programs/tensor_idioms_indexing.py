# one_hot, scatter_ and gather idioms: label smoothing by hand, picking log-probs, top-k masks
logits = torch.tensor([[2.0, 0.5, -1.0, 0.0], [0.1, 0.2, 3.0, -0.5], [1.0, 1.5, 0.7, 1.2]])
target = torch.tensor([0, 2, 3])
onehot = F.one_hot(target, num_classes=4).float()
smooth = onehot * 0.9 + 0.1 / 4
logp = F.log_softmax(logits, dim=-1)
out(onehot, -(smooth * logp).sum(-1).mean(), F.cross_entropy(logits, target, label_smoothing=0.1))
picked = logp.gather(1, target.unsqueeze(1)).squeeze(1)
out(picked, F.nll_loss(logp, target, reduction="none"))
scattered = torch.zeros(3, 4).scatter_(1, target[:, None], 1.0)
out(
    torch.equal(scattered, onehot),
    torch.zeros(3, 4).scatter_add_(1, torch.tensor([[0, 0], [1, 1], [3, 0]]), torch.ones(3, 2)),
)
top = logits.topk(2, dim=-1)
mask = torch.zeros_like(logits, dtype=torch.bool).scatter_(1, top.indices, True)
out(top.values, mask, logits.masked_fill(~mask, float("-inf")).softmax(-1))
out(F.one_hot(torch.tensor([[1, 0], [2, 2]])), F.one_hot(torch.arange(3)).argmax(-1))
# ---
# where and masked_fill with broadcasting: causal and padding masks, clamping by condition
lengths = torch.tensor([3, 1, 2])
T = 4
pad = torch.arange(T)[None, :] >= lengths[:, None]
causal = torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1)
scores = torch.arange(3 * T * T, dtype=torch.float32).reshape(3, T, T) / 10
masked = scores.masked_fill(pad[:, None, :] | causal[None], float("-inf"))
out(pad, masked.softmax(-1).nan_to_num(0.0))
x = torch.linspace(-2, 2, 9)
out(torch.where(x > 0, x, 0.1 * x), torch.where(x.abs() < 1, 0.5 * x**2, x.abs() - 0.5))
out(torch.where(pad, torch.tensor(-1), torch.arange(T)), torch.where(x > 1))
# ---
# bucketize, tensor_split, cartesian_prod and assert_close on a binning task
ages = torch.tensor([3.0, 17.5, 18.0, 45.0, 64.9, 65.0, 90.0])
edges = torch.tensor([18.0, 35.0, 50.0, 65.0])
out(
    torch.bucketize(ages, edges),
    torch.bucketize(ages, edges, right=True),
    torch.searchsorted(edges, ages),
)
out(torch.tensor_split(torch.arange(10), 3), torch.tensor_split(torch.arange(10), [2, 5]))
out(torch.tensor_split(torch.arange(12).reshape(3, 4), torch.tensor([1, 3]), dim=1))
grid = torch.cartesian_prod(torch.tensor([0.1, 0.01]), torch.tensor([16, 32]).float())
out(grid, torch.cartesian_prod(torch.tensor([1, 2, 3])))
torch.testing.assert_close(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.0 + 1e-7]))
try:
    torch.testing.assert_close(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.1]))
except AssertionError as e:
    print(type(e).__name__, str(e).splitlines()[0])
err(lambda: torch.testing.assert_close(torch.tensor([1, 2]), torch.tensor([1.0, 2.0])))
torch.testing.assert_close(torch.tensor([1, 2]), torch.tensor([1.0, 2.0]), check_dtype=False)
err(lambda: torch.testing.assert_close(torch.ones(2), torch.ones(3)))
# ---
# k-nearest neighbours with cdist, topk and a majority vote by bincount
train = torch.tensor([[0.0, 0.0], [0.1, 0.2], [1.0, 1.0], [0.9, 1.1], [2.0, 0.0], [2.1, 0.2]])
labels = torch.tensor([0, 0, 1, 1, 2, 2])
query = torch.tensor([[0.02, 0.13], [1.5, 0.4], [2.0, 0.1]])
d = torch.cdist(query, train)
knn = d.topk(3, largest=False)
votes = labels[knn.indices]
pred = torch.stack([torch.bincount(v, minlength=3).argmax() for v in votes])
out(
    d,
    knn.indices,
    pred,
    torch.cdist(query, train, p=1),
    torch.cdist(query[None], train[None]).shape,
)
q = query.clone().requires_grad_()
torch.cdist(q, train).min(1).values.sum().backward()
out(q.grad)
