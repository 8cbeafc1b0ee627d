# the attention-kernel switches tutorials flip: torch.backends.cuda's *_sdp_enabled and
# enable_*_sdp, sdpa_kernel blocks, the deprecated sdp_kernel context, and which CPU kernel
# (fused or math) a causal self-attention block then records
import warnings

SDPBackend, sdpa_kernel = torch.nn.attention.SDPBackend, torch.nn.attention.sdpa_kernel

torch.manual_seed(0)


class CausalSelfAttention(nn.Module):
    def __init__(self, num_heads, embed_dimension, dropout=0.0):
        super().__init__()
        self.c_attn = nn.Linear(embed_dimension, 3 * embed_dimension, bias=False)
        self.c_proj = nn.Linear(embed_dimension, embed_dimension, bias=False)
        self.num_heads = num_heads
        self.embed_dimension = embed_dimension
        self.dropout = dropout

    def forward(self, x):
        query_projected = self.c_attn(x)
        batch_size, seq_len = query_projected.size(0), query_projected.size(1)
        head_dim = query_projected.size(-1) // (self.num_heads * 3)
        query, key, value = query_projected.chunk(3, -1)
        query = query.view(batch_size, -1, self.num_heads, head_dim).transpose(1, 2)
        key = key.view(batch_size, -1, self.num_heads, head_dim).transpose(1, 2)
        value = value.view(batch_size, -1, self.num_heads, head_dim).transpose(1, 2)
        y = F.scaled_dot_product_attention(
            query, key, value, dropout_p=self.dropout, is_causal=True
        )
        y = y.transpose(1, 2).reshape(batch_size, seq_len, self.num_heads * head_dim)
        return self.c_proj(y)


def flags():
    b = torch.backends.cuda
    return [
        b.flash_sdp_enabled(),
        b.mem_efficient_sdp_enabled(),
        b.math_sdp_enabled(),
        b.cudnn_sdp_enabled(),
    ]


model = CausalSelfAttention(num_heads=2, embed_dimension=8)
x = torch.rand(2, 5, 8)
print(flags())
y = model(x)
print(type(y.grad_fn).__name__, y.shape)
with sdpa_kernel(SDPBackend.MATH):
    print(flags())
    y_math = model(x)
print(torch.allclose(y, y_math, atol=1e-6), flags())
with sdpa_kernel([SDPBackend.FLASH_ATTENTION, SDPBackend.MATH]):
    print(flags())
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    with torch.backends.cuda.sdp_kernel(enable_flash=False, enable_mem_efficient=False):
        print(flags())
print([w.category.__name__ for w in caught])
torch.backends.cuda.enable_flash_sdp(False)
print(flags())
y2 = model(x)
y2.sum().backward()
torch.backends.cuda.enable_flash_sdp(True)
print(flags(), torch.backends.cuda.is_flash_attention_available())
out(y, y_math, y2, model.c_attn.weight.grad)
torch.backends.cuda.enable_math_sdp(False)
with sdpa_kernel(SDPBackend.MATH):
    print(flags())
print(flags())
torch.backends.cuda.enable_math_sdp(True)
# ---
# small corners real scripts touch: torch.Size arithmetic, a scrambled Sobol sampler for
# hyperparameter search, and Lua-Torch's cross-map LRN in a GoogLeNet-style stem
shape = torch.ones(2, 3, 4).shape
print(shape[:1] + (6,), (1,) + shape, shape * 2, type(shape + (5,)).__name__)
new_shape = torch.Size([4]) + shape[1:]
print(torch.zeros(new_shape).shape)
sobol = torch.quasirandom.SobolEngine(dimension=3, scramble=True, seed=7)
points = sobol.draw(4)
lows, highs = torch.tensor([1e-4, 0.0, 16.0]), torch.tensor([1e-1, 0.5, 128.0])
trials = lows + points * (highs - lows)
for lr, drop, width in trials.tolist():
    print(f"lr={lr:.5f} dropout={drop:.3f} width={int(width)}")
stem = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.CrossMapLRN2d(5, 1e-4, 0.75, 2))
print(stem)
img = torch.randn(1, 3, 6, 6, requires_grad=True)
feat = stem(img)
feat.mean().backward()
out(feat, img.grad)
print(type(feat.grad_fn).__name__)
