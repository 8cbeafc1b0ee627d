# polynomial regression two ways (the examples' regression script): closed form with
# linalg.lstsq, and SGD on the same features with smooth_l1_loss and manual updates
POLY_DEGREE = 3
rng = np.random.default_rng(7)
W_target = torch.tensor(rng.normal(size=(POLY_DEGREE, 1)))
b_target = torch.tensor(rng.normal(size=(1,)))


def make_features(x):
    x = x.unsqueeze(1)
    return torch.cat([x**i for i in range(1, POLY_DEGREE + 1)], 1)


def f(x):
    return x.mm(W_target) + b_target.item()


x = torch.tensor(rng.uniform(-1, 1, 32))
features = make_features(x)
y = f(features)
design = torch.cat([features, torch.ones(32, 1, dtype=torch.float64)], 1)
fit = torch.linalg.lstsq(design, y)
out(fit.solution.squeeze(1), fit.rank, fit.residuals)
detailed = torch.linalg.lstsq(design, y, driver="gelsd")
out(detailed.singular_values, detailed.residuals, detailed.rank)
out(torch.linalg.lstsq(design, y.squeeze(1)).solution)
fc = nn.Linear(POLY_DEGREE, 1).double()
with torch.no_grad():
    fc.weight.zero_()
    fc.bias.zero_()
for batch_idx in range(1, 6):
    fc.zero_grad()
    output = F.smooth_l1_loss(fc(features), y)
    loss = output.item()
    output.backward()
    for param in fc.parameters():
        param.data.add_(-0.1 * param.grad)
    out(batch_idx, loss)
out(fc.weight.view(-1), fc.bias)
# ---
# lstsq inside a graph: a ridge-free linear probe fitted in closed form, trained end to end
rng = np.random.default_rng(8)
encoder = nn.Sequential(nn.Linear(3, 4), nn.Tanh()).double()
with torch.no_grad():
    for p in encoder.parameters():
        p.copy_(torch.tensor(rng.uniform(-0.8, 0.8, tuple(p.shape))))
x = torch.tensor(rng.normal(size=(10, 3)))
targets = torch.tensor(rng.normal(size=(10, 2)))
optimizer = torch.optim.SGD(encoder.parameters(), lr=0.1)
for _ in range(3):
    optimizer.zero_grad()
    h = encoder(x)
    probe = torch.linalg.lstsq(h, targets).solution
    loss = (h @ probe - targets).pow(2).mean()
    loss.backward()
    optimizer.step()
    out(loss, probe.grad_fn.name(), encoder[0].weight.grad)
batched = torch.linalg.lstsq(torch.stack([h, 2 * h]).detach(), targets.expand(2, 10, 2))
out(batched.solution.shape, batched.rank)
err(lambda: torch.linalg.lstsq(h, targets.float()))
err(lambda: torch.linalg.lstsq(h, targets[:5]))
err(lambda: torch.linalg.lstsq(h, targets, driver="qr"))
