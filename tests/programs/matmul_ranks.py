# matrix @ batch: torch folds the batch into one mm when the matrix requires grad, then
# copies the transposed result (CloneBackward0; TransposeBackward0 when already contiguous)
a = torch.arange(6.0).reshape(2, 3).requires_grad_()
b = torch.arange(24.0).reshape(2, 3, 4).requires_grad_()
c = torch.arange(6.0).reshape(2, 3, 1).requires_grad_()
y1, y2, y3 = a @ b, a @ c, a.detach() @ b
y4 = a[:1] @ b
out(y1, y2, y3, y4, y1.is_contiguous(), y2.is_contiguous())
(y1.sum() + y2.sum() + y3.sum() + y4.sum()).backward()
out(a.grad, b.grad, c.grad)
# ---
# every rank pair from 1-D to 4-D: values, shapes and nodes
shapes = {1: (3,), 2: (2, 3), 3: (2, 2, 3), 4: (2, 1, 2, 3)}
right = {1: (3,), 2: (3, 2), 3: (2, 3, 2), 4: (1, 2, 3, 2)}
for i in range(1, 5):
    for j in range(1, 5):
        x = torch.linspace(-1, 1, int(np.prod(shapes[i]))).reshape(shapes[i]).requires_grad_()
        y = torch.linspace(0, 2, int(np.prod(right[j]))).reshape(right[j]).requires_grad_()
        out(x @ y, x.detach() @ y, x @ y.detach())
