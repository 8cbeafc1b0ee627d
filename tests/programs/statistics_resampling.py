# bootstrap confidence intervals with a seeded Generator: randint and multinomial resampling
g = torch.Generator().manual_seed(42)
data = torch.randn(40, generator=g) * 2 + 1
B = 200
idx = torch.randint(0, data.numel(), (B, data.numel()), generator=g)
boot_means = data[idx].mean(1)
lo, hi = torch.quantile(boot_means, torch.tensor([0.025, 0.975]))
print(f"mean {data.mean().item():.4f} CI [{lo.item():.4f}, {hi.item():.4f}]")
w = torch.ones(data.numel())
idx2 = torch.multinomial(w, data.numel() * 5, replacement=True, generator=g).reshape(5, -1)
print(idx2[:, :6])
boot_med = data[idx].median(1).values
print(f"median SE {boot_med.std().item():.4f}")
perm = torch.randperm(10, generator=g)
print(perm.tolist())
out(boot_means[:5], lo, hi, idx2, boot_med[:5])
# ---
# kernel density estimate, quantiles, nanquantile, mode, cummax/cummin, logsumexp
torch.manual_seed(0)
x = torch.cat([torch.randn(50) - 2, torch.randn(50) * 0.5 + 1.5])
grid = torch.linspace(-5, 4, 10)
bw = 1.06 * x.std() * x.numel() ** (-1 / 5)
logk = -0.5 * ((grid[:, None] - x[None]) / bw) ** 2 - torch.log(bw * (2 * torch.pi) ** 0.5)
dens = torch.logsumexp(logk, 1).exp() / x.numel()
print(f"bandwidth {bw.item():.5f}")
print([f"{d:.5f}" for d in dens.tolist()])
q = torch.tensor([0.1, 0.5, 0.9])
for interp in ["linear", "lower", "higher", "midpoint", "nearest"]:
    print(interp, torch.quantile(x, q, interpolation=interp).tolist())
xn = x.clone()
xn[::7] = float("nan")
print(torch.nanquantile(xn, q), torch.nanmedian(xn), torch.nanmean(xn))
m2 = xn.reshape(10, 10)
out(
    torch.nanquantile(m2, 0.5, dim=1),
    torch.quantile(m2, 0.5, dim=1, keepdim=True),
    torch.nanmedian(m2, 0),
)
ints = torch.tensor([3, 1, 3, 2, 2, 3, 1, 1, 1])
print(torch.mode(ints), ints.median())
walk = torch.randn(12).cumsum(0)
cmx, cmi = torch.cummax(walk, 0)
cnx, cni = torch.cummin(walk, 0)
drawdown = (cmx - walk).max()
print(f"max drawdown {drawdown.item():.5f} at {int((cmx - walk).argmax())}")
out(dens, cmx, cmi, cnx, cni, torch.logcumsumexp(walk, 0))
# ---
# weighted covariance/correlation, histogramdd, bincount with weights, standardized moments
torch.manual_seed(5)
X = torch.randn(3, 30)
X[1] += 0.8 * X[0]
fw = torch.randint(1, 4, (30,))
aw = torch.rand(30)
C = torch.cov(X, fweights=fw, aweights=aw)
R = torch.corrcoef(X)
print(C)
print(R)
pts = torch.rand(100, 2)
hist, edges = torch.histogramdd(pts, bins=[3, 4])
print(hist, [e.tolist() for e in edges])
hist_w, _ = torch.histogramdd(pts, bins=[2, 2], weight=torch.ones(100) * 0.5, density=True)
print(hist_w)
labels = torch.randint(0, 4, (30,))
print(torch.bincount(labels, weights=X[0], minlength=5))
z = (X - X.mean(1, keepdim=True)) / X.std(1, keepdim=True, correction=0)
skew = (z**3).mean(1)
kurt = (z**4).mean(1) - 3
print(f"skew {skew.tolist()}")
var, mean = torch.var_mean(X, dim=1, correction=1)
out(C, R, hist, hist_w, skew, kurt, var, mean, torch.std_mean(X, 1, keepdim=True))
