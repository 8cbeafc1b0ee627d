# unique and unique_consecutive: flags, dims, 0-d and empty inputs, errors
x = torch.tensor([3, 1, 2, 3, 1, 5, 5, 0])
m = torch.tensor([[1.0, 2.0], [1.0, 2.0], [0.0, 5.0], [1.0, 3.0]], requires_grad=True)
flags = [
    {},
    dict(sorted=False),
    dict(return_inverse=True),
    dict(return_counts=True),
    dict(return_inverse=True, return_counts=True),
    dict(dim=0),
    dict(dim=-1),
    dict(dim=0, return_inverse=True, return_counts=True),
    dict(dim=1, return_counts=True),
    dict(dim=2),
]
for t in [
    x,
    m,
    torch.tensor([True, False, True]),
    torch.tensor([]),
    torch.tensor(3.0),
    torch.zeros(0, 3),
    torch.zeros(2, 0),
]:
    for kw in flags:
        err(lambda: torch.unique(t, **kw))
        err(lambda: t.unique(**kw))
        kw = {k: v for k, v in kw.items() if k != "sorted"}
        err(lambda: torch.unique_consecutive(t, **kw))
        err(lambda: t.unique_consecutive(**kw))
out(torch.unique(x, False, True), torch.unique(x, True, False, True, 0))
out(torch.unique(torch.tensor([[2, 1], [1, 2], [2, 1]]), dim=1, return_inverse=True))
