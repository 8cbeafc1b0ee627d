# DCGAN: ConvTranspose2d generator, strided-conv discriminator, BCE, detach, two Adams
nz, ngf, ndf, nc = 4, 4, 4, 1
rng = np.random.default_rng(0)


def weights_init(m):
    classname = m.__class__.__name__
    if classname.find("Conv") != -1:
        m.weight.data.copy_(torch.tensor(rng.normal(0.0, 0.2, tuple(m.weight.shape))))
    elif classname.find("BatchNorm") != -1:
        m.weight.data.copy_(torch.tensor(rng.normal(1.0, 0.2, tuple(m.weight.shape))))
        nn.init.constant_(m.bias.data, 0)


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.main = nn.Sequential(
            nn.ConvTranspose2d(nz, ngf * 2, 4, 1, 0, bias=False),
            nn.BatchNorm2d(ngf * 2),
            nn.ReLU(True),
            nn.ConvTranspose2d(ngf * 2, ngf, 4, 2, 1, bias=False),
            nn.BatchNorm2d(ngf),
            nn.ReLU(True),
            nn.ConvTranspose2d(ngf, nc, 4, 2, 1, bias=False),
            nn.Tanh(),
        )

    def forward(self, input):
        return self.main(input)


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.main = nn.Sequential(
            nn.Conv2d(nc, ndf, 4, 2, 1, bias=False),
            nn.LeakyReLU(0.2, inplace=True),
            nn.Conv2d(ndf, ndf * 2, 4, 2, 1, bias=False),
            nn.BatchNorm2d(ndf * 2),
            nn.LeakyReLU(0.2, inplace=True),
            nn.Conv2d(ndf * 2, 1, 4, 1, 0, bias=False),
            nn.Sigmoid(),
        )

    def forward(self, input):
        return self.main(input).view(-1, 1).squeeze(1)


netG = Generator()
netG.apply(weights_init)
netD = Discriminator()
netD.apply(weights_init)
print(netG)
print(netD)

criterion = nn.BCELoss()
fixed_noise = torch.tensor(rng.standard_normal((3, nz, 1, 1)), dtype=torch.float32)
real_label, fake_label = 1.0, 0.0
optimizerD = torch.optim.Adam(netD.parameters(), lr=0.002, betas=(0.5, 0.999))
optimizerG = torch.optim.Adam(netG.parameters(), lr=0.002, betas=(0.5, 0.999))
dataset = torch.tensor(rng.uniform(-1, 1, (8, nc, 16, 16)), dtype=torch.float32)
dataloader = torch.utils.data.DataLoader(dataset, batch_size=4)

for epoch in range(2):
    for i, data in enumerate(dataloader):
        # (1) update D: maximize log(D(x)) + log(1 - D(G(z)))
        netD.zero_grad()
        real_cpu = data
        batch_size = real_cpu.size(0)
        label = torch.full((batch_size,), real_label, dtype=real_cpu.dtype)
        output = netD(real_cpu)
        errD_real = criterion(output, label)
        errD_real.backward()
        D_x = output.mean().item()

        noise = torch.tensor(rng.standard_normal((batch_size, nz, 1, 1)), dtype=torch.float32)
        fake = netG(noise)
        label.fill_(fake_label)
        output = netD(fake.detach())
        errD_fake = criterion(output, label)
        errD_fake.backward()
        D_G_z1 = output.mean().item()
        errD = errD_real + errD_fake
        optimizerD.step()

        # (2) update G: maximize log(D(G(z)))
        netG.zero_grad()
        label.fill_(real_label)
        output = netD(fake)
        errG = criterion(output, label)
        errG.backward()
        D_G_z2 = output.mean().item()
        optimizerG.step()
        print(
            f"[{epoch}][{i}] Loss_D: {errD.item():.4f} Loss_G: {errG.item():.4f} "
            f"D(x): {D_x:.4f} D(G(z)): {D_G_z1:.4f} / {D_G_z2:.4f}"
        )
        out(errD, errG, fake.grad_fn is not None)

out(netD.main[3].running_mean, netD.main[3].running_var, netD.main[3].num_batches_tracked)
out(netG.main[0].weight.grad, netD.main[0].weight.grad)
netG.eval()
with torch.no_grad():
    out(netG(fixed_noise))
