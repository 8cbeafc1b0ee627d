# parametrize: a symmetric weight, cached reads, removal
class Symmetric(nn.Module):
    def forward(self, X):
        return X.triu() + X.triu(1).mT


m = nn.Linear(3, 3)
with torch.no_grad():
    m.weight.copy_(torch.arange(9.0).reshape(3, 3) / 10)
    m.bias.zero_()
weight = m.weight
nn.utils.parametrize.register_parametrization(m, "weight", Symmetric())
print(m)
out(m.weight, [k for k, _ in m.named_parameters()], list(m.state_dict()))
out(type(m).__name__, nn.utils.parametrize.is_parametrized(m))
out(nn.utils.parametrize.is_parametrized(m, "bias"), m.parametrizations.weight.original is weight)
with nn.utils.parametrize.cached():
    out(m.weight is m.weight)
y = m(torch.ones(2, 3)).sum()
y.backward()
out(y, weight.grad)
nn.utils.parametrize.remove_parametrizations(m, "weight")
out(type(m).__name__, m.weight, [k for k, _ in m.named_parameters()])
err(lambda: nn.utils.parametrize.remove_parametrizations(m, "weight"))
err(lambda: nn.utils.parametrize.register_parametrization(m, "foo", Symmetric()))
# ---
# parametrizations.weight_norm: g and v, values, gradients, removal
m = nn.Linear(3, 2)
with torch.no_grad():
    m.weight.copy_(torch.tensor([[1.0, -2.0, 2.0], [0.5, 0.0, -1.0]]))
    m.bias.fill_(0.1)
nn.utils.parametrizations.weight_norm(m)
print(m)
g = m.parametrizations.weight.original0
v = m.parametrizations.weight.original1
out(g, v, m.weight, list(m.state_dict()))
y = m(torch.tensor([[1.0, 2.0, 3.0]])).pow(2).sum()
y.backward()
out(y, g.grad, v.grad)
nn.utils.parametrize.remove_parametrizations(m, "weight")
out(m.weight, [k for k, _ in m.named_parameters()])
# ---
# legacy weight_norm / remove_weight_norm: weight_g, weight_v
m = nn.Conv1d(2, 2, 2)
with torch.no_grad():
    m.weight.copy_(torch.arange(8.0).reshape(2, 2, 2) - 3)
    m.bias.zero_()
nn.utils.weight_norm(m, dim=None)
print(m)
out(m.weight_g, m.weight_v.shape, [k for k, _ in m.named_parameters()], list(m.state_dict()))
y = m(torch.ones(1, 2, 3)).sum()
y.backward()
out(y, m.weight_g.grad, m.weight_v.grad)
err(lambda: nn.utils.weight_norm(m))
nn.utils.remove_weight_norm(m)
out([k for k, _ in m.named_parameters()], m.weight)
err(lambda: nn.utils.remove_weight_norm(m))
# ---
# spectral_norm, parametrized and legacy, with fixed power-iteration vectors
m = nn.Linear(3, 2)
with torch.no_grad():
    m.weight.copy_(torch.tensor([[1.0, -2.0, 2.0], [0.5, 0.0, -1.0]]))
nn.utils.parametrizations.spectral_norm(m)
with torch.no_grad():
    m.parametrizations.weight[0]._u.copy_(torch.tensor([0.6, 0.8]))
    m.parametrizations.weight[0]._v.copy_(torch.tensor([1.0, 0.0, 0.0]))
out(list(m.state_dict()), [k for k, _ in m.named_parameters()])
w = m.weight
out(w, m.parametrizations.weight[0]._u)
m.eval()
out(m.weight, torch.linalg.matrix_norm(m.weight, 2))
legacy = nn.utils.spectral_norm(nn.Linear(3, 2))
with torch.no_grad():
    legacy.weight_orig.copy_(torch.tensor([[1.0, -2.0, 2.0], [0.5, 0.0, -1.0]]))
    legacy.weight_u.copy_(torch.tensor([0.6, 0.8]))
    legacy.weight_v.copy_(torch.tensor([1.0, 0.0, 0.0]))
    legacy.bias.zero_()
out(list(legacy.state_dict()), legacy.weight_orig.shape)
y = legacy(torch.ones(1, 3)).sum()
y.backward()
out(y, legacy.weight, legacy.weight_orig.grad, legacy.weight_u)
err(lambda: nn.utils.spectral_norm(legacy))
nn.utils.remove_spectral_norm(legacy)
out(list(legacy.state_dict()))
err(lambda: nn.utils.parametrizations.spectral_norm(nn.Linear(2, 2), n_power_iterations=0))
# ---
# EmbeddingBag / F.embedding_bag: modes, offsets, per-sample weights, padding
weight = torch.arange(18.0).reshape(6, 3).requires_grad_()
indices = torch.tensor([1, 2, 4, 4, 3, 0, 5])
offsets = torch.tensor([0, 2, 2, 5])
for mode in ["sum", "mean", "max"]:
    y = F.embedding_bag(indices, weight, offsets, mode=mode, padding_idx=4)
    y.pow(2).sum().backward()
    out(mode, y, weight.grad)
    weight.grad = None
psw = torch.linspace(0.5, 2.0, 7, requires_grad=True)
y = F.embedding_bag(indices, weight, offsets, mode="sum", per_sample_weights=psw)
y.sum().backward()
out(y, psw.grad, weight.grad)
bag = nn.EmbeddingBag(6, 3, mode="max", include_last_offset=True)
with torch.no_grad():
    bag.weight.copy_(weight)
print(bag, nn.EmbeddingBag(4, 2, padding_idx=-1, max_norm=1.5))
out(bag(indices, torch.tensor([0, 3, 7])), bag(torch.tensor([[0, 5], [2, 2]])))
err(lambda: F.embedding_bag(indices, weight, offsets, mode="max", per_sample_weights=psw))
err(lambda: F.embedding_bag(indices, weight))
err(lambda: F.embedding_bag(indices.view(1, 7), weight, offsets))
err(lambda: F.embedding_bag(indices, weight, offsets, mode="median"))
err(lambda: F.embedding_bag(torch.tensor([9]), weight, torch.tensor([0])))
# ---
# affine_grid + grid_sample: a spatial transformer, every mode and padding
torch.set_default_dtype(torch.float64)  # float32 theta gradients cancel to a few ulps
image = torch.arange(24.0).reshape(1, 2, 3, 4).requires_grad_()
theta = torch.tensor([[[0.9, -0.3, 0.1], [0.2, 1.2, -0.15]]], requires_grad=True)
for corners in [False, True]:
    grid = F.affine_grid(theta, [1, 2, 3, 4], align_corners=corners)
    out(grid)
    for mode in ["bilinear", "nearest", "bicubic"]:
        for padding in ["zeros", "border", "reflection"]:
            y = F.grid_sample(image, grid, mode=mode, padding_mode=padding, align_corners=corners)
            y.pow(2).sum().backward()
            out(mode, padding, y, image.grad, theta.grad)
            image.grad = None
            theta.grad = None
volume = torch.linspace(-1, 1, 24).reshape(1, 1, 2, 3, 4)
grid3 = F.affine_grid(
    torch.tensor([[[1.0, 0.2, 0, 0], [0, 1, 0, 0.1], [0, 0, 0.8, 0]]]),
    [1, 1, 2, 2, 3],
    align_corners=False,
)
out(F.grid_sample(volume, grid3, align_corners=False))
err(lambda: F.grid_sample(volume, grid3, mode="bicubic"))
err(lambda: F.grid_sample(image, grid, mode="area"))
err(lambda: F.grid_sample(image, grid, padding_mode="wrap"))
err(lambda: F.grid_sample(image, torch.zeros(2, 1, 1, 2)))
err(lambda: F.grid_sample(image, torch.zeros(1, 1, 1, 3)))
err(lambda: F.grid_sample(image.float(), torch.zeros(1, 1, 1, 2), align_corners=False))
err(lambda: F.grid_sample(torch.ones(1, 1, 0, 2), torch.zeros(1, 1, 1, 2), align_corners=False))
err(lambda: F.affine_grid(torch.zeros(1, 2, 3, dtype=torch.long), [1, 1, 2, 2]))
err(lambda: F.affine_grid(theta, [1, 1, 2]))
err(lambda: F.affine_grid(theta, [1, 3, 3, 3, 3]))
# ---
# LPPool, MaxUnpool, ChannelShuffle
x = (torch.arange(48.0).reshape(1, 3, 4, 4) / 10 - 2).requires_grad_()
for pool in [
    nn.LPPool2d(2, 2),
    nn.LPPool2d(1.5, (2, 3), stride=1, ceil_mode=True),
    nn.LPPool1d(3, 2),
]:
    inp = x.abs() + 0.1 if pool.norm_type == 1.5 else x
    inp = inp.flatten(2) if isinstance(pool, nn.LPPool1d) else inp
    y = pool(inp)
    y.sum().backward()
    print(pool)
    out(y, x.grad)
    x.grad = None
pool, unpool = nn.MaxPool2d(2, return_indices=True), nn.MaxUnpool2d(2)
pooled, indices = pool(x)
restored = unpool(pooled, indices)
restored.pow(2).sum().backward()
print(unpool, nn.MaxUnpool1d(3, stride=2, padding=1))
out(pooled, indices, restored, x.grad)
out(unpool(pooled, indices, output_size=[5, 5]).shape)
p1, i1 = F.max_pool1d(x.flatten(2), 3, return_indices=True)
out(F.max_unpool1d(p1, i1, 3))
shuffle = nn.ChannelShuffle(3)
print(shuffle)
out(shuffle(x), F.channel_shuffle(x, 1), torch.channel_shuffle(x.detach(), 3))
err(lambda: unpool(pooled, indices, output_size=[9, 9]))
err(lambda: F.max_unpool2d(pooled, indices.float(), 2))
err(lambda: F.channel_shuffle(x, 2))
err(lambda: F.channel_shuffle(torch.ones(6), 2))
# ---
# TripletMarginWithDistanceLoss and gumbel_softmax (random: only shapes and invariants)
anchor = torch.tensor([[0.0, 0.0], [1.0, 1.0], [0.5, -1.0]], requires_grad=True)
positive = torch.tensor([[1.0, 0.0], [1.0, 2.0], [0.0, -1.0]])
negative = torch.tensor([[0.0, 2.0], [3.0, 1.0], [0.5, -0.5]])
losses = [
    nn.TripletMarginWithDistanceLoss(),
    nn.TripletMarginWithDistanceLoss(distance_function=nn.PairwiseDistance(p=1), swap=True),
    nn.TripletMarginWithDistanceLoss(
        distance_function=lambda x, y: 1 - F.cosine_similarity(x, y), margin=0.3, reduction="none"
    ),
]
for loss_fn in losses:
    loss = loss_fn(anchor, positive, negative)
    loss.sum().backward()
    print(loss_fn)
    out(loss, anchor.grad)
    anchor.grad = None
err(lambda: nn.TripletMarginWithDistanceLoss(margin=0.0))
err(lambda: F.triplet_margin_with_distance_loss(anchor, positive, negative[0]))
logits = torch.tensor([[1.0, 2.0, 0.5], [0.1, 0.2, 3.0]], requires_grad=True)
soft = F.gumbel_softmax(logits, tau=0.5)
hard = F.gumbel_softmax(logits, hard=True, dim=0)
out(soft.shape, soft.dtype, soft.grad_fn.name(), torch.allclose(soft.sum(-1), torch.ones(2)))
out(hard.sum(0), hard.grad_fn.name(), sorted(set(hard.detach().flatten().tolist())))
# ---
# CTCLoss / F.ctc_loss: reductions, concatenated targets, zero_infinity, unbatched
torch.set_default_dtype(torch.float64)
logits = torch.linspace(-2, 2, 60).reshape(5, 3, 4).sin().requires_grad_()
log_probs = logits.log_softmax(2)
targets = torch.tensor([[1, 2, 2], [3, 0, 0], [1, 1, 3]])
input_lengths = torch.tensor([5, 4, 3])
target_lengths = torch.tensor([3, 1, 2])
for reduction in ["none", "mean", "sum"]:
    loss = nn.CTCLoss(reduction=reduction)(log_probs, targets, input_lengths, target_lengths)
    loss.sum().backward(retain_graph=True)
    out(reduction, loss, logits.grad)
    logits.grad = None
flat = torch.tensor([1, 2, 2, 3, 1, 1])
out(F.ctc_loss(log_probs, flat, (5, 4, 3), (3, 1, 2), blank=0, reduction="sum"))
impossible = F.ctc_loss(
    log_probs, targets, torch.tensor([2, 4, 3]), target_lengths, reduction="none"
)
kept = F.ctc_loss(
    log_probs,
    targets,
    torch.tensor([2, 4, 3]),
    target_lengths,
    reduction="none",
    zero_infinity=True,
)
kept.sum().backward()
out(impossible, kept, logits.grad)
out(F.ctc_loss(log_probs[:, 0], targets[0], (5,), (3,), reduction="none"))
print(nn.CTCLoss(), nn.CTCLoss(blank=3, reduction="sum", zero_infinity=True))
err(lambda: F.ctc_loss(log_probs, targets, torch.tensor([6, 4, 3]), target_lengths))
err(lambda: F.ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=4))
err(lambda: F.ctc_loss(log_probs, targets, input_lengths, target_lengths, reduction="avg"))
# ---
# LazyLinear: in_features from the first input, then an ordinary Linear
fc = nn.LazyLinear(3)
print(fc, fc.weight)
out(
    list(fc.state_dict()),
    fc.has_uninitialized_params(),
    isinstance(fc.weight, nn.parameter.UninitializedParameter),
)
err(lambda: fc.weight.shape)
y = fc(torch.ones(2, 4))
print(fc)
out(type(fc).__name__, fc.weight.shape, fc.bias.shape, y.shape, fc.in_features)
model = nn.Sequential(nn.LazyLinear(4), nn.ReLU(), nn.LazyLinear(1, bias=False))
model(torch.ones(5, 7))
print(model)
out([p.shape for p in model.parameters()])
# ---
# state-dict hooks: post hooks edit in place, load pre hooks may rename keys
m = nn.Sequential(nn.Linear(2, 2))
seen = []


def post(module, state_dict, prefix, local_metadata):
    seen.append((type(module).__name__, prefix))
    state_dict[prefix + "extra"] = torch.zeros(1)


def bad_post(module, state_dict, prefix, local_metadata):
    return state_dict


def rename(module, state_dict, prefix, *rest):
    if prefix + "w" in state_dict:
        state_dict[prefix + "weight"] = state_dict.pop(prefix + "w")


handle = m[0].register_state_dict_post_hook(post)
out(list(m.state_dict()), seen)
handle.remove()
m[0].register_load_state_dict_pre_hook(rename)
out(m.load_state_dict({"0.w": torch.ones(2, 2), "0.bias": torch.zeros(2)}), m[0].weight)
m[0].register_state_dict_post_hook(bad_post)
err(lambda: m.state_dict())
err(lambda: m._register_state_dict_hook(bad_post))
