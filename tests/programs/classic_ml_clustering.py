# k-means++ seeding and Lloyd iterations with a seeded Generator, inertia and cluster sizes
torch.manual_seed(0)
g = torch.Generator().manual_seed(42)
centers_true = torch.tensor([[0.0, 0.0], [4.0, 4.0], [-4.0, 3.0]])
X = torch.cat([c + torch.randn(20, 2, generator=g) for c in centers_true])


def kmeans_plus_plus(X, k, generator):
    n = X.shape[0]
    first = torch.randint(n, (1,), generator=generator)
    centers = X[first]
    for _ in range(1, k):
        d2 = torch.cdist(X, centers).pow(2).min(dim=1).values
        probs = d2 / d2.sum()
        idx = torch.multinomial(probs, 1, generator=generator)
        centers = torch.cat([centers, X[idx]], dim=0)
    return centers


def kmeans(X, k, generator, iters=20, tol=1e-6):
    centers = kmeans_plus_plus(X, k, generator)
    for it in range(iters):  # noqa: B007 (the count is returned)
        labels = torch.cdist(X, centers).argmin(dim=1)
        counts = torch.bincount(labels, minlength=k).clamp(min=1).unsqueeze(1).float()
        new = torch.zeros_like(centers).index_add_(0, labels, X) / counts
        shift = (new - centers).norm(dim=1).max()
        centers = new
        if shift < tol:
            break
    inertia = (X - centers[labels]).pow(2).sum()
    return centers, labels, inertia, it


centers, labels, inertia, iters = kmeans(X, 3, g)
order = centers[:, 0].argsort()
print(centers[order], f"inertia {inertia.item():.4f} after {iters + 1} iterations")
print(torch.bincount(labels), labels[:10])
mini = torch.randperm(60, generator=g)[:16]
print(mini, torch.unique(labels[mini], return_counts=True))
sil_a = torch.stack(
    [
        torch.cdist(X[i : i + 1], X[labels == labels[i]]).sum() / ((labels == labels[i]).sum() - 1)
        for i in range(5)
    ]
)
print(sil_a)
out(centers, labels, inertia)
# ---
# Spectral clustering: RBF affinity, normalised graph Laplacian, eigh and the Fiedler vector
torch.manual_seed(0)
t = torch.linspace(0, torch.pi, 15)
moon1 = torch.stack([torch.cos(t), torch.sin(t)], 1)
moon2 = torch.stack([1 - torch.cos(t), 0.5 - torch.sin(t)], 1)
X = torch.cat([moon1, moon2]) + 0.05 * torch.randn(30, 2)
D2 = torch.cdist(X, X).pow(2)
W = torch.exp(-D2 / (2 * 0.3**2))
W.fill_diagonal_(0)
deg = W.sum(1)
D_inv_sqrt = torch.diag(deg.rsqrt())
L_sym = torch.eye(30) - D_inv_sqrt @ W @ D_inv_sqrt
evals, evecs = torch.linalg.eigh(L_sym)
print(evals[1:4], evals[0].abs() < 1e-5, evals.dtype)
emb = evecs[:, :2]
emb = emb / emb.norm(dim=1, keepdim=True)
fiedler = evecs[:, 1]
labels = (fiedler > 0).long()
print(labels, torch.bincount(labels))
agree = max((labels[:15] == labels[0]).float().mean(), (labels[15:] == labels[15]).float().mean())
print(f"moon purity {agree.item():.3f}", torch.linalg.matrix_rank(L_sym).item())
L = torch.diag(deg) - W
print(
    f"Laplacian rows sum to zero: {L.sum(1).abs().max().item() < 1e-5}",
    torch.linalg.eigvalsh(L)[:2].abs() < 1e-4,
)
out(evals, labels, emb.abs().round(decimals=3))
# ---
# Gaussian naive Bayes and k-nearest neighbours written with broadcasting, topk and mode
torch.manual_seed(0)
X = torch.cat(
    [
        torch.randn(15, 3) + torch.tensor([2.0, 0.0, 0.0]),
        torch.randn(15, 3) - torch.tensor([0.0, 2.0, 1.0]),
        torch.randn(15, 3) * 0.5,
    ]
)
y = torch.arange(3).repeat_interleave(15)
perm = torch.randperm(45)
X, y = X[perm], y[perm]
Xtr, ytr, Xte, yte = X[:35], y[:35], X[35:], y[35:]


class GaussianNB:
    def fit(self, X, y, var_smoothing=1e-9):
        self.classes = torch.unique(y)
        self.theta = torch.stack([X[y == c].mean(0) for c in self.classes])
        eps = var_smoothing * X.var(0, unbiased=False).max()
        self.var = torch.stack([X[y == c].var(0, unbiased=False) for c in self.classes]) + eps
        self.log_prior = torch.log(torch.bincount(y).float() / len(y))
        return self

    def joint_log_likelihood(self, X):
        n_ij = -0.5 * torch.log(2.0 * torch.pi * self.var).sum(1)
        n_ij = n_ij - 0.5 * ((X[:, None, :] - self.theta) ** 2 / self.var).sum(2)
        return self.log_prior + n_ij

    def predict_proba(self, X):
        jll = self.joint_log_likelihood(X)
        return torch.exp(jll - torch.logsumexp(jll, dim=1, keepdim=True))


nb = GaussianNB().fit(Xtr, ytr)
proba = nb.predict_proba(Xte)
print(nb.theta, nb.log_prior)
print(proba.argmax(1), yte, f"acc {(proba.argmax(1) == yte).float().mean().item():.2f}")


def knn_predict(Xtr, ytr, Xq, k=5):
    d = torch.cdist(Xq, Xtr)
    dist, idx = d.topk(k, largest=False)
    votes = ytr[idx]
    pred = torch.mode(votes, dim=1).values
    weights = 1.0 / (dist + 1e-8)
    weighted = torch.zeros(len(Xq), 3).scatter_add_(1, votes, weights)
    return pred, weighted.argmax(1), dist


pred, wpred, dist = knn_predict(Xtr, ytr, Xte)
print(pred, wpred, dist[0])
print(f"knn acc {(pred == yte).float().mean().item():.2f}")
out(nb.theta, nb.var, proba, pred, wpred, dist)
