# d2l file I/O: saving tensors, lists and dicts, then an MLP's parameters loaded into a clone
import os
import tempfile

tmp = tempfile.mkdtemp()
path = os.path.join(tmp, "x-file")
x = torch.arange(4)
torch.save(x, path)
x2 = torch.load(path)
print(x2)

y = torch.zeros(4)
torch.save([x, y], os.path.join(tmp, "x-files"))
x2, y2 = torch.load(os.path.join(tmp, "x-files"))
print((x2, y2))

mydict = {"x": x, "y": y}
torch.save(mydict, os.path.join(tmp, "mydict"))
mydict2 = torch.load(os.path.join(tmp, "mydict"))
print(mydict2)


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.hidden = nn.Linear(20, 256)
        self.output = nn.Linear(256, 10)

    def forward(self, x):
        return self.output(F.relu(self.hidden(x)))


net = MLP()
X = torch.randn(size=(2, 20))
Y = net(X)
torch.save(net.state_dict(), os.path.join(tmp, "mlp.params"))
clone = MLP()
result = clone.load_state_dict(torch.load(os.path.join(tmp, "mlp.params"), weights_only=True))
print(result)
print(clone.eval())
Y_clone = clone(X)
print(Y_clone == Y)
print(sorted(os.listdir(tmp)))
out(Y_clone, Y)


# ---
# d2l GPUs chapter on a CPU-only machine: try_gpu falls back to the CPU, devices of tensors/params
def cpu():
    return torch.device("cpu")


def gpu(i=0):
    return torch.device(f"cuda:{i}")


def num_gpus():
    return torch.cuda.device_count()


def try_gpu(i=0):
    if num_gpus() >= i + 1:
        return gpu(i)
    return cpu()


def try_all_gpus():
    return [gpu(i) for i in range(num_gpus())]


print(cpu(), gpu(), gpu(1))
print(num_gpus(), torch.cuda.is_available())
print(try_gpu(), try_gpu(10), try_all_gpus())
x = torch.tensor([1, 2, 3])
print(x.device)
X = torch.ones(2, 3, device=try_gpu())
print(X)
Y = torch.rand(2, 3, device=try_gpu())
Z = X.to(try_gpu())
print(Z is X, X.cpu() is X, X.to("cpu", copy=True) is X)
print(Y + Z)
net = nn.Sequential(nn.LazyLinear(1))
net = net.to(device=try_gpu())
print(net(X).device, net[0].weight.data.device)
print(gpu(), gpu().type, gpu().index, cpu().index)
print(torch.device("cpu") == torch.device("cpu", 0), torch.device("cuda") == gpu(0))
err(lambda: torch.ones(2, device=gpu()))
err(lambda: X.cuda())
out(net(X), X.device)
