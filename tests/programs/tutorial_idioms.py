# Optimizer zoo: Adagrad, Rprop, NAdam, RAdam, Adamax, ASGD on one fixed least-squares problem
rng = np.random.default_rng(0)
X = torch.tensor(rng.normal(size=(16, 3)), dtype=torch.float32)
w_true = torch.tensor([[1.5], [-2.0], [0.5]])
y = X @ w_true + 0.1
for name, make in [
    (
        "Adagrad",
        lambda p: torch.optim.Adagrad(p, lr=0.1, lr_decay=0.01, initial_accumulator_value=0.1),
    ),
    ("Rprop", lambda p: torch.optim.Rprop(p, lr=0.01)),
    ("NAdam", lambda p: torch.optim.NAdam(p, lr=0.05, weight_decay=0.01)),
    ("RAdam", lambda p: torch.optim.RAdam(p, lr=0.05)),
    ("Adamax", lambda p: torch.optim.Adamax(p, lr=0.05)),
    ("ASGD", lambda p: torch.optim.ASGD(p, lr=0.05, t0=3)),
]:
    model = nn.Linear(3, 1)
    with torch.no_grad():
        model.weight.copy_(torch.tensor([[0.1, 0.2, -0.3]]))
        model.bias.zero_()
    opt = make(model.parameters())
    for _ in range(8):
        opt.zero_grad()
        loss = F.mse_loss(model(X), y)
        loss.backward()
        opt.step()
    print(name, f"{loss.item():.5f}", sorted(opt.state_dict()["state"][0].keys()))
    out(model.weight, model.bias)
# ---
# CyclicLR and ChainedScheduler traces, as printed by a training loop
p = nn.Parameter(torch.zeros(2))
opt = torch.optim.SGD([p], lr=0.1, momentum=0.9)
sched = torch.optim.lr_scheduler.CyclicLR(
    opt, base_lr=0.01, max_lr=0.1, step_size_up=3, mode="triangular2"
)
lrs = []
for _ in range(14):
    opt.step()
    sched.step()
    lrs.append(round(sched.get_last_lr()[0], 6))
print(lrs)
opt2 = torch.optim.SGD([p], lr=1.0)
chain = torch.optim.lr_scheduler.ChainedScheduler(
    [
        torch.optim.lr_scheduler.ConstantLR(opt2, factor=0.1, total_iters=2),
        torch.optim.lr_scheduler.ExponentialLR(opt2, gamma=0.9),
    ]
)
trace = []
for _ in range(5):
    opt2.step()
    chain.step()
    trace.append(round(opt2.param_groups[0]["lr"], 6))
print(trace)
# ---
# Probabilistic regression losses: GaussianNLLLoss, PoissonNLLLoss, MultiLabelSoftMarginLoss
mean = torch.tensor([[0.5, -1.0], [2.0, 0.3]], requires_grad=True)
var = torch.tensor([[0.2, 1.5], [0.7, 0.05]], requires_grad=True)
target = torch.tensor([[0.4, -0.2], [1.0, 0.3]])
g = nn.GaussianNLLLoss()(mean, target, var)
g_full = nn.GaussianNLLLoss(full=True, reduction="sum")(mean, target, var)
(g + g_full).backward()
out(g, g_full, mean.grad, var.grad)
rate = torch.tensor([0.3, 1.2, -0.5, 2.0], requires_grad=True)
counts = torch.tensor([0.0, 3.0, 1.0, 7.0])
pl = nn.PoissonNLLLoss()(rate, counts)
pl_full = nn.PoissonNLLLoss(log_input=False, full=True)(rate.exp(), counts)
(pl + pl_full).backward()
out(pl, pl_full, rate.grad)
logits = torch.tensor([[1.0, -2.0, 0.5], [0.1, 0.2, -0.3]], requires_grad=True)
labels = torch.tensor([[1.0, 0.0, 1.0], [0.0, 1.0, 0.0]])
ml = nn.MultiLabelSoftMarginLoss(weight=torch.tensor([1.0, 2.0, 0.5]))(logits, labels)
ml.backward()
out(ml, logits.grad)
# ---
# Datasets: ConcatDataset, Subset, WeightedRandomSampler (only seed-free facts), BatchSampler
data = torch.utils.data
BatchSampler, ConcatDataset, DataLoader = data.BatchSampler, data.ConcatDataset, data.DataLoader
SequentialSampler, Subset, TensorDataset = data.SequentialSampler, data.Subset, data.TensorDataset
WeightedRandomSampler, get_worker_info = data.WeightedRandomSampler, data.get_worker_info

a = TensorDataset(torch.arange(6.0).reshape(3, 2), torch.tensor([0, 0, 1]))
b = TensorDataset(torch.arange(10.0, 14.0).reshape(2, 2), torch.tensor([1, 1]))
both = ConcatDataset([a, b])
print(len(both), both.cumulative_sizes)
out(*both[3], *both[-1])
sub = Subset(both, [4, 0, 2])
print(len(sub), [int(sub[i][1]) for i in range(len(sub))])
weights = torch.tensor([0.0, 0.0, 1.0, 0.0, 1.0])
sampler = WeightedRandomSampler(weights, num_samples=20, replacement=True)
drawn = list(sampler)
print(len(sampler), len(drawn), sorted(set(drawn)) <= [2, 4], type(drawn[0]).__name__)
print(list(BatchSampler(SequentialSampler(range(7)), batch_size=3, drop_last=False)))
print(list(BatchSampler(SequentialSampler(range(7)), batch_size=3, drop_last=True)))
loader = DataLoader(both, batch_size=2, shuffle=False)
for xb, yb in loader:
    out(xb, yb)
print(get_worker_info())
# ---
# Histogram binning with bucketize and searchsorted (quantile features)
values = torch.tensor([0.1, 2.5, 3.0, -1.0, 7.2, 3.0, 5.5])
edges = torch.tensor([0.0, 1.0, 3.0, 5.0])
out(torch.bucketize(values, edges), torch.bucketize(values, edges, right=True))
out(torch.searchsorted(edges, values), torch.searchsorted(edges, values, side="right"))
out(torch.searchsorted(edges, values, out_int32=True))
sorted_rows = torch.tensor([[1.0, 3.0, 5.0, 7.0], [2.0, 4.0, 6.0, 8.0]])
out(torch.searchsorted(sorted_rows, torch.tensor([[3.0, 6.0], [1.0, 9.0]])))
counts = torch.bincount(torch.bucketize(values, edges), minlength=5)
out(counts, torch.histc(values, bins=4, min=-1.0, max=7.0))
# ---
# Patches with nn.Unfold / nn.Fold: overlap-add averaging reconstructs the image
img = torch.arange(2 * 3 * 6 * 6, dtype=torch.float32).reshape(2, 3, 6, 6) / 50
img.requires_grad_(True)
unfold = nn.Unfold(kernel_size=3, stride=2, padding=1)
fold = nn.Fold(output_size=(6, 6), kernel_size=3, stride=2, padding=1)
patches = unfold(img)
ones = torch.ones_like(img)
norm = fold(unfold(ones))
recon = fold(patches) / norm
out(patches.shape, norm[0, 0], recon)
(recon * torch.linspace(-1, 1, 6)).sum().backward()
out(img.grad[0, 0])
# ---
# Llama-style block pieces: RMSNorm and rotary embeddings through torch.polar / view_as_complex
dim, seq = 8, 5
freqs = 1.0 / (10000.0 ** (torch.arange(0, dim, 2)[: dim // 2].float() / dim))
t = torch.arange(seq, dtype=torch.float32)
freqs_cis = torch.polar(torch.ones(seq, dim // 2), torch.outer(t, freqs))
rng = np.random.default_rng(1)
xq = torch.tensor(rng.normal(size=(2, seq, 2, dim)), dtype=torch.float32, requires_grad=True)
xq_ = torch.view_as_complex(xq.float().reshape(*xq.shape[:-1], -1, 2))
fc = freqs_cis.view(1, seq, 1, dim // 2)
xq_out = torch.view_as_real(xq_ * fc).flatten(3)
norm = nn.RMSNorm(dim, eps=1e-6)
y = norm(xq_out)
out(freqs_cis.dtype, xq_out, y)
y.pow(2).mean().backward()
out(xq.grad, norm.weight.grad)
# ---
# torch.compile used as a decorator and as a wrapper: results equal the eager model
model = nn.Sequential(nn.Linear(4, 3), nn.Tanh())
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.linspace(-0.5, 0.5, p.numel()).reshape(p.shape) * (i + 1))
compiled = torch.compile(model)
x = torch.linspace(-1, 1, 8).reshape(2, 4)
with torch.no_grad():  # a compiled graph's grad_fn is the compiler's own node: compare values
    out(compiled(x), model(x))


@torch.compile
def gelu_mix(a, b):
    return F.gelu(a) * torch.sigmoid(b)


out(gelu_mix(x, x.flip(0)))
print(isinstance(compiled, nn.Module), compiled(x).shape)
# ---
# Transformer decoder with a causal target mask and memory from an encoder, weights from fixed data
torch.manual_seed(0)
layer = nn.TransformerDecoderLayer(
    d_model=8, nhead=2, dim_feedforward=16, dropout=0.0, batch_first=True
)
decoder = nn.TransformerDecoder(layer, num_layers=2, norm=nn.LayerNorm(8))
with torch.no_grad():
    for i, p in enumerate(decoder.parameters()):
        p.copy_(
            torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.37 + i).reshape(p.shape)
            * 0.3
        )
tgt = torch.cos(torch.arange(2 * 4 * 8, dtype=torch.float32) * 0.11).reshape(2, 4, 8)
memory = torch.sin(torch.arange(2 * 6 * 8, dtype=torch.float32) * 0.07).reshape(2, 6, 8)
mask = nn.Transformer.generate_square_subsequent_mask(4)
pad = torch.tensor([[False] * 6, [False] * 4 + [True] * 2])
y = decoder(tgt, memory, tgt_mask=mask, memory_key_padding_mask=pad, tgt_is_causal=True)
out(mask, y)
y.sum().backward()
out(decoder.layers[0].self_attn.in_proj_weight.grad.sum(), decoder.norm.weight.grad)
# ---
# SDPA kernels chosen with nn.attention.sdpa_kernel: math vs fused grad_fn, no-kernel errors
attention = torch.nn.attention
SDPBackend = attention.SDPBackend
q = torch.sin(torch.arange(2 * 4 * 3 * 4, dtype=torch.float32)).reshape(2, 4, 3, 4).requires_grad_()
k = torch.cos(torch.arange(2 * 2 * 3 * 4, dtype=torch.float32)).reshape(2, 2, 3, 4)
v = torch.arange(2 * 2 * 3 * 4, dtype=torch.float32).reshape(2, 2, 3, 4) / 20
y = F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True, scale=0.3)
with attention.sdpa_kernel(SDPBackend.MATH):
    y_math = F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True, scale=0.3)
with attention.sdpa_kernel([SDPBackend.FLASH_ATTENTION, SDPBackend.MATH]):
    y_both = F.scaled_dot_product_attention(q, q, q)
(y.sum() + y_math.sum() + y_both.sum()).backward()
out(y, y_math, y_both, q.grad)
with attention.sdpa_kernel(SDPBackend.FLASH_ATTENTION):
    err(lambda: F.scaled_dot_product_attention(q, q, q, dropout_p=0.5))
    err(lambda: F.scaled_dot_product_attention(q, q, q))
with attention.sdpa_kernel([SDPBackend.EFFICIENT_ATTENTION, SDPBackend.CUDNN_ATTENTION]):
    err(lambda: F.scaled_dot_product_attention(q, q, q))
err(lambda: F.scaled_dot_product_attention(q, q, q, dropout_p=0.0))
err(lambda: attention.sdpa_kernel("math").__enter__())
print(SDPBackend.MATH, repr(SDPBackend.FLASH_ATTENTION), int(SDPBackend.ERROR))
# ---
# Sparse COO adjacency blocks: coalesce, cat along sparse dims, index_select, sparse @ dense
i = torch.tensor([[0, 1, 1, 0], [2, 0, 2, 2]])
v = torch.tensor([3.0, 4.0, 5.0, 1.0])  # torch has no backward through sparse cat
s = torch.sparse_coo_tensor(i, v, (2, 3))
c = s.coalesce()
out(c.indices(), c.values(), c.to_dense(), c.is_coalesced())
rows = torch.cat([c, c * 2], dim=0)
cols = torch.cat([s, c], dim=1)
picked = torch.index_select(c, 1, torch.tensor([2, 0, 2]))
first = s.index_select(0, torch.tensor([1]))
for t in (rows, cols, picked, first):
    out(t.shape, t.is_coalesced(), t._indices(), t._values(), t.to_dense())
dense = torch.arange(6.0).reshape(3, 2)
out(torch.sparse.mm(rows, dense), torch.sparse.sum(cols, dim=1).to_dense())
out(torch.cat([c, c.double()]).dtype)
err(lambda: torch.cat([c, torch.ones(2, 3)]))
err(lambda: torch.cat([c, torch.sparse_coo_tensor(i, v, (2, 4))]))
err(lambda: torch.cat([c, c], 2))
err(lambda: torch.index_select(c, 1, torch.tensor([3])))
