# KAN layer: B-spline bases by the Cox-de Boor recursion, lstsq curve fitting, grid update
class KANLinear(nn.Module):
    def __init__(
        self,
        in_features,
        out_features,
        grid_size=4,
        spline_order=3,
        scale_noise=0.1,
        scale_base=1.0,
        scale_spline=1.0,
        grid_eps=0.02,
        grid_range=(-1, 1),
    ):
        super().__init__()
        self.in_features, self.out_features = in_features, out_features
        self.grid_size, self.spline_order = grid_size, spline_order
        h = (grid_range[1] - grid_range[0]) / grid_size
        grid = (
            (torch.arange(-spline_order, grid_size + spline_order + 1) * h + grid_range[0])
            .expand(in_features, -1)
            .contiguous()
        )
        self.register_buffer("grid", grid)
        self.base_weight = nn.Parameter(torch.empty(out_features, in_features))
        self.spline_weight = nn.Parameter(
            torch.empty(out_features, in_features, grid_size + spline_order)
        )
        self.spline_scaler = nn.Parameter(torch.empty(out_features, in_features))
        self.scale_noise, self.scale_base, self.scale_spline = scale_noise, scale_base, scale_spline
        self.grid_eps = grid_eps
        self.base_activation = nn.SiLU()
        self.reset_parameters()

    def reset_parameters(self):
        nn.init.kaiming_uniform_(self.base_weight, a=5**0.5 * self.scale_base)
        with torch.no_grad():
            noise = (
                (torch.rand(self.grid_size + 1, self.in_features, self.out_features) - 1 / 2)
                * self.scale_noise
                / self.grid_size
            )
            self.spline_weight.data.copy_(
                self.curve2coeff(self.grid.T[self.spline_order : -self.spline_order], noise)
            )
            nn.init.kaiming_uniform_(self.spline_scaler, a=5**0.5 * self.scale_spline)

    def b_splines(self, x):
        assert x.dim() == 2 and x.size(1) == self.in_features
        grid = self.grid
        x = x.unsqueeze(-1)
        bases = ((x >= grid[:, :-1]) & (x < grid[:, 1:])).to(x.dtype)
        for k in range(1, self.spline_order + 1):
            bases = (x - grid[:, : -(k + 1)]) / (grid[:, k:-1] - grid[:, : -(k + 1)]) * bases[
                :, :, :-1
            ] + (grid[:, k + 1 :] - x) / (grid[:, k + 1 :] - grid[:, 1:(-k)]) * bases[:, :, 1:]
        assert bases.size() == (x.size(0), self.in_features, self.grid_size + self.spline_order)
        return bases.contiguous()

    def curve2coeff(self, x, y):
        A = self.b_splines(x).transpose(0, 1)
        B = y.transpose(0, 1)
        solution = torch.linalg.lstsq(A, B).solution
        result = solution.permute(2, 0, 1)
        return result.contiguous()

    @property
    def scaled_spline_weight(self):
        return self.spline_weight * self.spline_scaler.unsqueeze(-1)

    def forward(self, x):
        original_shape = x.shape
        x = x.reshape(-1, self.in_features)
        base_output = F.linear(self.base_activation(x), self.base_weight)
        spline_output = F.linear(
            self.b_splines(x).view(x.size(0), -1),
            self.scaled_spline_weight.view(self.out_features, -1),
        )
        output = base_output + spline_output
        return output.reshape(*original_shape[:-1], self.out_features)

    @torch.no_grad()
    def update_grid(self, x, margin=0.01):
        batch = x.size(0)
        splines = self.b_splines(x).permute(1, 0, 2)
        orig_coeff = self.scaled_spline_weight.permute(1, 2, 0)
        unreduced_spline_output = torch.bmm(splines, orig_coeff).permute(1, 0, 2)
        x_sorted = torch.sort(x, dim=0)[0]
        grid_adaptive = x_sorted[
            torch.linspace(0, batch - 1, self.grid_size + 1, dtype=torch.int64)
        ]
        uniform_step = (x_sorted[-1] - x_sorted[0] + 2 * margin) / self.grid_size
        grid_uniform = (
            torch.arange(self.grid_size + 1, dtype=torch.float32).unsqueeze(1) * uniform_step
            + x_sorted[0]
            - margin
        )
        grid = self.grid_eps * grid_uniform + (1 - self.grid_eps) * grid_adaptive
        grid = torch.concatenate(
            [
                grid[:1] - uniform_step * torch.arange(self.spline_order, 0, -1).unsqueeze(1),
                grid,
                grid[-1:] + uniform_step * torch.arange(1, self.spline_order + 1).unsqueeze(1),
            ],
            dim=0,
        )
        self.grid.copy_(grid.T)
        self.spline_weight.data.copy_(self.curve2coeff(x, unreduced_spline_output))

    def regularization_loss(self, regularize_activation=1.0, regularize_entropy=1.0):
        l1_fake = self.spline_weight.abs().mean(-1)
        regularization_loss_activation = l1_fake.sum()
        p = l1_fake / regularization_loss_activation
        regularization_loss_entropy = -torch.sum(p * p.log())
        return (
            regularize_activation * regularization_loss_activation
            + regularize_entropy * regularization_loss_entropy
        )


torch.manual_seed(0)
layer1, layer2 = KANLinear(2, 4), KANLinear(4, 1)
print(layer1.grid[0], layer1.spline_weight.shape)
x = torch.rand(32, 2) * 2 - 1
y = torch.sin(torch.pi * x[:, :1]) * x[:, 1:] ** 2
bases = layer1.b_splines(x)
print(bases.shape, torch.allclose(bases.sum(-1), torch.ones(32, 2), atol=1e-5))
opt = torch.optim.LBFGS(list(layer1.parameters()) + list(layer2.parameters()), lr=0.5, max_iter=5)


def closure():
    opt.zero_grad()
    pred = layer2(layer1(x))
    loss = F.mse_loss(pred, y) + 1e-4 * (
        layer1.regularization_loss() + layer2.regularization_loss()
    )
    loss.backward()
    return loss


for step in range(2):
    loss = opt.step(closure)
    print(f"step {step} loss {loss.item():.6f}")
layer1.update_grid(x)
print(f"grid after update {layer1.grid[0, 3].item():.5f} {layer1.grid[1, -4].item():.5f}")
out(layer2(layer1(x)), layer1.grid)
A = torch.randn(2, 5, 3)
B = torch.randn(2, 5, 1)
sol = torch.linalg.lstsq(A, B)
print(sol.solution.shape, sol.residuals.shape, sol.rank, sol.singular_values)
out(sol.solution, torch.linalg.lstsq(A, B, driver="gelsd").solution)
