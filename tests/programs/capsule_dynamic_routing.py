# Capsule network head: squash, primary capsules from conv, routing-by-agreement, margin loss
torch.manual_seed(0)


def squash(s, dim=-1, eps=1e-8):
    squared_norm = (s**2).sum(dim=dim, keepdim=True)
    return squared_norm / (1 + squared_norm) * s / torch.sqrt(squared_norm + eps)


class PrimaryCaps(nn.Module):
    def __init__(self, in_ch=4, caps_dim=4, n_maps=2):
        super().__init__()
        self.caps_dim = caps_dim
        self.conv = nn.Conv2d(in_ch, caps_dim * n_maps, kernel_size=3, stride=2)

    def forward(self, x):
        out = self.conv(x)
        b = out.size(0)
        out = out.view(b, -1, self.caps_dim, out.size(-2), out.size(-1)).permute(0, 1, 3, 4, 2)
        return squash(out.reshape(b, -1, self.caps_dim))


class DigitCaps(nn.Module):
    def __init__(self, in_caps, in_dim=4, n_caps=3, out_dim=6, iterations=3):
        super().__init__()
        self.iterations = iterations
        self.W = nn.Parameter(0.01 * torch.randn(1, in_caps, n_caps, out_dim, in_dim))

    def forward(self, u):
        u_hat = torch.einsum("bicdk,bik->bicd", self.W.expand(u.size(0), -1, -1, -1, -1), u)
        u_hat_detached = u_hat.detach()
        b_ij = torch.zeros(u.size(0), u_hat.size(1), u_hat.size(2))
        for r in range(self.iterations):
            c_ij = F.softmax(b_ij, dim=2)
            if r == self.iterations - 1:
                s_j = (c_ij.unsqueeze(-1) * u_hat).sum(dim=1)
                v_j = squash(s_j)
            else:
                s_j = (c_ij.unsqueeze(-1) * u_hat_detached).sum(dim=1)
                v_j = squash(s_j)
                b_ij = b_ij + torch.einsum("bicd,bcd->bic", u_hat_detached, v_j)
        return v_j, c_ij


def margin_loss(v, labels, m_pos=0.9, m_neg=0.1, lam=0.5):
    lengths = v.norm(dim=-1)
    T = F.one_hot(labels, v.size(1)).float()
    loss = T * F.relu(m_pos - lengths) ** 2 + lam * (1 - T) * F.relu(lengths - m_neg) ** 2
    return loss.sum(dim=1).mean()


stem = nn.Sequential(nn.Conv2d(1, 4, 3), nn.ReLU())
primary = PrimaryCaps()
x = torch.randn(2, 1, 9, 9)
u = primary(stem(x))
print(u.shape, u.norm(dim=-1).max() < 1)
digit = DigitCaps(in_caps=u.size(1))
v, c = digit(u)
labels = torch.tensor([1, 2])
loss = margin_loss(v, labels)
loss.backward()
print(v.shape, c.sum(2).allclose(torch.ones(2, u.size(1))), f"{loss.item():.6f}")
print(digit.W.grad.shape, primary.conv.weight.grad.abs().sum() > 0)
print(squash(torch.tensor([[3.0, 4.0]])), squash(torch.zeros(1, 2)))
out(v, c, loss, digit.W.grad.sum((0, 1)))
