# Device-selection preamble of the official examples, then a step on the chosen device
use_cuda = torch.cuda.is_available()
use_mps = torch.backends.mps.is_available()
device = torch.device("cuda" if use_cuda else "mps" if use_mps else "cpu")
torch.backends.cudnn.benchmark = True
torch.backends.cudnn.deterministic = True
torch.set_float32_matmul_precision("high")
print(device, torch.get_float32_matmul_precision(), torch.get_num_threads() >= 1)
torch.use_deterministic_algorithms(True)
print(torch.are_deterministic_algorithms_enabled())
torch.use_deterministic_algorithms(False)
kwargs = {"num_workers": 1, "pin_memory": True} if use_cuda else {}
x = torch.arange(6.0).reshape(2, 3).to(device, non_blocking=True)
out(x.device, x.is_cuda, x.to("cpu").pin_memory().is_pinned() if use_cuda else x, kwargs)
# ---
# Stochastic weight averaging: AveragedModel, SWALR, update_bn over a loader
from_swa = torch.optim.swa_utils
model = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.ReLU(), nn.Linear(4, 1))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) + i).reshape(p.shape) * 0.5)
swa_model = from_swa.AveragedModel(model)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
swa_sched = from_swa.SWALR(opt, swa_lr=0.05, anneal_epochs=2, anneal_strategy="cos")
X = torch.sin(torch.arange(24, dtype=torch.float32)).reshape(8, 3)
Y = X.sum(1, keepdim=True)
loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(X, Y), batch_size=4)
lrs = []
for epoch in range(4):
    for xb, yb in loader:
        opt.zero_grad()
        F.mse_loss(model(xb), yb).backward()
        opt.step()
    if epoch >= 1:
        swa_model.update_parameters(model)
        swa_sched.step()
    lrs.append(round(opt.param_groups[0]["lr"], 6))
print(lrs, int(swa_model.n_averaged))
from_swa.update_bn(((xb,) for xb, _ in loader), swa_model)
swa_model.eval()
out(swa_model(X), swa_model.module[1].running_mean, swa_model.module[1].running_var)
# ---
# SimCLR NT-Xent loss: normalized embeddings, masked self-similarity, cross-entropy over pairs
z = torch.tensor(
    np.random.default_rng(3).normal(size=(8, 5)), dtype=torch.float32, requires_grad=True
)
temperature = 0.5
n = z.shape[0] // 2
zn = F.normalize(z, dim=1)
sim = zn @ zn.T / temperature
sim = sim.masked_fill(torch.eye(2 * n, dtype=torch.bool), float("-inf"))
targets = torch.cat([torch.arange(n, 2 * n), torch.arange(0, n)])
loss = F.cross_entropy(sim, targets)
loss.backward()
out(loss, z.grad)
acc = (sim.argmax(dim=1) == targets).float().mean()
top2 = sim.topk(2, dim=1).indices
out(acc, top2)
# ---
# Focal loss and label-smoothed cross entropy with ignore_index, as in detection/segmentation code
logits = torch.tensor(
    [[2.0, -1.0, 0.3], [0.1, 0.2, 0.3], [-1.0, 3.0, 0.5], [0.0, 0.0, 4.0]], requires_grad=True
)
labels = torch.tensor([0, 2, -100, 2])
ce = F.cross_entropy(logits, labels, ignore_index=-100, label_smoothing=0.1)
ce_sum = F.cross_entropy(logits, labels, ignore_index=-100, label_smoothing=0.2, reduction="sum")
targets = F.one_hot(labels.clamp(min=0), num_classes=3).float()
p = torch.sigmoid(logits)
bce = F.binary_cross_entropy_with_logits(logits, targets, reduction="none")
p_t = p * targets + (1 - p) * (1 - targets)
alpha_t = 0.25 * targets + 0.75 * (1 - targets)
focal = (alpha_t * (1 - p_t) ** 2 * bce).mean()
(ce + ce_sum + focal).backward()
out(ce, ce_sum, focal, logits.grad)
# ---
# CTC loss for a speech-style model: log_softmax over time-major logits, variable lengths
T, N, C = 6, 2, 4
logits = torch.tensor(
    np.random.default_rng(5).normal(size=(T, N, C)), dtype=torch.float32, requires_grad=True
)
log_probs = logits.log_softmax(2)
targets = torch.tensor([[1, 2, 2], [3, 1, 0]])
input_lengths = torch.tensor([6, 5])
target_lengths = torch.tensor([3, 2])
ctc = nn.CTCLoss(blank=0, zero_infinity=True)
loss = ctc(log_probs, targets, input_lengths, target_lengths)
loss.backward()
out(loss, logits.grad)
flat = F.ctc_loss(
    log_probs.detach(),
    torch.tensor([1, 2, 2, 3, 1]),
    input_lengths,
    target_lengths,
    reduction="sum",
)
out(flat)
greedy = log_probs.argmax(2).T
out(greedy, torch.unique_consecutive(greedy[0]))
# ---
# Flat parameter vectors: parameters_to_vector / vector_to_parameters for a line search
model = nn.Sequential(nn.Linear(2, 3), nn.Tanh(), nn.Linear(3, 1))
vec = nn.utils.parameters_to_vector(model.parameters())
print(vec.shape, vec.requires_grad, vec.grad_fn is not None)
new = torch.linspace(-1, 1, vec.numel())
nn.utils.vector_to_parameters(new, model.parameters())
x = torch.tensor([[0.5, -0.5], [1.0, 2.0]])
loss = model(x).pow(2).sum()
grads = torch.autograd.grad(loss, list(model.parameters()))
flat_grad = torch.cat([g.reshape(-1) for g in grads])
step = 0.5
for _ in range(4):
    nn.utils.vector_to_parameters(new - step * flat_grad, model.parameters())
    with torch.no_grad():
        trial = model(x).pow(2).sum()
    if trial < loss:
        break
    step /= 2
out(loss, trial, step, nn.utils.parameters_to_vector(model.parameters()))


# ---
# Super-resolution sub-pixel network (ESPCN): conv then PixelShuffle, PixelUnshuffle round-trip
class SuperResolutionNet(nn.Module):
    def __init__(self, upscale_factor):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 4, 3, 1, 1)
        self.conv2 = nn.Conv2d(4, upscale_factor**2, 3, 1, 1)
        self.pixel_shuffle = nn.PixelShuffle(upscale_factor)

    def forward(self, x):
        x = torch.tanh(self.conv1(x))
        return self.pixel_shuffle(self.conv2(x))


net = SuperResolutionNet(2)
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(
            torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.3 + i).reshape(p.shape) * 0.4
        )
lr_img = torch.linspace(0, 1, 16).reshape(1, 1, 4, 4)
hr = net(lr_img)
target = F.interpolate(lr_img, scale_factor=2, mode="bicubic", align_corners=False)
loss = F.mse_loss(hr, target)
loss.backward()
psnr = 10 * torch.log10(1 / loss.detach())
out(hr, loss, psnr, net.conv1.weight.grad)
out(F.pixel_unshuffle(hr, 2).shape, torch.equal(F.pixel_shuffle(F.pixel_unshuffle(hr, 2), 2), hr))
# ---
# MAML inner loop: functional_call with fast weights and second-order gradients
from_func = torch.func
model = nn.Linear(2, 1)
with torch.no_grad():
    model.weight.copy_(torch.tensor([[0.3, -0.2]]))
    model.bias.fill_(0.1)
params = dict(model.named_parameters())
xs = torch.tensor([[1.0, 2.0], [0.5, -1.0]])
ys = torch.tensor([[1.0], [0.0]])
inner = F.mse_loss(from_func.functional_call(model, params, (xs,)), ys)
grads = torch.autograd.grad(inner, list(params.values()), create_graph=True)
fast = {k: v - 0.1 * g for (k, v), g in zip(params.items(), grads)}
outer = F.mse_loss(from_func.functional_call(model, fast, (xs * 2,)), ys)
outer.backward()
out(inner, outer, fast["weight"], model.weight.grad, model.bias.grad)
# ---
# Packed bidirectional GRU over unsorted lengths with total_length padding
gru = nn.GRU(3, 4, batch_first=True, bidirectional=True)
with torch.no_grad():
    for k, p in enumerate(gru.parameters()):
        p.copy_(
            torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.21 + k).reshape(p.shape)
            * 0.3
        )
seqs = [torch.linspace(0, 1, 3 * n).reshape(n, 3) for n in (2, 4, 3)]
packed = nn.utils.rnn.pack_sequence(seqs, enforce_sorted=False)
out(packed.batch_sizes, packed.sorted_indices, packed.unsorted_indices)
o, h = gru(packed)
padded, lens = nn.utils.rnn.pad_packed_sequence(o, batch_first=True, total_length=5)
out(padded, lens, h)
padded.sum().backward()
out(gru.weight_hh_l0_reverse.grad)
# ---
# Tensor helpers from data-science notebooks
a = torch.tensor([[1.0, 2.0], [3.0, 5.0], [4.0, 4.0]])
out(torch.cdist(a, a), F.pairwise_distance(a, a.flip(0)), F.cosine_similarity(a, a.flip(0)))
out(torch.cov(a.T), torch.corrcoef(a.T), torch.aminmax(a, dim=0))
out(torch.block_diag(a, a[:1]), torch.cartesian_prod(torch.tensor([1, 2]), torch.tensor([3, 4])))
out(torch.combinations(torch.tensor([1, 2, 3]), r=2), torch.tril_indices(3, 3, -1))
out(torch.kron(a[:2], torch.eye(2)), torch.diff(a, dim=0), torch.trapezoid(a[:, 1], a[:, 0]))
out(torch.logcumsumexp(a, 0), torch.cummax(a, 0), torch.renorm(a, 2, 0, 3.0))
out(torch.histogram(a.flatten(), bins=3), torch.vander(torch.tensor([1, 2, 3]), N=3))
out(
    torch.nan_to_num(torch.tensor([float("nan"), float("inf"), -float("inf")]), nan=0.0, posinf=9.0)
)
# ---
# Warmup then cosine via SequentialLR of LambdaLR and CosineAnnealingLR; param groups; reload
model = nn.Linear(2, 2)
opt = torch.optim.AdamW(
    [
        {"params": [model.weight], "weight_decay": 0.1},
        {"params": [model.bias], "weight_decay": 0.0},
    ],
    lr=1e-2,
)
warm = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: (s + 1) / 3)
cos = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=4, eta_min=1e-4)
sched = torch.optim.lr_scheduler.SequentialLR(opt, [warm, cos], milestones=[3])
trace = []
for _ in range(7):
    opt.step()
    sched.step()
    trace.append([round(g["lr"], 7) for g in opt.param_groups])
print(trace)
sd = sched.state_dict()
print(sorted(sd.keys()), sd["last_epoch"])
opt.add_param_group({"params": [nn.Parameter(torch.zeros(1))], "lr": 0.5})
print(len(opt.param_groups), opt.param_groups[2]["betas"], opt.param_groups[2]["weight_decay"])


# ---
# Module utilities: apply(init), get_submodule, forward pre-hooks with kwargs, named_modules
class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(3, 3)
        self.act = nn.GELU(approximate="tanh")

    def forward(self, x, scale=1.0):
        return self.act(self.proj(x)) * scale


net = nn.Sequential(Block(), Block())


def init_weights(m):
    if isinstance(m, nn.Linear):
        nn.init.constant_(m.weight, 0.1)
        nn.init.zeros_(m.bias)


net.apply(init_weights)
print([n for n, _ in net.named_modules()], net.get_submodule("1.proj"))


def pre(mod, args, kwargs):
    return args, {"scale": kwargs.get("scale", 1.0) * 2}


handle = net[0].register_forward_pre_hook(pre, with_kwargs=True)
x = torch.ones(2, 3)
out(net[0](x, scale=1.5), net(x))
handle.remove()
out(net[0](x, scale=1.5))
print(net)
# ---
# folding batch norms into the layers before them for inference (conv, transposed conv, linear)
fusion = nn.utils.fusion
conv = nn.Conv2d(2, 3, 3, padding=1)
tconv = nn.ConvTranspose2d(2, 3, 2, stride=2, bias=False)
lin = nn.Linear(4, 3)
bn2, bnt, bn1 = nn.BatchNorm2d(3), nn.BatchNorm2d(3), nn.BatchNorm1d(3)
with torch.no_grad():
    for i, p in enumerate([*conv.parameters(), *tconv.parameters(), *lin.parameters()]):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32).reshape(p.shape) + i) * 0.4)
    for k, bn in enumerate((bn2, bnt, bn1)):
        bn.running_mean.copy_(torch.tensor([0.1, -0.2, 0.3]) * (k + 1))
        bn.running_var.copy_(torch.tensor([0.5, 1.5, 2.0]) + k)
        bn.weight.copy_(torch.tensor([1.2, 0.8, -0.5]))
        bn.bias.copy_(torch.tensor([0.05, 0.0, -0.1]))
for m in (conv, tconv, lin, bn2, bnt, bn1):
    m.eval()
x = torch.sin(torch.arange(2 * 2 * 4 * 4, dtype=torch.float32).reshape(2, 2, 4, 4))
fused = fusion.fuse_conv_bn_eval(conv, bn2)
fused_t = fusion.fuse_conv_bn_eval(tconv, bnt, transpose=True)
fused_l = nn.utils.fuse_linear_bn_eval(lin, bn1)
v = torch.cos(torch.arange(8, dtype=torch.float32).reshape(2, 4))
out(fused.weight, fused.bias, fused_t.bias, fused_l.weight, fused_l.bias)
out(
    torch.allclose(fused(x), bn2(conv(x)), atol=1e-6),
    torch.allclose(fused_t(x), bnt(tconv(x)), atol=1e-6),
)
out(
    torch.allclose(fused_l(v), bn1(lin(v)), atol=1e-6),
    type(fused.weight).__name__,
    fused.weight.requires_grad,
)
err(lambda: fusion.fuse_conv_bn_eval(conv.train(), bn2))
w, b = fusion.fuse_conv_bn_weights(
    conv.weight, None, bn2.running_mean, bn2.running_var, 1e-5, None, None
)
out(w, b)
