# LoRA adapters on a Linear: frozen base, low-rank A/B, merge/unmerge and a LoRA-only state_dict
import math


class LoRALinear(nn.Linear):
    def __init__(self, in_features, out_features, r=4, lora_alpha=8, lora_dropout=0.0, **kwargs):
        super().__init__(in_features, out_features, **kwargs)
        self.r = r
        self.lora_alpha = lora_alpha
        self.scaling = lora_alpha / r
        self.lora_A = nn.Parameter(self.weight.new_zeros((r, in_features)))
        self.lora_B = nn.Parameter(self.weight.new_zeros((out_features, r)))
        self.lora_dropout = nn.Dropout(p=lora_dropout) if lora_dropout > 0 else nn.Identity()
        self.merged = False
        self.weight.requires_grad = False
        self.reset_lora_parameters()

    def reset_lora_parameters(self):
        nn.init.kaiming_uniform_(self.lora_A, a=math.sqrt(5))
        nn.init.zeros_(self.lora_B)

    def train(self, mode: bool = True):
        super().train(mode)
        if mode and self.merged:
            self.weight.data -= (self.lora_B @ self.lora_A) * self.scaling
            self.merged = False
        elif not mode and not self.merged:
            self.weight.data += (self.lora_B @ self.lora_A) * self.scaling
            self.merged = True
        return self

    def forward(self, x):
        result = F.linear(x, self.weight, bias=self.bias)
        if self.r > 0 and not self.merged:
            result = (
                result
                + (self.lora_dropout(x) @ self.lora_A.transpose(0, 1) @ self.lora_B.transpose(0, 1))
                * self.scaling
            )
        return result


def mark_only_lora_as_trainable(model, bias="none"):
    for n, p in model.named_parameters():
        if "lora_" not in n:
            p.requires_grad = False
    if bias == "all":
        for n, p in model.named_parameters():
            if "bias" in n:
                p.requires_grad = True


def lora_state_dict(model, bias="none"):
    my_state_dict = model.state_dict()
    if bias == "none":
        return {k: my_state_dict[k] for k in my_state_dict if "lora_" in k}
    return {k: my_state_dict[k] for k in my_state_dict if "lora_" in k or "bias" in k}


torch.manual_seed(0)
model = nn.Sequential(nn.Linear(6, 8), nn.Tanh(), LoRALinear(8, 4, r=2, lora_alpha=4))
mark_only_lora_as_trainable(model)
trainable = sum(p.numel() for p in model.parameters() if p.requires_grad)
total = sum(p.numel() for p in model.parameters())
pct = 100 * trainable / total
print(f"trainable params: {trainable} || all params: {total} || trainable%: {pct:.4f}")
print([n for n, p in model.named_parameters() if p.requires_grad])

x = torch.randn(10, 6)
y = torch.randn(10, 4)
opt = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=1e-2)
for step in range(5):
    opt.zero_grad()
    loss = F.mse_loss(model(x), y)
    loss.backward()
    opt.step()
    print(f"step {step} loss {loss.item():.5f}")
out(model[2].lora_B, model[2].lora_A.grad, model[0].weight.grad)

sd = lora_state_dict(model)
print(sorted(sd.keys()), {k: tuple(v.shape) for k, v in sd.items()})
sd_bias = lora_state_dict(model, bias="lora_only")
print(sorted(sd_bias.keys()))

model.train()
before = model(x)
model.eval()
print(model[2].merged, model[2].weight.requires_grad)
after = model(x)
print("merged max diff small:", (before - after).abs().max().item() < 1e-5)
out(after)
model.train()
again = model(x)
print(model[2].merged, torch.allclose(again, before, atol=1e-6))

fresh = nn.Sequential(nn.Linear(6, 8), nn.Tanh(), LoRALinear(8, 4, r=2, lora_alpha=4))
missing, unexpected = fresh.load_state_dict(sd, strict=False)
print(len(missing), unexpected)
print(torch.equal(fresh[2].lora_B, model[2].lora_B))


# ---
# peft-style injection: replace nn.Linear children by name, keeping the pretrained weights
class Attention(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.q_proj = nn.Linear(d, d, bias=False)
        self.k_proj = nn.Linear(d, d, bias=False)
        self.v_proj = nn.Linear(d, d, bias=False)
        self.o_proj = nn.Linear(d, d, bias=False)

    def forward(self, x):
        q, k, v = self.q_proj(x), self.k_proj(x), self.v_proj(x)
        att = (q @ k.transpose(-2, -1) / q.size(-1) ** 0.5).softmax(-1)
        return self.o_proj(att @ v)


class LoraWrapper(nn.Module):
    def __init__(self, base: nn.Linear, r: int, alpha: float):
        super().__init__()
        self.base_layer = base
        self.lora_A = nn.Linear(base.in_features, r, bias=False)
        self.lora_B = nn.Linear(r, base.out_features, bias=False)
        nn.init.normal_(self.lora_A.weight, std=1 / r)
        nn.init.zeros_(self.lora_B.weight)
        self.scaling = alpha / r

    def forward(self, x):
        return self.base_layer(x) + self.lora_B(self.lora_A(x)) * self.scaling

    def merge_and_unload(self):
        merged = nn.Linear(self.base_layer.in_features, self.base_layer.out_features, bias=False)
        with torch.no_grad():
            merged.weight.copy_(
                self.base_layer.weight + self.scaling * self.lora_B.weight @ self.lora_A.weight
            )
        return merged


def inject(module, targets, r=2, alpha=4):
    for name, child in module.named_children():
        if isinstance(child, nn.Linear) and name in targets:
            setattr(module, name, LoraWrapper(child, r, alpha))
        else:
            inject(child, targets, r, alpha)


torch.manual_seed(1)
attn = Attention(8)
for p in attn.parameters():
    p.requires_grad_(False)
inject(attn, {"q_proj", "v_proj"})
print(attn)
x = torch.randn(2, 5, 8)
with torch.no_grad():
    attn.v_proj.lora_B.weight.normal_(0, 0.1)
loss = attn(x).pow(2).mean()
loss.backward()
grads = {n: p.grad.norm().item() for n, p in attn.named_parameters() if p.grad is not None}
print({k: round(v, 5) for k, v in grads.items()})
y_lora = attn(x)
attn.v_proj = attn.v_proj.merge_and_unload()
attn.q_proj = attn.q_proj.merge_and_unload()
y_merged = attn(x)
print((y_lora - y_merged).abs().max().item() < 1e-5, type(attn.q_proj).__name__)
out(y_merged, loss)
