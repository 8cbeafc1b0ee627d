# SDPA tutorial: causal self-attention module, and the upper-left / lower-right causal biases
import importlib
import math

# from torch.nn.attention.bias import causal_lower_right, causal_upper_left
bias = importlib.import_module(torch.__name__ + ".nn.attention.bias")
causal_upper_left, causal_lower_right = bias.causal_upper_left, bias.causal_lower_right
torch.manual_seed(0)
batch_size, num_heads, seq_len_q, seq_len_kv, head_dim = 2, 2, 4, 6, 8
upper_left_bias = causal_upper_left(seq_len_q, seq_len_kv)
lower_right_bias = causal_lower_right(seq_len_q, seq_len_kv)
print(type(upper_left_bias).__name__, type(lower_right_bias).__name__)
print(type(upper_left_bias).__mro__[1].__name__, isinstance(upper_left_bias, torch.Tensor))
print(upper_left_bias)
print(lower_right_bias)
print(upper_left_bias.variant == bias.CausalVariant.UPPER_LEFT, list(bias.CausalVariant))
print(lower_right_bias.seq_len_q, lower_right_bias.seq_len_kv)
print(lower_right_bias._materialize().dtype)
q = torch.randn(batch_size, num_heads, seq_len_q, head_dim)
k = torch.randn(batch_size, num_heads, seq_len_kv, head_dim)
v = torch.randn(batch_size, num_heads, seq_len_kv, head_dim)
out_upper_left = F.scaled_dot_product_attention(q, k, v, upper_left_bias)
out_lower_right = F.scaled_dot_product_attention(q, k, v, lower_right_bias)
out_is_causal = F.scaled_dot_product_attention(q, k, v, is_causal=True)
print(torch.allclose(out_upper_left, out_is_causal))
print(torch.allclose(out_upper_left, out_lower_right))
mask = torch.ones(seq_len_q, seq_len_kv, dtype=torch.bool).tril(diagonal=seq_len_kv - seq_len_q)
print(torch.allclose(out_lower_right, F.scaled_dot_product_attention(q, k, v, attn_mask=mask)))
out(out_upper_left, out_lower_right)
err(lambda: F.scaled_dot_product_attention(q, k, v, attn_mask=upper_left_bias, is_causal=True))
err(lambda: bias.CausalBias(1, 2, 3))
err(lambda: causal_upper_left(3))
square = causal_lower_right(4, 4)
qs = torch.randn(1, 1, 4, 8, requires_grad=True)
o = F.scaled_dot_product_attention(qs, qs, qs, attn_mask=square)
o.sum().backward()
out(o, qs.grad)


class CausalSelfAttention(nn.Module):
    def __init__(self, num_heads, embed_dimension, bias=False, dropout=0.0):
        super().__init__()
        assert embed_dimension % num_heads == 0
        self.c_attn = nn.Linear(embed_dimension, 3 * embed_dimension, bias=bias)
        self.c_proj = nn.Linear(embed_dimension, embed_dimension, bias=bias)
        self.dropout = dropout
        self.resid_dropout = nn.Dropout(dropout)
        self.num_heads = num_heads
        self.embed_dimension = embed_dimension
        self.is_causal = True

    def forward(self, x):
        query_projected = self.c_attn(x)
        batch_size = query_projected.size(0)
        embed_dim = query_projected.size(2)
        head_dim = embed_dim // (self.num_heads * 3)
        query, key, value = query_projected.chunk(3, -1)
        query = query.view(batch_size, -1, self.num_heads, head_dim).transpose(1, 2)
        key = key.view(batch_size, -1, self.num_heads, head_dim).transpose(1, 2)
        value = value.view(batch_size, -1, self.num_heads, head_dim).transpose(1, 2)
        dropout = self.dropout if self.training else 0.0
        y = F.scaled_dot_product_attention(
            query, key, value, attn_mask=None, dropout_p=dropout, is_causal=self.is_causal
        )
        y = y.transpose(1, 2).view(batch_size, -1, self.num_heads * head_dim)
        return self.resid_dropout(self.c_proj(y))


model = CausalSelfAttention(num_heads=4, embed_dimension=16, bias=False, dropout=0.1).eval()
print(model)
x = torch.rand(2, 5, 16)
y = model(x)
scores = torch.randn(1)  # a reference by hand: masked softmax(QK^T / sqrt(d)) V
qkv = model.c_attn(x).chunk(3, -1)
qh, kh, vh = (t.view(2, 5, 4, 4).transpose(1, 2) for t in qkv)
att = (qh @ kh.transpose(-2, -1)) / math.sqrt(4)
att = att.masked_fill(torch.ones(5, 5, dtype=torch.bool).triu(1), float("-inf")).softmax(-1)
ref = model.c_proj((att @ vh).transpose(1, 2).reshape(2, 5, 16))
print(torch.allclose(y, ref, atol=1e-6))
out(y)
