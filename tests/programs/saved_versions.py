# sgn saves its input and result (torch's formula reads both for complex inputs): an in-place
# change to a view of the result makes backward raise
x = torch.tensor([[0.5, 1.0], [-1.0, 0.3]], dtype=torch.float64, requires_grad=True)
y = x * 1
v = y[..., 1:]
v.sgn_()
w = v.unsqueeze(0)
w.sin_()
err(lambda: ((v * 3).sum() + (w * 2).sum()).backward())
# ---
# sign saves nothing: the same program runs
x = torch.tensor([[0.5, 1.0], [-1.0, 0.3]], dtype=torch.float64, requires_grad=True)
y = x * 1
v = y[..., 1:]
v.sign_()
v.unsqueeze(0).sin_()
((v * 3).sum()).backward()
out(x.grad)
