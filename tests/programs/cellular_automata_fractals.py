# Conway's Game of Life: conv2d neighbour counts on a torus (circular padding), gliders, oscillators
torch.manual_seed(0)
kernel = torch.ones(1, 1, 3, 3)
kernel[0, 0, 1, 1] = 0


def life_step(board):
    x = board.float()[None, None]
    n = F.conv2d(F.pad(x, (1, 1, 1, 1), mode="circular"), kernel)[0, 0]
    return ((n == 3) | ((board == 1) & (n == 2))).to(board.dtype)


board = torch.zeros(8, 8, dtype=torch.uint8)
board[0, 1] = board[1, 2] = board[2, 0] = board[2, 1] = board[2, 2] = 1
start = board.clone()
for _gen in range(32):
    board = life_step(board)
print(torch.equal(board, start), board.sum().item(), board.dtype)
board4 = start.clone()
for _ in range(4):
    board4 = life_step(board4)
print(torch.nonzero(board4).tolist(), torch.equal(board4, start.roll((1, 1), (0, 1))))
blinker = torch.zeros(5, 5, dtype=torch.uint8)
blinker[2, 1:4] = 1
print(life_step(blinker), torch.equal(life_step(life_step(blinker)), blinker))
g = torch.Generator().manual_seed(1)
soup = (torch.rand(16, 16, generator=g) < 0.35).to(torch.uint8)
pop = []
for _ in range(20):
    soup = life_step(soup)
    pop.append(int(soup.sum()))
print(pop)
out(board, board4, soup)
# ---
# Mandelbrot and Julia sets with complex tensors: escape-time counts, smooth colouring, area
torch.manual_seed(0)
re = torch.linspace(-2.0, 0.6, 40)
im = torch.linspace(-1.2, 1.2, 24)
c = re[None, :] + 1j * im[:, None]
print(c.dtype, c.shape, c[0, 0])
z = torch.zeros_like(c)
counts = torch.zeros(c.shape, dtype=torch.int32)
alive = torch.ones(c.shape, dtype=torch.bool)
for i in range(50):
    z = torch.where(alive, z * z + c, z)
    escaped = alive & (z.abs() > 2)
    counts[escaped] = i
    alive &= ~escaped
counts[alive] = 50
print(
    f"inside {alive.sum().item()} of {alive.numel()}, area ~"
    f" {alive.float().mean().item() * 2.6 * 2.4:.4f}"
)
rows = [
    "".join("#" if v == 50 else ("+" if v > 8 else ".") for v in row)
    for row in counts[::3, ::2].tolist()
]
print("\n".join(rows))
smooth = counts[~alive].float() + 1 - torch.log2(torch.log(z[~alive].abs()))
print(smooth.shape, f"{smooth.mean().item():.4f}", torch.isfinite(smooth).all())
zj = c.clone()
cj = torch.tensor(-0.8 + 0.156j)
for _ in range(30):
    zj = torch.where(zj.abs() <= 2, zj * zj + cj, zj)
print((zj.abs() <= 2).sum().item(), zj.real.dtype, torch.view_as_real(c).shape, c.conj().is_conj())
out(counts, alive, smooth)
