# forward-mode AD tutorial: dual tensors through a function
fwAD = torch.autograd.forward_ad

primal = torch.tensor([[0.3, -1.2, 0.5], [1.1, 0.2, -0.7]])
tangent = torch.tensor([[1.0, 0.5, -0.5], [0.25, -1.0, 2.0]])


def fn(x, y):
    return x**2 + y**2


with fwAD.dual_level():
    dual_input = fwAD.make_dual(primal, tangent)
    dual_output = fn(dual_input, torch.ones(2, 3))
    jvp = fwAD.unpack_dual(dual_output).tangent
    out(fwAD.unpack_dual(dual_output).primal, jvp)
    out(type(fwAD.unpack_dual(dual_output)).__name__, fwAD.unpack_dual(dual_output)._fields)
    # a plain tensor has no tangent; the primal of an unpacked dual has none either
    out(fwAD.unpack_dual(primal).tangent is None)
    out(fwAD.unpack_dual(fwAD.unpack_dual(dual_input).primal).tangent is None)
    # a chain of math, softmax and a matrix product
    w = torch.tensor([[0.5, -1.0], [2.0, 0.25], [-0.3, 0.8]])
    y = torch.softmax(torch.tanh(dual_input @ w).exp(), dim=-1).sum(0)
    out(fwAD.unpack_dual(y).tangent)
# tangents are gone once the level exits
out(fwAD.unpack_dual(dual_output).tangent is None)

# ---
# forward-mode AD tutorial: errors
fwAD = torch.autograd.forward_ad
x = torch.randn(3)
err(lambda: fwAD.make_dual(x, torch.ones(3)))
with fwAD.dual_level():
    err(lambda: fwAD.make_dual(x, torch.ones(4)))
    err(lambda: fwAD.make_dual(x, torch.ones(3, dtype=torch.int64)))
    err(lambda: fwAD.make_dual(torch.arange(3), torch.ones(3)))
    err(lambda: fwAD.enter_dual_level())
err(lambda: fwAD.exit_dual_level(level=0))
level = fwAD.enter_dual_level()
out(level)
fwAD.exit_dual_level()

# ---
# forward-mode AD tutorial: modules, with functional_call and dual parameters
fwAD = torch.autograd.forward_ad
functional_call = torch.func.functional_call

torch.manual_seed(0)
model = nn.Linear(5, 5)
with torch.no_grad():
    model.weight.copy_(torch.linspace(-1, 1, 25).reshape(5, 5))
    model.bias.copy_(torch.linspace(0, 0.4, 5))
input = torch.linspace(-2, 2, 15).reshape(3, 5)
params = {name: p for name, p in model.named_parameters()}
tangents = {name: torch.full_like(p, 0.1) for name, p in params.items()}

with fwAD.dual_level():
    dual_params = {name: fwAD.make_dual(p, tangents[name]) for name, p in params.items()}
    result = functional_call(model, dual_params, (input,))
    jvp = fwAD.unpack_dual(result).tangent
    out(jvp.detach())

# ---
# forward-mode AD tutorial: a custom Function with jvp and save_for_forward
fwAD = torch.autograd.forward_ad


class Fn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, foo):
        result = torch.exp(foo)
        # tensors needed by jvp go through save_for_forward
        ctx.result = result
        ctx.save_for_forward(result)
        return result

    @staticmethod
    def jvp(ctx, gI):
        (result,) = ctx.saved_tensors
        return gI * result

    @staticmethod
    def backward(ctx, gO):
        return gO * ctx.result


class NoJvp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return g * 2


primal = torch.tensor([0.5, -1.0, 2.0], dtype=torch.double)
tangent = torch.tensor([1.0, 2.0, -1.0], dtype=torch.double)
with fwAD.dual_level():
    dual_input = fwAD.make_dual(primal, tangent)
    dual_output = Fn.apply(dual_input)
    jvp = fwAD.unpack_dual(dual_output).tangent
    out(jvp)
    out(torch.allclose(jvp, tangent * primal.exp()))
    err(lambda: NoJvp.apply(dual_input))
