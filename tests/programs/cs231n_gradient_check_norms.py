# CS231n batchnorm/layernorm: forward and backward by hand in NumPy, checked against autograd
def rel_error(x, y):
    return np.max(np.abs(x - y) / (np.maximum(1e-8, np.abs(x) + np.abs(y))))


def eval_numerical_gradient_array(f, x, df, h=1e-5):
    grad = np.zeros_like(x)
    it = np.nditer(x, flags=["multi_index"], op_flags=["readwrite"])
    while not it.finished:
        ix = it.multi_index
        oldval = x[ix]
        x[ix] = oldval + h
        pos = f(x).copy()
        x[ix] = oldval - h
        neg = f(x).copy()
        x[ix] = oldval
        grad[ix] = np.sum((pos - neg) * df) / (2 * h)
        it.iternext()
    return grad


def batchnorm_forward(x, gamma, beta, eps=1e-5):
    mu = x.mean(axis=0)
    xc = x - mu
    var = (xc**2).mean(axis=0)
    std = np.sqrt(var + eps)
    xn = xc / std
    out_ = gamma * xn + beta
    return out_, (xn, gamma, std)


def batchnorm_backward_alt(dout, cache):
    xn, gamma, std = cache
    N = dout.shape[0]
    dbeta = dout.sum(axis=0)
    dgamma = np.sum(dout * xn, axis=0)
    dxn = dout * gamma
    dx = (N * dxn - dxn.sum(axis=0) - xn * np.sum(dxn * xn, axis=0)) / (N * std)
    return dx, dgamma, dbeta


np.random.seed(231)
N, D = 4, 5
x = 5 * np.random.randn(N, D) + 12
gamma = np.random.randn(D)
beta = np.random.randn(D)
dout = np.random.randn(N, D)

out_np, cache = batchnorm_forward(x, gamma, beta)
dx, dgamma, dbeta = batchnorm_backward_alt(dout, cache)
dx_num = eval_numerical_gradient_array(lambda x: batchnorm_forward(x, gamma, beta)[0], x, dout)
print(f"numeric dx error: {rel_error(dx_num, dx) < 1e-7}")

xt = torch.tensor(x, requires_grad=True)
gt = torch.tensor(gamma, requires_grad=True)
bt = torch.tensor(beta, requires_grad=True)
yt = F.batch_norm(xt, None, None, weight=gt, bias=bt, training=True, eps=1e-5)
yt.backward(torch.from_numpy(dout))
print("dx error: ", rel_error(xt.grad.numpy(), dx) < 1e-9)
print("dgamma error: ", rel_error(gt.grad.numpy(), dgamma) < 1e-9)
print("dbeta error: ", rel_error(bt.grad.numpy(), dbeta) < 1e-9)
print("means:", yt.mean(dim=0).detach().numpy().round(6), yt.dtype)
print("stds:", yt.std(dim=0, unbiased=False).detach())
out(yt, xt.grad, gt.grad, bt.grad)

# layer norm: normalise each row instead of each column
ln = nn.LayerNorm(D, dtype=torch.float64)
with torch.no_grad():
    ln.weight.copy_(torch.from_numpy(gamma))
    ln.bias.copy_(torch.from_numpy(beta))
xt = torch.tensor(x, requires_grad=True)
y = ln(xt)
y.backward(torch.from_numpy(dout))
mu = x.mean(axis=1, keepdims=True)
std = np.sqrt(x.var(axis=1, keepdims=True) + 1e-5)
xn = (x - mu) / std
dxn = dout * gamma
dx_ln = (
    D * dxn - dxn.sum(axis=1, keepdims=True) - xn * np.sum(dxn * xn, axis=1, keepdims=True)
) / (D * std)
print("layernorm dx error:", rel_error(xt.grad.numpy(), dx_ln) < 1e-9, y.grad_fn.name())
print("dgamma:", ln.weight.grad)
out(y, xt.grad, ln.weight.grad)


# ---
# CS231n gradient checks: torch.autograd.gradcheck and a hand-rolled sparse check on softmax loss
def softmax_loss(x, y):
    shifted = x - x.max(dim=1, keepdim=True).values
    log_probs = shifted - shifted.exp().sum(dim=1, keepdim=True).log()
    return -log_probs[torch.arange(x.shape[0]), y].mean()


torch.manual_seed(231)
num_classes, num_inputs = 10, 50
x = (0.001 * torch.randn(num_inputs, num_classes, dtype=torch.float64)).requires_grad_()
y = torch.randint(num_classes, size=(num_inputs,))
loss = softmax_loss(x, y)
print(f"loss: {loss.item():.6f} (expected about {np.log(num_classes):.6f})")
loss.backward()
print(torch.allclose(loss, F.cross_entropy(x, y)), loss.grad_fn.name())
print(torch.autograd.gradcheck(lambda t: softmax_loss(t, y), (x,)))


def grad_check_sparse(f, x, analytic_grad, num_checks=5, h=1e-5):
    errors = []
    for _ in range(num_checks):
        ix = tuple(int(torch.randint(m, (1,))) for m in x.shape)
        oldval = x[ix].item()
        x[ix] = oldval + h
        fxph = f(x).item()
        x[ix] = oldval - h
        fxmh = f(x).item()
        x[ix] = oldval
        grad_numerical = (fxph - fxmh) / (2 * h)
        grad_analytic = analytic_grad[ix].item()
        rel = abs(grad_numerical - grad_analytic) / (abs(grad_numerical) + abs(grad_analytic))
        errors.append(rel)
        print(f"numerical: {grad_numerical:f} analytic: {grad_analytic:f}, ok: {rel < 1e-6}")
    return errors


with torch.no_grad():
    errs = grad_check_sparse(lambda t: softmax_loss(t, y), x, x.grad)
print(x.requires_grad, x.is_leaf, x._version > 0)
out(x.grad)
