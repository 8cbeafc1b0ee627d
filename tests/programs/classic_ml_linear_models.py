# Logistic regression fitted with LBFGS (strong Wolfe line search) and an L2 penalty
torch.manual_seed(0)
X = torch.randn(80, 4)
w_true = torch.tensor([1.5, -2.0, 0.0, 0.7])
y = (torch.sigmoid(X @ w_true + 0.3) > torch.rand(80)).float()
model = nn.Linear(4, 1)
opt = torch.optim.LBFGS(
    model.parameters(), lr=1, max_iter=50, history_size=10, line_search_fn="strong_wolfe"
)
evals = []


def closure():
    opt.zero_grad()
    logits = model(X).squeeze(1)
    loss = F.binary_cross_entropy_with_logits(logits, y) + 1e-3 * model.weight.pow(2).sum()
    loss.backward()
    evals.append(loss.item())
    return loss


for _ in range(2):
    final = opt.step(closure)
print(f"loss {final.item():.6f} first evaluations {[round(e, 4) for e in evals[:4]]}")
print(model.weight.data, model.bias.data)
state = opt.state[opt._params[0]]
print(sorted(state.keys()), state["n_iter"])
acc = ((model(X).squeeze(1) > 0).float() == y).float().mean()
print(f"train accuracy {acc.item():.4f}")
out(model.weight, model.bias, final)
# ---
# A linear SVM with the squared hinge, a multiclass Crammer-Singer hinge, and PCA three ways
torch.manual_seed(0)
X = torch.randn(60, 5)
y = torch.where(X[:, 0] + 0.5 * X[:, 1] > 0, 1.0, -1.0)
w = torch.zeros(5, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
opt = torch.optim.SGD([w, b], lr=0.1)
C = 1.0
for _epoch in range(50):
    margins = y * (X @ w + b)
    hinge = torch.clamp(1 - margins, min=0)
    loss = 0.5 * w.dot(w) + C * hinge.pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
sv = (margins < 1).sum()
print(f"loss {loss.item():.5f} support vectors {sv.item()}", w.detach(), b.detach())
print(f"accuracy {(torch.sign(X @ w + b) == y).float().mean().item():.3f}")
scores = torch.randn(6, 4, requires_grad=True)
labels = torch.tensor([0, 3, 1, 1, 2, 0])
print(
    F.multi_margin_loss(scores, labels),
    F.hinge_embedding_loss(scores[:, 0], torch.tensor([1, -1, 1, -1, 1, 1.0])),
)
true = scores.gather(1, labels[:, None])
cs = (scores - true + 1).scatter(1, labels[:, None], 0).clamp(min=0).amax(1).mean()
cs.backward()
print(cs, scores.grad.sum(0))
# PCA by three routes: full SVD, svd_lowrank and pca_lowrank (signs fixed by the largest loading)
Z = torch.randn(50, 3) @ torch.tensor(
    [[3.0, 0.0, 0.0, 1.0, 0.0], [0.0, 1.0, 0.5, 0.0, 0.0], [0.0, 0.0, 0.2, 0.0, 0.1]]
)
Zc = Z - Z.mean(0)
U, S, Vh = torch.linalg.svd(Zc, full_matrices=False)
print(S[:3], (S**2 / (S**2).sum())[:3], S[3:].abs().max() < 1e-3)


def fix_signs(V):
    idx = V.abs().argmax(0)
    return V * torch.sign(V[idx, torch.arange(V.shape[1])])


g = torch.Generator().manual_seed(0)
torch.manual_seed(1)
U2, S2, V2 = torch.svd_lowrank(Zc, q=3, niter=4)
torch.manual_seed(1)
U3, S3, V3 = torch.pca_lowrank(Z, q=3, center=True, niter=4)
print(torch.allclose(S2, S[:3], atol=1e-4), torch.allclose(S3, S[:3], atol=1e-4))
print(torch.allclose(fix_signs(V3), fix_signs(Vh[:3].T), atol=1e-4), V3.shape)
proj = Zc @ fix_signs(Vh[:2].T)
print(proj.shape, f"{proj.var(0).sum().item():.4f}")
out(w, b, cs, scores.grad, S, S3)
# ---
# t-SNE: perplexity-calibrated affinities by binary search and a few gradient steps with momentum
torch.manual_seed(0)
X = torch.cat([torch.randn(10, 5), torch.randn(10, 5) + 5])
n = X.shape[0]
D = torch.cdist(X, X).pow(2)
target = torch.log(torch.tensor(5.0))
P = torch.zeros(n, n)
for i in range(n):
    lo, hi, beta = torch.tensor(0.0), torch.tensor(float("inf")), torch.tensor(1.0)
    d = torch.cat([D[i, :i], D[i, i + 1 :]])
    for _ in range(40):
        p = torch.exp(-d * beta)
        sp = p.sum()
        entropy = torch.log(sp) + beta * (d * p).sum() / sp
        if (entropy - target).abs() < 1e-5:
            break
        if entropy > target:
            lo = beta
            beta = beta * 2 if torch.isinf(hi) else (beta + hi) / 2
        else:
            hi = beta
            beta = (beta + lo) / 2
    row = p / sp
    P[i, :i], P[i, i + 1 :] = row[:i], row[i:]
P = (P + P.T) / (2 * n)
print(f"P sums to {P.sum().item():.6f}, min {P[P > 0].min().item():.3e}")
Y = (torch.randn(n, 2) * 1e-2).requires_grad_()
opt = torch.optim.SGD([Y], lr=5.0, momentum=0.5)
for it in range(15):
    num = 1.0 / (1.0 + torch.cdist(Y, Y).pow(2))
    num = num * (1 - torch.eye(n))
    Q = num / num.sum()
    exaggeration = 4.0 if it < 10 else 1.0
    kl = (exaggeration * P * (torch.log(exaggeration * P + 1e-12) - torch.log(Q + 1e-12))).sum()
    opt.zero_grad()
    kl.backward()
    opt.step()
print(f"KL {kl.item():.5f}")
c0, c1 = Y[:10].mean(0), Y[10:].mean(0)
print(f"cluster gap {(c0 - c1).norm().item() > Y[:10].std(0).norm().item()}", Y.grad.shape)
out(P, Y, kl)
