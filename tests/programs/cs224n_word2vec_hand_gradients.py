# CS224n word2vec: naive-softmax and negative-sampling hand gradients, checked by autograd
import random


def sigmoid(x):
    return 1 / (1 + np.exp(-x))


def naive_softmax_loss_and_gradient(center_vec, outside_idx, outside_vectors):
    scores = outside_vectors @ center_vec
    scores = scores - scores.max()
    y_hat = np.exp(scores) / np.exp(scores).sum()
    loss = -np.log(y_hat[outside_idx])
    delta = y_hat.copy()
    delta[outside_idx] -= 1
    grad_center = outside_vectors.T @ delta
    grad_outside = np.outer(delta, center_vec)
    return loss, grad_center, grad_outside


def neg_sampling_loss_and_gradient(center_vec, outside_idx, outside_vectors, neg_indices):
    u_o = outside_vectors[outside_idx]
    u_k = outside_vectors[neg_indices]
    s_o = sigmoid(u_o @ center_vec)
    s_k = sigmoid(-u_k @ center_vec)
    loss = -np.log(s_o) - np.sum(np.log(s_k))
    grad_center = (s_o - 1) * u_o + (1 - s_k) @ u_k
    grad_outside = np.zeros_like(outside_vectors)
    grad_outside[outside_idx] += (s_o - 1) * center_vec
    np.add.at(grad_outside, neg_indices, np.outer(1 - s_k, center_vec))
    return loss, grad_center, grad_outside


random.seed(31415)
np.random.seed(9265)
vocab_size, dim = 5, 3
center_vecs = np.random.randn(vocab_size, dim)
outside_vecs = np.random.randn(vocab_size, dim)
center_vecs /= np.sqrt((center_vecs**2).sum(axis=1, keepdims=True))
outside_vecs /= np.sqrt((outside_vecs**2).sum(axis=1, keepdims=True))

loss, g_c, g_o = naive_softmax_loss_and_gradient(center_vecs[0], 2, outside_vecs)
vc = torch.tensor(center_vecs[0], requires_grad=True)
U = torch.tensor(outside_vecs, requires_grad=True)
t_loss = F.cross_entropy((U @ vc).unsqueeze(0), torch.tensor([2]))
t_loss.backward()
print(f"naive softmax loss {loss:.6f} torch {t_loss.item():.6f}", t_loss.dtype)
print(np.allclose(vc.grad.numpy(), g_c), np.allclose(U.grad.numpy(), g_o))
out(t_loss, vc.grad, U.grad)

neg = [random.randint(0, vocab_size - 1) for _ in range(6)]
neg = [k for k in neg if k != 2]
loss, g_c, g_o = neg_sampling_loss_and_gradient(center_vecs[0], 2, outside_vecs, neg)
vc = torch.tensor(center_vecs[0], requires_grad=True)
U = torch.tensor(outside_vecs, requires_grad=True)
neg_t = torch.tensor(neg)
t_loss = -F.logsigmoid(U[2] @ vc) - F.logsigmoid(-U[neg_t] @ vc).sum()
t_loss.backward()
print(neg, f"neg sampling loss {loss:.6f} torch {t_loss.item():.6f}")
print(np.allclose(vc.grad.numpy(), g_c), np.allclose(U.grad.numpy(), g_o), t_loss.grad_fn.name())
out(t_loss, vc.grad, U.grad)

# skip-gram over a window, summed across context words, then an SGD wrapper with annealing
tokens = ["the", "quick", "brown", "fox", "jumps", "over", "the", "lazy", "dog"]
word2ind = {w: i for i, w in enumerate(sorted(set(tokens)))}
V = len(word2ind)
W_in = torch.randn(V, 4, dtype=torch.float64, requires_grad=True)
W_out = torch.randn(V, 4, dtype=torch.float64, requires_grad=True)
step, lr, anneal_every = 0, 0.3, 4
for it in range(1, 9):
    c = random.randint(0, len(tokens) - 1)
    window = [tokens[j] for j in range(max(0, c - 2), min(len(tokens), c + 3)) if j != c]
    center = W_in[word2ind[tokens[c]]]
    targets = torch.tensor([word2ind[w] for w in window])
    loss = F.cross_entropy((W_out @ center).expand(len(window), V), targets, reduction="sum")
    loss.backward()
    with torch.no_grad():
        for p in (W_in, W_out):
            p -= lr * p.grad
            p.grad.zero_()
    if it % anneal_every == 0:
        lr *= 0.5
    print(f"iter {it}: center {tokens[c]!r} context {len(window)} loss {loss.item():.5f} lr {lr}")
out(W_in, W_out)
