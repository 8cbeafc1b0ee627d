# spatial transformer: a localization net predicting theta, affine_grid and grid_sample
# float64: the grid gradient sums many products and float32 sums differ in the last bits
torch.set_default_dtype(torch.float64)


class STN(nn.Module):
    def __init__(self):
        super().__init__()
        self.localization = nn.Sequential(
            nn.Conv2d(1, 4, kernel_size=3), nn.MaxPool2d(2, stride=2), nn.ReLU(True)
        )
        self.fc_loc = nn.Sequential(nn.Linear(4 * 3 * 3, 8), nn.ReLU(True), nn.Linear(8, 3 * 2))
        self.classifier = nn.Linear(64, 3)

    def stn(self, x):
        xs = self.localization(x)
        xs = xs.view(-1, 4 * 3 * 3)
        theta = self.fc_loc(xs)
        theta = theta.view(-1, 2, 3)
        grid = F.affine_grid(theta, x.size(), align_corners=False)
        return F.grid_sample(x, grid, align_corners=False), theta

    def forward(self, x):
        x, theta = self.stn(x)
        return F.log_softmax(self.classifier(x.flatten(1)), dim=1), theta


rng = np.random.default_rng(0)
model = STN()
with torch.no_grad():
    for p in model.parameters():
        p.copy_(torch.tensor(rng.uniform(-0.3, 0.3, tuple(p.shape))))
    # start from the identity transformation, as the tutorial does
    model.fc_loc[2].weight.data.mul_(0.1)
    model.fc_loc[2].bias.data.copy_(torch.tensor([1, 0, 0, 0, 1, 0]))
images = torch.tensor(rng.standard_normal((4, 1, 8, 8)))
labels = torch.tensor([0, 1, 2, 1])
optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
for step in range(3):
    optimizer.zero_grad()
    output, theta = model(images)
    loss = F.nll_loss(output, labels)
    loss.backward()
    optimizer.step()
    out(step, loss, theta[0])
out(model.fc_loc[2].bias.grad, model.localization[0].weight.grad)
# ---
# affine_grid and grid_sample: modes, padding, align_corners and gradients to input and grid
torch.set_default_dtype(torch.float64)
x = torch.arange(32.0).view(1, 2, 4, 4).requires_grad_()
theta = torch.tensor([[[0.9, -0.2, 0.1], [0.3, 1.1, -0.2]]], requires_grad=True)
for align_corners in (False, True):
    grid = F.affine_grid(theta, (1, 2, 3, 5), align_corners=align_corners)
    out(align_corners, grid)
    for mode in ("bilinear", "nearest", "bicubic"):
        for padding_mode in ("zeros", "border", "reflection"):
            y = F.grid_sample(
                x, grid, mode=mode, padding_mode=padding_mode, align_corners=align_corners
            )
            gx, gt = torch.autograd.grad((y * y).sum(), (x, theta))
            out(mode, padding_mode, y, gx, gt)
