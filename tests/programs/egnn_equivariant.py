# E(n)-equivariant GNN (EGNN): edge MLP on squared distances, coordinate updates by scatter_add
def unsorted_segment_sum(data, segment_ids, num_segments):
    result_shape = (num_segments, data.size(1))
    result = data.new_full(result_shape, 0)
    segment_ids = segment_ids.unsqueeze(-1).expand(-1, data.size(1))
    result.scatter_add_(0, segment_ids, data)
    return result


def unsorted_segment_mean(data, segment_ids, num_segments):
    result_shape = (num_segments, data.size(1))
    segment_ids = segment_ids.unsqueeze(-1).expand(-1, data.size(1))
    result = data.new_full(result_shape, 0)
    count = data.new_full(result_shape, 0)
    result.scatter_add_(0, segment_ids, data)
    count.scatter_add_(0, segment_ids, torch.ones_like(data))
    return result / count.clamp(min=1)


class E_GCL(nn.Module):
    def __init__(
        self,
        input_nf,
        output_nf,
        hidden_nf,
        edges_in_d=0,
        act_fn=nn.SiLU(),  # noqa: B008
        residual=True,
        attention=False,
        normalize=False,
        coords_agg="mean",
        tanh=False,
    ):
        super().__init__()
        input_edge = input_nf * 2
        self.residual, self.attention, self.normalize = residual, attention, normalize
        self.coords_agg, self.tanh, self.epsilon = coords_agg, tanh, 1e-8
        edge_coords_nf = 1
        self.edge_mlp = nn.Sequential(
            nn.Linear(input_edge + edge_coords_nf + edges_in_d, hidden_nf),
            act_fn,
            nn.Linear(hidden_nf, hidden_nf),
            act_fn,
        )
        self.node_mlp = nn.Sequential(
            nn.Linear(hidden_nf + input_nf, hidden_nf), act_fn, nn.Linear(hidden_nf, output_nf)
        )
        layer = nn.Linear(hidden_nf, 1, bias=False)
        torch.nn.init.xavier_uniform_(layer.weight, gain=0.001)
        coord_mlp = [nn.Linear(hidden_nf, hidden_nf), act_fn, layer]
        if self.tanh:
            coord_mlp.append(nn.Tanh())
        self.coord_mlp = nn.Sequential(*coord_mlp)
        if self.attention:
            self.att_mlp = nn.Sequential(nn.Linear(hidden_nf, 1), nn.Sigmoid())

    def edge_model(self, source, target, radial, edge_attr):
        out_ = (
            torch.cat([source, target, radial], dim=1)
            if edge_attr is None
            else torch.cat([source, target, radial, edge_attr], dim=1)
        )
        out_ = self.edge_mlp(out_)
        if self.attention:
            out_ = out_ * self.att_mlp(out_)
        return out_

    def node_model(self, x, edge_index, edge_attr):
        row, col = edge_index
        agg = unsorted_segment_sum(edge_attr, row, num_segments=x.size(0))
        out_ = self.node_mlp(torch.cat([x, agg], dim=1))
        return x + out_ if self.residual else out_

    def coord_model(self, coord, edge_index, coord_diff, edge_feat):
        row, col = edge_index
        trans = coord_diff * self.coord_mlp(edge_feat)
        if self.coords_agg == "sum":
            agg = unsorted_segment_sum(trans, row, num_segments=coord.size(0))
        else:
            agg = unsorted_segment_mean(trans, row, num_segments=coord.size(0))
        return coord + agg

    def coord2radial(self, edge_index, coord):
        row, col = edge_index
        coord_diff = coord[row] - coord[col]
        radial = torch.sum(coord_diff**2, 1).unsqueeze(1)
        if self.normalize:
            norm = torch.sqrt(radial).detach() + self.epsilon
            coord_diff = coord_diff / norm
        return radial, coord_diff

    def forward(self, h, edge_index, coord, edge_attr=None):
        row, col = edge_index
        radial, coord_diff = self.coord2radial(edge_index, coord)
        edge_feat = self.edge_model(h[row], h[col], radial, edge_attr)
        coord = self.coord_model(coord, edge_index, coord_diff, edge_feat)
        h = self.node_model(h, edge_index, edge_feat)
        return h, coord


def full_edges(n):
    rows, cols = [], []
    for i in range(n):
        for j in range(n):
            if i != j:
                rows.append(i)
                cols.append(j)
    return [torch.LongTensor(rows), torch.LongTensor(cols)]


torch.manual_seed(0)
n = 5
edges = full_edges(n)
print(edges[0][:6], edges[0].dtype)
layers = nn.ModuleList(
    [E_GCL(4, 4, 16, attention=True, normalize=True), E_GCL(4, 4, 16, coords_agg="sum", tanh=True)]
)
h = torch.randn(n, 4)
x = torch.randn(n, 3)
Q, _ = torch.linalg.qr(torch.randn(3, 3))
t = torch.randn(1, 3)


def run(h, x):
    for layer in layers:
        h, x = layer(h, edges, x)
    return h, x


h1, x1 = run(h, x)
h2, x2 = run(h, x @ Q.T + t)
print(torch.allclose(h1, h2, atol=1e-5), torch.allclose(x1 @ Q.T + t, x2, atol=1e-5))
(h1.pow(2).sum() + x1.pow(2).sum()).backward()
out(h1, x1, layers[0].edge_mlp[0].weight.grad, layers[1].coord_mlp[2].weight.grad)
idx = torch.tensor([0, 2, 2, 1])
src = torch.arange(8.0).view(4, 2)
out(
    torch.zeros(3, 2).index_add_(0, idx, src),
    torch.zeros(3, 2).index_add(0, idx, src, alpha=0.5),
    unsorted_segment_mean(src, idx, 4),
)
