# super resolution: sub-pixel convolution net, orthogonal init, PSNR, whole-model checkpoints
import io
import math
import sys
import types

init = torch.nn.init


class SRNet(nn.Module):
    def __init__(self, upscale_factor):
        super().__init__()
        self.relu = nn.ReLU()
        self.conv1 = nn.Conv2d(1, 8, (5, 5), (1, 1), (2, 2))
        self.conv2 = nn.Conv2d(8, 8, (3, 3), (1, 1), (1, 1))
        self.conv3 = nn.Conv2d(8, 4, (3, 3), (1, 1), (1, 1))
        self.conv4 = nn.Conv2d(4, upscale_factor**2, (3, 3), (1, 1), (1, 1))
        self.pixel_shuffle = nn.PixelShuffle(upscale_factor)
        self._initialize_weights()

    def forward(self, x):
        x = self.relu(self.conv1(x))
        x = self.relu(self.conv2(x))
        x = self.relu(self.conv3(x))
        return self.pixel_shuffle(self.conv4(x))

    def _initialize_weights(self):
        init.orthogonal_(self.conv1.weight, init.calculate_gain("relu"))
        init.orthogonal_(self.conv2.weight, init.calculate_gain("relu"))
        init.orthogonal_(self.conv3.weight, init.calculate_gain("relu"))
        init.orthogonal_(self.conv4.weight)


# pickling a whole model finds its class by module: give it an importable one, as a script has
sr_module = types.ModuleType("sr_model")
SRNet.__module__ = sr_module.__name__
sr_module.SRNet = SRNet
sys.modules["sr_model"] = sr_module

torch.manual_seed(123)
upscale = 2
model = SRNet(upscale_factor=upscale)
print(model)
criterion = nn.MSELoss()
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
target = torch.rand(6, 1, 8, 8)
inputs = F.avg_pool2d(target, upscale)
print(inputs.shape, model(inputs).shape)
dataset = torch.utils.data.TensorDataset(inputs, target)
loader = torch.utils.data.DataLoader(dataset, batch_size=2, shuffle=True)
for epoch in range(1, 4):
    epoch_loss = 0
    for _iteration, (lr_img, hr_img) in enumerate(loader, 1):
        optimizer.zero_grad()
        loss = criterion(model(lr_img), hr_img)
        epoch_loss += loss.item()
        loss.backward()
        optimizer.step()
    print(f"===> Epoch {epoch} Complete: Avg. Loss: {epoch_loss / len(loader):.4f}")
    avg_psnr = 0
    with torch.no_grad():
        for lr_img, hr_img in loader:
            mse = criterion(model(lr_img), hr_img)
            avg_psnr += 10 * math.log10(1 / mse.item())
    print(f"===> Avg. PSNR: {avg_psnr / len(loader):.4f} dB")

buffer = io.BytesIO()
torch.save(model, buffer)
buffer.seek(0)
err(lambda: torch.load(buffer))
buffer.seek(0)
with torch.serialization.safe_globals([SRNet, nn.Conv2d, nn.ReLU, nn.PixelShuffle]):
    restored = torch.load(buffer)
print(type(restored).__name__, restored.pixel_shuffle)
restored.eval()
with torch.no_grad():
    y = restored(inputs[:1]).clamp(0, 1)
print(y.shape, f"{y.mean().item():.4f}")
out(y, model(inputs[:1]), restored.conv4.weight)
del sys.modules["sr_model"]

# ---
# pixel shuffle and unshuffle: shapes, round trips, errors, channel order of depth-to-space
x = torch.arange(2 * 8 * 2 * 3, dtype=torch.float32).reshape(2, 8, 2, 3)
ps = nn.PixelShuffle(2)
y = ps(x)
print(y.shape, y[0, 0])
print(ps, nn.PixelUnshuffle(2), ps.upscale_factor)
print(torch.equal(nn.PixelUnshuffle(2)(y), x), torch.equal(F.pixel_unshuffle(y, 2), x))
z = torch.pixel_shuffle(x.double().requires_grad_(), 2)
z.pow(2).sum().backward()
out(z, y[1, 1], F.pixel_shuffle(x[0], 2))
err(lambda: F.pixel_shuffle(torch.zeros(1, 3, 2, 2), 2))
err(lambda: F.pixel_unshuffle(torch.zeros(1, 1, 3, 3), 2))
err(lambda: F.pixel_shuffle(torch.zeros(4, 2), 2))
print(
    torch.autograd.gradcheck(
        lambda t: F.pixel_shuffle(t, 2),
        torch.randn(1, 4, 2, 2, dtype=torch.double, requires_grad=True),
    )
)
