# CycleGAN pieces: reflection padding, instance norm, residual generator, PatchGAN, replay buffer
import itertools
import random


class ResidualBlock(nn.Module):
    def __init__(self, in_features):
        super().__init__()
        self.block = nn.Sequential(
            nn.ReflectionPad2d(1),
            nn.Conv2d(in_features, in_features, 3),
            nn.InstanceNorm2d(in_features),
            nn.ReLU(inplace=True),
            nn.ReflectionPad2d(1),
            nn.Conv2d(in_features, in_features, 3),
            nn.InstanceNorm2d(in_features),
        )

    def forward(self, x):
        return x + self.block(x)


class GeneratorResNet(nn.Module):
    def __init__(self, channels=3, num_residual_blocks=2):
        super().__init__()
        out_features = 8
        model = [
            nn.ReflectionPad2d(channels),
            nn.Conv2d(channels, out_features, 7),
            nn.InstanceNorm2d(out_features),
            nn.ReLU(inplace=True),
        ]
        in_features = out_features
        out_features *= 2
        model += [
            nn.Conv2d(in_features, out_features, 3, stride=2, padding=1),
            nn.InstanceNorm2d(out_features),
            nn.ReLU(inplace=True),
        ]
        in_features = out_features
        for _ in range(num_residual_blocks):
            model += [ResidualBlock(out_features)]
        out_features //= 2
        model += [
            nn.Upsample(scale_factor=2),
            nn.Conv2d(in_features, out_features, 3, stride=1, padding=1),
            nn.InstanceNorm2d(out_features),
            nn.ReLU(inplace=True),
        ]
        model += [nn.ReflectionPad2d(channels), nn.Conv2d(out_features, channels, 7), nn.Tanh()]
        self.model = nn.Sequential(*model)

    def forward(self, x):
        return self.model(x)


class Discriminator(nn.Module):
    def __init__(self, input_shape):
        super().__init__()
        channels, height, width = input_shape
        self.output_shape = (1, height // 2**2, width // 2**2)

        def discriminator_block(in_filters, out_filters, normalize=True):
            layers = [nn.Conv2d(in_filters, out_filters, 4, stride=2, padding=1)]
            if normalize:
                layers.append(nn.InstanceNorm2d(out_filters))
            layers.append(nn.LeakyReLU(0.2, inplace=True))
            return layers

        self.model = nn.Sequential(
            *discriminator_block(channels, 8, normalize=False),
            *discriminator_block(8, 16),
            nn.ZeroPad2d((1, 0, 1, 0)),
            nn.Conv2d(16, 1, 4, padding=1),
        )

    def forward(self, img):
        return self.model(img)


def weights_init_normal(m):
    classname = m.__class__.__name__
    if classname.find("Conv") != -1:
        torch.nn.init.normal_(m.weight.data, 0.0, 0.02)
        if hasattr(m, "bias") and m.bias is not None:
            torch.nn.init.constant_(m.bias.data, 0.0)
    elif classname.find("BatchNorm2d") != -1:
        torch.nn.init.normal_(m.weight.data, 1.0, 0.02)
        torch.nn.init.constant_(m.bias.data, 0.0)


G_AB = GeneratorResNet()
G_BA = GeneratorResNet()
D_A = Discriminator((3, 16, 16))
for m in (G_AB, G_BA, D_A):
    m.apply(weights_init_normal)
optimizer_G = torch.optim.Adam(
    itertools.chain(G_AB.parameters(), G_BA.parameters()), lr=0.0002, betas=(0.5, 0.999)
)
optimizer_D_A = torch.optim.Adam(D_A.parameters(), lr=0.0002, betas=(0.5, 0.999))
lambda_lr = lambda epoch: 1.0 - max(0, epoch + 0 - 1) / float(3 - 1)
lr_scheduler_G = torch.optim.lr_scheduler.LambdaLR(optimizer_G, lr_lambda=lambda_lr)
criterion_GAN = torch.nn.MSELoss()
criterion_cycle = torch.nn.L1Loss()
criterion_identity = torch.nn.L1Loss()


class ReplayBuffer:
    def __init__(self, max_size=4):
        self.max_size = max_size
        self.data = []

    def push_and_pop(self, data):
        to_return = []
        for element in data.data:
            element = torch.unsqueeze(element, 0)
            if len(self.data) < self.max_size:
                self.data.append(element)
                to_return.append(element)
            else:
                if random.uniform(0, 1) > 0.5:
                    i = random.randint(0, self.max_size - 1)
                    to_return.append(self.data[i].clone())
                    self.data[i] = element
                else:
                    to_return.append(element)
        return torch.autograd.Variable(torch.cat(to_return))


random.seed(0)
buf = ReplayBuffer()
real_A = torch.randn(2, 3, 16, 16)
real_B = torch.randn(2, 3, 16, 16)
valid = torch.ones((real_A.size(0), *D_A.output_shape), requires_grad=False)
fake = torch.zeros((real_A.size(0), *D_A.output_shape), requires_grad=False)
for epoch in range(3):
    G_AB.train()
    G_BA.train()
    optimizer_G.zero_grad()
    loss_identity = criterion_identity(G_BA(real_A), real_A)
    fake_B = G_AB(real_A)
    loss_GAN = criterion_GAN(D_A(fake_B), valid)
    recov_A = G_BA(fake_B)
    loss_cycle = criterion_cycle(recov_A, real_A)
    loss_G = loss_GAN + 10.0 * loss_cycle + 5.0 * loss_identity
    loss_G.backward()
    optimizer_G.step()
    optimizer_D_A.zero_grad()
    fake_A_ = buf.push_and_pop(fake_B)
    loss_D = (criterion_GAN(D_A(real_B), valid) + criterion_GAN(D_A(fake_A_.detach()), fake)) / 2
    loss_D.backward()
    optimizer_D_A.step()
    lr_scheduler_G.step()
    print(
        f"[Epoch {epoch}] [D loss: {loss_D.item():.4f}] [G loss: {loss_G.item():.4f}, "
        f"adv: {loss_GAN.item():.4f}, cycle: {loss_cycle.item():.4f}]",
        lr_scheduler_G.get_last_lr(),
    )
print(D_A)
out(fake_B[0, 0, 0, :4], D_A.model[2].weight.grad.abs().sum())
