# parametrizations tutorial: symmetric, skew and orthogonal weights, right_inverse and caching
parametrize = torch.nn.utils.parametrize
torch.manual_seed(0)


class Symmetric(nn.Module):
    def forward(self, X):
        return X.triu() + X.triu(1).transpose(-1, -2)


layer = nn.Linear(3, 3)
parametrize.register_parametrization(layer, "weight", Symmetric())
A = layer.weight
assert torch.allclose(A, A.T)
print(A)
print(layer)
print(layer.parametrizations.weight.original)
print(parametrize.is_parametrized(layer), parametrize.is_parametrized(layer, "bias"))


class Skew(nn.Module):
    def forward(self, X):
        A = X.triu(1)
        return A - A.transpose(-1, -2)


cnn = nn.Conv2d(in_channels=5, out_channels=8, kernel_size=3)
parametrize.register_parametrization(cnn, "weight", Skew())
print(cnn.weight[0, 1])
print(cnn.weight[2, 2])


class CayleyMap(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.register_buffer("Id", torch.eye(n))

    def forward(self, X):
        return torch.linalg.solve(self.Id - X, self.Id + X)


layer = nn.Linear(3, 3)
parametrize.register_parametrization(layer, "weight", Skew())
parametrize.register_parametrization(layer, "weight", CayleyMap(3))
X = layer.weight
print(torch.dist(X.T @ X, torch.eye(3)) < 1e-5)


class MatrixExponential(nn.Module):
    def forward(self, X):
        return torch.matrix_exp(X)


layer_orthogonal = nn.Linear(3, 3)
parametrize.register_parametrization(layer_orthogonal, "weight", Skew())
parametrize.register_parametrization(layer_orthogonal, "weight", MatrixExponential())
X = layer_orthogonal.weight
print(torch.dist(X.T @ X, torch.eye(3)) < 1e-5)
out(X)
# ---
# parametrizations tutorial: caching, concatenating, right_inverse and removing a parametrization
parametrize = torch.nn.utils.parametrize
torch.manual_seed(0)


class NoisyParametrization(nn.Module):
    def forward(self, X):
        print("Computing the Parametrization")
        return X


layer = nn.Linear(4, 4)
parametrize.register_parametrization(layer, "weight", NoisyParametrization())
print("Here, layer.weight is recomputed every time we call it")
foo = layer.weight + layer.weight.T
bar = layer.weight.sum()
with parametrize.cached():
    print("Here, it is computed just the first time layer.weight is called")
    foo = layer.weight + layer.weight.T
    bar = layer.weight.sum()


class Symmetric(nn.Module):
    def forward(self, X):
        return X.triu() + X.triu(1).transpose(-1, -2)

    def right_inverse(self, A):
        return A.triu()


class PositiveDefinite(nn.Module):
    def forward(self, X):
        return X @ X.T + torch.eye(3)


layer = nn.Linear(3, 3)
parametrize.register_parametrization(layer, "weight", Symmetric())
parametrize.register_parametrization(layer, "weight", PositiveDefinite())
print(torch.linalg.eigvalsh(layer.weight).min() > 0)
print(layer.parametrizations.weight)
print(layer.parametrizations.weight[0])
print(len(layer.parametrizations.weight))
layer = nn.Linear(3, 3)
parametrize.register_parametrization(layer, "weight", Symmetric())
X = torch.rand(3, 3)
X = X + X.T
print(torch.dist(layer.weight, X) > 0.0)
layer.weight = X
print(torch.dist(layer.weight, X) < 1e-6)
print(layer.parametrizations.weight.original)
parametrize.remove_parametrizations(layer, "weight")
print(layer)
print(type(layer.weight).__name__, layer.weight.requires_grad)
layer = nn.Linear(3, 3)
parametrize.register_parametrization(layer, "weight", Symmetric())
before = layer.weight.detach().clone()
parametrize.remove_parametrizations(layer, "weight", leave_parametrized=False)
print(torch.equal(layer.weight.detach(), before), torch.equal(layer.weight.triu(), layer.weight))
err(lambda: parametrize.remove_parametrizations(layer, "weight"))
out(layer.weight)
