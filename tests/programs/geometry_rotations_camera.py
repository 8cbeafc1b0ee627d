# quaternions, Rodrigues' formula vs matrix_exp of a skew matrix, SO(3) log map, slerp
torch.set_default_dtype(torch.float64)


def hat(w):
    z = torch.zeros(w.shape[:-1])
    return torch.stack(
        [
            torch.stack([z, -w[..., 2], w[..., 1]], -1),
            torch.stack([w[..., 2], z, -w[..., 0]], -1),
            torch.stack([-w[..., 1], w[..., 0], z], -1),
        ],
        -2,
    )


def rodrigues(w):
    theta = w.norm(dim=-1, keepdim=True)[..., None]
    K = hat(w / theta.squeeze(-1))
    eye = torch.eye(3).expand_as(K)
    return eye + torch.sin(theta) * K + (1 - torch.cos(theta)) * K @ K


def quat_mul(q, r):
    w1, x1, y1, z1 = q.unbind(-1)
    w2, x2, y2, z2 = r.unbind(-1)
    return torch.stack(
        [
            w1 * w2 - x1 * x2 - y1 * y2 - z1 * z2,
            w1 * x2 + x1 * w2 + y1 * z2 - z1 * y2,
            w1 * y2 - x1 * z2 + y1 * w2 + z1 * x2,
            w1 * z2 + x1 * y2 - y1 * x2 + z1 * w2,
        ],
        -1,
    )


def quat_to_matrix(q):
    q = F.normalize(q, dim=-1)
    w, x, y, z = q.unbind(-1)
    return torch.stack(
        [
            1 - 2 * (y * y + z * z),
            2 * (x * y - w * z),
            2 * (x * z + w * y),
            2 * (x * y + w * z),
            1 - 2 * (x * x + z * z),
            2 * (y * z - w * x),
            2 * (x * z - w * y),
            2 * (y * z + w * x),
            1 - 2 * (x * x + y * y),
        ],
        -1,
    ).reshape(q.shape[:-1] + (3, 3))


torch.manual_seed(0)
w = torch.randn(4, 3)
R1 = rodrigues(w)
R2 = torch.linalg.matrix_exp(hat(w))
print("rodrigues == matrix_exp:", torch.allclose(R1, R2))
print("det", torch.linalg.det(R2))
print("orthogonal", torch.allclose(R2.mT @ R2, torch.eye(3).expand(4, 3, 3)))
angle = torch.arccos(((R2.diagonal(dim1=-2, dim2=-1).sum(-1) - 1) / 2).clamp(-1, 1))
print(angle, w.norm(dim=-1))
half = w.norm(dim=-1, keepdim=True) / 2
q = torch.cat([torch.cos(half), torch.sin(half) * F.normalize(w, dim=-1)], -1)
print("quat -> matrix:", torch.allclose(quat_to_matrix(q), R2))
q12 = quat_mul(q[0], q[1])
print("composition:", torch.allclose(quat_to_matrix(q12), R2[0] @ R2[1]))


def slerp(q0, q1, t):
    dot = (q0 * q1).sum(-1, keepdim=True)
    q1 = torch.where(dot < 0, -q1, q1)
    omega = torch.arccos(dot.abs().clamp(max=1.0))
    so = torch.sin(omega)
    return (torch.sin((1 - t) * omega) / so) * q0 + (torch.sin(t * omega) / so) * q1


ts = torch.linspace(0, 1, 5)[:, None]
path = slerp(q[0], q[1], ts)
print(path.norm(dim=-1))
out(R2, q, q12, path, angle)
torch.set_default_dtype(torch.float32)
# ---
# pinhole camera projection, barycentric coordinates, a soft rasteriser with sigmoid edges
torch.manual_seed(1)
K = torch.tensor([[100.0, 0.0, 32.0], [0.0, 100.0, 24.0], [0.0, 0.0, 1.0]])
pts = torch.randn(6, 3) * 0.5 + torch.tensor([0.0, 0.0, 4.0])
R = torch.linalg.matrix_exp(torch.tensor([[0.0, -0.1, 0.0], [0.1, 0.0, 0.0], [0.0, 0.0, 0.0]]))
t = torch.tensor([0.1, -0.2, 0.5])
cam = pts @ R.T + t
uvw = cam @ K.T
uv = uvw[:, :2] / uvw[:, 2:]
print(uv.round(decimals=3))
tri = torch.tensor([[10.0, 10.0], [50.0, 15.0], [25.0, 40.0]], requires_grad=True)
H, W = 12, 16
ys, xs = torch.meshgrid(torch.arange(H) * 4.0 + 2, torch.arange(W) * 4.0 + 2, indexing="ij")
pix = torch.stack([xs, ys], -1).reshape(-1, 2)


def barycentric(p, a, b, c):
    v0, v1, v2 = b - a, c - a, p - a
    d00, d01, d11 = (v0 * v0).sum(), (v0 * v1).sum(), (v1 * v1).sum()
    d20, d21 = (v2 * v0).sum(-1), (v2 * v1).sum(-1)
    denom = d00 * d11 - d01 * d01
    v = (d11 * d20 - d01 * d21) / denom
    w = (d00 * d21 - d01 * d20) / denom
    return torch.stack([1 - v - w, v, w], -1)


bary = barycentric(pix, *tri)
inside_hard = (bary >= 0).all(-1)
soft = torch.sigmoid(bary.min(-1).values / 0.02)
image = soft.reshape(H, W)
print(f"hard coverage {int(inside_hard.sum())}, soft coverage {soft.sum().item():.4f}")
target = torch.zeros(H, W)
target[3:8, 4:10] = 1.0
loss = F.mse_loss(image, target)
loss.backward()
print(f"loss {loss.item():.6f} grad l1 {tri.grad.abs().sum().item():.5f}")
area = 0.5 * torch.linalg.det(torch.stack([tri[1] - tri[0], tri[2] - tri[0]]))
print(f"signed area {area.item():.3f}")
out(uv, bary[:5], image[4], tri.grad, area)
