# token ids stored as uint16 (as tokenizer caches on disk are), widened before use
ids = np.array([[3, 17, 65535], [9, 0, 42]], dtype=np.uint16)
tokens = torch.from_numpy(ids)
print(tokens, tokens.dtype, tokens.type(), torch.iinfo(torch.uint16))
batch = tokens.long()
emb = nn.Embedding(65536, 4)
out(emb(batch).shape, batch.dtype, tokens.sum(), tokens.sum().dtype)
out(tokens.float() / 65535, tokens * 2, tokens == 17, tokens.sort().values)
err(lambda: tokens + 1)
err(lambda: tokens.max())
err(lambda: tokens + batch)
err(lambda: torch.arange(4, dtype=torch.uint32))
# ---
# content hashes of tensors (torch.hash_tensor) to deduplicate a cache of batches
torch.manual_seed(0)
batches = [torch.randn(4, 3) for _ in range(3)]
batches.append(batches[1].clone())
seen, unique = set(), []
for b in batches:
    key = torch.hash_tensor(b).item()
    if key not in seen:
        seen.add(key)
        unique.append(b)
print(len(unique), torch.hash_tensor(batches[0]).dtype)
out(torch.hash_tensor(batches[0], dim=1), torch.hash_tensor(torch.arange(6).view(2, 3), 0))
big = torch.tensor([2**63, 2**64 - 1], dtype=torch.uint64)
print(big, big.tolist(), big.to(torch.float64))
