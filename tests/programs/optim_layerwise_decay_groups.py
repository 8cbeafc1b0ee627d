# Weight-decay groups: no decay for biases/norms/embeddings (minGPT), layer-wise lr decay (BEiT)
from dataclasses import dataclass

torch.manual_seed(0)


@dataclass
class Config:
    n_layer: int = 3
    n_embd: int = 8
    vocab_size: int = 11
    weight_decay: float = 0.1
    learning_rate: float = 3e-3
    layer_decay: float = 0.75
    betas: tuple = (0.9, 0.95)


class Block(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.ln = nn.LayerNorm(c.n_embd)
        self.fc = nn.Linear(c.n_embd, c.n_embd)

    def forward(self, x):
        return x + self.fc(self.ln(x))


class Net(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.wte = nn.Embedding(c.vocab_size, c.n_embd)
        self.pos_emb = nn.Parameter(torch.zeros(1, 4, c.n_embd))
        self.blocks = nn.ModuleList([Block(c) for _ in range(c.n_layer)])
        self.ln_f = nn.LayerNorm(c.n_embd)
        self.head = nn.Linear(c.n_embd, c.vocab_size, bias=False)

    def forward(self, idx):
        x = self.wte(idx) + self.pos_emb[:, : idx.size(1)]
        for b in self.blocks:
            x = b(x)
        return self.head(self.ln_f(x))

    def configure_optimizers(self, train_config):
        decay, no_decay = set(), set()
        whitelist_weight_modules = (torch.nn.Linear,)
        blacklist_weight_modules = (torch.nn.LayerNorm, torch.nn.Embedding)
        for mn, m in self.named_modules():
            for pn, _p in m.named_parameters():
                fpn = f"{mn}.{pn}" if mn else pn  # full param name
                if pn.endswith("bias"):
                    no_decay.add(fpn)
                elif pn.endswith("weight") and isinstance(m, whitelist_weight_modules):
                    decay.add(fpn)
                elif pn.endswith("weight") and isinstance(m, blacklist_weight_modules):
                    no_decay.add(fpn)
        no_decay.add("pos_emb")
        param_dict = {pn: p for pn, p in self.named_parameters()}
        inter_params = decay & no_decay
        union_params = decay | no_decay
        assert len(inter_params) == 0, (
            f"parameters {inter_params} made it into both decay/no_decay sets!"
        )
        assert len(param_dict.keys() - union_params) == 0
        optim_groups = [
            {
                "params": [param_dict[pn] for pn in sorted(list(decay))],
                "weight_decay": train_config.weight_decay,
            },
            {"params": [param_dict[pn] for pn in sorted(list(no_decay))], "weight_decay": 0.0},
        ]
        return torch.optim.AdamW(
            optim_groups, lr=train_config.learning_rate, betas=train_config.betas
        )


cfg = Config()
model = Net(cfg)
opt = model.configure_optimizers(cfg)
for i, g in enumerate(opt.param_groups):
    print(
        i,
        len(g["params"]),
        g["weight_decay"],
        g["lr"],
        g["betas"],
        sum(p.numel() for p in g["params"]),
    )
idx = torch.randint(0, cfg.vocab_size, (2, 4))
for step in range(3):
    logits = model(idx)
    loss = F.cross_entropy(logits.view(-1, logits.size(-1)), idx.view(-1))
    opt.zero_grad(set_to_none=True)
    loss.backward()
    opt.step()
    print(f"iter {step}: loss {loss.item():.4f}")
out(model.head.weight, model.pos_emb, model.blocks[0].ln.weight)


def get_layer_id(name, num_layers):
    if name in ("pos_emb",) or name.startswith("wte"):
        return 0
    if name.startswith("blocks"):
        return int(name.split(".")[1]) + 1
    return num_layers


def param_groups_lrd(model, weight_decay=0.05, no_weight_decay_list=(), layer_decay=0.75):
    param_group_names, param_groups = {}, {}
    num_layers = len(model.blocks) + 1
    layer_scales = list(layer_decay ** (num_layers - i) for i in range(num_layers + 1))
    for n, p in model.named_parameters():
        if not p.requires_grad:
            continue
        if p.ndim == 1 or n in no_weight_decay_list:
            g_decay, this_decay = "no_decay", 0.0
        else:
            g_decay, this_decay = "decay", weight_decay
        layer_id = get_layer_id(n, num_layers)
        group_name = f"layer_{layer_id}_{g_decay}"
        if group_name not in param_group_names:
            this_scale = layer_scales[layer_id]
            param_group_names[group_name] = {
                "lr_scale": this_scale,
                "weight_decay": this_decay,
                "params": [],
            }
            param_groups[group_name] = {
                "lr_scale": this_scale,
                "weight_decay": this_decay,
                "params": [],
            }
        param_group_names[group_name]["params"].append(n)
        param_groups[group_name]["params"].append(p)
    return list(param_groups.values()), param_group_names


groups, names = param_groups_lrd(model, no_weight_decay_list={"pos_emb"})
for k, v in names.items():
    print(f"{k}: scale={v['lr_scale']:.4f} wd={v['weight_decay']} {v['params']}")
opt2 = torch.optim.AdamW(groups, lr=1e-2)
for g in opt2.param_groups:
    g["lr"] = 1e-2 * g["lr_scale"]
loss = model(idx).logsumexp(-1).mean()
loss.backward()
opt2.step()
print(sorted(round(g["lr"], 6) for g in opt2.param_groups))
print(opt2.state_dict()["param_groups"][0].keys())
out(model.head.weight, model.wte.weight)
