# window functions and combinations
for name in [
    "hann_window",
    "hamming_window",
    "blackman_window",
    "bartlett_window",
    "kaiser_window",
]:
    fn = getattr(torch, name)
    out(
        fn(5),
        fn(6, periodic=False),
        fn(4, dtype=torch.float64),
        fn(1),
        fn(0),
        fn(3, requires_grad=True),
    )
    err(lambda: fn(3, dtype=torch.int64))
out(torch.kaiser_window(6, True, 5.0), torch.hamming_window(5, False, 0.5, 0.5))
x = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
c = torch.combinations(x)
(c * torch.arange(12.0).reshape(6, 2)).sum().backward()
out(c, x.grad, torch.combinations(torch.tensor([1, 2, 3]), r=3), torch.combinations(x, r=3).shape)
out(torch.combinations(torch.tensor([1, 2, 3]), with_replacement=True), torch.combinations(x, r=0))
out(torch.combinations(torch.tensor([1, 2]), r=3), torch.combinations(torch.tensor([5]), r=1))
err(lambda: torch.combinations(torch.ones(2, 2)))
err(lambda: torch.combinations(x, r=-1))
# ---
# window functions
for f in (torch.hann_window, torch.hamming_window, torch.blackman_window, torch.bartlett_window):
    out(f(0), f(1), f(2), f(5), f(6, False), f(7, True), f(5, dtype=torch.float64))
    out(f(5, requires_grad=True), f(8, periodic=False, dtype=torch.float64))
    err(lambda: f(5, dtype=torch.int64))
    err(lambda: f(-1))
    err(lambda: f(4.0))
out(torch.kaiser_window(0), torch.kaiser_window(1), torch.kaiser_window(6, dtype=torch.float64))
out(torch.kaiser_window(6, False, 5.0, dtype=torch.float64), torch.kaiser_window(7, True, 3.0))
out(torch.hamming_window(6, True, 0.6), torch.hamming_window(6, False, 0.6, 0.3))
err(lambda: torch.hamming_window(6, alpha=0.6, beta=0.3))
err(lambda: torch.kaiser_window(6, beta=5.0))
err(lambda: torch.hann_window(5, True, torch.float64))
