# custom layers written the way user code writes them: a Conv2d through F.unfold and a
# matmul (nn.modules.utils._pair for the sizes), a locally connected layer, and a
# transposed convolution through F.fold, each checked against torch's own layer
rng = np.random.default_rng(11)
_pair = nn.modules.utils._pair


class UnfoldConv2d(nn.Module):
    def __init__(self, cin, cout, kernel_size, stride=1, padding=0, dilation=1):
        super().__init__()
        self.kernel_size, self.stride = _pair(kernel_size), _pair(stride)
        self.padding, self.dilation = _pair(padding), _pair(dilation)
        self.weight = nn.Parameter(torch.empty(cout, cin, *self.kernel_size))
        self.bias = nn.Parameter(torch.zeros(cout))

    def forward(self, x):
        n, _, h, w = x.shape
        cols = F.unfold(x, self.kernel_size, self.dilation, self.padding, self.stride)
        out = self.weight.view(self.weight.size(0), -1) @ cols + self.bias[:, None]
        kh, kw = self.kernel_size
        oh = (h + 2 * self.padding[0] - self.dilation[0] * (kh - 1) - 1) // self.stride[0] + 1
        ow = (w + 2 * self.padding[1] - self.dilation[1] * (kw - 1) - 1) // self.stride[1] + 1
        return out.view(n, -1, oh, ow)


class LocallyConnected2d(nn.Module):
    def __init__(self, cin, cout, out_size, kernel_size):
        super().__init__()
        self.kernel_size, self.out_size = _pair(kernel_size), _pair(out_size)
        blocks = self.out_size[0] * self.out_size[1]
        self.weight = nn.Parameter(torch.empty(blocks, cout, cin * kernel_size * kernel_size))

    def forward(self, x):
        cols = F.unfold(x, self.kernel_size)  # (n, cin*k*k, blocks)
        out = torch.einsum("nkb,bok->nob", cols, self.weight)
        return out.reshape(x.size(0), -1, *self.out_size)


def fill(module):
    with torch.no_grad():
        for p in module.parameters():
            p.copy_(torch.tensor(rng.uniform(-0.5, 0.5, tuple(p.shape))))


x = torch.tensor(rng.normal(size=(2, 3, 7, 6)), dtype=torch.float32, requires_grad=True)
mine = UnfoldConv2d(3, 4, 3, stride=2, padding=1, dilation=(1, 2))
fill(mine)
ref = nn.Conv2d(3, 4, 3, stride=2, padding=1, dilation=(1, 2))
with torch.no_grad():
    ref.weight.copy_(mine.weight)
    ref.bias.copy_(mine.bias)
y_mine, y_ref = mine(x), ref(x)
out(y_mine.shape, (y_mine - y_ref).abs().max() < 1e-5, y_mine.grad_fn.name())
y_mine.pow(2).sum().backward()
g_mine, gx_mine = mine.weight.grad.clone(), x.grad.clone()
x.grad = None
y_ref.pow(2).sum().backward()
out((g_mine - ref.weight.grad).abs().max() < 1e-4, (gx_mine - x.grad).abs().max() < 1e-4)
local = LocallyConnected2d(3, 2, (5, 4), 3)
fill(local)
z = local(x.detach())
out(z.shape, z.sum(dim=(2, 3)))
cols = torch.tensor(rng.normal(size=(1, 2 * 2 * 2, 9)), dtype=torch.float32)
up = F.fold(cols, output_size=(4, 4), kernel_size=2, stride=1)
counts = F.fold(torch.ones_like(cols), output_size=(4, 4), kernel_size=2, stride=1)
out(up.shape, counts[0, 0], (up / counts).mean())
out(_pair(3), _pair((1, 2)), nn.modules.utils._triple(2), nn.modules.utils._single(4))
