# torch.compile recipe: compiled functions and modules give the eager results, with their options
torch.manual_seed(0)


def foo(x, y):
    a = torch.sin(x)
    b = torch.cos(y)
    return a + b


opt_foo1 = torch.compile(foo)
print(opt_foo1(torch.randn(3, 3), torch.randn(3, 3)))


@torch.compile
def opt_foo2(x, y):
    a = torch.sin(x)
    b = torch.cos(y)
    return a + b


print(opt_foo2(torch.randn(3, 3), torch.randn(3, 3)))


def inner(x):
    return torch.sin(x)


@torch.compile
def outer(x, y):
    a = inner(x)
    b = torch.cos(y)
    return a + b


print(outer(torch.randn(3, 3), torch.randn(3, 3)))


class MyModule(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(3, 3)

    def forward(self, x):
        return torch.nn.functional.relu(self.lin(x))


mod = MyModule()
mod.compile()
print(mod(torch.randn(3, 3)))
opt_mod = torch.compile(mod, mode="reduce-overhead", fullgraph=False, dynamic=None)
x = torch.randn(4, 3)
print(torch.equal(opt_mod(x), mod(x)))
print(type(opt_mod).__name__, opt_mod._orig_mod is mod)
print(list(dict(opt_mod.named_parameters())))
print(list(opt_mod.state_dict()))


@torch.compiler.disable
def not_compiled(x):
    return x * 2


@torch.compile(backend="eager")
def with_graph_break(x):
    y = x.relu()
    print("a print inside a compiled function", torch.compiler.is_compiling())
    return not_compiled(y) + 1


print(with_graph_break(torch.tensor([-1.0, 2.0])))
torch.compiler.reset()
torch._dynamo.reset()
model = nn.Sequential(nn.Linear(4, 8), nn.GELU(), nn.Linear(8, 2))
compiled = torch.compile(model)
opt = torch.optim.SGD(compiled.parameters(), lr=0.1)
for step in range(3):
    loss = compiled(torch.ones(2, 4)).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} loss {loss.item():.6f}")
out(loss, model[0].weight.grad)
