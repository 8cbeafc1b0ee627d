# the legacy sparse constructors old graph-network code builds adjacency matrices with
edges = torch.tensor([[0, 1, 2, 2], [1, 0, 0, 1]])
weights = torch.tensor([1.0, 2.0, 3.0, 4.0])
adj = torch.sparse.FloatTensor(edges, weights, torch.Size([3, 3]))
print(adj)
print(
    adj.type(),
    adj.dtype,
    isinstance(adj, torch.sparse.FloatTensor),
    isinstance(adj, torch.FloatTensor),
)
out(isinstance(adj, torch.sparse.DoubleTensor), isinstance(torch.ones(2), torch.sparse.FloatTensor))
features = torch.randn(3, 2, requires_grad=True)
hidden = torch.spmm(adj, features)
hidden.sum().backward()
out(hidden, features.grad)
out(torch.sparse.LongTensor(edges, torch.tensor([1, 2, 3, 4]), (3, 3)).to_dense())
out(
    torch.sparse.FloatTensor(edges, weights).to_dense(),
    torch.sparse.FloatTensor(edges, weights).shape,
)
print(torch.sparse.FloatTensor(2, 3))
print(torch.sparse.DoubleTensor(torch.Size([2, 3])).shape, torch.sparse.FloatTensor().shape)
print(torch.sparse.FloatTensor)
