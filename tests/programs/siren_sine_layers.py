# SIREN: sine activations with omega_0, its uniform init, and gradients/laplacians of the fit
import math


class SineLayer(nn.Module):
    def __init__(self, in_features, out_features, bias=True, is_first=False, omega_0=30):
        super().__init__()
        self.omega_0 = omega_0
        self.is_first = is_first
        self.in_features = in_features
        self.linear = nn.Linear(in_features, out_features, bias=bias)
        self.init_weights()

    def init_weights(self):
        with torch.no_grad():
            if self.is_first:
                self.linear.weight.uniform_(-1 / self.in_features, 1 / self.in_features)
            else:
                bound = math.sqrt(6 / self.in_features) / self.omega_0
                self.linear.weight.uniform_(-bound, bound)

    def forward(self, input):
        return torch.sin(self.omega_0 * self.linear(input))


class Siren(nn.Module):
    def __init__(
        self,
        in_features,
        hidden_features,
        hidden_layers,
        out_features,
        outermost_linear=False,
        first_omega_0=30,
        hidden_omega_0=30.0,
    ):
        super().__init__()
        self.net = [SineLayer(in_features, hidden_features, is_first=True, omega_0=first_omega_0)]
        for _i in range(hidden_layers):
            self.net.append(
                SineLayer(hidden_features, hidden_features, is_first=False, omega_0=hidden_omega_0)
            )
        if outermost_linear:
            final_linear = nn.Linear(hidden_features, out_features)
            with torch.no_grad():
                bound = math.sqrt(6 / hidden_features) / hidden_omega_0
                final_linear.weight.uniform_(-bound, bound)
            self.net.append(final_linear)
        else:
            self.net.append(
                SineLayer(hidden_features, out_features, is_first=False, omega_0=hidden_omega_0)
            )
        self.net = nn.Sequential(*self.net)

    def forward(self, coords):
        coords = coords.clone().detach().requires_grad_(True)
        output = self.net(coords)
        return output, coords


def get_mgrid(sidelen, dim=2):
    tensors = tuple(dim * [torch.linspace(-1, 1, steps=sidelen)])
    mgrid = torch.stack(torch.meshgrid(*tensors, indexing="ij"), dim=-1)
    mgrid = mgrid.reshape(-1, dim)
    return mgrid


def gradient(y, x, grad_outputs=None):
    if grad_outputs is None:
        grad_outputs = torch.ones_like(y)
    return torch.autograd.grad(y, [x], grad_outputs=grad_outputs, create_graph=True)[0]


def divergence(y, x):
    div = 0.0
    for i in range(y.shape[-1]):
        div += torch.autograd.grad(y[..., i], x, torch.ones_like(y[..., i]), create_graph=True)[0][
            ..., i : i + 1
        ]
    return div


def laplace(y, x):
    return divergence(gradient(y, x), x)


torch.manual_seed(0)
coords = get_mgrid(6)
img = torch.sin(3 * coords[:, :1]) * torch.cos(2 * coords[:, 1:])
model = Siren(2, 16, 2, 1, outermost_linear=True)
print(model.net[0], coords.shape)
opt = torch.optim.Adam(lr=1e-3, params=model.parameters())
for step in range(5):
    model_output, c = model(coords)
    loss = ((model_output - img) ** 2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"Step {step}, Total loss {loss.item():0.6f}")
model_output, c = model(coords)
g = gradient(model_output, c)
lap = laplace(model_output, c)
print(g.shape, lap.shape, g.grad_fn is not None)
out(model_output, g, lap)
print(f"grad norm {g.norm(dim=-1).mean().item():.5f} laplacian {lap.abs().mean().item():.4f}")
