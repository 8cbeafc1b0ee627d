# timm-free vision blocks: drop_path with a scaled Bernoulli mask, SE, LayerScale, ConvNeXt
def drop_path(x, drop_prob: float = 0.0, training: bool = False, scale_by_keep: bool = True):
    if drop_prob == 0.0 or not training:
        return x
    keep_prob = 1 - drop_prob
    shape = (x.shape[0],) + (1,) * (x.ndim - 1)
    random_tensor = x.new_empty(shape).bernoulli_(keep_prob)
    if keep_prob > 0.0 and scale_by_keep:
        random_tensor.div_(keep_prob)
    return x * random_tensor


class DropPath(nn.Module):
    def __init__(self, drop_prob: float = 0.0, scale_by_keep: bool = True):
        super().__init__()
        self.drop_prob = drop_prob
        self.scale_by_keep = scale_by_keep

    def forward(self, x):
        return drop_path(x, self.drop_prob, self.training, self.scale_by_keep)

    def extra_repr(self):
        return f"drop_prob={round(self.drop_prob, 3):0.3f}"


x = torch.ones(8, 3, 2, 2)
dp = DropPath(0.25)
y = dp(x)
print(dp, y[:, 0, 0, 0])
print(dp.eval()(x) is x)
out(y)


class SqueezeExcite(nn.Module):
    def __init__(self, channels, rd_ratio=0.25):
        super().__init__()
        rd_channels = max(1, int(channels * rd_ratio))
        self.fc1 = nn.Conv2d(channels, rd_channels, kernel_size=1, bias=True)
        self.act = nn.ReLU(inplace=True)
        self.fc2 = nn.Conv2d(rd_channels, channels, kernel_size=1, bias=True)
        self.gate = nn.Sigmoid()

    def forward(self, x):
        x_se = x.mean((2, 3), keepdim=True)
        x_se = self.fc2(self.act(self.fc1(x_se)))
        return x * self.gate(x_se)


class LayerNorm2d(nn.LayerNorm):
    def forward(self, x):
        x = x.permute(0, 2, 3, 1)
        x = F.layer_norm(x, self.normalized_shape, self.weight, self.bias, self.eps)
        return x.permute(0, 3, 1, 2)


class ConvNeXtBlock(nn.Module):
    def __init__(self, dim, drop_path=0.0, ls_init_value=1e-6):
        super().__init__()
        self.conv_dw = nn.Conv2d(dim, dim, kernel_size=7, padding=3, groups=dim)
        self.norm = nn.LayerNorm(dim, eps=1e-6)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))
        self.gamma = nn.Parameter(ls_init_value * torch.ones(dim)) if ls_init_value > 0 else None
        self.drop_path = DropPath(drop_path) if drop_path > 0.0 else nn.Identity()
        self.se = SqueezeExcite(dim)

    def forward(self, x):
        shortcut = x
        x = self.conv_dw(x)
        x = x.permute(0, 2, 3, 1)
        x = self.norm(x)
        x = self.mlp(x)
        if self.gamma is not None:
            x = x.mul(self.gamma)
        x = x.permute(0, 3, 1, 2)
        x = self.se(x)
        return self.drop_path(x) + shortcut


depths = [1, 2]
dpr = [x.tolist() for x in torch.linspace(0, 0.2, sum(depths)).split(depths)]
print(dpr)
stages = nn.Sequential(
    nn.Conv2d(3, 8, kernel_size=4, stride=4),
    LayerNorm2d(8),
    *[ConvNeXtBlock(8, drop_path=dpr[0][j], ls_init_value=0.5) for j in range(depths[0])],
    LayerNorm2d(8),
    nn.Conv2d(8, 16, kernel_size=2, stride=2),
    *[ConvNeXtBlock(16, drop_path=dpr[1][j], ls_init_value=0.5) for j in range(depths[1])],
)
head = nn.Sequential(nn.AdaptiveAvgPool2d(1), nn.Flatten(1), nn.LayerNorm(16), nn.Linear(16, 5))
print(stages[3])
img = torch.randn(4, 3, 16, 16)
feats = stages(img)
logits = head(feats)
print(feats.shape, logits.shape)
logits.logsumexp(dim=1).mean().backward()
print(stages[2].gamma.grad.shape, stages[-1].drop_path)
out(logits, stages[2].gamma.grad, stages[-1].se.fc1.weight.grad)

stages.eval()
with torch.inference_mode():
    evaluated = head(stages(img))
print(evaluated.is_inference(), evaluated.requires_grad)
out(evaluated)


def param_groups_weight_decay(model, weight_decay=1e-5, no_weight_decay_list=()):
    decay, no_decay = [], []
    for name, param in model.named_parameters():
        if not param.requires_grad:
            continue
        if param.ndim <= 1 or name.endswith(".bias") or name in no_weight_decay_list:
            no_decay.append(param)
        else:
            decay.append(param)
    return [
        {"params": no_decay, "weight_decay": 0.0},
        {"params": decay, "weight_decay": weight_decay},
    ]


groups = param_groups_weight_decay(stages, 0.05)
print([len(g["params"]) for g in groups])
opt = torch.optim.AdamW(groups, lr=1e-3)
print(opt)
