# custom Functions in setup_context style: generate_vmap_rule, NumPy kernels with vmap staticmethods
class MyCube(torch.autograd.Function):
    @staticmethod
    def forward(x):
        result = x**3
        dx = 3 * x**2
        return result, dx

    @staticmethod
    def setup_context(ctx, inputs, output):
        (x,) = inputs
        result, dx = output
        ctx.save_for_backward(x, dx)

    @staticmethod
    def backward(ctx, grad_output, grad_dx):
        x, dx = ctx.saved_tensors
        result = grad_output * dx + grad_dx * 6 * x
        return result

    @staticmethod
    def jvp(ctx, x_t):
        x, dx = ctx.saved_tensors
        return dx * x_t, 6 * x * x_t

    generate_vmap_rule = True


def my_cube(x):
    result, _ = MyCube.apply(x)
    return result


x = torch.randn(3, requires_grad=True)
g = torch.autograd.grad(my_cube(x).sum(), x, create_graph=True)[0]
gg = torch.autograd.grad(g.sum(), x)[0]
out(g, gg)
out(torch.func.vmap(my_cube)(torch.randn(2, 3)))
out(torch.func.jacrev(my_cube)(torch.tensor([1.0, 2.0])))
out(torch.func.grad(lambda x: my_cube(x).sum())(torch.tensor([1.0, 2.0])))


class NumpySort(torch.autograd.Function):
    @staticmethod
    def forward(x, dim):
        device = x.device
        x = x.cpu().numpy()
        ind = np.argsort(x, axis=dim)
        ind_inv = np.argsort(ind, axis=dim)
        result = np.take_along_axis(x, ind, axis=dim)
        return (
            torch.tensor(result, device=device),
            torch.tensor(ind, device=device),
            torch.tensor(ind_inv, device=device),
        )

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, dim = inputs
        _, ind, ind_inv = output
        ctx.mark_non_differentiable(ind, ind_inv)
        ctx.save_for_backward(ind, ind_inv)
        ctx.dim = dim

    @staticmethod
    def backward(ctx, grad_output, _0, _1):
        ind, ind_inv = ctx.saved_tensors
        return NumpyTake.apply(grad_output, ind_inv, ind, ctx.dim), None

    @staticmethod
    def vmap(info, in_dims, x, dim):
        x_bdim, _ = in_dims
        logical_dim = x.dim() if x_bdim is None else x.dim() - 1
        dim = dim if dim >= 0 else dim + logical_dim
        x = x.movedim(x_bdim, 0)
        return NumpySort.apply(x, dim + 1), (0, 0, 0)


class NumpyTake(torch.autograd.Function):
    @staticmethod
    def forward(x, ind, ind_inv, dim):
        device = x.device
        x = x.cpu().numpy()
        ind = ind.cpu().numpy()
        return torch.tensor(np.take_along_axis(x, ind, dim), device=device)

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, ind, ind_inv, dim = inputs
        ctx.save_for_backward(ind, ind_inv)
        ctx.dim = dim

    @staticmethod
    def backward(ctx, grad_output):
        ind, ind_inv = ctx.saved_tensors
        result = NumpyTake.apply(grad_output, ind_inv, ind, ctx.dim)
        return result, None, None, None

    @staticmethod
    def vmap(info, in_dims, x, ind, ind_inv, dim):
        x_bdim, ind_bdim, ind_inv_bdim, _ = in_dims
        logical_dim = x.dim() if x_bdim is None else x.dim() - 1
        dim = dim if dim >= 0 else dim + logical_dim

        def maybe_expand_bdim_at_front(x, x_bdim):
            if x_bdim is None:
                return x.expand(info.batch_size, *x.shape)
            return x.movedim(x_bdim, 0)

        x = maybe_expand_bdim_at_front(x, x_bdim)
        ind = maybe_expand_bdim_at_front(ind, ind_bdim)
        ind_inv = maybe_expand_bdim_at_front(ind_inv, ind_inv_bdim)
        return NumpyTake.apply(x, ind, ind_inv, dim + 1), 0


x = torch.randn(2, 3)
result = torch.vmap(NumpySort.apply, in_dims=(0, None))(x, 0)
out(result[0], result[1])
x = torch.randn(3, 4, requires_grad=True)
y, ind, _ = NumpySort.apply(x, 1)
(y * torch.arange(4.0)).sum().backward()
out(y, ind, x.grad, ind.requires_grad)
gf = torch.func.grad(lambda x: NumpySort.apply(x, 0)[0][-1])(torch.tensor([3.0, 1.0, 2.0]))
out(gf)
