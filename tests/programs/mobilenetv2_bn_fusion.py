# MobileNetV2 inverted residuals: depthwise conv, ReLU6, _make_divisible, conv-BN inference fusion
def _make_divisible(v, divisor, min_value=None):
    if min_value is None:
        min_value = divisor
    new_v = max(min_value, int(v + divisor / 2) // divisor * divisor)
    if new_v < 0.9 * v:
        new_v += divisor
    return new_v


class ConvBNReLU(nn.Sequential):
    def __init__(self, in_planes, out_planes, kernel_size=3, stride=1, groups=1):
        padding = (kernel_size - 1) // 2
        super().__init__(
            nn.Conv2d(
                in_planes, out_planes, kernel_size, stride, padding, groups=groups, bias=False
            ),
            nn.BatchNorm2d(out_planes),
            nn.ReLU6(inplace=True),
        )


class InvertedResidual(nn.Module):
    def __init__(self, inp, oup, stride, expand_ratio):
        super().__init__()
        self.stride = stride
        hidden_dim = int(round(inp * expand_ratio))
        self.use_res_connect = self.stride == 1 and inp == oup
        layers = []
        if expand_ratio != 1:
            layers.append(ConvBNReLU(inp, hidden_dim, kernel_size=1))
        layers.extend(
            [
                ConvBNReLU(hidden_dim, hidden_dim, stride=stride, groups=hidden_dim),
                nn.Conv2d(hidden_dim, oup, 1, 1, 0, bias=False),
                nn.BatchNorm2d(oup),
            ]
        )
        self.conv = nn.Sequential(*layers)

    def forward(self, x):
        if self.use_res_connect:
            return x + self.conv(x)
        return self.conv(x)


print([_make_divisible(c * 0.75, 8) for c in (32, 16, 24, 96, 160, 1280)])
torch.manual_seed(0)
setting = [[1, 8, 1, 1], [6, 12, 2, 2], [6, 16, 1, 1]]
input_channel = _make_divisible(16 * 1.0, 8)
features = [ConvBNReLU(3, input_channel, stride=2)]
for t, c, n, s in setting:
    output_channel = _make_divisible(c * 1.0, 8)
    for i in range(n):
        features.append(
            InvertedResidual(input_channel, output_channel, s if i == 0 else 1, expand_ratio=t)
        )
        input_channel = output_channel
model = nn.Sequential(
    *features, nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Dropout(0.2), nn.Linear(input_channel, 4)
)
for m in model.modules():
    if isinstance(m, nn.Conv2d):
        nn.init.kaiming_normal_(m.weight, mode="fan_out")
    elif isinstance(m, nn.BatchNorm2d):
        nn.init.ones_(m.weight)
        nn.init.zeros_(m.bias)
    elif isinstance(m, nn.Linear):
        nn.init.normal_(m.weight, 0, 0.01)
        nn.init.zeros_(m.bias)
print(model[2])
print(sum(p.numel() for p in model.parameters()), [type(m).__name__ for m in model[3].conv])
x = torch.randn(4, 3, 16, 16)
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9, nesterov=True, weight_decay=4e-5)
for i in range(3):
    loss = F.cross_entropy(model(x), torch.tensor([0, 1, 2, 3]))
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"{i} {loss.item():.5f}")
bn = model[0][1]
print(bn.num_batches_tracked, bn.running_mean[:3])


def fuse_conv_bn_eval(conv, bn):
    fused = nn.Conv2d(
        conv.in_channels,
        conv.out_channels,
        conv.kernel_size,
        conv.stride,
        conv.padding,
        groups=conv.groups,
        bias=True,
    )
    w_conv = conv.weight.clone().view(conv.out_channels, -1)
    w_bn = torch.diag(bn.weight.div(torch.sqrt(bn.eps + bn.running_var)))
    fused.weight.data.copy_(torch.mm(w_bn, w_conv).view(fused.weight.size()))
    b_conv = conv.bias if conv.bias is not None else torch.zeros(conv.weight.size(0))
    b_bn = bn.bias - bn.weight.mul(bn.running_mean).div(torch.sqrt(bn.running_var + bn.eps))
    fused.bias.data.copy_(torch.matmul(w_bn, b_conv) + b_bn)
    return fused


model.eval()
with torch.no_grad():
    ref = model(x)
    block = model[0]
    fused = fuse_conv_bn_eval(block[0], block[1])
    a = block(x)
    b = F.relu6(fused(x))
print(torch.allclose(a, b, atol=1e-5), fused.weight.requires_grad, fused.bias.shape)
w2, b2 = torch.nn.utils.fusion.fuse_conv_bn_weights(
    block[0].weight,
    block[0].bias,
    block[1].running_mean,
    block[1].running_var,
    block[1].eps,
    block[1].weight,
    block[1].bias,
)
print(
    type(w2).__name__,
    torch.allclose(w2, fused.weight, atol=1e-6),
    torch.allclose(b2, fused.bias, atol=1e-6),
)
fused2 = torch.nn.utils.fusion.fuse_conv_bn_eval(block[0], block[1])
print(fused2)
out(ref, a, fused.weight, w2)
