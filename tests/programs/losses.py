# MSELoss and L1Loss reductions, broadcasting, dtypes
a = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
b = torch.tensor([[0.0, 2.5], [3.0, 1.0]])
for red in ["mean", "sum", "none"]:
    m, l1 = nn.MSELoss(reduction=red)(a, b), nn.L1Loss(reduction=red)(a, b)
    out(m, l1)
err(lambda: nn.MSELoss(reduction="avg")(a, b))
err(lambda: F.l1_loss(a, b, reduction="max"))
out(F.mse_loss(a, torch.tensor([1.0, 1.0])))
out(F.mse_loss(a, b.double()).dtype)
err(lambda: F.mse_loss(a, torch.ones(3)))
err(lambda: F.mse_loss(torch.tensor([1, 2]), torch.tensor([1, 3])))
err(lambda: F.l1_loss(torch.tensor([1, 2]), torch.tensor([1, 3])))
out(F.l1_loss(torch.tensor([1, 2]), torch.tensor([1, 3]), reduction="sum"))
out(
    F.mse_loss(torch.ones(0), torch.ones(0)),
    F.l1_loss(torch.ones(0), torch.ones(0), reduction="sum"),
)
loss = F.mse_loss(a, b)
loss.backward()
out(a.grad)
out(nn.MSELoss(size_average=False)(a, b), nn.L1Loss(reduce=False)(a, b))
print(nn.MSELoss(reduction="sum"), nn.L1Loss())
# ---
# CrossEntropyLoss with class indices: weights, ignore_index, reductions, label_smoothing
logits = torch.tensor(
    [[2.0, 0.5, -1.0], [0.1, 0.2, 0.3], [1.0, -1.0, 3.0], [0.0, 0.0, 0.0]], requires_grad=True
)
target = torch.tensor([0, 2, -100, 1])
w = torch.tensor([1.0, 2.0, 0.5])
for red in ["mean", "sum", "none"]:
    out(F.cross_entropy(logits, target, reduction=red))
    out(F.cross_entropy(logits, target, weight=w, reduction=red))
    out(F.cross_entropy(logits, target, weight=w, reduction=red, label_smoothing=0.2))
    out(F.cross_entropy(logits, torch.tensor([0, 2, 1, 1]), ignore_index=1, reduction=red))
loss = F.cross_entropy(logits, target, weight=w, label_smoothing=0.1)
out(loss, loss.grad_fn.name())
loss.backward()
out(logits.grad)
out(F.cross_entropy(logits, torch.tensor([-100, -100, -100, -100])))
out(F.cross_entropy(logits, torch.tensor([-100, -100, -100, -100]), reduction="sum"))
out(F.cross_entropy(logits[0], torch.tensor(1)))
out(F.cross_entropy(logits[0], torch.tensor(1)).shape)
err(lambda: F.cross_entropy(logits, torch.tensor([0, 1, 2, 3])))
err(lambda: F.cross_entropy(logits, torch.tensor([0.0, 1.0, 2.0, 1.0])))
err(lambda: F.cross_entropy(logits, torch.tensor([0, 1, 2])))
err(lambda: F.cross_entropy(logits, torch.tensor([0, 1, 2, 1], dtype=torch.int32)))
err(lambda: F.cross_entropy(logits, target, label_smoothing=1.5))
err(lambda: F.cross_entropy(logits, target, label_smoothing=-0.1))
err(lambda: F.cross_entropy(logits, target, weight=torch.ones(2)))
err(lambda: F.cross_entropy(logits, torch.tensor([[0, 1]])))
print(nn.CrossEntropyLoss(weight=w, ignore_index=3), nn.NLLLoss())
out(nn.CrossEntropyLoss(weight=w).weight, list(nn.CrossEntropyLoss(weight=w).state_dict()))
# ---
# CrossEntropyLoss with class probabilities and spatial inputs
logits = torch.tensor([[2.0, 0.5, -1.0], [0.1, 0.2, 0.3]], requires_grad=True)
probs = torch.tensor([[0.7, 0.2, 0.1], [0.0, 0.5, 0.5]])
w = torch.tensor([1.0, 2.0, 0.5])
for red in ["mean", "sum", "none"]:
    out(F.cross_entropy(logits, probs, reduction=red))
    out(F.cross_entropy(logits, probs, weight=w, reduction=red, label_smoothing=0.3))
err(lambda: F.cross_entropy(logits, probs, ignore_index=0))
out(F.cross_entropy(logits, probs, ignore_index=-1))
err(lambda: F.cross_entropy(logits, probs.double()))
err(lambda: F.cross_entropy(logits, probs[:, :2]))
loss = F.cross_entropy(logits, probs, label_smoothing=0.1)
loss.backward()
out(loss, logits.grad)
x = torch.arange(24.0).reshape(2, 3, 2, 2) / 10
t = torch.tensor([[[0, 1], [2, -100]], [[1, 1], [0, 2]]])
out(F.cross_entropy(x, t), F.cross_entropy(x, t, reduction="none").shape)
out(F.cross_entropy(x, t, weight=w, label_smoothing=0.2))
out(F.cross_entropy(x, torch.softmax(x * 2, 1)))
err(lambda: F.cross_entropy(x, t[:, :1]))
# ---
# NLLLoss corners
lp = torch.log_softmax(
    torch.tensor([[2.0, 0.5, -1.0], [0.1, 0.2, 0.3], [1.0, 1.0, 1.0]]), 1
).requires_grad_()
t = torch.tensor([0, 2, 1])
w = torch.tensor([0.5, 2.0, 1.0])
for red in ["mean", "sum", "none"]:
    out(F.nll_loss(lp, t, reduction=red), F.nll_loss(lp, t, weight=w, reduction=red))
    out(F.nll_loss(lp, t, ignore_index=2, reduction=red))
loss = nn.NLLLoss(weight=w)(lp, t)
out(loss.grad_fn.name())
loss.backward()
out(lp.grad)
out(F.nll_loss(lp[0], torch.tensor(0)))
err(lambda: F.nll_loss(lp, torch.tensor([0, 3, 1])))
err(lambda: F.nll_loss(lp, torch.tensor([0.0, 1.0, 1.0])))
err(lambda: F.nll_loss(lp, torch.tensor([0, 1])))
err(lambda: F.nll_loss(lp, torch.tensor([[0, 1, 1]])))
out(F.nll_loss(lp, torch.tensor([-100, -100, -100])))
out(F.nll_loss(torch.ones(2, 3, 2), torch.tensor([[0, 1], [2, 2]])))
# ---
# BCELoss and BCEWithLogitsLoss corners
p = torch.tensor([0.1, 0.9, 0.5, 1.0], requires_grad=True)
y = torch.tensor([0.0, 1.0, 1.0, 1.0])
w = torch.tensor([1.0, 2.0, 0.5, 1.0])
for red in ["mean", "sum", "none"]:
    out(
        F.binary_cross_entropy(p, y, reduction=red),
        F.binary_cross_entropy(p, y, weight=w, reduction=red),
    )
out(F.binary_cross_entropy(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 0.0])))
loss = nn.BCELoss()(p, y)
out(loss.grad_fn.name())
loss.backward()
out(p.grad)
err(lambda: F.binary_cross_entropy(torch.tensor([1.5]), torch.tensor([1.0])))
err(lambda: F.binary_cross_entropy(torch.tensor([0.5]), torch.tensor([1.0, 0.0])))
err(lambda: F.binary_cross_entropy(torch.tensor([0.5, 0.2]), torch.tensor([1, 0])))
err(lambda: F.binary_cross_entropy(torch.tensor([0.5]), torch.tensor([1.5])))
z = torch.tensor([[-3.0, 0.0, 2.0], [50.0, -50.0, 1.0]], requires_grad=True)
t = torch.tensor([[0.0, 1.0, 0.5], [1.0, 0.0, 1.0]])
pw = torch.tensor([1.0, 3.0, 0.5])
for red in ["mean", "sum", "none"]:
    out(F.binary_cross_entropy_with_logits(z, t, reduction=red))
    out(
        F.binary_cross_entropy_with_logits(
            z, t, weight=torch.tensor([2.0, 1.0, 1.0]), pos_weight=pw, reduction=red
        )
    )
loss = nn.BCEWithLogitsLoss(pos_weight=pw)(z, t)
out(loss.grad_fn.name())
loss.backward()
out(z.grad)
err(lambda: F.binary_cross_entropy_with_logits(z, t[0]))
err(lambda: F.binary_cross_entropy_with_logits(z, torch.tensor([[0, 1, 1], [1, 0, 1]])))
out(F.binary_cross_entropy_with_logits(z, t, pos_weight=torch.tensor(2.0)))
print(nn.BCEWithLogitsLoss(pos_weight=pw), nn.BCELoss(weight=w))
out(list(nn.BCEWithLogitsLoss(pos_weight=pw).state_dict()))
# ---
# loss dtype rules: target dtypes, weight dtypes, empty batches, NaN probabilities
logits = torch.tensor([[2.0, 0.5, -1.0], [0.1, 0.2, 0.3]])
probs = torch.tensor([[0.7, 0.2, 0.1], [0.0, 0.5, 0.5]])
err(lambda: F.cross_entropy(logits, torch.tensor([0, 1], dtype=torch.int32)))
err(lambda: F.nll_loss(logits, torch.tensor([0, 1], dtype=torch.int16)))
err(lambda: F.cross_entropy(logits, torch.tensor([True, False])))
out(F.cross_entropy(logits, torch.tensor([0, 1], dtype=torch.uint8)))
out(F.cross_entropy(logits, torch.tensor([0, 1]), label_smoothing=-0.1))
out(F.cross_entropy(logits, probs, label_smoothing=-0.1))
out(F.cross_entropy(logits, torch.tensor([0, 1]), label_smoothing=1.0))
err(lambda: F.cross_entropy(logits, probs, ignore_index=2))
err(
    lambda: F.cross_entropy(logits, torch.tensor([0, 1]), weight=torch.ones(3, dtype=torch.float64))
)
out(F.cross_entropy(logits, probs, weight=torch.ones(3, dtype=torch.float64)))
err(lambda: F.nll_loss(logits.double(), torch.tensor([0, 1]), weight=torch.ones(3)))
err(lambda: F.nll_loss(torch.ones(2, 3, dtype=torch.int64), torch.tensor([0, 1])))
err(lambda: F.cross_entropy(torch.tensor([[1, 2]]), torch.tensor([0])))
out(F.cross_entropy(torch.ones(0, 3), torch.ones(0, dtype=torch.int64)))
out(F.cross_entropy(torch.ones(0, 3), torch.ones(0, dtype=torch.int64), reduction="sum"))
out(F.cross_entropy(torch.ones(0, 3), torch.ones(0, dtype=torch.int64), reduction="none"))
out(F.nll_loss(torch.ones(0, 3, 2), torch.ones(0, 2, dtype=torch.int64), reduction="sum"))
err(lambda: F.mse_loss(torch.tensor([1, 2]), torch.tensor([1, 3])))
err(lambda: F.mse_loss(torch.tensor([True]), torch.tensor([False])))
out(
    F.mse_loss(torch.ones(2), torch.tensor([1, 2])),
    F.mse_loss(torch.ones(2), torch.ones(2).double()),
)
x = torch.tensor([0.5, 0.2])
t = torch.tensor([1.0, 0.0])
err(lambda: F.binary_cross_entropy(x, torch.tensor([1, 0])))
err(lambda: F.binary_cross_entropy(x.double(), t))
err(lambda: F.binary_cross_entropy(x, t.double()))
err(lambda: F.binary_cross_entropy(torch.tensor([float("nan"), 0.2]), t))
err(lambda: F.binary_cross_entropy(x, torch.tensor([float("nan"), 0.0])))
err(lambda: F.binary_cross_entropy(torch.tensor([1, 0]), torch.tensor([1, 0])))
err(lambda: F.binary_cross_entropy(x, t, weight=torch.ones(3)))
out(F.binary_cross_entropy(x, t, weight=torch.ones(2).double()))
xl = torch.tensor([0.5, -0.2], requires_grad=True)
loss = F.binary_cross_entropy_with_logits(xl, t.double())
loss.backward()
out(loss, xl.grad)
out(F.binary_cross_entropy_with_logits(xl.double(), t, reduction="none"))
err(lambda: F.binary_cross_entropy_with_logits(xl, torch.tensor([1, 0])))
err(lambda: F.binary_cross_entropy_with_logits(torch.tensor([1, 0]), t))
out(F.binary_cross_entropy_with_logits(xl, torch.tensor([2.0, -1.0])))
# ---
# weighted mse_loss / l1_loss (torch 2.13), modules(remove_duplicate=False)
x = torch.tensor([[1.0, 2.0], [3.0, 5.0]], requires_grad=True)
t = torch.tensor([[0.0, 2.5], [3.0, 1.0]])
w = torch.tensor([[1.0, 2.0], [0.5, 0.0]])
for red in ["mean", "sum", "none"]:
    out(F.mse_loss(x, t, reduction=red, weight=w), F.l1_loss(x, t, reduction=red, weight=w))
err(lambda: F.mse_loss(x, t, weight=torch.ones(2)))
err(lambda: F.l1_loss(x, t, weight=w, reduction="avg"))
F.mse_loss(x, t, weight=w).backward()
out(x.grad)
relu = nn.ReLU()
s = nn.Sequential(relu, relu)
out(len(list(s.modules(remove_duplicate=False))), len(list(s.modules())))
# ---
# every target ignored: the mean loss is nan, its gradient zero
x = torch.tensor([[0.5, -1.0, 2.0], [1.0, 0.0, 0.0]], requires_grad=True)
for kw in [dict(), dict(weight=torch.tensor([1.0, 2.0, 3.0])), dict(label_smoothing=0.2)]:
    y = F.cross_entropy(x, torch.tensor([-100, -100]), **kw)
    x.grad = None
    y.backward()
    out(y, x.grad)
v = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
y = F.nll_loss(v, torch.tensor(1), ignore_index=1)
y.backward()
out(y, v.grad)
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
