# Lennard-Jones dynamics: pair energies via triu_indices, autograd forces, periodic box
torch.manual_seed(0)
torch.set_default_dtype(torch.float64)
n_side = 3
box = 4.5
grid = torch.stack(
    torch.meshgrid(*[torch.arange(n_side, dtype=torch.float64)] * 3, indexing="ij"), -1
)
pos = (grid.reshape(-1, 3) + 0.5) * (box / n_side) + 0.05 * torch.randn(n_side**3, 3)
n = pos.shape[0]
vel = 0.3 * torch.randn(n, 3)
vel -= vel.mean(0, keepdim=True)
i, j = torch.triu_indices(n, n, offset=1)
print(f"{n} atoms, {i.numel()} pairs")


def minimum_image(d):
    return d - box * torch.round(d / box)


def lj_energy(x, eps=1.0, sigma=1.0, rc=2.2):
    d = minimum_image(x[i] - x[j])
    r2 = (d * d).sum(-1)
    mask = r2 < rc * rc
    inv6 = (sigma * sigma / r2[mask]) ** 3
    return (4 * eps * (inv6 * inv6 - inv6)).sum()


def forces(x):
    x = x.detach().requires_grad_(True)
    e = lj_energy(x)
    (g,) = torch.autograd.grad(e, x)
    return e.detach(), -g


e, f = forces(pos)
print(f"initial potential {e.item():.6f}, net force ~0: {f.sum(0).norm().item() < 1e-12}")
D = torch.cdist(pos, pos)
D.fill_diagonal_(float("inf"))
print(f"closest pair distance (no wrap) {D.min().item():.6f}")
dt = 0.002
history = []
for step in range(40):
    vel = vel + 0.5 * dt * f
    pos = torch.remainder(pos + dt * vel, box)
    e, f = forces(pos)
    vel = vel + 0.5 * dt * f
    ke = 0.5 * (vel**2).sum()
    history.append(torch.stack([e, ke, e + ke]))
    if step % 10 == 9:
        print(
            f"step {step + 1:3d} PE {e.item():10.5f} KE {ke.item():8.5f} E {(e + ke).item():10.5f}"
        )
h = torch.stack(history)
print(f"energy fluctuation {h[:, 2].std().item():.3e}")
print(f"all inside box: {bool(((pos >= 0) & (pos < box)).all())}")
out(h, pos, f)
torch.set_default_dtype(torch.float32)
# ---
# radial distribution function with histc and a pairwise-distance matrix from cdist
torch.manual_seed(3)
pts = torch.rand(60, 3) * 5.0
d = torch.cdist(pts, pts)
iu = torch.triu_indices(60, 60, 1)
r = d[iu[0], iu[1]]
counts = torch.histc(r, bins=10, min=0.0, max=5.0)
edges = torch.linspace(0.0, 5.0, 11)
shell = 4.0 / 3.0 * torch.pi * (edges[1:] ** 3 - edges[:-1] ** 3)
density = 60 / 125.0
g = counts / (shell * density * 30)
print(counts.long().tolist())
print([round(v, 4) for v in g.tolist()])
p = torch.nn.functional.pdist(pts)
print(torch.allclose(p, r), p.shape)
out(counts, g, torch.cdist(pts[:4], pts[:5], p=1), torch.cdist(pts[:4], pts[:5], p=float("inf")))
