# a vanilla GAN: MLP generator and discriminator, weights_init by class name, BCE with labels
def weights_init(m):
    classname = m.__class__.__name__
    if classname.find("Linear") != -1:
        nn.init.normal_(m.weight.data, 0.0, 0.02)
        if m.bias is not None:
            nn.init.constant_(m.bias.data, 0)
    elif classname.find("BatchNorm") != -1:
        nn.init.normal_(m.weight.data, 1.0, 0.02)
        nn.init.constant_(m.bias.data, 0)


class Generator(nn.Module):
    def __init__(self, nz, ngf, out_dim):
        super().__init__()
        self.main = nn.Sequential(
            nn.Linear(nz, ngf, bias=False),  # BatchNorm cancels a bias
            nn.BatchNorm1d(ngf),
            nn.LeakyReLU(0.2, inplace=True),
            nn.Linear(ngf, out_dim),
            nn.Tanh(),
        )

    def forward(self, input):
        return self.main(input)


class Discriminator(nn.Module):
    def __init__(self, in_dim, ndf):
        super().__init__()
        self.main = nn.Sequential(
            nn.Linear(in_dim, ndf),
            nn.LeakyReLU(0.2, inplace=True),
            nn.Dropout(0.3),
            nn.Linear(ndf, 1),
            nn.Sigmoid(),
        )

    def forward(self, input):
        return self.main(input).view(-1, 1).squeeze(1)


torch.manual_seed(999)
nz, batch_size = 4, 8
netG, netD = Generator(nz, 16, 6), Discriminator(6, 16)
netG.apply(weights_init)
netD.apply(weights_init)
print(netG)
criterion = nn.BCELoss()
fixed_noise = torch.randn(4, nz)
real_label, fake_label = 1.0, 0.0
optimizerD = torch.optim.Adam(netD.parameters(), lr=2e-3, betas=(0.5, 0.999))
optimizerG = torch.optim.Adam(netG.parameters(), lr=2e-3, betas=(0.5, 0.999))
real_data = torch.cat([torch.randn(32, 3) * 0.3 + 1.0, torch.randn(32, 3) * 0.3 - 1.0], 1).tanh()
G_losses, D_losses = [], []
for epoch in range(2):
    for i in range(0, real_data.size(0), batch_size):
        netD.zero_grad()
        real_cpu = real_data[i : i + batch_size]
        b_size = real_cpu.size(0)
        label = torch.full((b_size,), real_label, dtype=torch.float)
        output = netD(real_cpu).view(-1)
        errD_real = criterion(output, label)
        errD_real.backward()
        D_x = output.mean().item()
        noise = torch.randn(b_size, nz)
        fake = netG(noise)
        label.fill_(fake_label)
        output = netD(fake.detach()).view(-1)
        errD_fake = criterion(output, label)
        errD_fake.backward()
        D_G_z1 = output.mean().item()
        errD = errD_real + errD_fake
        optimizerD.step()
        netG.zero_grad()
        label.fill_(real_label)
        output = netD(fake).view(-1)
        errG = criterion(output, label)
        errG.backward()
        D_G_z2 = output.mean().item()
        optimizerG.step()
        G_losses.append(errG.item())
        D_losses.append(errD.item())
    print(
        "[%d/%d]\tLoss_D: %.4f\tLoss_G: %.4f\tD(x): %.4f\tD(G(z)): %.4f / %.4f"  # noqa: UP031
        % (epoch, 2, errD.item(), errG.item(), D_x, D_G_z1, D_G_z2)
    )
with torch.no_grad():
    fake = netG.eval()(fixed_noise).detach().cpu()
print(fake.shape, [f"{v:.4f}" for v in G_losses[-3:]])
out(fake, netD.main[0].weight, netG.main[1].running_var, label)

# ---
# fast neural style checkpoints: stale running_* keys of InstanceNorm dropped with a regex
import re


class ConvLayer(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride):
        super().__init__()
        self.reflection_pad = nn.ReflectionPad2d(kernel_size // 2)
        self.conv2d = nn.Conv2d(in_channels, out_channels, kernel_size, stride)

    def forward(self, x):
        return self.conv2d(self.reflection_pad(x))


class TinyTransformerNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = ConvLayer(3, 4, kernel_size=3, stride=1)
        self.in1 = nn.InstanceNorm2d(4, affine=True)
        self.conv2 = ConvLayer(4, 3, kernel_size=3, stride=1)
        self.relu = nn.ReLU()

    def forward(self, X):
        return self.conv2(self.relu(self.in1(self.conv1(X))))


old = TinyTransformerNet()
state_dict = old.state_dict()
state_dict["in1.running_mean"] = torch.zeros(4)
state_dict["in1.running_var"] = torch.ones(4)
print(sorted(state_dict))
model = TinyTransformerNet()
err(lambda: model.load_state_dict(state_dict))
for k in list(state_dict.keys()):
    if re.search(r"in\d+\.running_(mean|var)$", k):
        del state_dict[k]
print(model.load_state_dict(state_dict))
x = torch.rand(1, 3, 6, 6) * 255
with torch.no_grad():
    y = model(x).clamp(0, 255)
img = y[0].clone().clamp(0, 255).numpy()
img = img.transpose(1, 2, 0).astype("uint8")
print(img.shape, img.dtype, y.shape)


def gram_matrix(y):
    (b, ch, h, w) = y.size()
    features = y.view(b, ch, w * h)
    features_t = features.transpose(1, 2)
    return features.bmm(features_t) / (ch * h * w)


mean = torch.tensor([0.485, 0.456, 0.406]).view(-1, 1, 1)
std = torch.tensor([0.229, 0.224, 0.225]).view(-1, 1, 1)
batch = x.div_(255.0)
normed = (batch - mean) / std
out(gram_matrix(normed), y, torch.equal(model.in1.weight, old.in1.weight))
