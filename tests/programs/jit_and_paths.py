# traced models run eagerly; module paths programs import from
import importlib
import warnings

# the program runs under both libraries: import the paths from the one named torch here
PixelShuffle = importlib.import_module(f"{torch.__name__}.nn.modules.pixelshuffle").PixelShuffle
_pair = importlib.import_module(f"{torch.__name__}.nn.modules.utils")._pair


class SuperResolution(nn.Module):
    def __init__(self, upscale):
        super().__init__()
        self.conv = nn.Conv2d(1, upscale**2, kernel_size=_pair(3), padding=_pair(1))
        self.shuffle = PixelShuffle(upscale)

    @torch.jit.ignore
    def describe(self):
        return "super resolution"

    def forward(self, x):
        return self.shuffle(torch.tanh(self.conv(x)))


model = SuperResolution(2)
with torch.no_grad():
    model.conv.weight.copy_(torch.linspace(-0.5, 0.5, 36).reshape(4, 1, 3, 3))
    model.conv.bias.fill_(0.1)
image = torch.arange(9.0).reshape(1, 1, 3, 3) / 9
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    traced = torch.jit.trace(model, image)
out(traced(image), model(image).shape, model.describe())
out(torch.jit.is_scripting(), torch.jit.is_tracing(), _pair(4), _pair((1, 2)))
# ---
# torch.dist records one node
a = torch.tensor([[1.0, -2.0], [3.0, 4.0]], requires_grad=True)
b = torch.tensor([0.5, 1.0], requires_grad=True)
d = torch.dist(a, b)
d3 = torch.dist(a, b, 3)
(d + d3).backward()
out(d, d3, a.grad, b.grad, torch.dist(a, b, float("inf")))
err(lambda: torch.dist(torch.tensor([1, 2]), torch.tensor([0, 0])))
