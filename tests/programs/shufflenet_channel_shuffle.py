# ShuffleNetV2: channel shuffle by view/transpose, channel split, and nn.ChannelShuffle
def channel_shuffle(x, groups):
    batchsize, num_channels, height, width = x.size()
    channels_per_group = num_channels // groups
    x = x.view(batchsize, groups, channels_per_group, height, width)
    x = torch.transpose(x, 1, 2).contiguous()
    x = x.view(batchsize, -1, height, width)
    return x


class InvertedResidual(nn.Module):
    def __init__(self, inp, oup, stride):
        super().__init__()
        self.stride = stride
        branch_features = oup // 2
        if self.stride > 1:
            self.branch1 = nn.Sequential(
                self.depthwise_conv(inp, inp, kernel_size=3, stride=self.stride, padding=1),
                nn.BatchNorm2d(inp),
                nn.Conv2d(inp, branch_features, kernel_size=1, stride=1, padding=0, bias=False),
                nn.BatchNorm2d(branch_features),
                nn.ReLU(inplace=True),
            )
        else:
            self.branch1 = nn.Sequential()
        self.branch2 = nn.Sequential(
            nn.Conv2d(
                inp if (self.stride > 1) else branch_features, branch_features, 1, bias=False
            ),
            nn.BatchNorm2d(branch_features),
            nn.ReLU(inplace=True),
            self.depthwise_conv(
                branch_features, branch_features, kernel_size=3, stride=self.stride, padding=1
            ),
            nn.BatchNorm2d(branch_features),
            nn.Conv2d(branch_features, branch_features, 1, bias=False),
            nn.BatchNorm2d(branch_features),
            nn.ReLU(inplace=True),
        )

    @staticmethod
    def depthwise_conv(i, o, kernel_size, stride=1, padding=0, bias=False):
        return nn.Conv2d(i, o, kernel_size, stride, padding, bias=bias, groups=i)

    def forward(self, x):
        if self.stride == 1:
            x1, x2 = x.chunk(2, dim=1)
            out_ = torch.cat((x1, self.branch2(x2)), dim=1)
        else:
            out_ = torch.cat((self.branch1(x), self.branch2(x)), dim=1)
        return channel_shuffle(out_, 2)


x = torch.arange(12.0).view(1, 6, 1, 2)
print(channel_shuffle(x, 3).flatten().tolist())
print(channel_shuffle(x, 2)[0, :, 0, 0])
cs = nn.ChannelShuffle(3)
print(cs, torch.equal(cs(x), channel_shuffle(x, 3)))
print(torch.equal(F.channel_shuffle(x, 2), channel_shuffle(x, 2)))
out(cs(x), F.pixel_shuffle(torch.arange(16.0).view(1, 4, 2, 2), 2))

torch.manual_seed(0)
net = nn.Sequential(
    InvertedResidual(8, 16, 2),
    InvertedResidual(16, 16, 1),
    nn.AdaptiveAvgPool2d((1, 1)),
    nn.Flatten(),
    nn.Linear(16, 3),
)
print(len(net[1].branch1), net[0].branch1[0])
inp = torch.randn(2, 8, 8, 8, requires_grad=True)
y = net(inp)
print(y.shape)
y.logsumexp(-1).sum().backward()
out(y, inp.grad, net[0].branch1[0].weight.grad)
print(f"{inp.grad.norm().item():.6f}")
net.eval()
with torch.no_grad():
    y_eval = net(inp)
print(y_eval.requires_grad)
out(y_eval)
