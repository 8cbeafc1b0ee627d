# planar arm forward kinematics, jacobians by torch.func.jacrev/jacfwd, damped least-squares IK
torch.set_default_dtype(torch.float64)
lengths = torch.tensor([1.0, 0.8, 0.5])


def fk_planar(q):
    angles = torch.cumsum(q, 0)
    x = (lengths * torch.cos(angles)).sum()
    y = (lengths * torch.sin(angles)).sum()
    return torch.stack([x, y, angles[-1]])


q = torch.tensor([0.3, -0.5, 0.8])
J = torch.func.jacrev(fk_planar)(q)
print(J)
J2 = torch.autograd.functional.jacobian(fk_planar, q)
print("jacrev == autograd.functional.jacobian:", torch.allclose(J, J2))
Jf = torch.func.jacfwd(fk_planar)(q)
print("jacfwd agrees:", torch.allclose(J, Jf))
manip = torch.sqrt(torch.linalg.det(J[:2] @ J[:2].T))
print(f"manipulability {manip.item():.6f}, cond {torch.linalg.cond(J).item():.6f}")
target = torch.tensor([1.2, 1.0])
for it in range(15):  # damped least-squares inverse kinematics
    p = fk_planar(q)[:2]
    e = target - p
    Jp = torch.func.jacrev(lambda a: fk_planar(a)[:2])(q)
    dq = Jp.T @ torch.linalg.solve(Jp @ Jp.T + 1e-4 * torch.eye(2), e)
    q = q + dq
    if it % 5 == 4:
        print(
            f"it {it + 1} error {e.norm().item():.3e}"
            if it < 5
            else f"it {it + 1} converged {e.norm().item() < 1e-10}"
        )
print(q, fk_planar(q))
batch_q = torch.stack([q, q * 0.5, torch.zeros(3)])
BJ = torch.func.vmap(torch.func.jacrev(fk_planar))(batch_q)
print(BJ.shape)
out(J, q, BJ)
# ---
# Denavit-Hartenberg chain: 4x4 transforms, end-effector pose, jacobian via jacrev and pinv


def dh(theta, d, a, alpha):
    ct, st, ca, sa = torch.cos(theta), torch.sin(theta), torch.cos(alpha), torch.sin(alpha)
    zero, one = torch.zeros_like(theta), torch.ones_like(theta)
    return torch.stack(
        [
            torch.stack([ct, -st * ca, st * sa, a * ct]),
            torch.stack([st, ct * ca, -ct * sa, a * st]),
            torch.stack([zero, sa, ca, d * one]),
            torch.stack([zero, zero, zero, one]),
        ]
    )


params = torch.tensor([[0.3, 0.0, 0.5], [0.0, 0.4, 0.0], [0.0, 0.3, 1.5708]])


def pose(q):
    T = torch.eye(4)
    for i in range(3):
        T = T @ dh(q[i], params[i, 0], params[i, 1], params[i, 2])
    return T


q = torch.tensor([0.1, 0.7, -0.4], dtype=torch.float32)
T = pose(q)
print(T)
pos_fn = lambda q: pose(q)[:3, 3]
J = torch.func.jacrev(pos_fn)(q)
print(J)
Jpinv = torch.linalg.pinv(J)
print(torch.allclose(Jpinv @ J, torch.eye(3), atol=1e-5))
v = torch.tensor([0.01, 0.0, -0.02])
dq = Jpinv @ v
print(f"predicted {[round(v, 5) + 0.0 for v in (J @ dq).tolist()]}")
print(torch.linalg.matrix_rank(J), torch.linalg.svdvals(J))
out(T, J, Jpinv, dq)
