# the *_with_indices spellings of the max poolings return (values, indices)
x = torch.randn(1, 2, 6, 6, requires_grad=True)
v, i = F.max_pool2d_with_indices(x, 2)
v.sum().backward()
out(v, i, x.grad)
out(F.max_pool2d_with_indices(x, 3, stride=2, padding=1, ceil_mode=True))
out(F.max_pool1d_with_indices(x[0], 2), F.max_pool3d_with_indices(x[None], (1, 2, 2)))
out(F.adaptive_max_pool2d_with_indices(x, (2, 3)), F.adaptive_max_pool1d_with_indices(x[0], 4))
out(
    F.adaptive_max_pool3d_with_indices(x[None], 2),
    F.max_pool2d_with_indices(x, 2, return_indices=False),
)
err(lambda: F.max_pool2d_with_indices(x[0, 0, 0], 2))
