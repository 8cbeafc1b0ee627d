# Temporal convolutional network: causal dilated Conv1d with Chomp1d, weight_norm, residual blocks
torch.manual_seed(0)
weight_norm = nn.utils.parametrizations.weight_norm


class Chomp1d(nn.Module):
    def __init__(self, chomp_size):
        super().__init__()
        self.chomp_size = chomp_size

    def forward(self, x):
        return x[:, :, : -self.chomp_size].contiguous()


class TemporalBlock(nn.Module):
    def __init__(self, n_inputs, n_outputs, kernel_size, stride, dilation, padding, dropout=0.2):
        super().__init__()
        self.conv1 = weight_norm(
            nn.Conv1d(
                n_inputs, n_outputs, kernel_size, stride=stride, padding=padding, dilation=dilation
            )
        )
        self.chomp1 = Chomp1d(padding)
        self.relu1 = nn.ReLU()
        self.dropout1 = nn.Dropout(dropout)
        self.conv2 = weight_norm(
            nn.Conv1d(
                n_outputs, n_outputs, kernel_size, stride=stride, padding=padding, dilation=dilation
            )
        )
        self.chomp2 = Chomp1d(padding)
        self.net = nn.Sequential(
            self.conv1, self.chomp1, self.relu1, self.dropout1, self.conv2, self.chomp2, nn.ReLU()
        )
        self.downsample = nn.Conv1d(n_inputs, n_outputs, 1) if n_inputs != n_outputs else None
        self.relu = nn.ReLU()

    def forward(self, x):
        out = self.net(x)
        res = x if self.downsample is None else self.downsample(x)
        return self.relu(out + res)


class TemporalConvNet(nn.Module):
    def __init__(self, num_inputs, num_channels, kernel_size=2, dropout=0.2):
        super().__init__()
        layers = []
        for i in range(len(num_channels)):
            dilation_size = 2**i
            in_channels = num_inputs if i == 0 else num_channels[i - 1]
            layers += [
                TemporalBlock(
                    in_channels,
                    num_channels[i],
                    kernel_size,
                    stride=1,
                    dilation=dilation_size,
                    padding=(kernel_size - 1) * dilation_size,
                    dropout=dropout,
                )
            ]
        self.network = nn.Sequential(*layers)

    def forward(self, x):
        return self.network(x)


tcn = TemporalConvNet(2, [4, 4, 3], kernel_size=3)
print(tcn.network[0].conv1)
print(sorted(n for n, _ in tcn.network[0].conv1.named_parameters()))
x = torch.randn(2, 2, 16, requires_grad=True)
tcn.eval()
y = tcn(x)
print(y.shape)
# causality: the output at t depends only on inputs up to t
g = torch.autograd.grad(y[0, :, 5].sum(), x)[0]
print((g[0, :, 6:] == 0).all().item(), (g[0, :, :6] != 0).any().item())
receptive = 1 + 2 * (3 - 1) * sum(2**i for i in range(3))
print("receptive field", receptive)
tcn.train()
opt = torch.optim.Adam(tcn.parameters(), lr=2e-3)
target = torch.randn(2, 3, 16)
for _ in range(3):
    loss = F.mse_loss(tcn(x), target)
    opt.zero_grad()
    loss.backward()
    opt.step()
out(y, g, loss)
# ---
# Causal padding by F.pad, WaveNet gated activations with dilations and skip connections
torch.manual_seed(0)


class CausalConv1d(nn.Conv1d):
    def __init__(self, in_ch, out_ch, kernel_size, dilation=1):
        super().__init__(in_ch, out_ch, kernel_size, dilation=dilation)
        self.left = (kernel_size - 1) * dilation

    def forward(self, x):
        return super().forward(F.pad(x, (self.left, 0)))


class GatedResidual(nn.Module):
    def __init__(self, ch, dilation):
        super().__init__()
        self.filter = CausalConv1d(ch, ch, 2, dilation)
        self.gate = CausalConv1d(ch, ch, 2, dilation)
        self.res = nn.Conv1d(ch, ch, 1)
        self.skip = nn.Conv1d(ch, ch, 1)

    def forward(self, x):
        h = torch.tanh(self.filter(x)) * torch.sigmoid(self.gate(x))
        return x + self.res(h), self.skip(h)


blocks = nn.ModuleList([GatedResidual(4, d) for d in (1, 2, 4, 8)])
x = torch.randn(1, 4, 20)
skips = 0
h = x
for blk in blocks:
    h, s = blk(h)
    skips = skips + s
logits = nn.Conv1d(4, 8, 1)(F.relu(skips))
print(logits.shape, logits.grad_fn.name(), blocks[0].filter)
print(F.cross_entropy(logits, torch.randint(0, 8, (1, 20))).item() > 0)
out(logits)
