# sparsemax and entmax-1.5 by sorting (threshold tau from cumsum), custom autograd backwards
class SparsemaxFunction(torch.autograd.Function):
    @staticmethod
    def forward(ctx, input, dim=-1):
        ctx.dim = dim
        max_val, _ = input.max(dim=dim, keepdim=True)
        input = input - max_val
        tau, supp_size = SparsemaxFunction._threshold_and_support(input, dim=dim)
        output = torch.clamp(input - tau, min=0)
        ctx.save_for_backward(supp_size, output)
        return output

    @staticmethod
    def backward(ctx, grad_output):
        supp_size, output = ctx.saved_tensors
        dim = ctx.dim
        grad_input = grad_output.clone()
        grad_input[output == 0] = 0
        v_hat = grad_input.sum(dim=dim) / supp_size.to(output.dtype).squeeze(dim)
        v_hat = v_hat.unsqueeze(dim)
        grad_input = torch.where(output != 0, grad_input - v_hat, grad_input)
        return grad_input, None

    @staticmethod
    def _threshold_and_support(input, dim=-1):
        input_srt, _ = torch.sort(input, descending=True, dim=dim)
        input_cumsum = input_srt.cumsum(dim) - 1
        d = input.size(dim)
        rhos = torch.arange(1, d + 1, device=input.device, dtype=input.dtype)
        view = [1] * input.dim()
        view[0] = -1
        rhos = rhos.view(view).transpose(0, dim)
        support = rhos * input_srt > input_cumsum
        support_size = support.sum(dim=dim).unsqueeze(dim)
        tau = input_cumsum.gather(dim, support_size - 1)
        tau /= support_size.to(input.dtype)
        return tau, support_size


class Entmax15Function(torch.autograd.Function):
    @staticmethod
    def forward(ctx, input, dim=-1):
        ctx.dim = dim
        max_val, _ = input.max(dim=dim, keepdim=True)
        input = input - max_val
        input = input / 2
        tau_star, _ = Entmax15Function._threshold_and_support(input, dim)
        output = torch.clamp(input - tau_star, min=0) ** 2
        ctx.save_for_backward(output)
        return output

    @staticmethod
    def backward(ctx, grad_output):
        (Y,) = ctx.saved_tensors
        gppr = Y.sqrt()
        dX = grad_output * gppr
        q = dX.sum(ctx.dim) / gppr.sum(ctx.dim)
        q = q.unsqueeze(ctx.dim)
        dX -= q * gppr
        return dX, None

    @staticmethod
    def _threshold_and_support(input, dim=-1):
        Xsrt, _ = torch.sort(input, descending=True, dim=dim)
        d = input.size(dim)
        rho = (
            torch.arange(1, d + 1, dtype=input.dtype)
            .view([-1] + [1] * (input.dim() - 1))
            .transpose(0, dim)
        )
        mean = Xsrt.cumsum(dim) / rho
        mean_sq = (Xsrt**2).cumsum(dim) / rho
        ss = rho * (mean_sq - mean**2)
        delta = (1 - ss) / rho
        delta_nz = torch.clamp(delta, 0)
        tau = mean - torch.sqrt(delta_nz)
        support_size = (tau <= Xsrt).sum(dim).unsqueeze(dim)
        tau_star = tau.gather(dim, support_size - 1)
        return tau_star, support_size


def sparsemax(x, dim=-1):
    return SparsemaxFunction.apply(x, dim)


def entmax15(x, dim=-1):
    return Entmax15Function.apply(x, dim)


x = torch.tensor(
    [[1.5, 1.0, -0.5, 0.2], [0.1, 0.1, 0.1, 0.1], [3.0, -1.0, 0.0, 2.9]], requires_grad=True
)
p = sparsemax(x)
print(p, p.sum(-1))
e = entmax15(x)
print(e.sum(-1), (e == 0).sum().item(), type(e.grad_fn).__name__)
w = torch.tensor([1.0, -2.0, 0.5, 3.0])
(p * w).sum().backward()
g_sparse = x.grad.clone()
x.grad = None
(e * w).sum().backward()
out(p, e, g_sparse, x.grad)

torch.manual_seed(0)
x64 = torch.randn(3, 5, dtype=torch.double, requires_grad=True)
print(torch.autograd.gradcheck(sparsemax, (x64, -1)), torch.autograd.gradcheck(entmax15, (x64,)))
col = sparsemax(x.detach().T.contiguous(), dim=0)
print(torch.allclose(col.T, p.detach()))
scores = torch.randn(2, 3, 6)
att = sparsemax(scores, dim=-1)
print(att.shape, (att > 0).sum(-1))
out(att, torch.sort(scores, dim=-1, descending=True).values)
