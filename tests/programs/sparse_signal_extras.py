# sparse CSR / COO matrices: matvec, to_sparse_csr, sparse.sum, addmm, transpose, power iteration
torch.set_default_dtype(torch.float64)
n = 8
main = torch.full((n,), 2.0)
off = torch.full((n - 1,), -1.0)
D = torch.diag(main) + torch.diag(off, 1) + torch.diag(off, -1)
Sc = D.to_sparse_csr()
So = D.to_sparse()
print(Sc.layout, So.layout, Sc.crow_indices(), Sc.col_indices()[:6], Sc.values()[:6])
v = torch.arange(1.0, n + 1)
print(
    torch.allclose(Sc @ v, D @ v), torch.allclose(torch.sparse.mm(So, v[:, None]).squeeze(), D @ v)
)
print(torch.sparse.sum(So), torch.sparse.sum(So, dim=0).to_dense())
print(torch.sparse.addmm(torch.ones(n, 1), So, v[:, None], beta=0.5, alpha=2.0).squeeze())
print(So.t().coalesce().indices()[:, :5], So.transpose(0, 1).to_dense().equal(D.T))
x = torch.ones(n)
for _ in range(200):
    x = Sc @ x
    x = x / x.norm()
lam = x @ (Sc @ x)
print(f"largest eigenvalue {lam.item():.8f}, exact {torch.linalg.eigvalsh(D)[-1].item():.8f}")
csr = torch.sparse_csr_tensor(
    torch.tensor([0, 2, 3, 5]),
    torch.tensor([0, 2, 1, 0, 2]),
    torch.tensor([1.0, 2.0, 3.0, 4.0, 5.0]),
    size=(3, 3),
)
print(csr.to_dense(), csr.to_sparse_coo().indices())
print((csr @ torch.eye(3)).sum(0), csr.shape, csr._nnz())
out(Sc @ v, lam, csr.to_dense())
torch.set_default_dtype(torch.float32)
# ---
# spectral tools: stft options, torch.signal windows, orthonormal ffts, grouped conv1d filter bank
torch.manual_seed(6)
x = torch.randn(2, 200)
for kwargs in [
    {"center": False},
    {"center": True, "pad_mode": "constant"},
    {"normalized": True},
    {"onesided": False},
    {"win_length": 24},
]:
    S = torch.stft(
        x,
        n_fft=32,
        hop_length=10,
        window=torch.hann_window(kwargs.get("win_length", 32)),
        return_complex=True,
        **kwargs,
    )
    print(kwargs, tuple(S.shape), f"{S.abs().sum().item():.4f}")
S = torch.stft(x, 32, 8, window=torch.hann_window(32), return_complex=True, normalized=True)
rec = torch.istft(S, 32, 8, window=torch.hann_window(32), normalized=True, length=200)
print(f"roundtrip {torch.allclose(rec, x, atol=1e-5)}")
W = torch.signal.windows
for name, w in [
    ("cosine", W.cosine(16)),
    ("exponential", W.exponential(16, tau=3.0)),
    ("general_hamming", W.general_hamming(16, alpha=0.6)),
    ("nuttall", W.nuttall(16)),
    ("blackman", W.blackman(16, sym=False)),
    ("kaiser", W.kaiser(16, beta=5.0)),
    ("general_cosine", W.general_cosine(16, a=[0.5, 0.5])),
]:
    print(f"{name:16s} {w.sum().item():.6f} {w[0].item():.6f} {w[8].item():.6f}")
y = torch.fft.fftn(x, norm="ortho")
print(f"ortho energy {x.pow(2).sum().item():.5f} {y.abs().pow(2).sum().item():.5f}")
print(torch.fft.ihfft(x[0, :8]), torch.fft.irfft2(torch.fft.rfft2(x[:, :8])).shape)
freqs = torch.tensor([0.05, 0.15, 0.3])
t = torch.arange(31) - 15
bank = torch.stack(
    [torch.cos(2 * torch.pi * f * t) * torch.hann_window(31, periodic=False) for f in freqs]
)[:, None]
filtered = F.conv1d(x[:, None].expand(2, 3, 200).contiguous(), bank, groups=3, padding=15)
print(filtered.shape, filtered.pow(2).mean(-1))
out(rec[:, :5], y[:, :3], filtered[:, :, 100])
