# CS231n-style linear classifiers: vectorized SVM and softmax losses, analytic vs numeric gradients
from random import randrange, seed

torch.manual_seed(0)
seed(0)
N, D, C = 10, 6, 4
X = torch.randn(N, D, dtype=torch.float64)
y = torch.randint(0, C, (N,))
W = 0.01 * torch.randn(D, C, dtype=torch.float64)
reg = 0.1


def svm_loss_vectorized(W, X, y, reg):
    num_train = X.shape[0]
    scores = X.mm(W)
    correct = scores[torch.arange(num_train), y].view(-1, 1)
    margins = torch.clamp(scores - correct + 1, min=0)
    margins[torch.arange(num_train), y] = 0
    loss = margins.sum() / num_train + reg * torch.sum(W * W)
    binary = (margins > 0).to(X.dtype)
    binary[torch.arange(num_train), y] = -binary.sum(dim=1)
    dW = X.t().mm(binary) / num_train + 2 * reg * W
    return loss, dW


def softmax_loss_vectorized(W, X, y, reg):
    num_train = X.shape[0]
    scores = X @ W
    scores -= scores.max(dim=1, keepdim=True).values
    probs = scores.exp() / scores.exp().sum(dim=1, keepdim=True)
    loss = -probs[range(num_train), y].log().sum() / num_train + reg * (W**2).sum()
    dscores = probs.clone()
    dscores[range(num_train), y] -= 1
    dW = X.T @ dscores / num_train + 2 * reg * W
    return loss, dW


def grad_check_sparse(f, x, analytic_grad, num_checks=5, h=1e-5):
    errors = []
    for _ in range(num_checks):
        ix = tuple(randrange(m) for m in x.shape)
        oldval = x[ix].item()
        x[ix] = oldval + h
        fxph = f(x)
        x[ix] = oldval - h
        fxmh = f(x)
        x[ix] = oldval
        grad_numerical = (fxph - fxmh) / (2 * h)
        grad_analytic = analytic_grad[ix].item()
        rel_error = abs(grad_numerical - grad_analytic) / (abs(grad_numerical) + abs(grad_analytic))
        errors.append(rel_error)
        ok = rel_error < 1e-6
        print(f"numerical: {grad_numerical:f} analytic: {grad_analytic:f}, relative error ok: {ok}")
    return errors


for name, fn in (("svm", svm_loss_vectorized), ("softmax", softmax_loss_vectorized)):
    loss, grad = fn(W, X, y, reg)
    print(f"{name} loss: {loss.item():.6f}")
    grad_check_sparse(lambda w: fn(w, X, y, reg)[0].item(), W, grad, num_checks=3)
    Wt = W.clone().requires_grad_(True)
    fn(Wt, X, y, reg)[0].backward()
    print(f"{name} autograd matches: {torch.allclose(Wt.grad, grad)}")
    out(loss, grad)
ref = F.multi_margin_loss(X @ W, y, reduction="mean") * C + reg * (W * W).sum()
print(f"multi_margin_loss * C: {ref.item():.6f}")
ce = F.cross_entropy(X @ W, y) + reg * (W * W).sum()
print(f"cross_entropy: {ce.item():.6f}")
out(ref, ce)
# ---
# Two-layer net on spiral data, trained by plain SGD with learning-rate decay and a val check
import math

torch.manual_seed(0)
N, K = 30, 3
X = torch.zeros(N * K, 2)
y = torch.zeros(N * K, dtype=torch.long)
for j in range(K):
    ix = range(N * j, N * (j + 1))
    r = torch.linspace(0.0, 1, N)
    t = torch.linspace(j * 4, (j + 1) * 4, N) + torch.randn(N) * 0.2
    X[ix] = torch.stack([r * torch.sin(t), r * torch.cos(t)], dim=1)
    y[ix] = j
params = {
    "W1": (0.1 * torch.randn(2, 32)).requires_grad_(),
    "b1": torch.zeros(32, requires_grad=True),
    "W2": (0.1 * torch.randn(32, K)).requires_grad_(),
    "b2": torch.zeros(K, requires_grad=True),
}
lr, lr_decay = 1.0, 0.95
perm = torch.randperm(N * K)
train_idx, val_idx = perm[:70], perm[70:]
for it in range(40):
    h = torch.relu(X[train_idx] @ params["W1"] + params["b1"])
    scores = h @ params["W2"] + params["b2"]
    loss = F.cross_entropy(scores, y[train_idx]) + 1e-3 * sum(
        (params[k] ** 2).sum() for k in ("W1", "W2")
    )
    for p in params.values():
        p.grad = None
    loss.backward()
    with torch.no_grad():
        for p in params.values():
            p -= lr * p.grad
    if it % 10 == 9:
        lr *= lr_decay
        with torch.no_grad():
            val_scores = (
                torch.relu(X[val_idx] @ params["W1"] + params["b1"]) @ params["W2"] + params["b2"]
            )
            val_acc = (val_scores.argmax(1) == y[val_idx]).float().mean()
        print(f"iteration {it + 1} / 40: loss {loss.item():.4f} val acc {val_acc:.3f} lr {lr:.4f}")
print(f"{math.isfinite(loss.item())}")
out(loss, params["b2"])
