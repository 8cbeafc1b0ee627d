# forward-mode AD tutorial: dual tensors, modules with dual parameters, a Function with jvp
fwAD = torch.autograd.forward_ad
primal = torch.randn(10, 10)
tangent = torch.randn(10, 10)


def fn(x, y):
    return x**2 + y**2


with fwAD.dual_level():
    dual_input = fwAD.make_dual(primal, tangent)
    assert fwAD.unpack_dual(dual_input).tangent is tangent
    dual_input_alt = fwAD.make_dual(primal, tangent.T)
    assert fwAD.unpack_dual(dual_input_alt).tangent is not tangent
    plain_tensor = torch.randn(10, 10)
    dual_output = fn(dual_input, plain_tensor)
    jvp_ = fwAD.unpack_dual(dual_output).tangent
    print(fwAD.unpack_dual(dual_output).primal.shape, type(fwAD.unpack_dual(dual_output)).__name__)
out(jvp_.tolist()[0], jvp_.shape)
model = nn.Linear(5, 5)
input = torch.randn(16, 5)
params = {name: p for name, p in model.named_parameters()}
tangents = {name: torch.rand_like(p) for name, p in params.items()}
with fwAD.dual_level():
    for name, p in params.items():
        delattr(model, name)
        setattr(model, name, fwAD.make_dual(p, tangents[name]))
    out_ = model(input)
    jvp_ = fwAD.unpack_dual(out_).tangent
print(jvp_[0].detach())
functional_call = torch.func.functional_call
model = nn.Linear(5, 5)
dual_params = {}
with fwAD.dual_level():
    for name, p in params.items():
        dual_params[name] = fwAD.make_dual(p, tangents[name])
    out_ = functional_call(model, dual_params, input)
    jvp_2 = fwAD.unpack_dual(out_).tangent
out(torch.allclose(jvp_, jvp_2))


class Fn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, foo):
        result = torch.exp(foo)
        ctx.result = result
        return result

    @staticmethod
    def jvp(ctx, gI):
        gO = gI * ctx.result
        del ctx.result
        return gO


fn_ = Fn.apply
primal = torch.randn(10, 10, dtype=torch.double, requires_grad=True)
tangent = torch.randn(10, 10)
with fwAD.dual_level():
    dual_input = fwAD.make_dual(primal, tangent)
    dual_output = fn_(dual_input)
    jvp_ = fwAD.unpack_dual(dual_output).tangent
out(jvp_.dtype, torch.allclose(jvp_, tangent * primal.exp()))
print(
    torch.autograd.gradcheck(
        Fn.apply,
        (primal,),
        check_forward_ad=True,
        check_backward_ad=False,
        check_undefined_grad=False,
        check_batched_grad=False,
    )
)
