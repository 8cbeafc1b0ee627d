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
# ---
# layers built with device='meta', and the ops a meta tensor cannot answer
import copy

model = nn.Sequential(nn.Linear(4, 8, device="meta"), nn.LayerNorm(8, device="meta"))
lstm = nn.LSTM(4, 6, device="meta")
out({name: p.device for name, p in model.named_parameters()}, lstm.weight_hh_l0.is_meta)
out(model.state_dict()["0.weight"].device, nn.Conv2d(3, 4, 3, device="meta").bias.device)
x = torch.empty(2, 4, device="meta")
y = model(x)
out(y.shape, y.device, y.argmax(1).device, y.new_zeros(3).device, y.new_tensor([1.0]).device)
out(lstm(torch.empty(5, 2, 4, device="meta"))[0].shape)
ensemble = copy.deepcopy(nn.Linear(3, 2)).to("meta")
out(ensemble.weight.device, ensemble.weight.requires_grad)
err(lambda: y.nonzero())
err(lambda: y[y > 0])
err(lambda: y.masked_select(y > 0))
err(lambda: torch.unique(y))
err(lambda: torch.equal(y, y))
err(lambda: torch.allclose(y, y))
err(lambda: y.cpu())
err(lambda: torch.zeros(2, 8).copy_(y))
err(lambda: y.sum().item())
err(lambda: nn.Linear(2, 2, device="cuda"))
# ---
# a model moved to meta by mistake, called with CPU data: torch's device error, message and all
model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1)).to("meta")
x = torch.ones(2, 3)
for fn in (
    lambda: model(x),
    lambda: torch.ones(3, device="meta") + torch.ones(3),
    lambda: torch.ones(3) * torch.ones(3, device="meta"),
    lambda: torch.cat([torch.ones(2, device="meta"), torch.ones(2)]),
):
    try:
        fn()
    except RuntimeError as e:
        print(e)
m = torch.ones(3, device="meta")
# a 0-d CPU tensor counts as a number, and CPU indices index meta tensors
out(
    (m + torch.tensor(2.0)).device,
    m[torch.tensor([0, 2])].shape,
    m.index_select(0, torch.tensor([1])).shape,
)
w = torch.ones(3, 2, device="meta", requires_grad=True)
(torch.ones(4, 3, device="meta") @ w).relu().sum().backward()
out(w.grad.device, w.grad.shape)
