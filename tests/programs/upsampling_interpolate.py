# upsampling decoder: F.interpolate modes inside a small segmentation-style network
rng = np.random.default_rng(0)
x = torch.tensor(rng.standard_normal((2, 3, 4, 4)), dtype=torch.float32, requires_grad=True)
for mode, kwargs in [
    ("nearest", {}),
    ("bilinear", {"align_corners": False}),
    ("bilinear", {"align_corners": True}),
    ("bicubic", {"align_corners": False}),
    ("nearest-exact", {}),
    ("area", {}),
]:
    y = F.interpolate(x, scale_factor=2, mode=mode, **kwargs)
    g = torch.autograd.grad((y * y).sum(), x)[0]
    out(mode, kwargs, y, g)
out(F.interpolate(x, size=(3, 5), mode="bilinear", align_corners=False))
out(F.interpolate(x[:, :, 0], scale_factor=1.5, mode="linear"))
out(F.interpolate(x.unsqueeze(2), size=(2, 6, 6), mode="trilinear"))
err(lambda: F.interpolate(x, scale_factor=2, mode="linear"))
err(lambda: F.interpolate(x, mode="nearest"))


# ---
# a tiny U-Net-like model: downsample, upsample with nn.Upsample and interpolate, skip concat
class TinyUNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Conv2d(1, 4, 3, padding=1)
        self.down = nn.MaxPool2d(2)
        self.mid = nn.Conv2d(4, 4, 3, padding=1)
        self.up = nn.Upsample(scale_factor=2, mode="bilinear", align_corners=False)
        self.dec = nn.Conv2d(8, 2, 1)

    def forward(self, x):
        e = F.relu(self.enc(x))
        m = F.relu(self.mid(self.down(e)))
        u = self.up(m)
        logits = self.dec(torch.cat([u, e], dim=1))
        return F.interpolate(logits, size=x.shape[-2:], mode="nearest")


model = TinyUNet()
rng = np.random.default_rng(1)
with torch.no_grad():
    for p in model.parameters():
        p.copy_(torch.tensor(rng.uniform(-0.5, 0.5, tuple(p.shape))))
print(model)
images = torch.tensor(rng.standard_normal((2, 1, 6, 6)), dtype=torch.float32)
masks = torch.tensor(rng.integers(0, 2, (2, 6, 6)))
optimizer = torch.optim.SGD(model.parameters(), lr=0.2, momentum=0.5)
for step in range(3):
    optimizer.zero_grad()
    logits = model(images)
    loss = F.cross_entropy(logits, masks)
    loss.backward()
    optimizer.step()
    pixel_acc = (logits.argmax(1) == masks).float().mean()
    out(step, loss, pixel_acc)
out(model.enc.weight.grad, model.dec.bias)
out(F.pixel_shuffle(torch.arange(16.0).view(1, 4, 2, 2), 2))
# ---
# deprecated spellings older code still uses: F.upsample*, set_default_tensor_type,
# torch.testing.assert_allclose, torch.utils.hooks.RemovableHandle
x = torch.arange(8.0).reshape(1, 2, 2, 2).requires_grad_()
ups = [
    F.upsample(x, scale_factor=2),
    F.upsample(x, size=3, mode="bilinear", align_corners=False),
    F.upsample_bilinear(x, size=3),
    F.upsample_nearest(x, scale_factor=1.5),
]
sum(u.sum() for u in ups).backward()
out(*ups, x.grad)
torch.set_default_tensor_type(torch.DoubleTensor)
out(torch.tensor([1.5]).dtype, torch.zeros(2).dtype, nn.Linear(2, 2).weight.dtype)
torch.set_default_tensor_type("torch.FloatTensor")
out(torch.zeros(1).dtype)
err(lambda: torch.set_default_tensor_type(torch.LongTensor))
err(lambda: torch.set_default_tensor_type("torch.cuda.FloatTensor"))
torch.testing.assert_allclose(torch.tensor([1.0, 2.0]), [1.0, 2.00001])
torch.testing.assert_allclose(torch.tensor([1.0, float("nan")]), torch.tensor([1.0, float("nan")]))
err(lambda: torch.testing.assert_allclose(torch.tensor([1.0, 2.0]), [1.0, 2.1]))
handle = nn.Linear(2, 2).register_forward_hook(lambda *args: None)
out(isinstance(handle, torch.utils.hooks.RemovableHandle))
handle.remove()
