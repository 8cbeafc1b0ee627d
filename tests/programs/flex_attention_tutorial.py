# FlexAttention: score_mods (relative position, ALiBi, soft-capping) and mask_mods, unfused on CPU
import importlib

# from torch.nn.attention.flex_attention import flex_attention, create_block_mask, ...
fa = importlib.import_module(torch.__name__ + ".nn.attention.flex_attention")
flex_attention, create_block_mask, create_mask = (
    fa.flex_attention,
    fa.create_block_mask,
    fa.create_mask,
)
torch.manual_seed(0)
B, H, S, D = 2, 4, 16, 8
query, key, value = (torch.randn(B, H, S, D) for _ in range(3))


def noop(score, b, h, q_idx, kv_idx):
    return score


def relative_positional(score, b, h, q_idx, kv_idx):
    return score + (q_idx - kv_idx)


def generate_alibi_bias(H):
    alibi_bias = torch.exp2(-((torch.arange(H) + 1) * 8.0 / H))

    def alibi(score, b, h, q_idx, kv_idx):
        return score + alibi_bias[h] * (kv_idx - q_idx)

    return alibi


alibi = generate_alibi_bias(H)


def generate_tanh_softcap(softcap):
    # (tensor methods and closures: torch's tracing of a mod looks its globals, torch too,
    # up in the __main__ module, which a program run by exec is not)
    def soft_cap(score, b, h, q_idx, kv_idx):
        score = score / softcap
        score = score.tanh()
        return score * softcap

    return soft_cap


soft_cap = generate_tanh_softcap(20.0)


def causal_mask(b, h, q_idx, kv_idx):
    return q_idx >= kv_idx


def checkerboard(score, batch, head, token_q, token_kv):
    score = (score * 0.5).where((token_kv - token_q).abs() % 2 == 1, score)
    score = (score * 2.0).where((token_kv - token_q).abs() % 2 == 0, score)
    return score


out_noop = flex_attention(query, key, value, score_mod=noop)
sdpa = F.scaled_dot_product_attention(query, key, value)
print(f"noop matches sdpa: {torch.allclose(out_noop, sdpa, atol=1e-6)}")
for mod in (relative_positional, alibi, soft_cap, checkerboard):
    o = flex_attention(query, key, value, score_mod=mod)
    print(f"{mod.__name__:20s} {o.mean().item():+.6f} {o.abs().max().item():.6f}")
    out(o[0, 0])
block_mask = create_block_mask(causal_mask, B=None, H=None, Q_LEN=S, KV_LEN=S, device="cpu")
print(block_mask)
print(block_mask.shape, block_mask.BLOCK_SIZE, block_mask.seq_lengths)
causal = flex_attention(query, key, value, block_mask=block_mask)
print(torch.allclose(causal, F.scaled_dot_product_attention(query, key, value, is_causal=True)))
o, lse = flex_attention(query, key, value, block_mask=block_mask, return_lse=True)
print(lse.shape, lse.dtype)
out(o[1, 2], lse[1, 2])
o, aux = flex_attention(query, key, value, return_aux=fa.AuxRequest(lse=True))
print(type(aux).__name__, aux.max_scores, torch.allclose(aux.lse, sdpa.new_tensor(0) + aux.lse))
out(aux.lse[0, 0])
# ---
# FlexAttention: composing masks (sliding window, prefix LM, document packing) and block masks
import importlib

fa = importlib.import_module(torch.__name__ + ".nn.attention.flex_attention")
torch.manual_seed(0)
SLIDING_WINDOW = 3


def causal_mask(b, h, q_idx, kv_idx):
    return q_idx >= kv_idx


def sliding_window(b, h, q_idx, kv_idx):
    return q_idx - kv_idx <= SLIDING_WINDOW


sliding_window_causal = fa.and_masks(causal_mask, sliding_window)
print(fa.create_mask(sliding_window_causal, None, None, 8, 8, device="cpu").int()[0, 0])


# (captured tensors live in closures: torch's tracing of the mods looks globals up in the
# __main__ module, which a program run by exec is not)
def generate_prefix_lm_mask(prefix_length):
    def prefix_mask(b, h, q_idx, kv_idx):
        return kv_idx < prefix_length[b]

    return fa.or_masks(prefix_mask, causal_mask)


prefix_lm_causal = generate_prefix_lm_mask(torch.tensor([2, 4]))
mask = fa.create_mask(prefix_lm_causal, 2, 1, 6, 6, device="cpu")
print(mask.shape, mask.dtype)
print(mask.int())


def generate_doc_mask_mod(document_id):
    def document_causal_mask(b, h, q_idx, kv_idx):
        causal = q_idx >= kv_idx
        document = document_id[q_idx] == document_id[kv_idx]
        return causal & document

    return document_causal_mask


document_id = torch.zeros(32, dtype=torch.int)
document_id[:10] = 0
document_id[10:22] = 1
document_id[22:] = 2
document_causal_mask = generate_doc_mask_mod(document_id)


bm = fa.create_block_mask(document_causal_mask, 1, 1, 32, 32, device="cpu", BLOCK_SIZE=8)
print(bm)
print(repr(bm))
print(bm.kv_num_blocks, bm.full_kv_num_blocks)
print(bm.kv_indices[0, 0], bm.to_dense())
print(f"sparsity {bm.sparsity():.2f}% of {bm.numel()} entries")
q, k, v = (torch.randn(1, 2, 32, 8) for _ in range(3))
o = fa.flex_attention(q, k, v, block_mask=bm)
dense = fa.create_mask(document_causal_mask, 1, 1, 32, 32)
print(torch.allclose(o, F.scaled_dot_product_attention(q, k, v, attn_mask=dense), atol=1e-6))
out(o[0, 1, :12])
big = fa.create_block_mask(causal_mask, 2, None, 300, 260, device="cpu")
print(big)
print(big.to_string(grid_size=2))
kv = torch.randn(2, 1, 16, 8)
qg = torch.randn(2, 4, 16, 8)
og = fa.flex_attention(qg, kv, kv, enable_gqa=True, scale=0.25)
ref = F.scaled_dot_product_attention(qg, kv, kv, enable_gqa=True, scale=0.25)
print(torch.allclose(og, ref, atol=1e-6))
nothing = fa.create_block_mask(lambda b, h, q_idx, kv_idx: q_idx < 0, 1, 1, 4, 4, device="cpu")
print(fa.flex_attention(q[:, :1, :4], k[:, :1, :4], v[:, :1, :4], block_mask=nothing))
err(lambda: fa.flex_attention(q[0], k[0], v[0]))
err(lambda: fa.flex_attention(qg, kv, kv))
err(lambda: fa.flex_attention(q.detach().requires_grad_(), k, v))
err(lambda: fa.flex_attention(q, k, v, block_mask=big))
err(lambda: fa.create_block_mask(lambda score, b, h, q_idx, kv_idx: score, 1, 1, 4, 4))
err(lambda: fa.and_masks(causal_mask, 3))
# ---
# FlexAttention: a learned relative-position bias read by the score_mod gets its gradient
import importlib

fa = importlib.import_module(torch.__name__ + ".nn.attention.flex_attention")
torch.manual_seed(0)


class RelativeBiasAttention(nn.Module):
    def __init__(self, heads, max_len):
        super().__init__()
        self.rel_bias = nn.Parameter(torch.randn(heads, 2 * max_len - 1) * 0.1)
        self.max_len = max_len

    def forward(self, q, k, v):
        rel_bias, offset = self.rel_bias, self.max_len - 1

        def score_mod(score, b, h, q_idx, kv_idx):
            return score + rel_bias[h, q_idx - kv_idx + offset]

        return fa.flex_attention(q, k, v, score_mod=score_mod)


layer = RelativeBiasAttention(heads=2, max_len=6)
q, k, v = (torch.randn(1, 2, 6, 4) for _ in range(3))
o = layer(q, k, v)
print(type(o.grad_fn).__name__, o.requires_grad)
print([type(f).__name__ if f else None for f, _ in o.grad_fn.next_functions])
o.pow(2).sum().backward()
print(layer.rel_bias.grad.shape)
out(o, layer.rel_bias.grad)
