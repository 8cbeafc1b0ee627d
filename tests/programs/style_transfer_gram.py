# neural style transfer: content and Gram-matrix style losses, optimizing the image with LBFGS
torch.set_default_dtype(torch.float64)
rng = np.random.default_rng(0)
content_img = torch.tensor(rng.uniform(0, 1, (1, 3, 8, 8)))
style_img = torch.tensor(rng.uniform(0, 1, (1, 3, 8, 8)))


def gram_matrix(input):
    a, b, c, d = input.size()
    features = input.view(a * b, c * d)
    G = torch.mm(features, features.t())
    return G.div(a * b * c * d)


class ContentLoss(nn.Module):
    def __init__(self, target):
        super().__init__()
        self.target = target.detach()

    def forward(self, input):
        self.loss = F.mse_loss(input, self.target)
        return input


class StyleLoss(nn.Module):
    def __init__(self, target_feature):
        super().__init__()
        self.target = gram_matrix(target_feature).detach()

    def forward(self, input):
        self.loss = F.mse_loss(gram_matrix(input), self.target)
        return input


class Normalization(nn.Module):
    def __init__(self, mean, std):
        super().__init__()
        self.mean = torch.tensor(mean).view(-1, 1, 1)
        self.std = torch.tensor(std).view(-1, 1, 1)

    def forward(self, img):
        return (img - self.mean) / self.std


cnn = nn.Sequential(
    nn.Conv2d(3, 4, 3, padding=1),
    nn.ReLU(inplace=True),
    nn.Conv2d(4, 4, 3, padding=1),
    nn.ReLU(inplace=True),
    nn.MaxPool2d(2),
    nn.Conv2d(4, 6, 3, padding=1),
    nn.ReLU(inplace=True),
).eval()
with torch.no_grad():
    for p in cnn.parameters():
        p.copy_(torch.tensor(rng.uniform(-0.4, 0.4, tuple(p.shape))))
cnn.requires_grad_(False)

normalization = Normalization([0.485, 0.456, 0.406], [0.229, 0.224, 0.225])
model = nn.Sequential(normalization)
content_losses, style_losses = [], []
i = 0
for layer in cnn.children():
    if isinstance(layer, nn.Conv2d):
        i += 1
        name = f"conv_{i}"
    elif isinstance(layer, nn.ReLU):
        name = f"relu_{i}"
        layer = nn.ReLU(inplace=False)
    else:
        name = f"pool_{i}"
    model.add_module(name, layer)
    if name == "conv_2":
        content_loss = ContentLoss(model(content_img).detach())
        model.add_module(f"content_loss_{i}", content_loss)
        content_losses.append(content_loss)
    if name in ("conv_1", "conv_2", "conv_3"):
        style_loss = StyleLoss(model(style_img).detach())
        model.add_module(f"style_loss_{i}", style_loss)
        style_losses.append(style_loss)
print(model)

input_img = content_img.clone()
input_img.requires_grad_(True)
optimizer = torch.optim.LBFGS([input_img])
run = [0]
while run[0] <= 12:

    def closure():
        with torch.no_grad():
            input_img.clamp_(0, 1)
        optimizer.zero_grad()
        model(input_img)
        style_score = sum(sl.loss for sl in style_losses) * 1e4
        content_score = sum(cl.loss for cl in content_losses)
        loss = style_score + content_score
        loss.backward()
        run[0] += 1
        if run[0] % 4 == 0:
            out(run[0], style_score.item(), content_score.item())
        return style_score + content_score

    optimizer.step(closure)
with torch.no_grad():
    input_img.clamp_(0, 1)
out(input_img, input_img.grad.abs().sum(), [p.grad is None for p in cnn.parameters()])
