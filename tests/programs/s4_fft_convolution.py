# S4D/SSM convolution: a diagonal SSM's kernel via Vandermonde, applied with rfft/irfft(n=2L)
import math


class S4DKernel(nn.Module):
    def __init__(self, d_model, N=8, dt_min=0.001, dt_max=0.1):
        super().__init__()
        H = d_model
        log_dt = torch.rand(H) * (math.log(dt_max) - math.log(dt_min)) + math.log(dt_min)
        C = torch.randn(H, N // 2, dtype=torch.cfloat)
        self.C = nn.Parameter(torch.view_as_real(C))
        self.register_buffer("log_dt", log_dt)
        log_A_real = torch.log(0.5 * torch.ones(H, N // 2))
        A_imag = math.pi * torch.arange(N // 2).repeat(H, 1)
        self.log_A_real = nn.Parameter(log_A_real)
        self.A_imag = nn.Parameter(A_imag)

    def forward(self, L):
        dt = torch.exp(self.log_dt)
        C = torch.view_as_complex(self.C)
        A = -torch.exp(self.log_A_real) + 1j * self.A_imag
        dtA = A * dt.unsqueeze(-1)
        K = dtA.unsqueeze(-1) * torch.arange(L, device=A.device)
        C = C * (torch.exp(dtA) - 1.0) / A
        K = 2 * torch.einsum("hn, hnl -> hl", C, torch.exp(K)).real
        return K


class S4D(nn.Module):
    def __init__(self, d_model, d_state=8):
        super().__init__()
        self.h = d_model
        self.D = nn.Parameter(torch.randn(self.h))
        self.kernel = S4DKernel(self.h, N=d_state)
        self.activation = nn.GELU()
        self.output_linear = nn.Sequential(
            nn.Conv1d(self.h, 2 * self.h, kernel_size=1), nn.GLU(dim=-2)
        )

    def forward(self, u):
        L = u.size(-1)
        k = self.kernel(L=L)
        k_f = torch.fft.rfft(k, n=2 * L)
        u_f = torch.fft.rfft(u, n=2 * L)
        y = torch.fft.irfft(u_f * k_f, n=2 * L)[..., :L]
        y = y + u * self.D.unsqueeze(-1)
        y = self.activation(y)
        return self.output_linear(y), k


torch.manual_seed(0)
layer = S4D(4)
print([(n, tuple(p.shape), p.dtype) for n, p in layer.named_parameters()])
u = torch.randn(3, 4, 10)
y, k = layer(u)
print(y.shape, k.shape, k.dtype)
print(f"kernel[0,:4] {[round(v, 4) for v in k[0, :4].tolist()]}")
y.pow(2).sum().backward()
out(y, k, layer.kernel.C.grad, layer.kernel.log_A_real.grad, layer.kernel.A_imag.grad, layer.D.grad)

# check the FFT convolution against a direct causal convolution
direct = torch.zeros(3, 4, 10)
for t in range(10):
    direct[..., t] = (u[..., : t + 1].flip(-1) * k[:, : t + 1].detach()).sum(-1)
fft_conv = torch.fft.irfft(torch.fft.rfft(u, n=20) * torch.fft.rfft(k.detach(), n=20), n=20)[
    ..., :10
]
print(torch.allclose(direct, fft_conv, atol=1e-5), (direct - fft_conv).abs().max().item() < 1e-5)
out(fft_conv)

# odd lengths and the norm= modes
v = torch.randn(2, 7)
for norm in (None, "ortho", "forward", "backward"):
    spec = torch.fft.rfft(v, n=9, norm=norm)
    back = torch.fft.irfft(spec, n=9, norm=norm)
    print(norm, spec.shape, back.shape, back[:, :7].sub(v).abs().max().item() < 1e-5)
    out(spec, back)
print(torch.fft.rfftfreq(8), torch.fft.fftfreq(5, d=0.5))
