# Deformable DETR multi-scale deformable attention: sampling offsets, grid_sample per level
def ms_deform_attn_core_pytorch(value, value_spatial_shapes, sampling_locations, attention_weights):
    N_, S_, M_, D_ = value.shape
    _, Lq_, M_, L_, P_, _ = sampling_locations.shape
    value_list = value.split([H_ * W_ for H_, W_ in value_spatial_shapes], dim=1)
    sampling_grids = 2 * sampling_locations - 1
    sampling_value_list = []
    for lid_, (H_, W_) in enumerate(value_spatial_shapes):
        value_l_ = value_list[lid_].flatten(2).transpose(1, 2).reshape(N_ * M_, D_, H_, W_)
        sampling_grid_l_ = sampling_grids[:, :, :, lid_].transpose(1, 2).flatten(0, 1)
        sampling_value_l_ = F.grid_sample(
            value_l_, sampling_grid_l_, mode="bilinear", padding_mode="zeros", align_corners=False
        )
        sampling_value_list.append(sampling_value_l_)
    attention_weights = attention_weights.transpose(1, 2).reshape(N_ * M_, 1, Lq_, L_ * P_)
    output = (
        (torch.stack(sampling_value_list, dim=-2).flatten(-2) * attention_weights)
        .sum(-1)
        .view(N_, M_ * D_, Lq_)
    )
    return output.transpose(1, 2).contiguous()


class MSDeformAttn(nn.Module):
    def __init__(self, d_model=16, n_levels=2, n_heads=2, n_points=3):
        super().__init__()
        self.d_model, self.n_levels, self.n_heads, self.n_points = (
            d_model,
            n_levels,
            n_heads,
            n_points,
        )
        self.sampling_offsets = nn.Linear(d_model, n_heads * n_levels * n_points * 2)
        self.attention_weights = nn.Linear(d_model, n_heads * n_levels * n_points)
        self.value_proj = nn.Linear(d_model, d_model)
        self.output_proj = nn.Linear(d_model, d_model)
        self._reset_parameters()

    def _reset_parameters(self):
        nn.init.constant_(self.sampling_offsets.weight.data, 0.0)
        thetas = torch.arange(self.n_heads, dtype=torch.float32) * (2.0 * torch.pi / self.n_heads)
        grid_init = torch.stack([thetas.cos(), thetas.sin()], -1)
        grid_init = (
            (grid_init / grid_init.abs().max(-1, keepdim=True)[0])
            .view(self.n_heads, 1, 1, 2)
            .repeat(1, self.n_levels, self.n_points, 1)
        )
        for i in range(self.n_points):
            grid_init[:, :, i, :] *= i + 1
        with torch.no_grad():
            self.sampling_offsets.bias = nn.Parameter(grid_init.view(-1))
        nn.init.constant_(self.attention_weights.weight.data, 0.0)
        nn.init.constant_(self.attention_weights.bias.data, 0.0)
        nn.init.xavier_uniform_(self.value_proj.weight.data)
        nn.init.constant_(self.value_proj.bias.data, 0.0)
        nn.init.xavier_uniform_(self.output_proj.weight.data)
        nn.init.constant_(self.output_proj.bias.data, 0.0)

    def forward(
        self, query, reference_points, input_flatten, input_spatial_shapes, input_padding_mask=None
    ):
        N, Len_q, _ = query.shape
        N, Len_in, _ = input_flatten.shape
        assert (input_spatial_shapes[:, 0] * input_spatial_shapes[:, 1]).sum() == Len_in
        value = self.value_proj(input_flatten)
        if input_padding_mask is not None:
            value = value.masked_fill(input_padding_mask[..., None], float(0))
        value = value.view(N, Len_in, self.n_heads, self.d_model // self.n_heads)
        sampling_offsets = self.sampling_offsets(query).view(
            N, Len_q, self.n_heads, self.n_levels, self.n_points, 2
        )
        attention_weights = self.attention_weights(query).view(
            N, Len_q, self.n_heads, self.n_levels * self.n_points
        )
        attention_weights = F.softmax(attention_weights, -1).view(
            N, Len_q, self.n_heads, self.n_levels, self.n_points
        )
        offset_normalizer = torch.stack(
            [input_spatial_shapes[..., 1], input_spatial_shapes[..., 0]], -1
        )
        sampling_locations = (
            reference_points[:, :, None, :, None, :]
            + sampling_offsets / offset_normalizer[None, None, None, :, None, :]
        )
        output = ms_deform_attn_core_pytorch(
            value, input_spatial_shapes.tolist(), sampling_locations, attention_weights
        )
        return self.output_proj(output), sampling_locations


torch.manual_seed(0)
attn = MSDeformAttn()
shapes = torch.as_tensor([[4, 4], [2, 3]], dtype=torch.long)
level_start_index = torch.cat((shapes.new_zeros((1,)), shapes.prod(1).cumsum(0)[:-1]))
print(level_start_index, attn.sampling_offsets.bias[:6])
src = torch.randn(2, int(shapes.prod(1).sum()), 16, requires_grad=True)
query = torch.randn(2, 5, 16)
ref = torch.rand(2, 5, 2, 2)
mask = torch.zeros(2, src.shape[1], dtype=torch.bool)
mask[1, -3:] = True
out_, locs = attn(query, ref, src, shapes, mask)
print(out_.shape, locs.shape, f"{locs.min().item():.4f} {locs.max().item():.4f}")
out_.pow(2).sum().backward()
out(out_, src.grad, attn.sampling_offsets.weight.grad, attn.attention_weights.weight.grad)


def get_reference_points(spatial_shapes, valid_ratios):
    reference_points_list = []
    for lvl, (H_, W_) in enumerate(spatial_shapes):
        ref_y, ref_x = torch.meshgrid(
            torch.linspace(0.5, H_ - 0.5, H_, dtype=torch.float32),
            torch.linspace(0.5, W_ - 0.5, W_, dtype=torch.float32),
            indexing="ij",
        )
        ref_y = ref_y.reshape(-1)[None] / (valid_ratios[:, None, lvl, 1] * H_)
        ref_x = ref_x.reshape(-1)[None] / (valid_ratios[:, None, lvl, 0] * W_)
        reference_points_list.append(torch.stack((ref_x, ref_y), -1))
    reference_points = torch.cat(reference_points_list, 1)
    return reference_points[:, :, None] * valid_ratios[:, None]


valid_ratios = torch.tensor([[[1.0, 1.0], [1.0, 1.0]], [[0.75, 1.0], [0.5, 1.0]]])
refs = get_reference_points(shapes.tolist(), valid_ratios)
print(refs.shape)
out(refs)
g = torch.tensor([[[[-1.0, -1.0], [0.0, 0.0], [1.0, 1.0], [1.2, -0.3]]]])
img = torch.arange(6.0).view(1, 1, 2, 3)
for ac in (False, True):
    for pm in ("zeros", "border", "reflection"):
        out(
            F.grid_sample(img, g, align_corners=ac, padding_mode=pm),
            F.grid_sample(img, g, mode="nearest", align_corners=ac, padding_mode=pm),
        )
