# build a model on the meta device, then load real weights into it (the large-model recipe)
import os
import tempfile


class Block(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.fc = nn.Linear(dim, 2 * dim)
        self.proj = nn.Linear(2 * dim, dim)
        self.register_buffer("scale", torch.full((dim,), 0.5))

    def forward(self, x):
        return x + self.proj(F.gelu(self.fc(self.norm(x)))) * self.scale


torch.manual_seed(0)
trained = nn.Sequential(Block(4), Block(4), nn.Linear(4, 2))
path = os.path.join(tempfile.mkdtemp(), "model.pt")
torch.save(trained.state_dict(), path)

with torch.device("meta"):
    model = nn.Sequential(Block(4), Block(4), nn.Linear(4, 2))
    out(torch.get_default_device(), torch.ones(2).device, torch.tensor([1, 2]).device)
out(torch.get_default_device(), model[0].fc.weight.device, model[2].bias.is_meta)
out(model[0].fc.weight.shape, model[0].scale.dtype, model(torch.empty(3, 4, device="meta")).shape)
state = torch.load(path, mmap=True, weights_only=True)
model.load_state_dict(state, assign=True)
out(model[0].fc.weight.device, model[0].fc.weight.is_leaf, model[0].fc.weight.requires_grad)
x = torch.randn(3, 4)
out(torch.equal(model(x), trained(x)))
model(x).sum().backward()
out(model[0].proj.weight.grad.shape)
# ---
# set_default_device('meta') and nested device blocks, then to_empty and a re-initialisation
torch.manual_seed(0)
torch.set_default_device("meta")
lin = nn.Linear(3, 2)
with torch.device("cpu"):
    real = nn.Linear(3, 2)
    out(real.weight.device, torch.zeros(1).device)
out(lin.weight.device, torch.zeros(1).device, torch.get_default_device())
torch.set_default_device(None)
out(torch.zeros(1).device, torch.get_default_device())
lin = lin.to_empty(device="cpu")
with torch.no_grad():
    lin.weight.copy_(real.weight)
    lin.bias.zero_()
out(lin.weight.device, lin(torch.ones(1, 3)) - real(torch.ones(1, 3)) + real.bias)
