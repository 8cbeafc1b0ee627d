# tensors in Python's number protocols: format specs, %-formatting, round, int/float/bool, hash
torch.manual_seed(0)
t = torch.tensor(3.14159)
print("{:.3f}".format(t), "%.2f" % t, f"{t:>10.4f}|", f"{t:e}", format(t, "08.3f"))  # noqa: UP031, UP032
print(
    f"{torch.tensor(7):d}",
    f"{torch.tensor(7):04d}",
    "%d" % torch.tensor(7),  # noqa: UP031
    "%s" % torch.tensor([1, 2]),  # noqa: UP031
)
print(
    f"{torch.tensor([2.5])}",
    f"{torch.tensor(True)}",
    str(torch.tensor(2.0)),
    repr(torch.tensor(-1)),
)
print(round(torch.tensor(2.567).item(), 2), round(float(torch.tensor(2.567)), 1))
err(lambda: round(torch.tensor(2.567), 2))
err(lambda: round(torch.tensor(2.5)))
print(
    int(torch.tensor(3.9)), float(torch.tensor(2)), bool(torch.tensor(0.0)), bool(torch.tensor([1]))
)
print(complex(torch.tensor(1.5)), int(torch.tensor([5])), torch.tensor(5).__index__())
print(abs(torch.tensor(-2.0)), -torch.tensor(3), +torch.tensor(1.0), ~torch.tensor(True))
print(
    divmod(7, 2),
    torch.tensor(7) // 2,
    torch.tensor(-7) // 2,
    torch.tensor(-7) % 3,
    torch.tensor(7.5) % 2,
)
print(2 ** torch.tensor(3.0), torch.tensor(2) ** 3, 1 / torch.tensor(4), 3 - torch.tensor(1.0))
print(list(range(torch.tensor(3))), [0, 1, 2, 3][torch.tensor(2)], "abc"[torch.tensor(1)])
print(max(torch.tensor(1.0), torch.tensor(2.0)), min([torch.tensor(3), torch.tensor(-1)]))
print(sum(torch.tensor([1.0, 2.0, 3.0])), sum([torch.tensor(1.0), torch.tensor(2.0)]))
print(sorted(torch.tensor([3, 1, 2]).tolist()), sorted([torch.tensor(2.0), torch.tensor(1.0)]))
print(
    torch.tensor(2.0) == 2,
    torch.tensor(2.0) > 1.5,
    1.5 < torch.tensor(2.0),  # noqa: SIM300  (the reflected comparison is the point)
    torch.tensor(1) != 1,
)
print(
    torch.tensor([1, 2]) == torch.tensor([1, 3]),
    (torch.tensor([1, 2]) == torch.tensor([1, 2])).all(),
)
d = {torch.tensor(1): "a"}
print(len(d), isinstance(hash(torch.tensor(1)), int))
print(
    3 in torch.tensor([1, 2, 3]),
    5 in torch.tensor([1, 2, 3]),
    torch.tensor(2) in torch.tensor([1, 2]),
)
print(
    len(torch.zeros(4, 2)),
    [v.item() for v in torch.arange(3)],
    list(torch.tensor([[1, 2], [3, 4]])),
)
a, b = torch.tensor([10, 20])
print(a, b, type(a).__name__)
print(np.float32(2.0) * torch.tensor([1.0, 2.0]), torch.tensor([1.0]) * np.int64(3))
print(
    __import__("math").floor(torch.tensor(2.7)), __import__("math").isclose(torch.tensor(0.1), 0.1)
)
err(lambda: float(torch.tensor([1.0, 2.0])))
err(lambda: bool(torch.tensor([1, 2])))
err(lambda: "{:.2f}".format(torch.tensor([1.0, 2.0])))  # noqa: UP032
err(lambda: [1, 2][torch.tensor(1.0)])
err(lambda: int(torch.tensor([])))
out(torch.tensor(7) // 2, torch.tensor(-7) % 3, 2 ** torch.tensor(3.0))
