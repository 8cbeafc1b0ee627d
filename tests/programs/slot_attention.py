# Slot Attention: competitive attention (softmax over slots), GRUCell updates, soft positions
class SlotAttention(nn.Module):
    def __init__(self, num_slots, dim, iters=3, eps=1e-8, hidden_dim=32):
        super().__init__()
        self.num_slots, self.iters, self.eps = num_slots, iters, eps
        self.scale = dim**-0.5
        self.slots_mu = nn.Parameter(torch.randn(1, 1, dim))
        self.slots_logsigma = nn.Parameter(torch.zeros(1, 1, dim))
        nn.init.xavier_uniform_(self.slots_logsigma)
        self.to_q = nn.Linear(dim, dim)
        self.to_k = nn.Linear(dim, dim)
        self.to_v = nn.Linear(dim, dim)
        self.gru = nn.GRUCell(dim, dim)
        hidden_dim = max(dim, hidden_dim)
        self.mlp = nn.Sequential(
            nn.Linear(dim, hidden_dim), nn.ReLU(inplace=True), nn.Linear(hidden_dim, dim)
        )
        self.norm_input = nn.LayerNorm(dim)
        self.norm_slots = nn.LayerNorm(dim)
        self.norm_pre_ff = nn.LayerNorm(dim)

    def forward(self, inputs, num_slots=None):
        b, n, d = inputs.shape
        n_s = num_slots if num_slots is not None else self.num_slots
        mu = self.slots_mu.expand(b, n_s, -1)
        sigma = self.slots_logsigma.exp().expand(b, n_s, -1)
        slots = mu + sigma * torch.randn(mu.shape)
        inputs = self.norm_input(inputs)
        k, v = self.to_k(inputs), self.to_v(inputs)
        for _ in range(self.iters):
            slots_prev = slots
            slots = self.norm_slots(slots)
            q = self.to_q(slots)
            dots = torch.einsum("bid,bjd->bij", q, k) * self.scale
            attn = dots.softmax(dim=1) + self.eps
            attn = attn / attn.sum(dim=-1, keepdim=True)
            updates = torch.einsum("bjd,bij->bid", v, attn)
            slots = self.gru(updates.reshape(-1, d), slots_prev.reshape(-1, d))
            slots = slots.reshape(b, -1, d)
            slots = slots + self.mlp(self.norm_pre_ff(slots))
        return slots, attn


def build_grid(resolution):
    ranges = [np.linspace(0.0, 1.0, num=res) for res in resolution]
    grid = np.meshgrid(*ranges, sparse=False, indexing="ij")
    grid = np.stack(grid, axis=-1)
    grid = np.reshape(grid, [resolution[0], resolution[1], -1])
    grid = np.expand_dims(grid, axis=0).astype(np.float32)
    return torch.from_numpy(np.concatenate([grid, 1.0 - grid], axis=-1))


class SoftPositionEmbed(nn.Module):
    def __init__(self, hidden_size, resolution):
        super().__init__()
        self.embedding = nn.Linear(4, hidden_size, bias=True)
        self.register_buffer("grid", build_grid(resolution))

    def forward(self, inputs):
        return inputs + self.embedding(self.grid)


torch.manual_seed(0)
encoder = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 16, 3, padding=1))
pos = SoftPositionEmbed(16, (4, 4))
slot_attn = SlotAttention(num_slots=3, dim=16)
print(pos.grid.shape, pos.grid.dtype, pos.grid[0, 1, 2])
img = torch.rand(2, 3, 4, 4)
feats = encoder(img).permute(0, 2, 3, 1)
feats = pos(feats).flatten(1, 2)
slots, attn = slot_attn(feats)
print(slots.shape, attn.shape, torch.allclose(attn.sum(-1), torch.ones(2, 3)))
decoder = nn.Linear(16, 4 * 4 * 4)
recons, masks = decoder(slots).view(2, 3, 16, 4).split([3, 1], dim=-1)
masks = masks.softmax(dim=1)
recon = (recons * masks).sum(dim=1).view(2, 4, 4, 3).permute(0, 3, 1, 2)
loss = F.mse_loss(recon, img)
loss.backward()
print(f"loss {loss.item():.6f} mu grad {slot_attn.slots_mu.grad.norm().item():.6f}")
out(slots, attn, recon, slot_attn.gru.weight_hh.grad)
slots5, _ = slot_attn(feats.detach(), num_slots=5)
print(slots5.shape)
