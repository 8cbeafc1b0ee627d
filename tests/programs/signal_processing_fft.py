# FFT convolution vs conv1d, windowed stft/istft round trip, Hilbert envelope, FIR low-pass filter
torch.manual_seed(0)
n = 128
t = torch.arange(n) / 64.0
x = torch.sin(2 * torch.pi * 5 * t) + 0.5 * torch.sin(2 * torch.pi * 20 * t) + 0.1 * torch.randn(n)
h = torch.hann_window(9, periodic=False)
h = h / h.sum()
direct = F.conv1d(x[None, None], h.flip(0)[None, None], padding=8)[0, 0]
L = n + h.numel() - 1
fft_conv = torch.fft.irfft(torch.fft.rfft(x, L) * torch.fft.rfft(h, L), L)
print(f"fft vs direct max diff {(direct - fft_conv).abs().max().item() < 1e-5}")
win = torch.hann_window(32)
S = torch.stft(x, n_fft=32, hop_length=8, window=win, return_complex=True)
print(S.shape, S.dtype)
mag = S.abs()
print(f"peak bins {mag.mean(1).topk(2).indices.tolist()}")
x_rec = torch.istft(S, n_fft=32, hop_length=8, window=win, length=n)
print(f"istft error {(x - x_rec).abs().max().item() < 1e-5}")
X = torch.fft.fft(x)
hfilt = torch.zeros(n)
hfilt[0] = 1
hfilt[1 : n // 2] = 2
hfilt[n // 2] = 1
analytic = torch.fft.ifft(X * hfilt)
envelope = analytic.abs()
phase = torch.angle(analytic)
print(
    f"envelope mean {envelope.mean().item():.4f}, "
    f"real part matches {torch.allclose(analytic.real, x, atol=1e-5)}"
)
taps = 21
fc = 0.1
k = torch.arange(taps) - (taps - 1) / 2
sinc = torch.sinc(2 * fc * k) * 2 * fc
fir = sinc * torch.hamming_window(taps, periodic=False)
fir = fir / fir.sum()
low = F.conv1d(
    F.pad(x[None, None], (taps // 2, taps // 2), mode="reflect"), fir.flip(0)[None, None]
)[0, 0]
freqs = torch.fft.rfftfreq(n, d=1 / 64)
spec_in = torch.fft.rfft(x).abs()
spec_out = torch.fft.rfft(low).abs()
print(f"20 Hz attenuation {(spec_out[freqs == 20] / spec_in[freqs == 20]).item():.4f}")
out(direct[:10], mag[:4, :3], x_rec[:8], envelope[:6], phase[:6], fir, low[:6], freqs[:5])
# ---
# window functions, periodogram with Welch averaging, autocorrelation via FFT, fftshift/fftfreq
torch.manual_seed(2)
sig = torch.randn(256) + torch.cos(torch.arange(256) * 0.4)
for name, w in [
    ("hann", torch.hann_window(64)),
    ("hamming", torch.hamming_window(64)),
    ("blackman", torch.blackman_window(64)),
    ("bartlett", torch.bartlett_window(64)),
    ("kaiser", torch.kaiser_window(64, periodic=True, beta=8.0)),
    ("gaussian", torch.signal.windows.gaussian(64, std=10.0)),
]:
    segs = sig.unfold(0, 64, 32)
    P = (torch.fft.rfft(segs * w, dim=-1).abs() ** 2).mean(0) / (w**2).sum()
    print(f"{name:9s} peak bin {int(P.argmax())} power {P.max().item():.4f}")
f = torch.fft.fftfreq(8, d=0.5)
print(f, torch.fft.fftshift(f), torch.fft.ifftshift(torch.fft.fftshift(f)))
xc = sig - sig.mean()
spec = torch.fft.rfft(xc, n=512)
acf = torch.fft.irfft(spec * spec.conj(), n=512)[:10]
acf = acf / acf[0]
print([round(v, 4) for v in acf.tolist()])
X2 = torch.fft.fft2(torch.arange(12.0).reshape(3, 4))
print(X2, torch.fft.ifft2(X2).real)
out(
    acf,
    X2,
    torch.fft.rfftn(torch.ones(2, 3, 4), dim=(1, 2)),
    torch.fft.hfft(torch.tensor([1.0, 2.0, 0.5])),
)
