# CLIP-style symmetric InfoNCE with a learnable logit_scale; MoCo momentum encoder with a queue
import math

torch.manual_seed(0)


class CLIPHead(nn.Module):
    def __init__(self, img_dim=6, txt_dim=5, embed_dim=4):
        super().__init__()
        self.visual = nn.Linear(img_dim, embed_dim, bias=False)
        self.text = nn.Linear(txt_dim, embed_dim, bias=False)
        self.logit_scale = nn.Parameter(torch.ones([]) * math.log(1 / 0.07))

    def forward(self, image, text):
        image_features = F.normalize(self.visual(image), dim=-1)
        text_features = image_features.new_tensor(0) + self.text(text)
        text_features = text_features / text_features.norm(dim=1, keepdim=True)
        logit_scale = self.logit_scale.exp()
        logits_per_image = logit_scale * image_features @ text_features.t()
        return logits_per_image, logits_per_image.t()


model = CLIPHead()
opt = torch.optim.AdamW(model.parameters(), lr=1e-2, weight_decay=0.2)
images, texts = torch.randn(8, 6), torch.randn(8, 5)
labels = torch.arange(8)
for step in range(3):
    logits_per_image, logits_per_text = model(images, texts)
    loss = (
        F.cross_entropy(logits_per_image, labels) + F.cross_entropy(logits_per_text, labels)
    ) / 2
    opt.zero_grad()
    loss.backward()
    opt.step()
    with torch.no_grad():
        model.logit_scale.clamp_(0, math.log(100))
    acc = (logits_per_image.argmax(-1) == labels).float().mean()
    print(
        f"step {step} loss {loss.item():.4f} "
        f"scale {model.logit_scale.exp().item():.3f} acc {acc:.3f}"
    )
out(loss, model.logit_scale, logits_per_image)
# ---
# MoCo v2: key encoder updated by momentum, a queue of negatives enqueued with a pointer buffer
import copy

torch.manual_seed(0)


class MoCo(nn.Module):
    def __init__(self, dim=4, K=12, m=0.99, T=0.2):
        super().__init__()
        self.K, self.m, self.T = K, m, T
        self.encoder_q = nn.Sequential(nn.Linear(6, 8), nn.ReLU(), nn.Linear(8, dim))
        self.encoder_k = copy.deepcopy(self.encoder_q)
        for param_k in self.encoder_k.parameters():
            param_k.requires_grad = False
        self.register_buffer("queue", F.normalize(torch.randn(dim, K), dim=0))
        self.register_buffer("queue_ptr", torch.zeros(1, dtype=torch.long))

    @torch.no_grad()
    def _momentum_update_key_encoder(self):
        for param_q, param_k in zip(self.encoder_q.parameters(), self.encoder_k.parameters()):
            param_k.data = param_k.data * self.m + param_q.data * (1.0 - self.m)

    @torch.no_grad()
    def _dequeue_and_enqueue(self, keys):
        batch_size = keys.shape[0]
        ptr = int(self.queue_ptr)
        assert self.K % batch_size == 0
        self.queue[:, ptr : ptr + batch_size] = keys.T
        self.queue_ptr[0] = (ptr + batch_size) % self.K

    def forward(self, im_q, im_k):
        q = F.normalize(self.encoder_q(im_q), dim=1)
        with torch.no_grad():
            self._momentum_update_key_encoder()
            k = F.normalize(self.encoder_k(im_k), dim=1)
        l_pos = torch.einsum("nc,nc->n", [q, k]).unsqueeze(-1)
        l_neg = torch.einsum("nc,ck->nk", [q, self.queue.clone().detach()])
        logits = torch.cat([l_pos, l_neg], dim=1) / self.T
        labels = torch.zeros(logits.shape[0], dtype=torch.long)
        self._dequeue_and_enqueue(k)
        return logits, labels


moco = MoCo()
opt = torch.optim.SGD(
    filter(lambda p: p.requires_grad, moco.parameters()), lr=0.05, momentum=0.9, weight_decay=1e-4
)
x = torch.randn(4, 6)
for it in range(4):
    logits, labels = moco(x + 0.1 * torch.randn_like(x), x + 0.1 * torch.randn_like(x))
    loss = F.cross_entropy(logits, labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(
        f"it {it}: loss {loss.item():.4f} ptr {moco.queue_ptr.item()} logits {tuple(logits.shape)}"
    )
print(sum(p.requires_grad for p in moco.parameters()), sorted(moco.state_dict())[-2:])
out(loss, moco.queue, moco.encoder_k[0].weight)
