# low-pass filtering a two-tone signal in the frequency domain
n = 64
t = torch.arange(n, dtype=torch.float32) / n
signal = torch.sin(2 * np.pi * 3 * t) + 0.5 * torch.sin(2 * np.pi * 20 * t)
spectrum = torch.fft.rfft(signal)
freqs = torch.fft.rfftfreq(n, d=1 / n)
keep = (freqs < 10).to(spectrum.dtype)
filtered = torch.fft.irfft(spectrum * keep, n=n)
out(spectrum.abs()[[0, 3, 20]], freqs, filtered, spectrum.dtype, filtered.dtype)
print(f"energy kept: {filtered.pow(2).sum() / signal.pow(2).sum():.4f}")
print(f"peak bins: {spectrum.abs().topk(2).indices.tolist()}")


# ---
# learning a frequency response: the gradient of a loss w.r.t. a learnable filter
n = 32
t = torch.arange(n, dtype=torch.float32)
clean = torch.sin(2 * np.pi * 2 * t / n)
noisy = clean + 0.3 * torch.cos(2 * np.pi * 11 * t / n)
response = torch.ones(n // 2 + 1, requires_grad=True)
optimizer = torch.optim.SGD([response], lr=0.5)
for step in range(5):
    optimizer.zero_grad()
    estimate = torch.fft.irfft(torch.fft.rfft(noisy) * response, n=n)
    loss = F.mse_loss(estimate, clean)
    loss.backward()
    optimizer.step()
    print(f"step {step}: loss {loss.item():.6f}")
out(response, response.grad, estimate)
print(f"gain at the noise frequency: {response[11].item():.4f}")


# ---
# a complex-valued filter built from real parameters with torch.complex
x = torch.tensor(np.cos(np.arange(16) * 0.7), dtype=torch.float32)
target = torch.tensor(np.sin(np.arange(16) * 0.7), dtype=torch.float32)
re = torch.zeros(9, requires_grad=True)
im = torch.zeros(9, requires_grad=True)
for _ in range(3):
    weights = torch.complex(re, im) + 1
    y = torch.fft.irfft(torch.fft.rfft(x) * weights, n=16)
    loss = (y - target).pow(2).mean()
    grad_re, grad_im = torch.autograd.grad(loss, (re, im))
    with torch.no_grad():
        re -= 2.0 * grad_re
        im -= 2.0 * grad_im
out(re, im, loss, weights.dtype, type(weights.grad_fn).__name__)
print(f"loss {loss.item():.6f}")


# ---
# the 2-D spectrum of an image: fftshift centres the zero frequency
window = np.outer(np.hanning(8), np.hanning(8))
image = torch.tensor(window, dtype=torch.float32, requires_grad=True)
spectrum = torch.fft.fftshift(torch.fft.fft2(image, norm="ortho"))
power = spectrum.abs() ** 2
low = power[3:6, 3:6].sum()
low.backward()
out(power, image.grad, torch.fft.fftfreq(8), torch.fft.ifftshift(torch.fft.fftshift(power)))
print(f"low-frequency share: {(low / power.sum()).item():.4f}")


# ---
# round trips: every inverse undoes its transform, for each normalisation
x = torch.tensor(np.linspace(-1, 1, 24).reshape(4, 6), dtype=torch.float64)
for norm in ("backward", "ortho", "forward"):
    back = [
        torch.fft.ifft(torch.fft.fft(x, norm=norm), norm=norm).real,
        torch.fft.ifft2(torch.fft.fft2(x, norm=norm), norm=norm).real,
        torch.fft.irfft(torch.fft.rfft(x, norm=norm), n=6, norm=norm),
        torch.fft.irfftn(torch.fft.rfftn(x, norm=norm), s=(4, 6), norm=norm),
        torch.fft.hfft(torch.fft.ihfft(x, norm=norm), n=6, norm=norm),
    ]
    print(norm, [bool((b - x).abs().max() < 1e-12) for b in back])
out(torch.fft.fft(x, n=8, dim=0).abs(), torch.fft.rfft2(x, s=(3, 5)).abs())


# ---
# errors torch raises for bad transform arguments
err(lambda: torch.fft.rfft(torch.ones(4, dtype=torch.complex64)))
err(lambda: torch.fft.fft(torch.ones(4), norm="sideways"))
err(lambda: torch.fft.fft(torch.ones(4), n=0))
err(lambda: torch.fft.fftn(torch.ones(2, 3), dim=(0, 0)))
err(lambda: torch.fft.fft(torch.ones(2, 3), dim=2))
err(lambda: torch.fft.fft(torch.ones(3, dtype=torch.float16)))
# ---
# Hermitian transforms in two dimensions: ihfft2 of a real image, hfft2 back, with gradients
rng = np.random.default_rng(6)
image = torch.tensor(rng.normal(size=(4, 6)), requires_grad=True)
half = torch.fft.ihfft2(image)
back = torch.fft.hfft2(half, s=(4, 6))
out(half.shape, half.dtype, half.grad_fn.name(), back.grad_fn.name())
out((back - image).abs().max() < 1e-12)
spectrum = torch.fft.ihfftn(image, norm="ortho")
weights = torch.tensor(rng.uniform(0, 1, tuple(spectrum.shape)))
smoothed = torch.fft.hfftn(spectrum * weights, s=(4, 6), norm="ortho")
smoothed.pow(2).sum().backward()
out(smoothed, image.grad)
z = torch.tensor(rng.normal(size=(3, 4)) + 1j * rng.normal(size=(3, 4)), requires_grad=True)
real = torch.fft.hfftn(z, dim=(0, 1))
real.sum().backward()
out(real.shape, z.grad)
