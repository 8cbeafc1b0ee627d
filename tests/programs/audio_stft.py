# audio features and a spectral loss: stft magnitudes, a log filterbank, a multi-resolution
# STFT loss fitted by gradient descent, and istft reconstruction
import math

sr = 800
t = torch.arange(0, 400, dtype=torch.float64) / sr
clean = torch.sin(2 * math.pi * 50 * t) + 0.5 * torch.sin(2 * math.pi * 120 * t)
rng = np.random.default_rng(2)
noisy = clean + 0.3 * torch.from_numpy(rng.normal(size=400))
window = torch.hann_window(64, dtype=torch.float64)
spec = torch.stft(noisy, n_fft=64, hop_length=16, window=window, return_complex=True)
power = spec.abs().pow(2)
out(spec.shape, spec.dtype, power.shape)
bins = torch.fft.rfftfreq(64, d=1 / sr, dtype=torch.float64)
centers = torch.linspace(0, sr / 2, 8, dtype=torch.float64)
filterbank = torch.clamp(1 - (bins[None, :] - centers[:, None]).abs() / (sr / 14), min=0)
log_mel = torch.log(filterbank @ power + 1e-6)
out(log_mel.shape, log_mel.mean(), log_mel.std())
batch = torch.stack([clean, noisy])
hamming = torch.hamming_window(32, dtype=torch.float64)
batched = torch.stft(batch, 32, 8, window=hamming, center=True, pad_mode="reflect",
                     normalized=True, return_complex=True)  # fmt: skip
out(batched.shape, batched[0].abs().amax(dim=1))
# ---
# a multi-resolution STFT loss: gradients reach the signal through stft
import math

t = torch.arange(0, 256, dtype=torch.float64) / 256
target = torch.sin(2 * math.pi * 8 * t) * torch.exp(-2 * t)
estimate = torch.zeros(256, dtype=torch.float64, requires_grad=True)
optimizer = torch.optim.Adam([estimate], lr=0.05)


def stft_loss(x, y, n_fft, hop):
    window = torch.hann_window(n_fft, dtype=x.dtype)
    sx = torch.stft(x, n_fft, hop, window=window, return_complex=True).abs()
    sy = torch.stft(y, n_fft, hop, window=window, return_complex=True).abs()
    convergence = torch.linalg.norm(sy - sx, "fro") / torch.linalg.norm(sy, "fro")
    magnitude = F.l1_loss(torch.log(sx + 1e-7), torch.log(sy + 1e-7))
    return convergence + magnitude


for step in range(4):
    optimizer.zero_grad()
    loss = sum(stft_loss(estimate, target, n, n // 4) for n in (16, 32, 64)) / 3
    loss.backward()
    optimizer.step()
    out(step, loss, estimate.grad.abs().max())
# ---
# istft inverts stft (hann window, 75% overlap), batched and with a given length
import math

t = torch.arange(0, 300, dtype=torch.float64)
signals = torch.stack([torch.sin(t / 5), torch.cos(t / 9) * (t / 300)])
window = torch.hann_window(40, dtype=torch.float64)
spectra = torch.stft(signals, 40, 10, window=window, return_complex=True)
restored = torch.istft(spectra, 40, 10, window=window, length=300)
out(restored.shape, (restored - signals).abs().max() < 1e-10)
masked = spectra * (torch.arange(21) < 6).to(torch.float64)[:, None]
lowpass = torch.istft(masked, 40, 10, window=window)
out(lowpass.shape, lowpass[:, 50:55])
z = spectra.detach().requires_grad_()
torch.istft(z, 40, 10, window=window).pow(2).sum().backward()
out(z.grad.shape, z.grad.dtype)
err(lambda: torch.stft(signals.float(), 40))
err(lambda: torch.stft(signals, 400, return_complex=True))
err(lambda: torch.stft(signals, 40, window=torch.ones(7), return_complex=True))
err(lambda: torch.istft(spectra.real, 40))
err(lambda: torch.istft(spectra, 30))
