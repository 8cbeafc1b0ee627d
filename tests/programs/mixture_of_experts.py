# a top-2 mixture-of-experts layer: router topk, per-expert where, load-balancing loss
torch.manual_seed(1)
x = torch.randn(6, 4)
gate = nn.Linear(4, 3, bias=False)
experts = nn.ModuleList([nn.Linear(4, 4) for _ in range(3)])
logits = gate(x)
weights, selected = torch.topk(logits, 2, dim=-1)
weights = F.softmax(weights, dim=1, dtype=torch.float).to(x.dtype)
results = torch.zeros_like(x)
for i, expert in enumerate(experts):
    batch_idx, nth = torch.where(selected == i)
    results[batch_idx] += weights[batch_idx, nth, None] * expert(x[batch_idx])
results.sum().backward()
out(results, gate.weight.grad, experts[2].bias.grad)
mask = F.one_hot(selected, num_classes=3).permute(2, 1, 0)
print(mask.shape, mask.sum(dim=(1, 2)))
aux = (mask.float().mean(dim=(1, 2)) * F.softmax(logits, -1).mean(0)).sum() * 3
print(f"{aux.item():.5f}")
idx_flat = selected.flatten()
order = torch.argsort(idx_flat, stable=True)
print(order, idx_flat.bincount(minlength=3).cumsum(0))
y = torch.zeros(6, 4).index_add_(0, torch.tensor([0, 2, 2, 5]), torch.ones(4, 4))
print(y)
ys = torch.zeros(6, 4).scatter_reduce(
    0,
    torch.tensor([[0], [2], [2]]).expand(3, 4),
    torch.arange(12.0).view(3, 4),
    reduce="amax",
    include_self=False,
)
print(ys)
