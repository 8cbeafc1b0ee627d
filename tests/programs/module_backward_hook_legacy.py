# the deprecated Module.register_backward_hook, as older Grad-CAM and debugging code uses it:
# the hook sees the gradients of the module's last node, and torch warns where they miss some
import warnings


class TwoStep(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 3)

    def forward(self, x):
        return self.fc(x).relu() * 2


torch.manual_seed(0)
layer = nn.Linear(4, 3)
seen = []


def record(module, grad_input, grad_output):
    seen.append((type(module).__name__, [None if g is None else g.shape for g in grad_input]))
    seen.append([g.sum().item() for g in grad_output])


handle = layer.register_backward_hook(record)
x = torch.randn(2, 4, requires_grad=True)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    y = layer(x)
out([str(w.message)[:60] for w in caught], [w.category.__name__ for w in caught])
y.pow(2).sum().backward()
out(seen, x.grad)

# a hook that scales the gradients it is given replaces them
seen.clear()
x.grad = None
handle.remove()
layer.register_backward_hook(lambda m, gi, go: tuple(None if g is None else g * 10 for g in gi))
layer(x).sum().backward()
out(x.grad, layer.bias.grad)

# several nodes in forward: the hook sees only the last one's gradients, with a FutureWarning
model = TwoStep()
model.register_backward_hook(record)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    z = model(torch.randn(2, 4, requires_grad=True))
out([str(w.message)[:70] for w in caught], [w.category.__name__ for w in caught])
z.sum().backward()
out(seen)

# mixing the two kinds on one module is refused
err(lambda: model.register_full_backward_hook(record))
full = nn.Linear(2, 2)
full.register_full_backward_hook(record)
err(lambda: full.register_backward_hook(record))
