# EfficientNet MBConv: SiLU, squeeze-excitation, drop-connect (stochastic depth), compound scaling
import math


def round_filters(filters, width_coefficient, depth_divisor=8):
    filters *= width_coefficient
    new_filters = max(
        depth_divisor, int(filters + depth_divisor / 2) // depth_divisor * depth_divisor
    )
    if new_filters < 0.9 * filters:
        new_filters += depth_divisor
    return int(new_filters)


def round_repeats(repeats, depth_coefficient):
    return int(math.ceil(depth_coefficient * repeats))


def drop_connect(inputs, p, training):
    if not training:
        return inputs
    batch_size = inputs.shape[0]
    keep_prob = 1 - p
    random_tensor = keep_prob
    random_tensor += torch.rand([batch_size, 1, 1, 1], dtype=inputs.dtype, device=inputs.device)
    binary_tensor = torch.floor(random_tensor)
    return inputs / keep_prob * binary_tensor


class SqueezeExcitation(nn.Module):
    def __init__(self, input_channels, squeeze_channels):
        super().__init__()
        self.avgpool = nn.AdaptiveAvgPool2d(1)
        self.fc1 = nn.Conv2d(input_channels, squeeze_channels, 1)
        self.fc2 = nn.Conv2d(squeeze_channels, input_channels, 1)
        self.activation = nn.SiLU()
        self.scale_activation = nn.Sigmoid()

    def forward(self, x):
        scale = self.scale_activation(self.fc2(self.activation(self.fc1(self.avgpool(x)))))
        return scale * x


class MBConv(nn.Module):
    def __init__(self, cin, cout, expand, kernel, stride, se_ratio=0.25, drop_rate=0.2):
        super().__init__()
        hidden = cin * expand
        self.use_res = stride == 1 and cin == cout
        self.drop_rate = drop_rate
        self.expand = nn.Sequential(
            nn.Conv2d(cin, hidden, 1, bias=False),
            nn.BatchNorm2d(hidden, momentum=0.01, eps=1e-3),
            nn.SiLU(),
        )
        self.dw = nn.Sequential(
            nn.Conv2d(hidden, hidden, kernel, stride, kernel // 2, groups=hidden, bias=False),
            nn.BatchNorm2d(hidden, momentum=0.01, eps=1e-3),
            nn.SiLU(inplace=True),
        )
        self.se = SqueezeExcitation(hidden, max(1, int(cin * se_ratio)))
        self.project = nn.Sequential(
            nn.Conv2d(hidden, cout, 1, bias=False), nn.BatchNorm2d(cout, momentum=0.01, eps=1e-3)
        )

    def forward(self, x):
        out_ = self.project(self.se(self.dw(self.expand(x))))
        if self.use_res:
            out_ = drop_connect(out_, self.drop_rate, self.training) + x
        return out_


print(
    [round_filters(f, 1.1) for f in (32, 16, 24, 40, 80, 112, 192, 320)],
    [round_repeats(r, 1.2) for r in (1, 2, 2, 3)],
)
torch.manual_seed(0)
x = torch.randn(8, 4, 6, 6)
print(drop_connect(torch.ones(8, 1, 1, 1), 0.5, True).flatten())
block = MBConv(4, 4, expand=4, kernel=3, stride=1)
block2 = MBConv(4, 8, expand=6, kernel=5, stride=2)
print(block.se, block.use_res, block2.use_res)
opt = torch.optim.RMSprop(
    list(block.parameters()) + list(block2.parameters()), lr=1e-3, alpha=0.9, eps=1e-3, momentum=0.9
)
for step in range(2):
    h = block2(block(x))
    loss = h.pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} loss {loss.item():.6f}")
out(h, block.se.fc1.weight.grad, block.expand[1].running_var)
block.eval()
block2.eval()
with torch.no_grad():
    y = block2(block(x))
print(y.shape, f"{y.mean().item():.6f}")
out(y)
print(
    F.silu(torch.tensor([-1.0, 0.0, 2.0])),
    nn.Hardswish()(torch.tensor([-4.0, 0.5, 4.0])),
    F.hardsigmoid(torch.tensor([-4.0, 0.5, 4.0])),
)
