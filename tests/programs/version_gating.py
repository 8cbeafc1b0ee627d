# feature gates on torch.__version__ the way libraries write them take their torch 2.x branches
TORCH_MAJOR, TORCH_MINOR = (int(part) for part in torch.__version__.split(".")[:2])
HAS_SDPA = TORCH_MAJOR >= 2
HAS_COMPILE = torch.__version__ >= "2.0"
LEGACY_AMP = torch.__version__ < (1, 10)
print(HAS_SDPA, HAS_COMPILE, LEGACY_AMP, TORCH_MINOR >= 0)
q = torch.linspace(-1, 1, 24).reshape(1, 2, 3, 4)
if HAS_SDPA:
    attn = F.scaled_dot_product_attention(q, q, q, is_causal=True)
else:
    weights = torch.softmax(q @ q.transpose(-1, -2) / 2, dim=-1)
    attn = weights @ q
out(attn)
# ---
# packaging.version, as libraries compare torch's version before choosing an API
try:
    from packaging import version
except ImportError:  # packaging absent: the same decision from the release tuple
    release = tuple(int(p) for p in torch.__version__.split("+")[0].split("."))
    new_api = release >= (1, 12)
else:
    new_api = version.parse(torch.__version__) >= version.parse("1.12")
    print(
        version.parse(torch.__version__).release[:1], version.parse(torch.__version__).is_prerelease
    )
x = torch.tensor([[1.0, -2.0], [3.0, 4.0]], requires_grad=True)
if new_api:
    y = torch.linalg.matrix_norm(x)
else:
    y = torch.norm(x)
y.backward()
out(y, x.grad)
print(torch.__version__ > "1.13.1", torch.__version__.split("+")[0].count("."))
