# CS231n naive convolution and max pooling with loops, compared with F.conv2d/F.max_pool2d
def conv_forward_naive(x, w, b, conv_param):
    stride, pad = conv_param["stride"], conv_param["pad"]
    N, C, H, W = x.shape
    F_, _, HH, WW = w.shape
    H_out = 1 + (H + 2 * pad - HH) // stride
    W_out = 1 + (W + 2 * pad - WW) // stride
    x_pad = F.pad(x, (pad, pad, pad, pad), mode="constant", value=0)
    out_ = torch.zeros((N, F_, H_out, W_out), dtype=x.dtype)
    for n in range(N):
        for f in range(F_):
            for i in range(H_out):
                for j in range(W_out):
                    window = x_pad[n, :, i * stride : i * stride + HH, j * stride : j * stride + WW]
                    out_[n, f, i, j] = torch.sum(window * w[f]) + b[f]
    return out_


x_shape = (2, 3, 4, 4)
w_shape = (3, 3, 4, 4)
x = torch.linspace(-0.1, 0.5, steps=int(np.prod(x_shape)), dtype=torch.float64).reshape(x_shape)
w = torch.linspace(-0.2, 0.3, steps=int(np.prod(w_shape)), dtype=torch.float64).reshape(w_shape)
b = torch.linspace(-0.1, 0.2, steps=3, dtype=torch.float64)
conv_param = {"stride": 2, "pad": 1}
out_naive = conv_forward_naive(x, w, b, conv_param)
out_ref = F.conv2d(x, w, b, stride=2, padding=1)
print(out_naive.shape, torch.max(torch.abs(out_naive - out_ref)).item() < 1e-12)
print(out_ref)
out(out_naive, out_ref)

# backward through the loops equals the backward of conv2d
x.requires_grad_()
w.requires_grad_()
b.requires_grad_()
dout = torch.randn(out_ref.shape, dtype=torch.float64)
conv_forward_naive(x, w, b, conv_param).backward(dout)
grads_naive = [t.grad.clone() for t in (x, w, b)]
for t in (x, w, b):
    t.grad = None
F.conv2d(x, w, b, stride=2, padding=1).backward(dout)
print([torch.allclose(g, t.grad) for g, t in zip(grads_naive, (x, w, b))])
print(x.grad.dtype, w.grad.shape, b.grad)
out(*grads_naive)


def max_pool_forward_naive(x, pool_param):
    ph, pw, stride = pool_param["pool_height"], pool_param["pool_width"], pool_param["stride"]
    N, C, H, W = x.shape
    H_out, W_out = 1 + (H - ph) // stride, 1 + (W - pw) // stride
    out_ = x.new_zeros((N, C, H_out, W_out))
    for i in range(H_out):
        for j in range(W_out):
            window = x[:, :, i * stride : i * stride + ph, j * stride : j * stride + pw]
            out_[:, :, i, j] = window.amax(dim=(2, 3))
    return out_


x = torch.randn(2, 3, 6, 6, requires_grad=True)
pooled = max_pool_forward_naive(x, {"pool_height": 2, "pool_width": 2, "stride": 2})
ref, idx = F.max_pool2d(x, 2, 2, return_indices=True)
print(torch.equal(pooled, ref), idx[0, 0])
pooled.sum().backward()
print(x.grad[0, 0], x.grad.sum().item())
out(pooled, idx, x.grad)

# im2col with unfold: the convolution as a matrix product
xu = torch.randn(2, 3, 5, 5)
wu = torch.randn(4, 3, 3, 3)
cols = F.unfold(xu, kernel_size=3, padding=1)
print(cols.shape)
conv_as_mm = (wu.view(4, -1) @ cols).view(2, 4, 5, 5)
print(torch.allclose(conv_as_mm, F.conv2d(xu, wu, padding=1), atol=1e-5))
out(cols, conv_as_mm)
