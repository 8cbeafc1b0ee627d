# Fourier neural operator (FNO-2d): complex spectral weights, rfft2, complex einsum, irfft2(s=)
class SpectralConv2d(nn.Module):
    def __init__(self, in_channels, out_channels, modes1, modes2):
        super().__init__()
        self.in_channels, self.out_channels = in_channels, out_channels
        self.modes1, self.modes2 = modes1, modes2
        self.scale = 1 / (in_channels * out_channels)
        self.weights1 = nn.Parameter(
            self.scale
            * torch.rand(in_channels, out_channels, self.modes1, self.modes2, dtype=torch.cfloat)
        )
        self.weights2 = nn.Parameter(
            self.scale
            * torch.rand(in_channels, out_channels, self.modes1, self.modes2, dtype=torch.cfloat)
        )

    def compl_mul2d(self, input, weights):
        return torch.einsum("bixy,ioxy->boxy", input, weights)

    def forward(self, x):
        batchsize = x.shape[0]
        x_ft = torch.fft.rfft2(x)
        out_ft = torch.zeros(
            batchsize,
            self.out_channels,
            x.size(-2),
            x.size(-1) // 2 + 1,
            dtype=torch.cfloat,
            device=x.device,
        )
        out_ft[:, :, : self.modes1, : self.modes2] = self.compl_mul2d(
            x_ft[:, :, : self.modes1, : self.modes2], self.weights1
        )
        out_ft[:, :, -self.modes1 :, : self.modes2] = self.compl_mul2d(
            x_ft[:, :, -self.modes1 :, : self.modes2], self.weights2
        )
        return torch.fft.irfft2(out_ft, s=(x.size(-2), x.size(-1)))


class FNO2d(nn.Module):
    def __init__(self, modes1=3, modes2=3, width=6):
        super().__init__()
        self.padding = 2
        self.fc0 = nn.Linear(3, width)
        self.conv0 = SpectralConv2d(width, width, modes1, modes2)
        self.conv1 = SpectralConv2d(width, width, modes1, modes2)
        self.w0 = nn.Conv2d(width, width, 1)
        self.w1 = nn.Conv2d(width, width, 1)
        self.fc1 = nn.Linear(width, 16)
        self.fc2 = nn.Linear(16, 1)

    def get_grid(self, shape, device):
        batchsize, size_x, size_y = shape[0], shape[1], shape[2]
        gridx = torch.tensor(np.linspace(0, 1, size_x), dtype=torch.float)
        gridx = gridx.reshape(1, size_x, 1, 1).repeat([batchsize, 1, size_y, 1])
        gridy = torch.tensor(np.linspace(0, 1, size_y), dtype=torch.float)
        gridy = gridy.reshape(1, 1, size_y, 1).repeat([batchsize, size_x, 1, 1])
        return torch.cat((gridx, gridy), dim=-1).to(device)

    def forward(self, x):
        grid = self.get_grid(x.shape, x.device)
        x = torch.cat((x, grid), dim=-1)
        x = self.fc0(x)
        x = x.permute(0, 3, 1, 2)
        x = F.pad(x, [0, self.padding, 0, self.padding])
        x = F.gelu(self.conv0(x) + self.w0(x))
        x = self.conv1(x) + self.w1(x)
        x = x[..., : -self.padding, : -self.padding]
        x = x.permute(0, 2, 3, 1)
        return self.fc2(F.gelu(self.fc1(x)))


class LpLoss:
    def __init__(self, p=2, size_average=True):
        self.p, self.size_average = p, size_average

    def rel(self, x, y):
        num_examples = x.size()[0]
        diff_norms = torch.norm(
            x.reshape(num_examples, -1) - y.reshape(num_examples, -1), self.p, 1
        )
        y_norms = torch.norm(y.reshape(num_examples, -1), self.p, 1)
        return (
            torch.mean(diff_norms / y_norms)
            if self.size_average
            else torch.sum(diff_norms / y_norms)
        )

    def __call__(self, x, y):
        return self.rel(x, y)


torch.manual_seed(0)
model = FNO2d()
print([(n, p.dtype) for n, p in model.named_parameters() if p.is_complex()])
n_params = sum(p.numel() * (2 if p.is_complex() else 1) for p in model.parameters())
print(f"real parameters: {n_params}")
a = torch.rand(3, 8, 8, 1)
u = torch.sin(2 * torch.pi * a) + a**2
opt = torch.optim.Adam(model.parameters(), lr=5e-3, weight_decay=1e-4)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
lp = LpLoss()
for ep in range(4):
    opt.zero_grad()
    pred = model(a)
    loss = lp(pred.view(3, -1), u.view(3, -1))
    loss.backward()
    opt.step()
    sched.step()
    print(f"ep {ep} rel L2 {loss.item():.5f} lr {sched.get_last_lr()[0]:.5f}")
out(pred, model.conv0.weights1.grad, model.conv1.weights2)
x_ft = torch.fft.rfft2(a.permute(0, 3, 1, 2))
print(x_ft.shape, x_ft.dtype, torch.fft.irfft2(x_ft, s=(8, 8)).shape, torch.fft.irfft2(x_ft).shape)
out(torch.fft.fftshift(torch.fft.fftfreq(6)), torch.fft.ifftshift(torch.arange(6)))
