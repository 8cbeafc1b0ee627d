# as_subclass keeps a tensor in the graph as an alias of another class
class Tagged(torch.Tensor):
    def describe(self):
        return f"tagged {tuple(self.shape)}"


x = torch.ones(2, requires_grad=True)
y = x * 2
z = y.as_subclass(Tagged)
print(type(z).__name__, z.describe(), type(z.grad_fn).__name__, z.requires_grad, z.is_leaf)
w = x.as_subclass(Tagged)
out(type(w.grad_fn).__name__, w.is_leaf, w.requires_grad)
(z * 3).sum().backward()
out(x.grad, type(torch.ones(2).as_subclass(Tagged).grad_fn).__name__)
err(lambda: torch.ones(2).as_subclass(int))
# ---
# accelerator moves a CPU build refuses, is_set_to, deprecated resize
err(lambda: torch.ones(2).xpu())
err(lambda: torch.ones(2).ipu())
err(lambda: torch.ones(2).mtia())
a = torch.ones(2, 3)
out(
    a.is_set_to(a),
    a.is_set_to(a.view(2, 3)),
    a.is_set_to(a[:]),
    a.is_set_to(a.clone()),
    a.is_set_to(a.t()),
)
out(torch.arange(3.0).resize(1, 3), torch.arange(4.0).resize_as(torch.ones(2, 2)))
# ---
# sparse-layout queries of a dense tensor, and nonzero_static's fixed-size result
x = torch.ones(2, 3)
out(x.sparse_dim(), x.dense_dim(), x.to_sparse().sparse_dim(), x.to_sparse(1).dense_dim())
err(lambda: x.indices())
err(lambda: x.values())
err(lambda: x.coalesce())
err(lambda: x.is_coalesced())
out(x.to_sparse().coalesce().values(), x.to_sparse().indices(), x.to_sparse().is_coalesced())
out(torch.nonzero_static(torch.tensor([0, 1, 2, 0]), size=4))
out(torch.nonzero_static(torch.tensor([[0, 1], [2, 0]]), size=1, fill_value=7))
out(torch.tensor([1.0, 0.0, 2.0]).nonzero_static(size=3, fill_value=-5))
out(torch.nonzero_static(torch.tensor(3.0), size=2))
err(lambda: torch.nonzero_static(torch.ones(2), size=-1))
err(lambda: torch.nonzero_static(torch.ones(2)))
