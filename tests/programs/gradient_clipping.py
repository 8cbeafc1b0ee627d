# gradient clipping as training loops write it: by norm, by value, with a precomputed norm
rng = np.random.default_rng(0)
model = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1))
with torch.no_grad():
    for p in model.parameters():
        p.copy_(torch.tensor(rng.uniform(-0.5, 0.5, tuple(p.shape))))
x = torch.tensor(rng.normal(size=(16, 4)), dtype=torch.float32)
y = torch.tensor(rng.normal(size=(16, 1)), dtype=torch.float32)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for _ in range(3):
    opt.zero_grad()
    loss = F.mse_loss(model(x) * 10, y)
    loss.backward()
    grads = [p.grad for p in model.parameters()]
    total = nn.utils.get_total_norm(grads, norm_type=2.0)
    out(loss, total, total.requires_grad)
    nn.utils.clip_grads_with_norm_(model.parameters(), max_norm=1.0, total_norm=total)
    out(nn.utils.get_total_norm([p.grad for p in model.parameters()]))
    opt.step()
out(nn.utils.get_total_norm(grads, norm_type=1.0), nn.utils.get_total_norm(grads, "inf"))
out(nn.utils.get_total_norm([]), nn.utils.get_total_norm(torch.tensor([3.0, 4.0])))
err(lambda: nn.utils.get_total_norm([torch.tensor([float("nan")])], error_if_nonfinite=True))
before = nn.utils.clip_grad_norm_(model.parameters(), 0.5)
out(before, nn.utils.get_total_norm([p.grad for p in model.parameters()]))
nn.utils.clip_grad_value_(model.parameters(), 0.01)
out([p.grad.abs().max() for p in model.parameters()])
# ---
# fork_rng: a draw inside the block leaves the global stream where it was
torch.manual_seed(123)
a = torch.rand(3)
torch.manual_seed(123)
with torch.random.fork_rng():
    torch.manual_seed(7)
    inside = torch.randn(2)
b = torch.rand(3)
out(torch.equal(a, b), inside.shape)
with torch.random.fork_rng(enabled=False):
    torch.rand(1)
out(torch.equal(torch.rand(3), a))
torch.random.manual_seed(5)
out(torch.random.initial_seed())
state = torch.random.get_rng_state()
c = torch.rand(2)
torch.random.set_rng_state(state)
out(torch.equal(torch.rand(2), c))
model = nn.Linear(2, 2)
out(model.compile(), model(torch.ones(1, 2)).shape)
