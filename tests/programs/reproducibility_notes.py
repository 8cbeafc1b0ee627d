# controlling sources of randomness: manual_seed makes draws repeat
torch.manual_seed(0)
a = torch.rand(3)
torch.manual_seed(0)
b = torch.rand(3)
out(a, torch.equal(a, b), torch.initial_seed())
g = torch.Generator().manual_seed(42)
c = torch.randn(2, generator=g)
g2 = torch.Generator().manual_seed(42)
out(c, torch.equal(c, torch.randn(2, generator=g2)), g.initial_seed())
state = torch.get_rng_state()
d = torch.rand(2)
torch.set_rng_state(state)
out(torch.equal(d, torch.rand(2)), state.dtype, state.shape)
# ---
# deterministic algorithms: the switch and its queries
out(
    torch.are_deterministic_algorithms_enabled(),
    torch.is_deterministic_algorithms_warn_only_enabled(),
)
torch.use_deterministic_algorithms(True)
out(torch.are_deterministic_algorithms_enabled())
x = torch.zeros(5)
x.index_add_(0, torch.tensor([0, 0, 2]), torch.ones(3))
out(x)
torch.use_deterministic_algorithms(True, warn_only=True)
out(torch.is_deterministic_algorithms_warn_only_enabled())
torch.use_deterministic_algorithms(False)
out(torch.are_deterministic_algorithms_enabled(), torch.get_deterministic_debug_mode())
torch.set_deterministic_debug_mode("warn")
out(torch.get_deterministic_debug_mode())
torch.set_deterministic_debug_mode(0)
out(torch.backends.cudnn.deterministic, torch.backends.cudnn.benchmark)
# ---
# DataLoader workers: a seeded generator and worker_init_fn
import random


def seed_worker(worker_id):
    worker_seed = torch.initial_seed() % 2**32
    np.random.seed(worker_seed)
    random.seed(worker_seed)


g = torch.Generator()
g.manual_seed(0)
data = torch.utils.data.TensorDataset(torch.arange(10.0))
loader = torch.utils.data.DataLoader(
    data, batch_size=3, shuffle=True, num_workers=0, worker_init_fn=seed_worker, generator=g
)
out([b[0] for b in loader])
g.manual_seed(0)
out([b[0] for b in loader])
# ---
# dropout and random ops repeat under the same seed
torch.manual_seed(3)
layer = nn.Dropout(0.5)
x = torch.ones(8)
first = layer(x)
torch.manual_seed(3)
out(first, torch.equal(first, layer(x)), torch.randperm(6), torch.multinomial(torch.ones(4), 2))
with torch.random.fork_rng():
    torch.manual_seed(100)
    inner = torch.rand(1)
out(inner, torch.rand(1))
