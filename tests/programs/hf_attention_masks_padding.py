# HF-style batching without the library: pad_sequence, attention masks with finfo.min, mean pooling
rnn_utils = torch.nn.utils.rnn
pack_padded_sequence = rnn_utils.pack_padded_sequence
pad_packed_sequence = rnn_utils.pad_packed_sequence
pad_sequence = rnn_utils.pad_sequence

pad_token_id = 0
examples = [[101, 7, 8, 9, 102], [101, 5, 102], [101, 4, 4, 6, 3, 2, 102], [101, 102]]
input_ids = pad_sequence(
    [torch.tensor(e) for e in examples], batch_first=True, padding_value=pad_token_id
)
attention_mask = (input_ids != pad_token_id).long()
print(input_ids)
print(attention_mask, attention_mask.dtype)
lengths = attention_mask.sum(dim=1)
print(lengths.tolist())


def get_extended_attention_mask(attention_mask, dtype, causal=False):
    if attention_mask.dim() == 2:
        extended = attention_mask[:, None, None, :]
    else:
        extended = attention_mask[:, None, :, :]
    if causal:
        seq_len = attention_mask.shape[-1]
        causal_mask = torch.tril(torch.ones((seq_len, seq_len), dtype=attention_mask.dtype))
        extended = extended * causal_mask[None, None, :, :]
    extended = extended.to(dtype=dtype)
    return (1.0 - extended) * torch.finfo(dtype).min


ext = get_extended_attention_mask(attention_mask, torch.float32)
print(ext.shape, ext.dtype, ext[1, 0, 0])
print(
    torch.finfo(torch.float32).min, torch.finfo(torch.float16).min, torch.finfo(torch.bfloat16).min
)

vocab, hidden, heads = 110, 8, 2
torch.manual_seed(0)
emb = nn.Embedding(vocab, hidden, padding_idx=pad_token_id)
qkv = nn.Linear(hidden, 3 * hidden)
h = emb(input_ids)
B, T, C = h.shape
q, k, v = qkv(h).view(B, T, 3, heads, C // heads).permute(2, 0, 3, 1, 4)
scores = q @ k.transpose(-1, -2) / (C // heads) ** 0.5
scores = scores + ext
probs = scores.softmax(dim=-1)
print(probs[3, 0, 0], probs[1, 1, 2].sum())
ctx = (probs @ v).transpose(1, 2).reshape(B, T, C)
out(probs, ctx)

causal = get_extended_attention_mask(attention_mask, torch.float32, causal=True)
print(causal[0, 0].eq(0).int())
both = (scores - ext + causal).softmax(-1)
out(both)

# SDPA takes the boolean form of the same mask
bool_mask = attention_mask[:, None, None, :].bool()
sdpa = F.scaled_dot_product_attention(q, k, v, attn_mask=bool_mask)
print(torch.allclose(sdpa, probs @ v, atol=1e-6))

# masked mean pooling, as sentence-embedding scripts do
mask_expanded = attention_mask.unsqueeze(-1).expand(ctx.size()).float()
sum_embeddings = torch.sum(ctx * mask_expanded, 1)
sum_mask = torch.clamp(mask_expanded.sum(1), min=1e-9)
pooled = sum_embeddings / sum_mask
pooled = F.normalize(pooled, p=2, dim=1)
print(pooled.norm(dim=1))
pooled.sum().backward()
print(emb.weight.grad[pad_token_id].abs().sum().item(), emb.weight.grad[101].abs().sum().item() > 0)
out(pooled, emb.weight.grad)

# labels for padded positions are -100 and ignored by the loss
labels = input_ids.masked_fill(attention_mask == 0, -100)
head = nn.Linear(hidden, vocab)
logits = head(ctx.detach())
loss = F.cross_entropy(logits.view(-1, vocab), labels.view(-1))
print(f"{loss.item():.4f}", (labels != -100).sum().item())
out(loss)
# ---
# packing a padded batch for an RNN: unsorted lengths, enforce_sorted=False, last hidden states
rnn_utils = torch.nn.utils.rnn
pack_padded_sequence = rnn_utils.pack_padded_sequence
pad_packed_sequence = rnn_utils.pad_packed_sequence
pad_sequence = rnn_utils.pad_sequence

seqs = [torch.randn(n, 3) for n in (2, 5, 3)]
lengths = torch.tensor([len(s) for s in seqs])
padded = pad_sequence(seqs, batch_first=True)
packed = pack_padded_sequence(padded, lengths, batch_first=True, enforce_sorted=False)
print(packed.batch_sizes, packed.sorted_indices, packed.unsorted_indices)
gru = nn.GRU(3, 4, batch_first=True, bidirectional=True)
packed_out, h_n = gru(packed)
unpacked, out_lengths = pad_packed_sequence(packed_out, batch_first=True, total_length=6)
print(unpacked.shape, out_lengths, h_n.shape)
print(unpacked[0, 2:].abs().sum().item())
# the forward direction's last valid step equals h_n[0]
idx = (lengths - 1).view(-1, 1, 1).expand(-1, 1, 4)
last_fwd = unpacked[:, :, :4].gather(1, idx).squeeze(1)
print(torch.allclose(last_fwd, h_n[0]), torch.allclose(unpacked[:, 0, 4:], h_n[1]))
final = torch.cat([h_n[-2], h_n[-1]], dim=1)
final.pow(2).sum().backward()
out(unpacked, h_n, final, gru.weight_hh_l0_reverse.grad)
