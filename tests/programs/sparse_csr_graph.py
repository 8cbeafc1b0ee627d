# a two-layer graph convolution with a normalised adjacency matrix in CSR layout
edges = [(0, 1), (1, 2), (2, 3), (3, 0), (1, 3), (4, 2)]
n = 5
A = torch.eye(n)
for i, j in edges:
    A[i, j] = A[j, i] = 1.0
deg = A.sum(1)
norm = deg.rsqrt()
A_hat = (norm[:, None] * A * norm[None, :]).to_sparse_csr()
print(A_hat)
out(str(A_hat.layout), A_hat.is_sparse, A_hat.is_sparse_csr, A_hat._nnz())
out(A_hat.crow_indices(), A_hat.col_indices(), A_hat.values())
X = torch.linspace(-1, 1, n * 3).reshape(n, 3)
W1 = torch.tensor(
    [[0.5, -0.3, 0.2, 0.1], [0.4, 0.1, -0.5, 0.3], [-0.2, 0.6, 0.3, -0.1]], requires_grad=True
)
W2 = torch.tensor([[0.3, -0.2], [0.1, 0.4], [-0.5, 0.2], [0.2, 0.1]], requires_grad=True)
labels = torch.tensor([0, 1, 0, 1, 1])
opt = torch.optim.Adam([W1, W2], lr=0.05)
for step in range(5):
    opt.zero_grad()
    h = torch.relu(A_hat @ (X @ W1))
    logits = torch.mm(A_hat, h @ W2)
    loss = F.cross_entropy(logits, labels)
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 5))
out(logits, logits.grad_fn.name(), W1.grad, W2)
# ---
# building CSR matrices directly, converting between layouts, products with vectors
crow = torch.tensor([0, 2, 2, 5])
col = torch.tensor([0, 3, 1, 2, 3])
vals = torch.tensor([1.0, -2.0, 0.5, 4.0, 3.0])
S = torch.sparse_csr_tensor(crow, col, vals, (3, 4))
print(S)
out(S.to_dense(), S @ torch.tensor([1.0, 2.0, 3.0, 4.0]), S.shape)
coo = S.to_sparse()
print(coo)
out(coo.to_sparse_csr().crow_indices(), (S * 2).values(), (S + S).to_dense())
print(torch.sparse_csr_tensor([0, 1, 1], [2], [5.0]))
print(torch.zeros(2, 3).to_sparse_csr())
d = torch.tensor([[1.0, 0.0], [0.0, 0.0], [2.0, 3.0]], dtype=torch.float64).to_sparse_csr()
print(d)
err(lambda: S @ torch.ones(3, 2))
# ---
# hybrid COO tensors (sparse rows of dense feature vectors): sums, selection and cat over
# dense dims, transposes, and gradients reaching the values
idx = torch.tensor([[0, 2, 2, 3], [1, 0, 2, 1]])
feats = torch.tensor(
    [[1.0, -2.0, 0.5], [0.0, 3.0, 1.0], [2.0, 2.0, -1.0], [0.5, 0.0, 4.0]], requires_grad=True
)
H = torch.sparse_coo_tensor(idx, feats, (4, 3, 3))
print(H.sparse_dim(), H.dense_dim())
per_entry = torch.sparse.sum(H, dim=2)
per_row = torch.sparse.sum(H, dim=(1, 2))
print(per_entry)
print(per_row)
out(torch.sparse.sum(H, dim=0).to_dense(), torch.sparse.sum(H, dim=(0, 1)).detach())
picked = H.index_select(2, torch.tensor([2, 0]))
print(picked)
joined = torch.cat([H, H * 2], 2)
print(joined)
swapped = torch.sparse_coo_tensor(idx[:1], feats.reshape(4, 3, 1).expand(4, 3, 2), (4, 3, 2))
err(lambda: swapped.transpose(1, 2))
loss = per_row.to_dense().pow(2).sum() + per_entry.to_dense().sum()
loss.backward()
out(loss, feats.grad)
err(lambda: H.transpose(0, 2))
# ---
# graph attention over a sparse adjacency: edge scores normalised with torch.sparse.softmax
src = torch.tensor([0, 0, 1, 2, 2, 3, 3, 4, 1, 2, 3, 4])
dst = torch.tensor([1, 2, 2, 3, 0, 4, 0, 2, 1, 2, 3, 4])
X = torch.cos(torch.arange(15, dtype=torch.float32).reshape(5, 3))
W = torch.tensor([[0.4, -0.2], [0.3, 0.5], [-0.1, 0.2]], requires_grad=True)
a = torch.tensor([0.7, -0.3, 0.2, 0.9], requires_grad=True)
H = X @ W
scores = F.leaky_relu(torch.cat([H[dst], H[src]], dim=1) @ a, 0.2)
att = torch.sparse.softmax(torch.sparse_coo_tensor(torch.stack([dst, src]), scores, (5, 5)), dim=1)
print(att)
out_h = torch.sparse.mm(att, H)
log_att = torch.sparse.log_softmax(
    torch.sparse_coo_tensor(torch.stack([dst, src]), scores, (5, 5)), 1
)
loss = out_h.pow(2).sum() - log_att.to_dense().sum()
loss.backward()
out(att.to_dense(), out_h, W.grad, a.grad)
