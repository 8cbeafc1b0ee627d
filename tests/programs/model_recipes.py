# Eval-mode TransformerEncoder with a key padding mask under no_grad (torch's fast path)
layer = nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, batch_first=True)
enc = nn.TransformerEncoder(layer, 2, enable_nested_tensor=True)
with torch.no_grad():
    for i, p in enumerate(enc.parameters()):
        p.copy_(
            torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.3 + i).reshape(p.shape) * 0.3
        )
x = torch.cos(torch.arange(2 * 5 * 8, dtype=torch.float32) * 0.1).reshape(2, 5, 8)
pad = torch.tensor([[False] * 5, [False, False, False, True, True]])
enc.eval()
with torch.no_grad():
    y = enc(x, src_key_padding_mask=pad)
out(y)
with torch.inference_mode():
    y2 = enc(x, mask=nn.Transformer.generate_square_subsequent_mask(5), is_causal=True)
out(y2)
# ---
# Losses with soft targets and K-dim inputs, kl_div with log targets
logits = torch.tensor(
    np.linspace(-2, 2, 2 * 3 * 4).reshape(2, 3, 4), dtype=torch.float32, requires_grad=True
)
soft = torch.softmax(
    torch.tensor(np.linspace(1, -1, 2 * 3 * 4).reshape(2, 3, 4), dtype=torch.float32), dim=1
)
hard = torch.tensor([[0, 1, 2, 1], [2, 2, 0, 0]])
l1 = F.cross_entropy(logits, soft, label_smoothing=0.1)
l2 = F.cross_entropy(logits, hard, weight=torch.tensor([1.0, 2.0, 0.5]))
l3 = F.kl_div(F.log_softmax(logits, 1), soft.log(), reduction="batchmean", log_target=True)
(l1 + l2 + l3).backward()
out(l1, l2, l3, logits.grad)
# ---
# LSTM with projections, left-padded sequences, sliding windows with Tensor.unfold
lstm = nn.LSTM(3, 6, proj_size=2, num_layers=2, batch_first=True)
with torch.no_grad():
    for i, p in enumerate(lstm.parameters()):
        p.copy_(
            torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.13 + i).reshape(p.shape)
            * 0.4
        )
series = torch.sin(torch.arange(12, dtype=torch.float32) * 0.5)
windows = series.unfold(0, 3, 2)
out(windows)
seqs = [windows[:2], windows[:4], windows[:1]]
batch = nn.utils.rnn.pad_sequence(seqs, batch_first=True, padding_side="left")
o, (h, c) = lstm(batch)
o.sum().backward()
out(batch, o, h, c, lstm.weight_hr_l1.grad)
# ---
# Optimizer-in-backward with post-accumulate-grad hooks and optimizer step hooks
model = nn.Linear(3, 2)
with torch.no_grad():
    model.weight.copy_(torch.arange(6.0).reshape(2, 3) / 10)
    model.bias.fill_(0.5)
opts = {p: torch.optim.SGD([p], lr=0.1) for p in model.parameters()}
calls = []


def step_hook(param):
    opts[param].step()
    opts[param].zero_grad()
    calls.append(tuple(param.shape))


for p in model.parameters():
    p.register_post_accumulate_grad_hook(step_hook)
x = torch.tensor([[1.0, 2.0, 3.0]])
model(x).pow(2).sum().backward()
print(calls)
out(model.weight, model.bias, model.weight.grad)
opt = torch.optim.Adam(model.parameters(), lr=0.01)
seen = []
h1 = opt.register_step_pre_hook(lambda o, a, k: seen.append("pre"))
h2 = opt.register_step_post_hook(lambda o, a, k: seen.append("post"))
model(x).sum().backward()
opt.step()
h1.remove()
opt.step()
print(seen)
# ---
# default_collate over dicts and namedtuples, collate_fn padding, drop_last
import collections

Pair = collections.namedtuple("Pair", "x y")
data = torch.utils.data
items = [
    {"a": torch.tensor([i, i + 1]), "b": float(i), "p": Pair(i, torch.tensor(i * 2.0))}
    for i in range(5)
]
batch = data.default_collate(items[:3])
out(batch["a"], batch["b"], batch["p"].x, batch["p"].y)
print(type(batch["p"]).__name__, type(batch).__name__)


def pad_collate(samples):
    seqs = [torch.arange(1, len(s) + 1) for s in samples]
    return nn.utils.rnn.pad_sequence(seqs, batch_first=True, padding_value=-1), torch.tensor(
        [len(s) for s in seqs]
    )


loader = data.DataLoader(
    ["ab", "abcd", "a", "abc", "x"], batch_size=2, collate_fn=pad_collate, drop_last=True
)
for b, lens in loader:
    out(b, lens)
print(len(loader))
# ---
# Distributions for Bayesian models: multivariate KL, Independent, low-rank normal, Dirichlet
D = torch.distributions
loc = torch.tensor([0.5, -0.2], requires_grad=True)
cov = torch.tensor([[1.0, 0.3], [0.3, 0.5]])
p = D.MultivariateNormal(loc, covariance_matrix=cov)
q = D.MultivariateNormal(torch.zeros(2), scale_tril=torch.tensor([[1.0, 0.0], [0.2, 0.7]]))
kl = D.kl_divergence(p, q)
ind = D.Independent(D.Normal(loc, torch.tensor([0.5, 2.0])), 1)
kl2 = D.kl_divergence(ind, D.Independent(D.Normal(torch.zeros(2), torch.ones(2)), 1))
lr = D.LowRankMultivariateNormal(loc, torch.tensor([[0.5], [0.1]]), torch.tensor([0.3, 0.4]))
x = torch.tensor([0.1, 0.2])
(kl + kl2 + lr.log_prob(x)).backward()
out(kl, kl2, lr.log_prob(x), lr.entropy(), loc.grad)
dirich = D.Dirichlet(torch.tensor([1.5, 2.0, 0.7]))
out(dirich.log_prob(torch.tensor([0.2, 0.5, 0.3])), dirich.mean, dirich.entropy())
cat = D.Categorical(logits=torch.tensor([[1.0, 2.0, 0.5], [0.0, 0.0, 0.0]]))
out(cat.entropy(), cat.log_prob(torch.tensor([1, 2])), cat.probs, ind.batch_shape, ind.event_shape)
# ---
# Grid sampling modes and interpolation variants used by augmentation pipelines
img = torch.arange(2 * 1 * 4 * 5, dtype=torch.float32).reshape(2, 1, 4, 5).requires_grad_()
theta = torch.tensor([[[0.9, 0.1, 0.05], [-0.1, 1.1, 0.0]], [[1.2, 0.0, -0.1], [0.0, 0.8, 0.2]]])
grid = F.affine_grid(theta, (2, 1, 3, 3), align_corners=True)
a = F.grid_sample(img, grid, mode="bilinear", padding_mode="reflection", align_corners=True)
b = F.grid_sample(img, grid, mode="nearest", padding_mode="border", align_corners=False)
c = F.grid_sample(img, grid * 1.3, mode="bicubic", padding_mode="zeros", align_corners=False)
d = F.interpolate(img, size=(3, 7), mode="area")
e = F.interpolate(img, scale_factor=1.5, mode="nearest-exact")
f = F.interpolate(img, size=(2, 3), mode="bilinear", antialias=True, align_corners=False)
g = F.interpolate(img, size=(3, 2), mode="bicubic", antialias=True)
(a.sum() + b.sum() + c.sum() + d.sum() + e.sum() + f.sum() + g.pow(2).sum()).backward()
out(a, b, c, d, e, f, g, img.grad)
err(lambda: F.interpolate(img[0], size=3, mode="bilinear", antialias=True))
err(lambda: F.interpolate(img, size=(3, 3), mode="nearest", antialias=True))
# ---
# AdaptiveLogSoftmaxWithLoss for a large-vocabulary language model head
asm = nn.AdaptiveLogSoftmaxWithLoss(8, 20, cutoffs=[5, 12], div_value=2.0)
print(asm)
with torch.no_grad():
    for i, p in enumerate(asm.parameters()):
        p.copy_(
            torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.2 + i).reshape(p.shape) * 0.9
        )
print([(n, tuple(p.shape)) for n, p in asm.named_parameters()])
h = torch.sin(torch.arange(6 * 8, dtype=torch.float32) * 0.17).reshape(6, 8).requires_grad_()
target = torch.tensor([0, 4, 5, 11, 12, 19])
res = asm(h, target)
res.loss.backward()
out(res.output, res.loss, h.grad, asm.head.weight.grad, asm.tail[1][0].weight.grad)
out(asm.log_prob(h.detach()), asm.log_prob(h.detach()).exp().sum(1), asm.predict(h.detach()))
err(lambda: asm.predict(h.detach()[2]))
err(lambda: asm.log_prob(h.detach()[0]))
out(asm(h.detach()[3], torch.tensor(11)), asm.predict(-h.detach()), asm.predict(h.detach() * 0))
small = asm(h[:2], torch.tensor([1, 3]))
out(small.output, small.loss)
err(lambda: asm(h, torch.tensor([0, 1, 2, 3, 4, 20])))
err(lambda: asm(h, target[:3]))
err(lambda: asm(h, target.reshape(2, 3)))
err(lambda: nn.AdaptiveLogSoftmaxWithLoss(8, 20, cutoffs=[12, 5]))
err(lambda: nn.AdaptiveLogSoftmaxWithLoss(8, 20, cutoffs=[]))
err(lambda: nn.AdaptiveLogSoftmaxWithLoss(8, 20, cutoffs=[5, 20]))
biased = nn.AdaptiveLogSoftmaxWithLoss(4, 6, [2], head_bias=True, dtype=torch.float64)
print(biased.head.bias.dtype, biased.head_size, biased.shortlist_size, biased.n_clusters)
# a single row selected by a 0-d index, as the clustered loss above does for a 1-row cluster
src = torch.tensor([[5.0, 6.0]], requires_grad=True)
y = torch.zeros(3, 2).index_copy(0, torch.tensor(1), src)
y.pow(2).sum().backward()
out(y, src.grad, torch.zeros(3).index_copy_(0, torch.tensor(2), torch.tensor([4.0])))
err(lambda: torch.zeros(3, 2).index_copy(0, torch.tensor(1), torch.tensor([5.0, 6.0])))
# ---
# CNN bookkeeping: same/reflect padding, parameter counts, freezing, eval, strict=False reload
m = nn.Sequential(
    nn.Conv2d(1, 2, 3, padding="same", padding_mode="reflect"),
    nn.BatchNorm2d(2),
    nn.SiLU(),
    nn.AdaptiveAvgPool2d(1),
    nn.Flatten(),
    nn.Linear(2, 3),
)
with torch.no_grad():
    for i, p in enumerate(m.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) + i).reshape(p.shape))
x = torch.cos(torch.arange(2 * 25, dtype=torch.float32)).reshape(2, 1, 5, 5)
y = m(x)
y.sum().backward()
out(y, m[0].weight.grad, m[1].running_mean, m[1].num_batches_tracked)
print(sum(p.numel() for p in m.parameters() if p.requires_grad))
m.requires_grad_(False)
m[-1].requires_grad_(True)
print([n for n, p in m.named_parameters() if p.requires_grad])
m.eval()
print(m.training, m[1].training)
m.train(False)
m.zero_grad(set_to_none=True)
print(m[0].weight.grad)
sd = m.state_dict()
print(list(sd.keys()))
m2 = nn.Sequential(
    nn.Conv2d(1, 2, 3, padding="same", padding_mode="reflect"),
    nn.BatchNorm2d(2),
    nn.SiLU(),
    nn.AdaptiveAvgPool2d(1),
    nn.Flatten(),
    nn.Linear(2, 3),
)
r = m2.load_state_dict(sd, strict=False)
print(r, r.missing_keys)
m2.eval()
out(m2(x))
# ---
# Embeddings with padding_idx and max_norm renormalization, from_pretrained, max EmbeddingBag
emb = nn.Embedding(10, 4, padding_idx=0, max_norm=1.0)
with torch.no_grad():
    emb.weight.copy_(torch.arange(40.0).reshape(10, 4) / 10)
idx = torch.tensor([[0, 3, 3], [9, 1, 0]])
y = emb(idx)
y.sum().backward()
out(y, emb.weight.grad, emb.weight)
pre = nn.Embedding.from_pretrained(torch.eye(3), freeze=False, padding_idx=1)
out(pre(torch.tensor([1, 2])), pre.weight.requires_grad)
bag = nn.EmbeddingBag.from_pretrained(torch.arange(12.0).reshape(4, 3), mode="max")
out(bag(torch.tensor([0, 2, 3, 1]), torch.tensor([0, 2])))
