# Reproducibility: seed_everything, Generators, rng state save/restore, fork_rng, seeded loaders
import random

Dataset, DataLoader = torch.utils.data.Dataset, torch.utils.data.DataLoader


def seed_everything(seed: int = 42):
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
    torch.backends.cudnn.deterministic = True
    torch.backends.cudnn.benchmark = False


seed_everything(123)
a = torch.randn(3)
seed_everything(123)
b = torch.randn(3)
print(torch.equal(a, b), torch.initial_seed())
state = torch.get_rng_state()
print(state.dtype, state.shape)
first = torch.rand(2)
torch.set_rng_state(state)
print(torch.equal(first, torch.rand(2)))
g = torch.Generator().manual_seed(2147483647)
print(g.initial_seed(), torch.randint(0, 10, (5,), generator=g))
g_state = g.get_state()
x1 = torch.randn(2, 2, generator=g)
g.set_state(g_state)
x2 = torch.randn(2, 2, generator=g)
print(torch.equal(x1, x2))
with torch.random.fork_rng():
    torch.manual_seed(0)
    inside = torch.rand(1)
after = torch.rand(1)
torch.set_rng_state(state)
torch.rand(2)
print(torch.equal(after, torch.rand(1)), inside)
out(a, x1, inside)


class Squares(Dataset):
    def __len__(self):
        return 10

    def __getitem__(self, i):
        return torch.tensor(float(i * i)), i


def seed_worker(worker_id):
    worker_seed = torch.initial_seed() % 2**32
    np.random.seed(worker_seed)
    random.seed(worker_seed)


gen = torch.Generator()
gen.manual_seed(0)
loader = DataLoader(
    Squares(), batch_size=4, shuffle=True, worker_init_fn=seed_worker, generator=gen
)
order1 = [idx.tolist() for _, idx in loader]
gen.manual_seed(0)
order2 = [idx.tolist() for _, idx in loader]
print(order1 == order2, [len(o) for o in order1])
perm = torch.randperm(10, generator=torch.Generator().manual_seed(7))
print(
    perm,
    torch.multinomial(
        torch.ones(5), 3, replacement=False, generator=torch.Generator().manual_seed(1)
    ),
)
out(perm)
# ---
# torch.Generator passed to dropout-free samplers, bernoulli, normal_ and the per-module init idiom
torch.manual_seed(0)
g = torch.Generator()
g.manual_seed(42)
w = torch.empty(3, 4)
w.normal_(0.0, 0.02, generator=g)
mask = torch.bernoulli(torch.full((2, 5), 0.3), generator=g)
u = torch.empty(4).uniform_(-1, 1, generator=g)
idx = torch.randint(0, 100, (4,), generator=g)
perm = torch.randperm(6, generator=g)
print(mask, idx, perm)
g2 = torch.Generator().manual_seed(42)
w2 = torch.empty(3, 4).normal_(0.0, 0.02, generator=g2)
print(torch.equal(w, w2))
subset = torch.utils.data.random_split(
    range(10), [7, 3], generator=torch.Generator().manual_seed(42)
)
print([list(s) for s in subset])
sampler = torch.utils.data.RandomSampler(range(6), generator=torch.Generator().manual_seed(3))
print(list(sampler))
print(torch.default_generator.initial_seed())
out(w, mask, u, idx, perm)
