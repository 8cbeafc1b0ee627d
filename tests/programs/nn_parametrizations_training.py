# parametrizations: a symmetric and a skew-exponential orthogonal constraint, trained with SGD
# float64: torch's float32 matrix_exp is a low-degree Taylor sum, off by ~1e-5
torch.set_default_dtype(torch.float64)


class Symmetric(nn.Module):
    def forward(self, X):
        return X.triu() + X.triu(1).transpose(-1, -2)


class Skew(nn.Module):
    def forward(self, X):
        A = X.triu(1)
        return A - A.transpose(-1, -2)


class MatrixExponential(nn.Module):
    def forward(self, X):
        return torch.matrix_exp(X)


def fixed(shape, seed):
    return torch.tensor(np.random.default_rng(seed).uniform(-0.5, 0.5, shape))


layer = nn.Linear(4, 4)
with torch.no_grad():
    layer.weight.copy_(fixed((4, 4), 0))
    layer.bias.copy_(fixed((4,), 1))
nn.utils.parametrize.register_parametrization(layer, "weight", Symmetric())
out(torch.allclose(layer.weight, layer.weight.T))

rot = nn.Linear(3, 3, bias=False)
with torch.no_grad():
    rot.weight.copy_(fixed((3, 3), 2))
nn.utils.parametrize.register_parametrization(rot, "weight", Skew())
nn.utils.parametrize.register_parametrization(rot, "weight", MatrixExponential())
print(rot)
out(rot.weight, rot.weight @ rot.weight.T)

x = torch.tensor(np.random.default_rng(3).standard_normal((8, 4)))
y = torch.tensor(np.random.default_rng(4).standard_normal((8, 3)))
params = list(layer.parameters()) + list(rot.parameters())
out([tuple(p.shape) for p in params], [n for n, _ in rot.named_parameters()])
optimizer = torch.optim.SGD(params, lr=0.1, momentum=0.9)
for step in range(5):
    optimizer.zero_grad()
    hidden = torch.tanh(layer(x))[:, :3]
    loss = F.mse_loss(rot(hidden), y)
    loss.backward()
    optimizer.step()
    out(step, loss)
out(layer.weight, torch.allclose(layer.weight, layer.weight.T))
out(torch.dist(rot.weight @ rot.weight.T, torch.eye(3)) < 1e-5)
out(layer.parametrizations.weight.original.grad, rot.parametrizations.weight.original.grad)
with nn.utils.parametrize.cached():
    out(rot.weight is rot.weight)
nn.utils.parametrize.remove_parametrizations(rot, "weight", leave_parametrized=True)
out(rot.weight, [n for n, _ in rot.named_parameters()])
# ---
# parametrizations.orthogonal and parametrizations.weight_norm on an RNN-style model
torch.set_default_dtype(torch.float64)
model = nn.Sequential(nn.Linear(3, 3), nn.Tanh(), nn.Linear(3, 2))
rng = np.random.default_rng(5)
with torch.no_grad():
    for p in model.parameters():
        p.copy_(torch.tensor(rng.uniform(-0.8, 0.8, tuple(p.shape))))
for orthogonal_map in ("matrix_exp", "cayley"):
    q = nn.Linear(3, 3, bias=False)
    with torch.no_grad():
        q.weight.copy_(torch.tensor(rng.uniform(-0.8, 0.8, (3, 3))))
    nn.utils.parametrizations.orthogonal(q, orthogonal_map=orthogonal_map)
    out(orthogonal_map, q.weight, torch.allclose(q.weight @ q.weight.T, torch.eye(3), atol=1e-5))
nn.utils.parametrizations.orthogonal(model[0])
nn.utils.parametrizations.weight_norm(model[2], name="weight", dim=0)
print(model)
out([n for n, _ in model.named_parameters()], list(model.state_dict()))
out(model[0].weight, model[2].weight)

x = torch.tensor(rng.standard_normal((6, 3)))
target = torch.tensor([0, 1, 1, 0, 1, 0])
optimizer = torch.optim.Adam(model.parameters(), lr=0.05)
for step in range(4):
    optimizer.zero_grad()
    loss = F.cross_entropy(model(x), target)
    loss.backward()
    optimizer.step()
    out(step, loss)
W = model[0].weight
out(W, torch.allclose(W @ W.T, torch.eye(3), atol=1e-5))
out(model[2].parametrizations.weight.original0, model[2].parametrizations.weight.original1.grad)
out((model(x).argmax(1) == target).sum().item())
# ---
# orthogonal through Householder reflections (the default for a non-square weight), trained;
# without trivialization the reflectors are the parameter, set from the weight by geqrf
rng = np.random.default_rng(4)
torch.set_default_dtype(torch.float64)
tall = nn.Linear(3, 5, bias=False)
wide = nn.Linear(5, 3, bias=False)
with torch.no_grad():
    tall.weight.copy_(torch.tensor(rng.normal(size=(5, 3))))
    wide.weight.copy_(torch.tensor(rng.normal(size=(3, 5))))
nn.utils.parametrizations.orthogonal(tall, use_trivialization=False)
nn.utils.parametrizations.orthogonal(wide, orthogonal_map="householder", use_trivialization=False)
out(tall.parametrizations.weight.original, tall.weight)
out(torch.dist(tall.weight.mT @ tall.weight, torch.eye(3)) < 1e-12, wide.weight.shape)
x = torch.tensor(rng.normal(size=(4, 5)))
optimizer = torch.optim.SGD(list(tall.parameters()) + list(wide.parameters()), lr=0.1)
for _ in range(3):
    optimizer.zero_grad()
    loss = (tall(wide(x)) - x).pow(2).mean()
    loss.backward()
    optimizer.step()
    out(loss, wide.parametrizations.weight.original.grad)
out(torch.dist(wide.weight @ wide.weight.mT, torch.eye(3)) < 1e-12)
a, tau = torch.geqrf(torch.tensor(rng.normal(size=(4, 3))))
q = torch.linalg.householder_product(a, tau)
out(a, tau, q, torch.orgqr(a, tau))
c = torch.tensor(rng.normal(size=(4, 2)))
out(
    torch.ormqr(a, tau, c),
    torch.ormqr(a, tau, c, transpose=True),
    torch.ormqr(a, tau, c.mT, left=False),
)
err(
    lambda: nn.utils.parametrizations.orthogonal(
        nn.Linear(3, 3).to(torch.complex128), "householder"
    )
)
err(lambda: torch.linalg.householder_product(torch.ones(3, 4), torch.ones(2)))
err(lambda: torch.geqrf(torch.ones(3)))
leaf = torch.tensor(rng.normal(size=(3, 2)), requires_grad=True)
compact = torch.geqrf(leaf)
out(compact.a.grad_fn.name(), compact.tau.requires_grad)
err(lambda: compact.a.sum().backward())
