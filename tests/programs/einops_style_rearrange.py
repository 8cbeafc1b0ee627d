# einops-style rearrange, repeat and reduce written with view, permute, expand and flatten
torch.manual_seed(0)


def space_to_depth(x, p):
    # 'b c (h p1) (w p2) -> b (h w) (p1 p2 c)'
    b, c, H, W = x.shape
    h, w = H // p, W // p
    x = x.view(b, c, h, p, w, p)
    x = x.permute(0, 2, 4, 3, 5, 1)
    return x.reshape(b, h * w, p * p * c)


def depth_to_space(x, p, c, h, w):
    # 'b (h w) (p1 p2 c) -> b c (h p1) (w p2)'
    b = x.shape[0]
    x = x.view(b, h, w, p, p, c).permute(0, 5, 1, 3, 2, 4)
    return x.reshape(b, c, h * p, w * p)


def repeat_heads(x, n):
    # 'b t d -> b n t d'
    return x.unsqueeze(1).expand(-1, n, -1, -1)


def reduce_pool(x, k, how):
    # 'b c (h k1) (w k2) -> b c h w' with a reduction over k1 k2
    b, c, H, W = x.shape
    x = x.reshape(b, c, H // k, k, W // k, k)
    return getattr(x, how)(dim=(3, 5)) if how != "max" else x.amax(dim=(3, 5))


img = torch.arange(2 * 3 * 4 * 4, dtype=torch.float32).view(2, 3, 4, 4)
patches = space_to_depth(img, 2)
print(patches.shape, patches.is_contiguous(), patches[0, 0])
back = depth_to_space(patches, 2, 3, 2, 2)
print(torch.equal(back, img), back.stride(), img.stride())
rep = repeat_heads(torch.randn(2, 5, 4), 3)
print(rep.shape, rep.stride(), rep.is_contiguous(), rep.contiguous().stride())
print(
    reduce_pool(img, 2, "mean")[1, 2],
    reduce_pool(img, 2, "max")[0, 0],
    reduce_pool(img, 2, "sum").dtype,
)
# 'b h t d -> b t (h d)' and back
q = torch.randn(2, 4, 5, 3, requires_grad=True)
merged = q.transpose(1, 2).flatten(2)
print(merged.shape, merged.grad_fn.name(), merged.grad_fn.next_functions[0][0].name())
split = merged.unflatten(-1, (4, 3)).transpose(1, 2)
print(torch.equal(split, q), split.is_contiguous())
(merged * torch.arange(12.0)).sum().backward()
print(q.grad[0, :, 0, :])
# 'b c h w -> b (c h w)' and channel-last shuffles
print(img.flatten(1).shape, img.movedim(1, -1).shape, img.permute(0, 2, 3, 1).stride())
print(torch.einsum("bchw->bhwc", img).is_contiguous(), img.unfold(2, 2, 2).unfold(3, 2, 2).shape)
out(patches, back, rep, merged, q.grad)
