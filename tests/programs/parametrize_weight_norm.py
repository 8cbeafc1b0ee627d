# parametrize: a symmetric weight, cached reads, removal
class Symmetric(nn.Module):
    def forward(self, X):
        return X.triu() + X.triu(1).mT


m = nn.Linear(3, 3)
with torch.no_grad():
    m.weight.copy_(torch.arange(9.0).reshape(3, 3) / 10)
    m.bias.zero_()
weight = m.weight
nn.utils.parametrize.register_parametrization(m, "weight", Symmetric())
print(m)
out(m.weight, [k for k, _ in m.named_parameters()], list(m.state_dict()))
out(type(m).__name__, nn.utils.parametrize.is_parametrized(m))
out(nn.utils.parametrize.is_parametrized(m, "bias"), m.parametrizations.weight.original is weight)
with nn.utils.parametrize.cached():
    out(m.weight is m.weight)
y = m(torch.ones(2, 3)).sum()
y.backward()
out(y, weight.grad)
nn.utils.parametrize.remove_parametrizations(m, "weight")
out(type(m).__name__, m.weight, [k for k, _ in m.named_parameters()])
err(lambda: nn.utils.parametrize.remove_parametrizations(m, "weight"))
err(lambda: nn.utils.parametrize.register_parametrization(m, "foo", Symmetric()))
# ---
# parametrizations.weight_norm: g and v, values, gradients, removal
m = nn.Linear(3, 2)
with torch.no_grad():
    m.weight.copy_(torch.tensor([[1.0, -2.0, 2.0], [0.5, 0.0, -1.0]]))
    m.bias.fill_(0.1)
nn.utils.parametrizations.weight_norm(m)
print(m)
g = m.parametrizations.weight.original0
v = m.parametrizations.weight.original1
out(g, v, m.weight, list(m.state_dict()))
y = m(torch.tensor([[1.0, 2.0, 3.0]])).pow(2).sum()
y.backward()
out(y, g.grad, v.grad)
nn.utils.parametrize.remove_parametrizations(m, "weight")
out(m.weight, [k for k, _ in m.named_parameters()])
# ---
# legacy weight_norm / remove_weight_norm: weight_g, weight_v
m = nn.Conv1d(2, 2, 2)
with torch.no_grad():
    m.weight.copy_(torch.arange(8.0).reshape(2, 2, 2) - 3)
    m.bias.zero_()
nn.utils.weight_norm(m, dim=None)
print(m)
out(m.weight_g, m.weight_v.shape, [k for k, _ in m.named_parameters()], list(m.state_dict()))
y = m(torch.ones(1, 2, 3)).sum()
y.backward()
out(y, m.weight_g.grad, m.weight_v.grad)
err(lambda: nn.utils.weight_norm(m))
nn.utils.remove_weight_norm(m)
out([k for k, _ in m.named_parameters()], m.weight)
err(lambda: nn.utils.remove_weight_norm(m))
# ---
# spectral_norm, parametrized and legacy, with fixed power-iteration vectors
m = nn.Linear(3, 2)
with torch.no_grad():
    m.weight.copy_(torch.tensor([[1.0, -2.0, 2.0], [0.5, 0.0, -1.0]]))
nn.utils.parametrizations.spectral_norm(m)
with torch.no_grad():
    m.parametrizations.weight[0]._u.copy_(torch.tensor([0.6, 0.8]))
    m.parametrizations.weight[0]._v.copy_(torch.tensor([1.0, 0.0, 0.0]))
out(list(m.state_dict()), [k for k, _ in m.named_parameters()])
w = m.weight
out(w, m.parametrizations.weight[0]._u)
m.eval()
out(m.weight, torch.linalg.matrix_norm(m.weight, 2))
legacy = nn.utils.spectral_norm(nn.Linear(3, 2))
with torch.no_grad():
    legacy.weight_orig.copy_(torch.tensor([[1.0, -2.0, 2.0], [0.5, 0.0, -1.0]]))
    legacy.weight_u.copy_(torch.tensor([0.6, 0.8]))
    legacy.weight_v.copy_(torch.tensor([1.0, 0.0, 0.0]))
    legacy.bias.zero_()
out(list(legacy.state_dict()), legacy.weight_orig.shape)
y = legacy(torch.ones(1, 3)).sum()
y.backward()
out(y, legacy.weight, legacy.weight_orig.grad, legacy.weight_u)
err(lambda: nn.utils.spectral_norm(legacy))
nn.utils.remove_spectral_norm(legacy)
out(list(legacy.state_dict()))
err(lambda: nn.utils.parametrizations.spectral_norm(nn.Linear(2, 2), n_power_iterations=0))
