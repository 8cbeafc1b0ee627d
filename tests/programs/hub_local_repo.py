# torch.hub with a local repository: a hubconf.py that imports its own module, entry points
# with arguments, dependency checks, and a checkpoint already in the hub cache
import os
import tempfile

repo = tempfile.mkdtemp()
helper = f"hub_blocks_{torch.__name__}"  # one module name per library in one process
with open(os.path.join(repo, helper + ".py"), "w") as f:
    f.write(
        f"import {torch.__name__} as torch\n\n\n"
        "def mlp(width, depth):\n"
        "    layers = [torch.nn.Linear(4, width), torch.nn.ReLU()]\n"
        "    for _ in range(depth - 1):\n"
        "        layers += [torch.nn.Linear(width, width), torch.nn.ReLU()]\n"
        "    return torch.nn.Sequential(*layers, torch.nn.Linear(width, 2))\n"
    )
with open(os.path.join(repo, "hubconf.py"), "w") as f:
    f.write(
        "dependencies = ['numpy']\n"
        f"from {helper} import mlp\n\n\n"
        "def small_mlp(width=8, depth=2, seed=0):\n"
        "    '''A small MLP for tests.'''\n"
        f"    import {torch.__name__} as torch\n"
        "    torch.manual_seed(seed)\n"
        "    return mlp(width, depth)\n\n\n"
        "def _hidden():\n"
        "    pass\n"
    )
model = torch.hub.load(repo, "small_mlp", 5, source="local", depth=3)
print(model)
x = torch.linspace(-1, 1, 12).reshape(3, 4)
out(model(x))
err(lambda: torch.hub.load(repo, "_hidden_missing", source="local"))
err(lambda: torch.hub.load(repo, "small_mlp", source="gitlab"))
err(lambda: torch.hub.load(repo, 3, source="local"))
with open(os.path.join(repo, "hubconf.py"), "a") as f:
    f.write("dependencies = ['numpy', 'a_package_that_is_not_installed']\n")
err(lambda: torch.hub.load(repo, "small_mlp", source="local"))
# ---
# load_state_dict_from_url finds a checkpoint already in <hub_dir>/checkpoints
import os
import tempfile

old = torch.hub.get_dir()
hub_dir = tempfile.mkdtemp()
torch.hub.set_dir(hub_dir)
print(torch.hub.get_dir() == hub_dir)
os.makedirs(os.path.join(hub_dir, "checkpoints"))
torch.manual_seed(0)
net = nn.Linear(3, 2)
torch.save(net.state_dict(), os.path.join(hub_dir, "checkpoints", "linear-0a1b2c3d.pth"))
state = torch.hub.load_state_dict_from_url(
    "https://example.com/weights/linear-0a1b2c3d.pth", weights_only=True
)
fresh = nn.Linear(3, 2)
print(fresh.load_state_dict(state))
out(fresh.weight, fresh.bias, sorted(state))
torch.hub.set_dir(old)
