# STE, non-differentiable outputs, mark_non_differentiable, once_differentiable
once_differentiable = torch.autograd.function.once_differentiable
torch.manual_seed(0)


class SignSTE(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.sign()

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        return grad_output * (x.abs() <= 1).to(grad_output.dtype)  # hard-tanh gradient


class SortWithIndices(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        values, indices = x.sort(dim=-1)
        ctx.mark_non_differentiable(indices)
        ctx.save_for_backward(indices)
        return values, indices

    @staticmethod
    @once_differentiable
    def backward(ctx, grad_values, grad_indices):
        (indices,) = ctx.saved_tensors
        grad_input = torch.zeros_like(grad_values)
        grad_input.scatter_(-1, indices, grad_values)
        return grad_input


class ClampGrad(torch.autograd.Function):
    """Identity forward; clips the gradient norm per row in backward."""

    @staticmethod
    def forward(ctx, x, max_norm):
        ctx.max_norm = max_norm
        return x.view_as(x)

    @staticmethod
    def backward(ctx, g):
        norms = g.norm(dim=-1, keepdim=True).clamp(min=1e-12)
        return g * (ctx.max_norm / norms).clamp(max=1.0), None


x = torch.randn(2, 5, requires_grad=True)
y = SignSTE.apply(x)
print(y, y.grad_fn.__class__.__name__)
(y * torch.arange(5.0)).sum().backward()
print(x.grad)
x.grad = None
vals, idx = SortWithIndices.apply(x)
print(vals.requires_grad, idx.requires_grad, idx.dtype, vals.grad_fn.__class__.__name__)
(vals * torch.tensor([1.0, 2.0, 3.0, 4.0, 5.0])).sum().backward()
print(x.grad)
ref = x.detach().clone().requires_grad_(True)
(ref.sort(dim=-1).values * torch.tensor([1.0, 2.0, 3.0, 4.0, 5.0])).sum().backward()
print(torch.equal(ref.grad, x.grad))
vals2, _ = SortWithIndices.apply(x)
g = torch.autograd.grad(vals2.pow(2).sum(), x, create_graph=True)[0]
try:
    g.sum().backward()
except RuntimeError as e:
    print("double backward:", "once_differentiable" in str(e) or "twice" in str(e))
err(
    lambda: torch.autograd.grad(
        torch.autograd.grad(SortWithIndices.apply(x)[0].pow(2).sum(), x, create_graph=True)[
            0
        ].sum(),
        x,
    )
)
z = torch.randn(3, 4, requires_grad=True)
w = ClampGrad.apply(z * 10, 0.5)
w.sum().backward()
print(z.grad.norm(dim=-1))
out(y, vals, idx, z.grad)
# ---
# quantisation-aware training: fake quantise with an STE Function inside a module, train two steps
torch.manual_seed(1)


class FakeQuant(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, scale, bits):
        qmax = 2 ** (bits - 1) - 1
        q = torch.clamp(torch.round(x / scale), -qmax - 1, qmax)
        ctx.save_for_backward(x, scale)
        ctx.qmax = qmax
        return q * scale

    @staticmethod
    def backward(ctx, grad):
        x, scale = ctx.saved_tensors
        inside = (x / scale).abs() <= ctx.qmax
        return grad * inside, None, None


class QLinear(nn.Linear):
    def __init__(self, *args, bits=4, **kwargs):
        super().__init__(*args, **kwargs)
        self.bits = bits

    def forward(self, x):
        scale = self.weight.detach().abs().max() / (2 ** (self.bits - 1) - 1)
        return F.linear(x, FakeQuant.apply(self.weight, scale, self.bits), self.bias)

    def extra_repr(self):
        return super().extra_repr() + f", bits={self.bits}"


net = nn.Sequential(QLinear(4, 6, bits=3), nn.ReLU(), QLinear(6, 2))
print(net)
opt = torch.optim.SGD(net.parameters(), lr=0.1)
X, Y = torch.randn(8, 4), torch.randint(0, 2, (8,))
for step in range(3):
    loss = F.cross_entropy(net(X), Y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} loss {loss.item():.4f}")
scale = net[0].weight.abs().max() / 3
print(torch.unique(torch.round(net[0].weight / scale) + 0.0).tolist())  # + 0.0: no signed zeros
out(net[0].weight.grad, net[2].weight)
