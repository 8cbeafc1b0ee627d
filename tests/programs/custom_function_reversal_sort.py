# Custom Functions from real repos: gradient reversal (DANN), sort with non-differentiable indices
Function = torch.autograd.Function


class GradientReversalFn(Function):
    @staticmethod
    def forward(ctx, x, alpha):
        ctx.alpha = alpha
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad_output):
        output = grad_output.neg() * ctx.alpha
        return output, None


class GradientReversal(nn.Module):
    def __init__(self, alpha=1.0):
        super().__init__()
        self.alpha = alpha

    def forward(self, x):
        return GradientReversalFn.apply(x, self.alpha)

    def extra_repr(self):
        return f"alpha={self.alpha}"


torch.manual_seed(0)
features = nn.Sequential(nn.Linear(5, 8), nn.ReLU())
label_head = nn.Linear(8, 2)
domain_head = nn.Sequential(GradientReversal(0.5), nn.Linear(8, 1))
print(domain_head)
xs, ys = torch.randn(6, 5), torch.randint(0, 2, (6,))
xt = torch.randn(6, 5)
fs, ft = features(xs), features(xt)
label_loss = F.cross_entropy(label_head(fs), ys)
dom_logits = domain_head(torch.cat([fs, ft]))
dom_labels = torch.cat([torch.ones(6, 1), torch.zeros(6, 1)])
domain_loss = F.binary_cross_entropy_with_logits(dom_logits, dom_labels)
print([type(f).__name__ for f, _ in dom_logits.grad_fn.next_functions])
(label_loss + domain_loss).backward()
rev = fs.new_ones(2, 8).requires_grad_()
GradientReversal(2.0)(rev).sum().backward()
print(rev.grad[0, :3])
print(f"label {label_loss.item():.4f} domain {domain_loss.item():.4f}")
out(features[0].weight.grad, domain_head[1].weight.grad, rev.grad)


class SortWithIndices(Function):
    @staticmethod
    def forward(ctx, x):
        values, indices = torch.sort(x, dim=-1, descending=True)
        ctx.mark_non_differentiable(indices)
        ctx.save_for_backward(indices)
        return values, indices

    @staticmethod
    def backward(ctx, grad_values, grad_indices):
        (indices,) = ctx.saved_tensors
        grad = torch.zeros_like(grad_values)
        grad.scatter_(-1, indices, grad_values)
        return grad


x = torch.tensor([[0.3, -1.0, 2.0, 0.5], [1.0, 0.0, -0.5, 4.0]], requires_grad=True)
values, indices = SortWithIndices.apply(x)
print(values.requires_grad, indices.requires_grad, indices.grad_fn, indices.dtype)
(values * torch.arange(4.0)).sum().backward()
print(x.grad)
ref = x.detach().clone().requires_grad_()
(ref.sort(dim=-1, descending=True).values * torch.arange(4.0)).sum().backward()
print(torch.equal(ref.grad, x.grad))
out(values, indices, x.grad)
# ---
# once_differentiable, set_materialize_grads, straight-through sign and jvp with save_for_forward
Function = torch.autograd.Function
once_differentiable = torch.autograd.function.once_differentiable


class ClampedExp(Function):
    @staticmethod
    def forward(ctx, x, max_value):
        y = x.exp().clamp(max=max_value)
        ctx.save_for_backward(y)
        ctx.max_value = max_value
        return y

    @staticmethod
    @once_differentiable
    def backward(ctx, grad_out):
        (y,) = ctx.saved_tensors
        return grad_out * y * (y < ctx.max_value), None


x = torch.linspace(-1, 2, 5, requires_grad=True)
y = ClampedExp.apply(x, 4.0)
(g,) = torch.autograd.grad(y.sum(), x, create_graph=True)
print(g, g.requires_grad)
err(lambda: g.sum().backward())


class SignSTE(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(False)
        ctx.save_for_backward(x)
        return x.sign()

    @staticmethod
    def backward(ctx, grad_output):
        if grad_output is None:
            return None
        (x,) = ctx.saved_tensors
        return grad_output * (x.abs() <= 1).to(grad_output.dtype)


w = torch.tensor([-2.0, -0.5, 0.0, 0.3, 1.5], requires_grad=True)
b = SignSTE.apply(w)
(b * torch.tensor([1.0, 2.0, 3.0, 4.0, 5.0])).sum().backward()
print(b, w.grad)
hard = w + (w.sign() - w).detach()
print(hard, hard.grad_fn.name())


class Cube(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        ctx.save_for_forward(x)
        return x**3

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return 3 * x**2 * g

    @staticmethod
    def jvp(ctx, t):
        (x,) = ctx.saved_tensors
        return 3 * x**2 * t


fwAD = torch.autograd.forward_ad

primal = torch.tensor([1.0, 2.0, -1.0])
with fwAD.dual_level():
    dual = fwAD.make_dual(primal, torch.ones(3))
    res = Cube.apply(dual)
    p, t = fwAD.unpack_dual(res)
print(p, t)
out(g, w.grad, p, t)
