# Mamba-style selective SSM: input-dependent delta/B/C, exp discretisation and a sequential scan
import math


def selective_scan_ref(u, delta, A, B, C, D=None, z=None, delta_bias=None, delta_softplus=False):
    dtype_in = u.dtype
    u = u.float()
    delta = delta.float()
    if delta_bias is not None:
        delta = delta + delta_bias[..., None].float()
    if delta_softplus:
        delta = F.softplus(delta)
    batch, dim, dstate = u.shape[0], A.shape[0], A.shape[1]
    x = A.new_zeros((batch, dim, dstate))
    ys = []
    deltaA = torch.exp(torch.einsum("bdl,dn->bdln", delta, A))
    deltaB_u = torch.einsum("bdl,bnl,bdl->bdln", delta, B, u)
    for i in range(u.shape[2]):
        x = deltaA[:, :, i] * x + deltaB_u[:, :, i]
        y = torch.einsum("bdn,bn->bd", x, C[:, :, i])
        ys.append(y)
    y = torch.stack(ys, dim=2)
    out_ = y if D is None else y + u * D[..., None]
    if z is not None:
        out_ = out_ * F.silu(z)
    return out_.to(dtype=dtype_in)


class MambaBlock(nn.Module):
    def __init__(self, d_model=8, d_state=4, d_conv=3, expand=2, dt_min=0.001, dt_max=0.1):
        super().__init__()
        self.d_inner = expand * d_model
        self.d_state = d_state
        self.dt_rank = math.ceil(d_model / 16)
        self.in_proj = nn.Linear(d_model, self.d_inner * 2, bias=False)
        self.conv1d = nn.Conv1d(
            self.d_inner, self.d_inner, kernel_size=d_conv, groups=self.d_inner, padding=d_conv - 1
        )
        self.x_proj = nn.Linear(self.d_inner, self.dt_rank + d_state * 2, bias=False)
        self.dt_proj = nn.Linear(self.dt_rank, self.d_inner, bias=True)
        dt = torch.exp(
            torch.rand(self.d_inner) * (math.log(dt_max) - math.log(dt_min)) + math.log(dt_min)
        ).clamp(min=1e-4)
        inv_dt = dt + torch.log(-torch.expm1(-dt))
        with torch.no_grad():
            self.dt_proj.bias.copy_(inv_dt)
        A = torch.arange(1, d_state + 1, dtype=torch.float32).repeat(self.d_inner, 1).contiguous()
        self.A_log = nn.Parameter(torch.log(A))
        self.A_log._no_weight_decay = True
        self.D = nn.Parameter(torch.ones(self.d_inner))
        self.out_proj = nn.Linear(self.d_inner, d_model, bias=False)

    def forward(self, hidden_states):
        batch, seqlen, dim = hidden_states.shape
        xz = self.in_proj(hidden_states).transpose(1, 2)
        x, z = xz.chunk(2, dim=1)
        x = F.silu(self.conv1d(x)[..., :seqlen])
        x_dbl = self.x_proj(x.transpose(1, 2).reshape(batch * seqlen, -1))
        dt, B, C = torch.split(x_dbl, [self.dt_rank, self.d_state, self.d_state], dim=-1)
        dt = self.dt_proj.weight @ dt.t()
        dt = dt.view(self.d_inner, batch, seqlen).permute(1, 0, 2)
        B = B.view(batch, seqlen, self.d_state).transpose(1, 2)
        C = C.view(batch, seqlen, self.d_state).transpose(1, 2)
        A = -torch.exp(self.A_log.float())
        y = selective_scan_ref(
            x,
            dt,
            A,
            B,
            C,
            self.D.float(),
            z=z,
            delta_bias=self.dt_proj.bias.float(),
            delta_softplus=True,
        )
        return self.out_proj(y.transpose(1, 2))


torch.manual_seed(0)
block = MambaBlock()
print(block.dt_rank, block.A_log.shape, getattr(block.A_log, "_no_weight_decay", False))
print(f"dt bias range {block.dt_proj.bias.min().item():.4f} {block.dt_proj.bias.max().item():.4f}")
h = torch.randn(2, 7, 8)
y = block(h)
print(y.shape, f"{y.pow(2).mean().item():.6f}")
y.mean().backward()
out(y, block.A_log.grad, block.D.grad, block.conv1d.weight.grad)
decay = [
    n
    for n, p in block.named_parameters()
    if not getattr(p, "_no_weight_decay", False) and p.dim() >= 2
]
print(decay)

# the parallel form of a scalar linear recurrence: cumsum of log decays
torch.manual_seed(1)
a = torch.rand(2, 6) * 0.9 + 0.05
b = torch.randn(2, 6)
h_seq = []
state = torch.zeros(2)
for t in range(6):
    state = a[:, t] * state + b[:, t]
    h_seq.append(state)
h_seq = torch.stack(h_seq, 1)
log_a = torch.log(a)
cum = torch.cumsum(log_a, dim=1)
weights = torch.exp(cum[:, :, None] - cum[:, None, :]).tril()
h_par = (weights * b[:, None, :]).sum(-1)
print(torch.allclose(h_seq, h_par, atol=1e-5))
out(h_par, weights)
