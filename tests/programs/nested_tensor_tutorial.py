# nested tensors as the tutorial builds them: sentences of different lengths, padding,
# per-sentence ops, and gradients back to the constituents
import warnings

warnings.simplefilter("ignore")  # the prototype warning
a = torch.arange(12, dtype=torch.float32).reshape(3, 4) / 10
b = torch.arange(8, dtype=torch.float32).reshape(2, 4) / 5 - 0.5
nt = torch.nested.nested_tensor([a, b])
print(nt)
print(nt.is_nested, nt.dim(), nt.size(0), nt.size(2), nt.numel(), nt.dtype, nt.layout)
out(nt.to_padded_tensor(0.0), torch.nested.to_padded_tensor(nt, -1.0, (2, 4, 5)))
out(*nt.unbind(), nt[1], nt[-1, 0])
err(lambda: nt.size(1))
err(lambda: nt.shape)
err(lambda: nt.exp())
err(lambda: nt.unbind(1))
err(lambda: nt + torch.ones(4))
err(lambda: nt + torch.nested.nested_tensor([a[:1], b]))
print(nt + 1)
print(F.softmax(nt, -1))
out((nt * nt - nt / 2).to_padded_tensor(0.0), F.relu(nt).sin().to_padded_tensor(0.0))
# ---
# a nested multi-head attention step: projections, heads, scores, softmax, weighted sum
import warnings

warnings.simplefilter("ignore")
torch.manual_seed(0)
E, heads = 6, 2
sentences = [torch.randn(n, E, requires_grad=True) for n in (4, 2, 3)]
q_proj, k_proj, v_proj, out_proj = (nn.Linear(E, E) for _ in range(4))
x = torch.nested.as_nested_tensor(sentences)
print(x.requires_grad, x.is_leaf, type(x.grad_fn).__name__)


def split_heads(t):
    return t.view(3, -1, heads, E // heads).transpose(1, 2)


q, k, v = split_heads(q_proj(x)), split_heads(k_proj(x)), split_heads(v_proj(x))
scores = torch.matmul(q, k.transpose(-2, -1)) / (E // heads) ** 0.5
attn = F.softmax(scores, dim=-1)
context = torch.matmul(attn, v).transpose(1, 2).contiguous().view(3, -1, E)
y = out_proj(context)
padded = y.to_padded_tensor(0.0)
out(padded)
padded.pow(2).sum().backward()
out(*[s.grad for s in sentences], q_proj.weight.grad, out_proj.bias.grad)
# ---
# a leaf nested tensor: gradients accumulate into a nested .grad
import warnings

warnings.simplefilter("ignore")
w = torch.nested.nested_tensor([torch.ones(2), torch.arange(3.0)], requires_grad=True)
print(w)
loss = (w * w * 3 + w).to_padded_tensor(0.0).sum()
loss.backward()
print(w.grad)
out(*w.grad.unbind(), loss)
# ---
# scaled_dot_product_attention on nested heads, gradients back to the sentences
import warnings

warnings.simplefilter("ignore")
torch.manual_seed(1)
E, heads = 8, 2
sentences = [torch.randn(n, E, requires_grad=True) for n in (5, 3)]
proj = nn.Linear(E, 3 * E)
x = torch.nested.as_nested_tensor(sentences)
q = k = v = proj(x)
heads_of = [t.view(2, -1, heads, 3 * E // heads).transpose(1, 2) for t in (q, k, v)]
err(lambda: F.scaled_dot_product_attention(*heads_of))  # torch wants contiguous heads
q, k, v = (t.contiguous() for t in heads_of)
y = F.scaled_dot_product_attention(q, k, v)
print(type(y.grad_fn).__name__, y.is_nested, y.dim(), y.size(1))
padded = y.transpose(1, 2).contiguous().to_padded_tensor(0.0)
out(padded)
padded.sum().backward()
out(sentences[0].grad, sentences[1].grad, proj.weight.grad)
