# attention: SDPA with GQA, bool masks, scale, sdpa_kernel; MHA with kdim/vdim; Transformer stacks
q = torch.randn(2, 4, 5, 8)
k = torch.randn(2, 2, 6, 8)
v = torch.randn(2, 2, 6, 8)
o = F.scaled_dot_product_attention(q, k, v, enable_gqa=True)
out(o[0, 0, 0])
mask = torch.ones(5, 6, dtype=torch.bool).tril(diagonal=1)
o2 = F.scaled_dot_product_attention(
    q, k.repeat_interleave(2, 1), v.repeat_interleave(2, 1), attn_mask=mask, scale=0.3
)
out(o2[1, 3, 4])
o3 = F.scaled_dot_product_attention(q, q, q, is_causal=True)
out(o3[0, 1, 2])
SDPBackend = torch.nn.attention.SDPBackend
with torch.nn.attention.sdpa_kernel(SDPBackend.MATH):
    o4 = F.scaled_dot_product_attention(q, q, q, is_causal=True)
print(torch.allclose(o3, o4), SDPBackend.MATH)
with torch.nn.attention.sdpa_kernel(
    [SDPBackend.FLASH_ATTENTION, SDPBackend.EFFICIENT_ATTENTION, SDPBackend.MATH]
):
    pass
mha = nn.MultiheadAttention(8, 2, batch_first=True, dropout=0.0, kdim=6, vdim=4)
x = torch.randn(3, 5, 8)
kpm = torch.tensor([[False] * 5, [False, False, False, True, True], [False] * 4 + [True]])
ao, aw = mha(
    x, torch.randn(3, 5, 6), torch.randn(3, 5, 4), key_padding_mask=kpm, average_attn_weights=False
)
out(ao.shape, aw.shape, aw[1, 0, 0])
ao2, aw2 = mha(x, torch.randn(3, 5, 6), torch.randn(3, 5, 4), need_weights=False)
print(aw2, ao2.shape)
print(mha)
print([n for n, _ in mha.named_parameters()])
layer = nn.TransformerEncoderLayer(
    8, 2, dim_feedforward=16, dropout=0.0, activation="gelu", batch_first=True, norm_first=True
)
enc = nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=False)
mask = nn.Transformer.generate_square_subsequent_mask(5)
print(mask)
y = enc(x, mask=mask, is_causal=True, src_key_padding_mask=kpm)
out(y[2, 1])
dec_layer = nn.TransformerDecoderLayer(8, 2, 16, 0.0, batch_first=True)
dec = nn.TransformerDecoder(dec_layer, 1, norm=nn.LayerNorm(8))
out(
    dec(
        torch.randn(3, 4, 8),
        y,
        tgt_mask=nn.Transformer.generate_square_subsequent_mask(4),
        tgt_is_causal=True,
    )[0, 0]
)
tr = nn.Transformer(
    d_model=8, nhead=2, num_encoder_layers=1, num_decoder_layers=1, dim_feedforward=8, dropout=0.0
)
print(sum(p.numel() for p in tr.parameters()))
out(tr(torch.randn(5, 2, 8), torch.randn(3, 2, 8))[0, 0])
