# QLoRA-style NF4: normal-quantile codebook, blockwise absmax quantization, double quant, packing
from scipy.stats import norm


def create_normal_map(offset=0.9677083, use_extra_value=True):
    if use_extra_value:
        v1 = norm.ppf(torch.linspace(offset, 0.5, 9)[:-1]).tolist()
        v2 = [0] * (256 - 15)
        v3 = (-norm.ppf(torch.linspace(offset, 0.5, 8)[:-1])).tolist()
    else:
        v1 = norm.ppf(torch.linspace(offset, 0.5, 8)[:-1]).tolist()
        v2 = [0] * (256 - 14)
        v3 = (-norm.ppf(torch.linspace(offset, 0.5, 8)[:-1])).tolist()
    v = v1 + v2 + v3
    values = torch.Tensor(v)
    values = values.sort().values
    values /= values.max()
    return values


full = create_normal_map()
nf4 = torch.cat([full[:8], full[-8:]])
print(nf4.shape, nf4[:3], nf4[7:9], nf4.dtype)


def quantize_blockwise(w, code, blocksize=8):
    flat = w.reshape(-1)
    pad = (-flat.numel()) % blocksize
    flat = F.pad(flat, (0, pad))
    blocks = flat.view(-1, blocksize)
    absmax = blocks.abs().amax(dim=1, keepdim=True).clamp(min=1e-12)
    normed = blocks / absmax
    idx = (normed.unsqueeze(-1) - code).abs().argmin(dim=-1).to(torch.uint8)
    return idx, absmax.squeeze(1), pad


def dequantize_blockwise(idx, absmax, code, shape, pad):
    vals = code[idx.long()] * absmax.unsqueeze(1)
    flat = vals.reshape(-1)
    if pad:
        flat = flat[:-pad]
    return flat.view(shape)


def pack_4bit(idx):
    idx = idx.reshape(-1)
    return (idx[0::2] << 4) | idx[1::2]


def unpack_4bit(packed):
    hi = (packed >> 4) & 0xF
    lo = packed & 0xF
    return torch.stack([hi, lo], dim=1).reshape(-1)


torch.manual_seed(0)
W = torch.randn(6, 10) * 0.05
idx, absmax, pad = quantize_blockwise(W, nf4)
print(idx.dtype, idx.shape, absmax.shape, pad, idx[0].tolist())
W_hat = dequantize_blockwise(idx, absmax, nf4, W.shape, pad)
err_ = (W - W_hat).abs()
print(f"max abs error {err_.max().item():.6f} mean {err_.mean().item():.6f}")
out(W_hat, absmax)
packed = pack_4bit(idx)
print(packed.dtype, packed.shape, torch.equal(unpack_4bit(packed).view_as(idx), idx))
# double quantization of the absmax constants to int8 with a float32 second-level scale
offset = absmax.mean()
centered = absmax - offset
scale2 = centered.abs().max() / 127
q_absmax = torch.round(centered / scale2).clamp(-127, 127).to(torch.int8)
absmax_dq = q_absmax.float() * scale2 + offset
print(q_absmax, f"{(absmax_dq - absmax).abs().max().item():.2e}")
W_dq = dequantize_blockwise(idx, absmax_dq, nf4, W.shape, pad)
bits = (idx.numel() * 4 + q_absmax.numel() * 8 + 64) / W.numel()
print(f"bits per parameter {bits:.3f}")
out(W_dq)


class Linear4bit(nn.Module):
    def __init__(self, linear, code):
        super().__init__()
        idx, absmax, pad = quantize_blockwise(linear.weight.data, code, blocksize=16)
        self.register_buffer("packed", pack_4bit(idx))
        self.register_buffer("absmax", absmax)
        self.register_buffer("code", code)
        self.shape, self.pad = linear.weight.shape, pad
        self.bias = linear.bias

    def forward(self, x):
        idx = unpack_4bit(self.packed).view(-1, 16)
        w = dequantize_blockwise(idx, self.absmax, self.code, self.shape, self.pad)
        return F.linear(x, w.to(x.dtype), self.bias)


lin = nn.Linear(10, 6)
q = Linear4bit(lin, nf4)
x = torch.randn(3, 10)
print(sorted(q.state_dict().keys()), q.packed.dtype)
print(f"{(q(x) - lin(x)).abs().max().item():.5f}")
out(q(x))
