# a fused conv + batch-norm custom Function whose backward uses torch.nn.grad's conv gradients
x = torch.randn(2, 3, 6, 6, dtype=torch.double, requires_grad=True)
w = torch.randn(4, 3, 3, 3, dtype=torch.double, requires_grad=True)
y = F.conv2d(x, w, stride=1, padding=1)
go = torch.randn_like(y)
gx = torch.nn.grad.conv2d_input(x.shape, w, go, stride=1, padding=1)
gw = torch.nn.grad.conv2d_weight(x, w.shape, go, stride=1, padding=1)
ax, aw = torch.autograd.grad(y, (x, w), go)
out(torch.allclose(gx, ax), torch.allclose(gw, aw), gx.requires_grad)
x1 = torch.randn(2, 3, 7, dtype=torch.double)
w1 = torch.randn(5, 3, 2, dtype=torch.double)
g1 = torch.randn(2, 5, 3, dtype=torch.double)
out(
    torch.nn.grad.conv1d_input(x1.shape, w1, g1, stride=2),
    torch.nn.grad.conv1d_weight(x1, w1.shape, g1, stride=2),
)


class FusedConvBN2DFunction(torch.autograd.Function):
    @staticmethod
    def forward(ctx, X, conv_weight, eps=1e-3):
        assert X.ndim == 4
        ctx.save_for_backward(X, conv_weight)
        X = F.conv2d(X, conv_weight)
        sum = X.sum(dim=(0, 2, 3))
        X_sq = X**2
        sum_sq = X_sq.sum(dim=(0, 2, 3))
        N = X.numel() / X.size(1)
        mean = sum / N
        var = sum_sq / N - mean**2
        inv_std = 1 / torch.sqrt(var + eps)
        ctx.eps = eps
        return (X - mean[None, :, None, None]) * inv_std[None, :, None, None]

    @staticmethod
    def backward(ctx, grad_out):
        (
            X,
            conv_weight,
        ) = ctx.saved_tensors
        X_conv_out = F.conv2d(X, conv_weight)
        sum = X_conv_out.sum(dim=(0, 2, 3))
        N = X_conv_out.numel() / X_conv_out.size(1)
        mean = sum / N
        var = (X_conv_out**2).sum(dim=(0, 2, 3)) / N - mean**2
        unsqueezed_mean = mean[None, :, None, None]
        inv_std = 1 / torch.sqrt(var + ctx.eps)[None, :, None, None]
        grad_out = grad_out * inv_std
        grad_out = (
            grad_out
            - grad_out.mean(dim=(0, 2, 3), keepdim=True)
            - (X_conv_out - unsqueezed_mean)
            * inv_std
            * (
                (grad_out * (X_conv_out - unsqueezed_mean) * inv_std).mean(
                    dim=(0, 2, 3), keepdim=True
                )
            )
        )
        grad_X = torch.nn.grad.conv2d_input(X.shape, conv_weight, grad_out)
        grad_input = torch.nn.grad.conv2d_weight(X, conv_weight.shape, grad_out)
        return grad_X, grad_input, None


a = torch.rand(2, 3, 4, 4, requires_grad=True, dtype=torch.double)
b = torch.rand(5, 3, 3, 3, requires_grad=True, dtype=torch.double)
print(torch.autograd.gradcheck(FusedConvBN2DFunction.apply, (a, b)))
