# LLM weight quantisation: int8 absmax and row-wise, and int8 matmul with outlier columns split off
torch.manual_seed(0)


def quantize_absmax(x):
    scale = 127.0 / x.abs().max()
    q = torch.round(x * scale).to(torch.int8)
    return q, scale


def quantize_rowwise(x):
    absmax = x.abs().amax(dim=1, keepdim=True)
    q = torch.round(x * (127.0 / absmax)).clamp(-127, 127).to(torch.int8)
    return q, absmax.squeeze(1)


def dequantize_rowwise(q, absmax):
    return q.float() * (absmax.unsqueeze(1) / 127.0)


def int8_matmul_with_outliers(x, W, threshold=3.0):
    outlier_cols = (x.abs() > threshold).any(dim=0)
    x_out, W_out = x[:, outlier_cols], W[:, outlier_cols]
    xq, sx = quantize_rowwise(x[:, ~outlier_cols])
    wq, sw = quantize_rowwise(W[:, ~outlier_cols])
    acc = xq.to(torch.int32) @ wq.to(torch.int32).T
    y = acc.float() * (sx.unsqueeze(1) * sw.unsqueeze(0)) / (127.0 * 127.0)
    return y + x_out @ W_out.T, int(outlier_cols.sum())


w = torch.randn(4, 8)
q, scale = quantize_absmax(w)
print(q.dtype, q, f"scale {scale.item():.4f}")
print(f"absmax error {(q.float() / scale - w).abs().max().item():.5f}")
qr, am = quantize_rowwise(w)
print(qr[0], am, qr.dtype, am.dtype)
deq = dequantize_rowwise(qr, am)
print(f"row-wise error {(deq - w).abs().max().item():.5f}", torch.iinfo(torch.int8))
x = torch.randn(5, 8)
x[:, 3] *= 8
y_ref = x @ w.T
y_q, n_out = int8_matmul_with_outliers(x, w)
print(n_out, f"{(y_q - y_ref).abs().max().item():.4f}", (y_q - y_ref).abs().mean() < 0.1)
u8 = torch.clamp(torch.round(w / 0.05) + 128, 0, 255).to(torch.uint8)
print(u8[0], u8.dtype, ((u8.to(torch.int16) - 128) * 0.05)[0])
out(q, qr, am, deq, y_q)
# ---
# GPTQ-style column-wise quantisation, errors fed back through the inverse Hessian's Cholesky
torch.manual_seed(0)


def quantize(x, scale, zero, maxq):
    q = torch.clamp(torch.round(x / scale) + zero, 0, maxq)
    return scale * (q - zero)


def find_params(W, bits=4):
    maxq = 2**bits - 1
    xmin = torch.minimum(W.min(1).values, torch.zeros(W.shape[0]))
    xmax = torch.maximum(W.max(1).values, torch.zeros(W.shape[0]))
    tmp = (xmin == 0) & (xmax == 0)
    xmin[tmp], xmax[tmp] = -1, +1
    scale = (xmax - xmin) / maxq
    zero = torch.round(-xmin / scale)
    return scale.unsqueeze(1), zero.unsqueeze(1), maxq


def gptq(W, H, bits=4, percdamp=0.01):
    W = W.clone()
    scale, zero, maxq = find_params(W, bits)
    dead = torch.diag(H) == 0
    H[dead, dead] = 1
    W[:, dead] = 0
    damp = percdamp * torch.mean(torch.diag(H))
    H += damp * torch.eye(H.shape[0])
    H = torch.linalg.cholesky(H)
    H = torch.cholesky_inverse(H)
    Hinv = torch.linalg.cholesky(H, upper=True)
    Q = torch.zeros_like(W)
    losses = torch.zeros(W.shape[0])
    for i in range(W.shape[1]):
        w, d = W[:, i], Hinv[i, i]
        q = quantize(w.unsqueeze(1), scale, zero, maxq).flatten()
        Q[:, i] = q
        losses += (w - q) ** 2 / d**2 / 2
        err = (w - q) / d
        W[:, i:] -= err.unsqueeze(1).matmul(Hinv[i, i:].unsqueeze(0))
    return Q, losses


W = torch.randn(6, 10)
X = torch.randn(64, 10) * torch.linspace(0.2, 2.0, 10)
H = 2 * X.T @ X / X.shape[0]
Q, losses = gptq(W, H.clone())
scale, zero, maxq = find_params(W)
rtn = quantize(W, scale, zero, maxq)
err_gptq = (X @ Q.T - X @ W.T).pow(2).mean()
err_rtn = (X @ rtn.T - X @ W.T).pow(2).mean()
print(f"gptq {err_gptq.item():.5f} rtn {err_rtn.item():.5f} better {bool(err_gptq < err_rtn)}")
print(losses, scale.squeeze(), zero.squeeze())
print(torch.unique(torch.round(Q[0] / scale[0] + zero[0])).int())
out(Q, losses, rtn, err_gptq)
# ---
# Pruning masks: Wanda scores (|W| times input norms), an OBS-style update, 2:4 sparsity
torch.manual_seed(0)
layer = nn.Linear(16, 8)
calib = torch.randn(32, 16) * torch.linspace(0.1, 3.0, 16)
scaler_row = torch.zeros(16)
nsamples = 0
for chunk in calib.split(8):
    tmp = chunk.shape[0]
    scaler_row *= nsamples / (nsamples + tmp)
    nsamples += tmp
    scaler_row += torch.norm(chunk.float(), p=2, dim=0) ** 2 / nsamples
W = layer.weight.data
metric = W.abs() * torch.sqrt(scaler_row.reshape(1, -1))
sort_res = torch.sort(metric, dim=-1, stable=True)
indices = sort_res[1][:, : int(W.shape[1] * 0.5)]
W_mask = torch.zeros_like(metric, dtype=torch.bool).scatter_(1, indices, True)
print(W_mask.sum(1), W_mask.float().mean())
W_wanda = W.clone()
W_wanda[W_mask] = 0
mag_mask = W.abs() <= W.abs().flatten().kthvalue(W.numel() // 2).values
print(f"masks agree on {(mag_mask == W_mask).float().mean().item():.3f}")
err_w = (calib @ W_wanda.T - calib @ W.T).pow(2).mean()
err_m = (calib @ (W * ~mag_mask).T - calib @ W.T).pow(2).mean()
print(f"wanda {err_w.item():.4f} magnitude {err_m.item():.4f}")
# 2:4 semi-structured: keep the 2 largest of every 4 scores
groups = metric.view(8, 4, 4)
keep = torch.zeros_like(groups, dtype=torch.bool).scatter_(2, groups.topk(2, dim=2).indices, True)
W24 = (W.view(8, 4, 4) * keep).view(8, 16)
print(keep.sum(-1).unique(), (W24 != 0).sum().item())
# an OBS-style update: remove one weight and compensate the rest with the inverse Hessian
Hm = calib.T @ calib / 32 + 0.01 * torch.eye(16)
Hinv = torch.linalg.inv(Hm)
row = W[0].clone()
j = int((row**2 / torch.diag(Hinv)).argmin())
row_new = row - row[j] / Hinv[j, j] * Hinv[:, j]
print(
    j,
    f"{row_new[j].abs().item():.1e}" if row_new[j].abs() > 1e-7 else "0",
    f"{(calib @ row_new - calib @ row).pow(2).mean().item():.5f}",
)
with torch.no_grad():
    layer.weight.copy_(W_wanda)
print(f"sparsity {(layer.weight == 0).float().mean().item():.2f}")
out(W_mask, W_wanda, W24, row_new)
