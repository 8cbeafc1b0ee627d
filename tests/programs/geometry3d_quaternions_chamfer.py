# 3D geometry as 3D deep learning libraries write it: quaternions, axis-angle, rotation matrices
torch.manual_seed(0)


def standardize_quaternion(q):
    return torch.where(q[..., 0:1] < 0, -q, q)


def quaternion_to_matrix(q):
    r, i, j, k = torch.unbind(q, -1)
    two_s = 2.0 / (q * q).sum(-1)
    o = torch.stack(
        (
            1 - two_s * (j * j + k * k),
            two_s * (i * j - k * r),
            two_s * (i * k + j * r),
            two_s * (i * j + k * r),
            1 - two_s * (i * i + k * k),
            two_s * (j * k - i * r),
            two_s * (i * k - j * r),
            two_s * (j * k + i * r),
            1 - two_s * (i * i + j * j),
        ),
        -1,
    )
    return o.reshape(q.shape[:-1] + (3, 3))


def _sqrt_positive_part(x):
    ret = torch.zeros_like(x)
    positive = x > 0
    ret[positive] = torch.sqrt(x[positive])
    return ret


def matrix_to_quaternion(m):
    batch = m.shape[:-2]
    m00, m01, m02, m10, m11, m12, m20, m21, m22 = torch.unbind(m.reshape(batch + (9,)), dim=-1)
    q_abs = _sqrt_positive_part(
        torch.stack(
            [
                1.0 + m00 + m11 + m22,
                1.0 + m00 - m11 - m22,
                1.0 - m00 + m11 - m22,
                1.0 - m00 - m11 + m22,
            ],
            dim=-1,
        )
    )
    quat_by_rijk = torch.stack(
        [
            torch.stack([q_abs[..., 0] ** 2, m21 - m12, m02 - m20, m10 - m01], dim=-1),
            torch.stack([m21 - m12, q_abs[..., 1] ** 2, m10 + m01, m02 + m20], dim=-1),
            torch.stack([m02 - m20, m10 + m01, q_abs[..., 2] ** 2, m12 + m21], dim=-1),
            torch.stack([m10 - m01, m20 + m02, m21 + m12, q_abs[..., 3] ** 2], dim=-1),
        ],
        dim=-2,
    )
    flr = torch.tensor(0.1).to(dtype=q_abs.dtype)
    quat_candidates = quat_by_rijk / (2.0 * q_abs[..., None].max(flr))
    best = F.one_hot(q_abs.argmax(dim=-1), num_classes=4) > 0.5
    out = quat_candidates[best, :].reshape(batch + (4,))
    return standardize_quaternion(out)


def axis_angle_to_quaternion(axis_angle):
    angles = torch.norm(axis_angle, p=2, dim=-1, keepdim=True)
    sin_half_over = torch.where(
        angles.abs() > 1e-6, torch.sin(angles * 0.5) / angles, 0.5 - angles * angles / 48
    )
    return torch.cat([torch.cos(angles * 0.5), axis_angle * sin_half_over], dim=-1)


def quaternion_raw_multiply(a, b):
    aw, ax, ay, az = torch.unbind(a, -1)
    bw, bx, by, bz = torch.unbind(b, -1)
    return torch.stack(
        (
            aw * bw - ax * bx - ay * by - az * bz,
            aw * bx + ax * bw + ay * bz - az * by,
            aw * by - ax * bz + ay * bw + az * bx,
            aw * bz + ax * by - ay * bx + az * bw,
        ),
        -1,
    )


def so3_relative_angle(R1, R2):
    R12 = torch.bmm(R1, R2.permute(0, 2, 1))
    cos = ((R12.diagonal(dim1=-2, dim2=-1).sum(-1) - 1) * 0.5).clamp(-1 + 1e-6, 1 - 1e-6)
    return torch.acos(cos)


aa = torch.tensor([[0.0, 0.0, 1.5707964], [0.3, -0.2, 0.1], [0.0, 0.0, 0.0]], dtype=torch.float64)
q = axis_angle_to_quaternion(aa)
print(q)
R = quaternion_to_matrix(q)
print(R[0], torch.det(R))
q_back = matrix_to_quaternion(R)
print(torch.allclose(q_back, standardize_quaternion(q)), q_back.dtype)
qq = quaternion_raw_multiply(q[1:2], q[1:2])
print(torch.allclose(quaternion_to_matrix(qq), R[1:2] @ R[1:2]))
rand_q = F.normalize(torch.randn(4, 4), dim=-1).requires_grad_()
Rr = quaternion_to_matrix(rand_q)
ang = so3_relative_angle(Rr, quaternion_to_matrix(rand_q.detach().roll(1, 0)))
print(ang.detach(), ang.grad_fn.name())
ang.sum().backward()
print(rand_q.grad.shape, torch.isfinite(rand_q.grad).all())
out(q, R, q_back, Rr, ang, rand_q.grad)
# ---
# Point clouds: chamfer distance with cdist/topk, knn_points gathers, and a registration step
torch.manual_seed(0)


def knn_points(p1, p2, K):
    d = torch.cdist(p1, p2) ** 2
    dists, idx = d.topk(K, dim=-1, largest=False)
    return dists, idx


def knn_gather(x, idx):
    B, N, K = idx.shape
    flat = idx.reshape(B, N * K, 1).expand(-1, -1, x.shape[-1])
    return x.gather(1, flat).view(B, N, K, x.shape[-1])


def chamfer_distance(x, y, point_reduction="mean"):
    dx, _ = knn_points(x, y, 1)
    dy, _ = knn_points(y, x, 1)
    cham_x, cham_y = dx[..., 0], dy[..., 0]
    if point_reduction == "mean":
        cham_x, cham_y = cham_x.mean(1), cham_y.mean(1)
    else:
        cham_x, cham_y = cham_x.sum(1), cham_y.sum(1)
    return (cham_x + cham_y).mean()


def estimate_normals(pts, k=4):
    _, idx = knn_points(pts, pts, k)
    nbrs = knn_gather(pts, idx)
    centred = nbrs - nbrs.mean(dim=2, keepdim=True)
    cov = centred.transpose(-1, -2) @ centred / k
    evals, evecs = torch.linalg.eigh(cov)
    return evals, evecs[..., 0]


src = torch.rand(2, 20, 3)
tgt = src @ torch.tensor([[0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]]) + 0.3
dists, idx = knn_points(src, tgt, 3)
print(dists.shape, idx[0, :3], dists[0, 0])
print(knn_gather(tgt, idx).shape)
print(
    f"chamfer {chamfer_distance(src, tgt).item():.5f}",
    f"sum {chamfer_distance(src, tgt, 'sum').item():.4f}",
)
plane = torch.cat([torch.rand(1, 16, 2), torch.zeros(1, 16, 1)], dim=-1)
evals, normals = estimate_normals(plane)
print(evals[0, :3], normals[0, :3].abs())
shift = torch.zeros(1, 1, 3, requires_grad=True)
opt = torch.optim.SGD([shift], lr=0.2)
for _ in range(30):
    opt.zero_grad()
    loss = chamfer_distance(src[:1] + shift, src[:1] + torch.tensor([0.1, -0.2, 0.05]))
    loss.backward()
    opt.step()
print(f"loss {loss.item():.6f} shift {shift.detach().squeeze().tolist()}")
out(dists, idx, evals, shift)
