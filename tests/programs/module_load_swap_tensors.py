# loading recipes: a meta-device model filled with load_state_dict(assign=True), mmap loads,
# swap_tensors and the torch.__future__ conversion switches
import io
import os
import tempfile

m = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
buf = io.BytesIO()
torch.save(m.state_dict(), buf)
buf.seek(0)
with torch.device("meta"):
    meta_m = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
print(meta_m[0].weight.device, meta_m[0].weight.is_meta)
sd = torch.load(buf, weights_only=True)
print(meta_m.load_state_dict(sd, assign=True))
print(meta_m[0].weight.device, type(meta_m[0].weight).__name__, meta_m[0].weight.requires_grad)
out(meta_m(torch.ones(1, 3)))
with tempfile.TemporaryDirectory() as d:
    path = os.path.join(d, "ckpt.pt")
    torch.save(m.state_dict(), path)
    sd2 = torch.load(path, mmap=True, weights_only=True)
    print(sorted(sd2.keys()), sd2["0.bias"].shape)
t = torch.nn.Linear(2, 2)
a = torch.ones(2)
b = torch.zeros(3)
torch.utils.swap_tensors(a, b)
print(a, b)
print(
    torch.__future__.get_overwrite_module_params_on_conversion(),
    torch.__future__.get_swap_module_params_on_conversion(),
)
torch.__future__.set_swap_module_params_on_conversion(True)
lin = nn.Linear(2, 2)
w_id = id(lin.weight)
lin.to(torch.float64)
print(id(lin.weight) == w_id, lin.weight.dtype)
torch.__future__.set_swap_module_params_on_conversion(False)
