# Muon for the hidden weight matrices and AdamW for biases and the rest, as torch's docs advise
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 8), nn.ReLU(), nn.Linear(8, 3))
muon_params = [p for p in model.parameters() if p.ndim == 2]
other_params = [p for p in model.parameters() if p.ndim != 2]
optim_muon = torch.optim.Muon(muon_params, lr=0.02, momentum=0.95)
optim_adamw = torch.optim.AdamW(other_params, lr=3e-3, weight_decay=0.01)
x = torch.linspace(-2, 2, 60).reshape(10, 6)
target = torch.arange(10) % 3
losses = []
for _ in range(5):
    optim_muon.zero_grad()
    optim_adamw.zero_grad()
    loss = F.cross_entropy(model(x), target)
    loss.backward()
    optim_muon.step()
    optim_adamw.step()
    losses.append(round(loss.item(), 4))
print(losses)
out(model[0].weight, model[2].weight, optim_muon.state[model[0].weight]["momentum_buffer"])
print(optim_muon)
err(lambda: torch.optim.Muon(model.parameters()))
