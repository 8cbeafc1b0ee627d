"""What a user writes: checked by a type checker (tests/test_stubs.py), never executed by it.

``reveal_type`` lines are read back by the test: each must name a real type, not ``Any``.
"""

from typing import TYPE_CHECKING

import numtorch as torch
from numtorch import nn, optim
from numtorch.autograd import Function
from numtorch.func import grad as func_grad
from numtorch.utils.data import DataLoader, TensorDataset

if TYPE_CHECKING:
    from typing import reveal_type


class Square(Function):
    @staticmethod
    def forward(ctx, x: torch.Tensor) -> torch.Tensor:
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx, grad: torch.Tensor) -> torch.Tensor:
        (x,) = ctx.saved_tensors
        return 2 * x * grad


class Net(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fc = nn.Linear(4, 2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc(x).relu()


def train() -> float:
    torch.manual_seed(0)
    x = torch.randn(8, 4, requires_grad=True)
    y = torch.exp(x)
    s = x.sum()
    m = x.mean(dim=0, keepdim=True)
    z = (x @ x.T + 1.0) * 2 - y / 3
    w = x.reshape(2, 16).view(32).unsqueeze(0).clone().detach()
    model = Net()
    out = model(x)
    opt = optim.SGD(model.parameters(), lr=0.1)
    loss = nn.functional.mse_loss(out, torch.zeros(8, 2))
    opt.zero_grad()
    loss.backward()
    opt.step()
    sq = Square.apply(x)
    g = func_grad(lambda t: (t * t).sum())(torch.ones(3))
    with torch.no_grad():
        x.add_(1.0)
    data = DataLoader(TensorDataset(x.detach(), out.detach()), batch_size=4)
    shape = x.shape
    largest = torch.max(x)
    values, indices = torch.max(x, dim=1)
    top = x.topk(2, dim=0)
    grid = torch.zeros(2, 3) + torch.zeros((2, 3), dtype=torch.float64) + torch.ones(x.shape[1:])
    rows = x.size(0)
    into = torch.exp(x, out=torch.empty(8, 4))
    half = x.view(torch.float16).view(-1) * torch.pi
    flags = torch.zeros(3, dtype=torch.bool)
    (dx,) = torch.autograd.grad((x * x).sum(), x)
    solved = torch.linalg.solve(torch.eye(3), torch.ones(3)) + torch.fft.rfft(torch.ones(4)).abs()
    squashed = torch.special.expit(x)
    if TYPE_CHECKING:
        reveal_type(y)
        reveal_type(s)
        reveal_type(m)
        reveal_type(z)
        reveal_type(w)
        reveal_type(out)
        reveal_type(x.grad)
        reveal_type(shape)
        reveal_type(largest)
        reveal_type(values)
        reveal_type(indices)
        reveal_type(top.values)
        reveal_type(grid)
        reveal_type(rows)
        reveal_type(into)
        reveal_type(half)
        reveal_type(flags)
        reveal_type(dx)
        reveal_type(solved)
        reveal_type(squashed)
    return float(dx.sum() + solved.sum() + squashed.sum()) + (
        float(loss.item()) + rows + len(list(data)) + float(sq.sum().item()) + float(g.sum().item())
    )
