# U-Net with ConvTranspose2d, skip concatenation, center crop and Dice + BCE loss
torch.manual_seed(0)


def block(i, o):
    return nn.Sequential(
        nn.Conv2d(i, o, 3, padding=1, bias=False),
        nn.BatchNorm2d(o),
        nn.ReLU(inplace=True),
        nn.Conv2d(o, o, 3, padding=1),
        nn.ReLU(inplace=True),
    )


class UNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.d1, self.d2 = block(1, 4), block(4, 8)
        self.pool = nn.MaxPool2d(2)
        self.bott = block(8, 16)
        self.u2 = nn.ConvTranspose2d(16, 8, 2, stride=2)
        self.c2 = block(16, 8)
        self.u1 = nn.ConvTranspose2d(8, 4, kernel_size=2, stride=2)
        self.c1 = block(8, 4)
        self.head = nn.Conv2d(4, 1, 1)

    def forward(self, x):
        s1 = self.d1(x)
        s2 = self.d2(self.pool(s1))
        b = self.bott(self.pool(s2))
        u = self.u2(b)
        if u.shape[-2:] != s2.shape[-2:]:
            u = F.interpolate(u, size=s2.shape[-2:], mode="nearest")
        x = self.c2(torch.cat([u, s2], dim=1))
        x = self.u1(x)
        dy, dx = s1.size(2) - x.size(2), s1.size(3) - x.size(3)
        x = F.pad(x, [dx // 2, dx - dx // 2, dy // 2, dy - dy // 2])
        return self.head(self.c1(torch.cat((s1, x), 1)))


def dice_loss(logits, target, eps=1.0):
    p = torch.sigmoid(logits)
    num = 2 * (p * target).sum(dim=(2, 3)) + eps
    den = p.sum(dim=(2, 3)) + target.sum(dim=(2, 3)) + eps
    return 1 - (num / den).mean()


net = UNet()
x = torch.randn(2, 1, 10, 10)
y = (torch.rand(2, 1, 10, 10) > 0.5).float()
opt = torch.optim.Adam(net.parameters(), lr=1e-3, betas=(0.9, 0.99), eps=1e-7, amsgrad=True)
for i in range(3):
    opt.zero_grad()
    logits = net(x)
    loss = F.binary_cross_entropy_with_logits(
        logits, y, pos_weight=torch.tensor([2.0])
    ) + dice_loss(logits, y)
    loss.backward()
    opt.step()
    print(f"{i}: {loss.item():.5f}")
pred = (torch.sigmoid(logits) > 0.5).float()
iou = (pred * y).sum() / ((pred + y) > 0).float().sum()
out(logits[0, 0, :2], iou, net.u1.weight.grad.abs().sum(), net.d1[1].running_var)
print(
    logits.shape,
    net.u2,
    net.u2.weight.shape,
    F.conv_transpose2d(
        torch.ones(1, 2, 3, 3), torch.ones(2, 1, 3, 3), stride=2, padding=1, output_padding=1
    ).shape,
)
