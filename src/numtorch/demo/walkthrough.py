"""A guided tour of autograd with numtorch: custom Functions, the graph, hooks, grad."""

from __future__ import annotations

import numtorch as torch
from numtorch.autograd import Function


class Exp(Function):
    @staticmethod
    def forward(ctx, i):
        result = i.exp()
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad_output):
        (result,) = ctx.saved_tensors
        return grad_output * result


class GradCoeff(Function):
    @staticmethod
    def forward(ctx, x, coeff):
        ctx.coeff = coeff
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad_output):
        return ctx.coeff * grad_output, None


def _section(title: str) -> None:
    print(f"\n== {title}")


def main() -> None:
    _section("A custom Function: Exp")
    x = torch.tensor([1.0], requires_grad=True)
    ret = Exp.apply(x)
    ret.backward()
    print("Exp.apply(x) =", ret, " x.grad =", x.grad)

    _section("Scaling a gradient: GradCoeff(x, -0.1) then ** 2")
    x = torch.tensor([2.0], requires_grad=True)
    ret = GradCoeff.apply(x, -0.1) ** 2
    ret.backward()
    print("ret =", ret, " x.grad =", x.grad)

    _section("The graph of F = exp(A * B) + E")
    a = torch.tensor(2.0, requires_grad=True)
    b = torch.tensor(0.5, requires_grad=True)
    e = torch.tensor(1.0, requires_grad=True)
    c = a * b
    d = c.exp()
    f = d + e
    print("F =", f)
    print("is_leaf:", [t.is_leaf for t in (a, b, c, d, e, f)])
    print("F.grad_fn.next_functions:", f.grad_fn.next_functions)
    f.backward()
    print("A.grad, B.grad, E.grad =", a.grad, b.grad, e.grad)

    _section("torch.autograd.grad and a hook")
    a = torch.tensor(2.0, requires_grad=True)
    c = a * 0.5
    handle = c.register_hook(lambda grad: print("  hook sees dD/dC =", grad))
    d = c.exp()
    print("grad(D, (C, A)) =", torch.autograd.grad(d, (c, a), retain_graph=True))
    d.backward()
    handle.remove()

    _section("Second derivative through create_graph")
    x = torch.tensor(3.0, requires_grad=True)
    (dy,) = torch.autograd.grad(x**3, x, create_graph=True)
    (d2y,) = torch.autograd.grad(dy, x)
    print("d/dx x^3 =", dy, " d2/dx2 x^3 =", d2y)
