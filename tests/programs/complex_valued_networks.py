# complex numbers as the "complex numbers" notes use them: complex tensors and their printing,
# view_as_real/view_as_complex, polar form, Wirtinger gradients of real losses, a complex
# Linear layer trained with Adam, and an FFT feature inside a real network
torch.manual_seed(0)
x = torch.randn(2, 2, dtype=torch.cfloat)
print(x)
print(x.real, x.imag, x.abs(), x.angle(), sep="\n")
print(x.conj(), x.conj().is_conj(), x.conj().resolve_conj().is_conj())
y = torch.view_as_real(x)
print(y.shape, y.dtype, torch.view_as_complex(y).dtype)
z = torch.polar(torch.tensor([1.0, 2.0]), torch.tensor([0.0, np.pi / 2]))
print(z, torch.allclose(z.abs(), torch.tensor([1.0, 2.0])))
print(torch.tensor([1 + 2j, 3 - 1j]) * 2j, torch.complex(torch.ones(2), -torch.ones(2)))
print(x.dtype, x.real.dtype, torch.randn(2, dtype=torch.complex128).dtype, x.is_complex())
a = torch.tensor([1 + 1j, 2 - 3j], requires_grad=True)
loss = (a * a.conj()).real.sum()
loss.backward()
out(loss, a.grad)
b = torch.tensor([0.5 - 1j, 1 + 2j], requires_grad=True)
(b.abs() ** 2 + torch.angle(b)).sum().backward()
out(b.grad)
c = torch.randn(3, dtype=torch.cdouble, requires_grad=True)
print(torch.autograd.gradcheck(lambda t: (t.exp() * t.sin()).abs(), (c,)))
err(lambda: (torch.ones(2, dtype=torch.cfloat, requires_grad=True) * 2).sum().backward())
# ---
# a complex linear layer fitted to a complex target map, and complex matmul/einsum
torch.manual_seed(0)
layer = nn.Linear(3, 2, dtype=torch.cfloat)
print(layer.weight.dtype, layer.bias.dtype, layer)
W_true = torch.randn(2, 3, dtype=torch.cfloat)
X = torch.randn(16, 3, dtype=torch.cfloat)
Y = X @ W_true.T
opt = torch.optim.Adam(layer.parameters(), lr=0.05)
for step in range(40):
    opt.zero_grad()
    loss = (layer(X) - Y).abs().pow(2).mean()
    loss.backward()
    opt.step()
    if step % 10 == 0:
        print(f"step {step} loss {loss.item():.5f}")
out(layer.weight, opt.state[layer.weight]["exp_avg_sq"])
print(opt.state[layer.weight]["exp_avg"].dtype, opt.state[layer.weight]["exp_avg_sq"].dtype)
out(
    torch.einsum("ij,jk->ik", X[:2], W_true.T),
    torch.linalg.norm(W_true),
    torch.linalg.det(W_true[:, :2]),
)
# ---
# an FFT magnitude feature feeding a real classifier, with gradients through rfft
torch.manual_seed(0)
signals = torch.randn(8, 32)
labels = (signals[:, ::4].sum(1) > 0).long()


class SpectralNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.filter = nn.Parameter(torch.ones(17, dtype=torch.cfloat))
        self.head = nn.Linear(17, 2)

    def forward(self, x):
        spectrum = torch.fft.rfft(x, dim=-1, norm="ortho")
        filtered = spectrum * self.filter
        return self.head(filtered.abs())


net = SpectralNet()
opt = torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
for epoch in range(5):
    opt.zero_grad()
    loss = F.cross_entropy(net(signals), labels)
    loss.backward()
    opt.step()
    print(f"epoch {epoch} loss {loss.item():.4f} filter grad dtype {net.filter.grad.dtype}")
out(net.filter, net.head.weight.grad)
recon = torch.fft.irfft(torch.fft.rfft(signals[0]), n=32)
print(torch.allclose(recon, signals[0], atol=1e-5))
