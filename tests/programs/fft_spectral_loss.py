# a spectral loss: a small network learns to match the magnitude spectrum of its targets
model = nn.Sequential(nn.Linear(16, 32), nn.Tanh(), nn.Linear(32, 16))
with torch.no_grad():
    for p in model.parameters():
        p.copy_(torch.linspace(-0.5, 0.5, p.numel()).reshape(p.shape))
grid = np.outer(np.arange(4) + 1, np.arange(16)) * 0.3
x = torch.tensor(np.sin(grid), dtype=torch.float32)
target = torch.tensor(np.cos(grid) * 0.5, dtype=torch.float32)


def spectral_loss(prediction, target):
    pred_spec = torch.fft.rfft(prediction, norm="ortho")
    target_spec = torch.fft.rfft(target, norm="ortho")
    magnitude = (pred_spec.abs() - target_spec.abs()).pow(2).mean()
    phase = F.l1_loss(torch.view_as_real(pred_spec), torch.view_as_real(target_spec))
    return magnitude + 0.1 * phase


optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
for step in range(4):
    optimizer.zero_grad()
    loss = spectral_loss(model(x), target)
    loss.backward()
    optimizer.step()
    print(f"step {step}: spectral loss {loss.item():.6f}")
out(loss, model[0].weight.grad, model[2].bias)


# ---
# a multi-resolution loss mixing time- and frequency-domain terms with real and imaginary parts
signal = torch.tensor(np.sin(np.arange(32) * 0.4), dtype=torch.float32)
estimate = torch.zeros(32, requires_grad=True)
optimizer = torch.optim.SGD([estimate], lr=0.2, momentum=0.5)
for step in range(6):
    optimizer.zero_grad()
    loss = F.mse_loss(estimate, signal)
    for size in (8, 16):
        frames = estimate.reshape(-1, size)
        reference = signal.reshape(-1, size)
        spec, ref = torch.fft.fft(frames), torch.fft.fft(reference)
        loss = loss + (spec.real - ref.real).pow(2).mean() + (spec.imag - ref.imag).abs().mean()
    loss.backward()
    optimizer.step()
    print(f"step {step}: {loss.item():.5f}")
out(estimate, estimate.grad)
