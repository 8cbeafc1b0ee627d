# Kaggle-style tabular preprocessing in torch: NaN imputation, quantile bins, isin, one-hot, stats
torch.manual_seed(0)
n = 20
age = torch.randint(18, 70, (n,)).float()
age[torch.tensor([2, 7, 11])] = float("nan")
income = torch.exp(torch.randn(n) * 0.5 + 10)
city = torch.randint(0, 5, (n,))
print(f"missing age: {torch.isnan(age).sum().item()} ({torch.isnan(age).float().mean():.1%})")
median_age = age.nanmedian()
age_filled = torch.where(torch.isnan(age), median_age, age)
print(median_age, age.nanmean(), torch.nansum(age))
q = torch.quantile(income, torch.tensor([0.25, 0.5, 0.75]))
income_bin = torch.bucketize(income, q)
print(q, income_bin, torch.bincount(income_bin, minlength=4))
edges = torch.linspace(18, 70, 5)
print(torch.searchsorted(edges, age_filled, right=True))
big_cities = torch.tensor([1, 3])
is_big = torch.isin(city, big_cities)
city_oh = F.one_hot(city, num_classes=5).float()
log_income = torch.log1p(income)
std, mean = torch.std_mean(log_income)
z = (log_income - mean) / std
X = torch.cat([age_filled[:, None] / 100, z[:, None], is_big[:, None].float(), city_oh], dim=1)
print(X.shape, X.dtype, torch.isfinite(X).all().item())
print(torch.corrcoef(torch.stack([age_filled, log_income])).round(decimals=4))
print(torch.cov(X[:, :2].T, correction=0))
hist = torch.histc(z, bins=5, min=-2, max=2)
counts, bin_edges = torch.histogram(z, bins=4)
print(hist, counts, bin_edges)
clipped = torch.nan_to_num(
    torch.tensor([float("nan"), float("inf"), -float("inf"), 1.5]), nan=0.0, posinf=1e3, neginf=-1e3
)
print(clipped)
vals, counts = torch.unique(city, return_counts=True)
print(dict(zip(vals.tolist(), counts.tolist())))
ranks = income.argsort().argsort()
print(ranks, torch.mode(city).values, torch.mode(city[:8]))
print(torch.topk(income, 3, largest=False).indices, income.kthvalue(2).values.round())
out(X.round(decimals=4), hist, counts, bin_edges, ranks)
# ---
# Train/valid split by index masks, class weights from counts, stratified folds with argsort
torch.manual_seed(0)
y = torch.tensor([0, 0, 0, 0, 0, 0, 1, 1, 1, 2, 2, 0, 0, 1, 0, 2])
counts = torch.bincount(y)
class_weights = counts.sum() / (len(counts) * counts.float())
print(counts, class_weights)
k = 3
folds = torch.empty_like(y)
for c in range(len(counts)):
    idx = torch.nonzero(y == c, as_tuple=True)[0]
    idx = idx[torch.randperm(len(idx))]
    folds[idx] = torch.arange(len(idx)) % k
for f in range(k):
    valid = folds == f
    print(
        f"fold {f}: train {(~valid).sum().item():2d} valid {valid.sum().item()} "
        f"classes {torch.bincount(y[valid], minlength=3).tolist()}"
    )
logits = torch.randn(len(y), 3, requires_grad=True)
loss = F.cross_entropy(logits, y, weight=class_weights)
loss.backward()
sample_weights = class_weights[y]
sampler = torch.utils.data.WeightedRandomSampler(
    sample_weights, num_samples=12, replacement=True, generator=torch.Generator().manual_seed(0)
)
drawn = torch.tensor(list(sampler))
print(torch.bincount(y[drawn], minlength=3))
out(loss, logits.grad, folds)
