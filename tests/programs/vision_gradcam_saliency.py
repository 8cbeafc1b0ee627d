# Grad-CAM and saliency maps: forward/backward hooks on the last conv block, guided gradients
torch.manual_seed(0)


class SmallCNN(nn.Module):
    def __init__(self, num_classes=4, inplace=False):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(inplace=inplace), nn.MaxPool2d(2),
            nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(inplace=inplace),
        )  # fmt: skip
        self.avgpool = nn.AdaptiveAvgPool2d((1, 1))
        self.classifier = nn.Linear(16, num_classes)

    def forward(self, x):
        x = self.features(x)
        return self.classifier(torch.flatten(self.avgpool(x), 1))


class GradCAM:
    def __init__(self, model, target_layer):
        self.model = model
        self.activations = None
        self.gradients = None
        self.handles = [
            target_layer.register_forward_hook(self.save_activation),
            target_layer.register_full_backward_hook(self.save_gradient),
        ]

    def save_activation(self, module, input, output):
        self.activations = output.detach()

    def save_gradient(self, module, grad_input, grad_output):
        self.gradients = grad_output[0].detach()

    def __call__(self, x, class_idx=None):
        self.model.zero_grad()
        logits = self.model(x)
        if class_idx is None:
            class_idx = logits.argmax(dim=1)
        one_hot = torch.zeros_like(logits).scatter_(1, class_idx.view(-1, 1), 1.0)
        logits.backward(gradient=one_hot)
        weights = self.gradients.mean(dim=(2, 3), keepdim=True)
        cam = F.relu((weights * self.activations).sum(dim=1, keepdim=True))
        cam = F.interpolate(cam, size=x.shape[-2:], mode="bilinear", align_corners=False)
        b = cam.size(0)
        flat = cam.view(b, -1)
        flat = (flat - flat.min(1, keepdim=True)[0]) / (
            flat.max(1, keepdim=True)[0] - flat.min(1, keepdim=True)[0] + 1e-8
        )
        return flat.view_as(cam), class_idx

    def remove(self):
        for h in self.handles:
            h.remove()


images = torch.randn(2, 3, 8, 8)
# the well-known pitfall: a full backward hook's output must not be modified in place
bad = SmallCNN(inplace=True).eval()
bad_cam = GradCAM(bad, bad.features[3])
err(lambda: bad_cam(images))
model = SmallCNN().eval()
cam_extractor = GradCAM(model, model.features[3])
cams, cls = cam_extractor(images)
print(cams.shape, cls, cams.min().item(), cams.max().item() <= 1.0)
print(cam_extractor.activations.shape, cam_extractor.gradients.shape)
cam_extractor.remove()
print(len(model.features[3]._forward_hooks), len(model.features[3]._backward_hooks))
out(cams, cls)
# vanilla saliency: gradient of the top score w.r.t. the input pixels
x = images[:1].clone().requires_grad_(True)
scores = model(x)
score_max_index = scores.argmax()
scores[0, score_max_index].backward()
saliency, _ = torch.max(x.grad.data.abs(), dim=1)
print(saliency.shape, saliency.argmax())
out(saliency)
# ---
# Guided backprop by swapping ReLU backward with a hook, and integrated gradients along a path
torch.manual_seed(0)
net = nn.Sequential(nn.Conv2d(1, 4, 3, padding=1), nn.ReLU(), nn.Flatten(), nn.Linear(4 * 6 * 6, 3))
net.eval()


def relu_hook(module, grad_in, grad_out):
    return (torch.clamp(grad_in[0], min=0.0),)


handles = [
    m.register_full_backward_hook(relu_hook) for m in net.modules() if isinstance(m, nn.ReLU)
]
img = torch.randn(1, 1, 6, 6, requires_grad=True)
net(img)[0, 1].backward()
guided = img.grad.clone()
print((guided < 0).sum().item() >= 0, guided.abs().sum() > 0)
for h in handles:
    h.remove()
baseline = torch.zeros_like(img)
steps = 8
alphas = torch.linspace(0, 1, steps + 1)[1:].view(-1, 1, 1, 1)
path = (baseline + alphas * (img.detach() - baseline)).requires_grad_(True)
net(path)[:, 1].sum().backward()
ig = (img.detach() - baseline) * path.grad.mean(0, keepdim=True)
completeness = ig.sum() - (net(img)[0, 1] - net(baseline)[0, 1])
print(f"IG sum {ig.sum().item():.4f} completeness gap {abs(completeness.item()) < 0.5}")
out(guided, ig)
