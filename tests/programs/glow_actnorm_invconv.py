# Glow: ActNorm with data-dependent init, invertible 1x1 conv (slogdet and LU-parametrised), squeeze

logabs = lambda x: torch.log(torch.abs(x))


class ActNorm(nn.Module):
    def __init__(self, in_channel, logdet=True):
        super().__init__()
        self.loc = nn.Parameter(torch.zeros(1, in_channel, 1, 1))
        self.scale = nn.Parameter(torch.ones(1, in_channel, 1, 1))
        self.register_buffer("initialized", torch.tensor(0, dtype=torch.uint8))
        self.logdet = logdet

    def initialize(self, input):
        with torch.no_grad():
            flatten = input.permute(1, 0, 2, 3).contiguous().view(input.shape[1], -1)
            mean = flatten.mean(1).unsqueeze(1).unsqueeze(2).unsqueeze(3).permute(1, 0, 2, 3)
            std = flatten.std(1).unsqueeze(1).unsqueeze(2).unsqueeze(3).permute(1, 0, 2, 3)
            self.loc.data.copy_(-mean)
            self.scale.data.copy_(1 / (std + 1e-6))

    def forward(self, input):
        _, _, height, width = input.shape
        if self.initialized.item() == 0:
            self.initialize(input)
            self.initialized.fill_(1)
        log_abs = logabs(self.scale)
        logdet = height * width * torch.sum(log_abs)
        return self.scale * (input + self.loc), logdet

    def reverse(self, output):
        return output / self.scale - self.loc


class InvConv2d(nn.Module):
    def __init__(self, in_channel):
        super().__init__()
        weight = torch.randn(in_channel, in_channel)
        q, _ = torch.linalg.qr(weight)
        weight = q.unsqueeze(2).unsqueeze(3)
        self.weight = nn.Parameter(weight)

    def forward(self, input):
        _, _, height, width = input.shape
        out_ = F.conv2d(input, self.weight)
        logdet = height * width * torch.slogdet(self.weight.squeeze().double())[1].float()
        return out_, logdet

    def reverse(self, output):
        return F.conv2d(output, self.weight.squeeze().inverse().unsqueeze(2).unsqueeze(3))


class InvConv2dLU(nn.Module):
    def __init__(self, in_channel):
        super().__init__()
        weight = torch.randn(in_channel, in_channel)
        q, _ = torch.linalg.qr(weight)
        P, L, U = torch.linalg.lu(q)
        s = torch.diag(U)
        u = torch.triu(U, 1)
        u_mask = torch.triu(torch.ones_like(U), 1)
        l_mask = u_mask.T
        self.register_buffer("w_p", P)
        self.register_buffer("u_mask", u_mask)
        self.register_buffer("l_mask", l_mask)
        self.register_buffer("s_sign", torch.sign(s))
        self.register_buffer("l_eye", torch.eye(l_mask.shape[0]))
        self.w_l = nn.Parameter(L)
        self.w_s = nn.Parameter(logabs(s))
        self.w_u = nn.Parameter(u)

    def calc_weight(self):
        weight = (
            self.w_p
            @ (self.w_l * self.l_mask + self.l_eye)
            @ ((self.w_u * self.u_mask) + torch.diag(self.s_sign * torch.exp(self.w_s)))
        )
        return weight.unsqueeze(2).unsqueeze(3)

    def forward(self, input):
        _, _, height, width = input.shape
        weight = self.calc_weight()
        out_ = F.conv2d(input, weight)
        logdet = height * width * torch.sum(self.w_s)
        return out_, logdet

    def reverse(self, output):
        weight = self.calc_weight()
        return F.conv2d(output, weight.squeeze().inverse().unsqueeze(2).unsqueeze(3))


def squeeze2d(x):
    b, c, h, w = x.shape
    x = x.view(b, c, h // 2, 2, w // 2, 2).permute(0, 1, 3, 5, 2, 4).contiguous()
    return x.view(b, c * 4, h // 2, w // 2)


torch.manual_seed(0)
x = torch.randn(4, 2, 4, 4) * 3 + 1
z = squeeze2d(x)
print(z.shape)
an = ActNorm(8)
print(an.initialized, an.state_dict()["initialized"].dtype)
y, ld = an(z)
print(an.initialized, f"{ld.item():.5f}")
print(
    y.permute(1, 0, 2, 3).reshape(8, -1).mean(1).abs().max().item() < 1e-5,
    f"{y.permute(1, 0, 2, 3).reshape(8, -1).std(1).mean().item():.5f}",
)
y2, ld2 = an(z * 2)
print(torch.allclose(an.reverse(y2), z * 2, atol=1e-5))
conv = InvConv2d(8)
o, ld_conv = conv(y)
print(ld_conv.abs().item() < 1e-3, ld_conv.dtype, torch.allclose(conv.reverse(o), y, atol=1e-4))
lu = InvConv2dLU(8)
o2, ld_lu = lu(y)
w = lu.calc_weight().squeeze()
print(
    torch.allclose(torch.slogdet(w)[1] * 4, ld_lu, atol=1e-4),
    torch.allclose(lu.reverse(o2), y, atol=1e-4),
)
loss = -(ld + ld_lu) + 0.5 * o2.pow(2).sum()
loss.backward()
print(ld_lu.abs().item() < 1e-4)
out(o2, lu.w_s.grad, lu.w_u.grad, lu.w_l.grad, an.scale.grad)
sign, logabsdet = torch.linalg.slogdet(w)
print(sign, logabsdet.abs().item() < 1e-4)
LU, piv = torch.linalg.lu_factor(w)
print(piv.dtype, LU.shape)
out(torch.linalg.lu_solve(LU, piv, torch.eye(8)) @ w)
