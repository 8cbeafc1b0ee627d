# d2l numerical stability: vanishing sigmoid gradients, exploding products of random matrices
x = torch.arange(-8.0, 8.0, 0.1, requires_grad=True)
y = torch.sigmoid(x)
y.backward(torch.ones_like(x))
print(x.shape, x.dtype)
grad = x.grad
print(f"max grad {grad.max().item():.4f} at x={x[grad.argmax()].item():.1f}")
print(f"grad at ends: {grad[0].item():.6f} {grad[-1].item():.6f}")
print(grad[::20])
out(x.grad, y)

M = torch.normal(0, 1, size=(4, 4))
print("a single matrix\n", M)
for _ in range(100):
    M = torch.mm(M, torch.normal(0, 1, size=(4, 4)))
print("after multiplying 100 matrices\n", M)
print(torch.isfinite(M).all(), M.abs().max() > 1e20)
out(M)
# ---
# d2l numerical stability: Xavier's variance argument checked on a deep stack of linear layers
torch.manual_seed(1)
fan_in, fan_out, depth = 64, 64, 12


def forward_variance(init):
    x = torch.randn(256, fan_in)
    variances = []
    for _ in range(depth):
        W = torch.empty(fan_out, fan_in)
        init(W)
        x = x @ W.T
        variances.append(x.var().item())
    return variances


schemes = {
    "normal(0, 1)": lambda W: nn.init.normal_(W, 0.0, 1.0),
    "normal(0, 0.01)": lambda W: nn.init.normal_(W, 0.0, 0.01),
    "xavier_normal": nn.init.xavier_normal_,
    "xavier_uniform": nn.init.xavier_uniform_,
}
for name, init in schemes.items():
    v = forward_variance(init)
    print(f"{name:>16}: layer1 {v[0]:.3e}  layer{depth} {v[-1]:.3e}")

W = torch.empty(3, 5)
bound = nn.init._calculate_fan_in_and_fan_out(W)
print(bound, nn.init.calculate_gain("sigmoid"), nn.init.calculate_gain("tanh"))
print(f"{nn.init.calculate_gain('leaky_relu', 0.2):.6f}")
out(nn.init.xavier_uniform_(torch.empty(2, 3), gain=nn.init.calculate_gain("relu")))
