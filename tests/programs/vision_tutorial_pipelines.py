# FGSM: the sign of the input gradient, clamp to [0, 1], accuracy per epsilon, adversarial examples
model = nn.Sequential(
    nn.Conv2d(1, 4, 3), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(), nn.Dropout(0.25), nn.Linear(36, 3)
)
model.eval()
images = torch.rand(10, 1, 8, 8)
with torch.no_grad():
    targets = model(images).argmax(1)


def fgsm_attack(image, epsilon, data_grad):
    sign_data_grad = data_grad.sign()
    perturbed_image = image + epsilon * sign_data_grad
    perturbed_image = torch.clamp(perturbed_image, 0, 1)
    return perturbed_image


def denorm(batch, mean=(0.1307,), std=(0.3081,)):
    mean = torch.tensor(mean).view(1, -1, 1, 1)
    std = torch.tensor(std).view(1, -1, 1, 1)
    return batch * std + mean


accuracies, examples = [], []
for epsilon in [0, 0.1, 0.3]:
    correct = 0
    adv_examples = []
    for data, target in zip(images, targets):
        data, target = data.unsqueeze(0), target.unsqueeze(0)
        data.requires_grad = True
        output = model(data)
        init_pred = output.max(1, keepdim=True)[1]
        if init_pred.item() != target.item():
            continue
        loss = F.nll_loss(F.log_softmax(output, dim=1), target)
        model.zero_grad()
        loss.backward()
        data_grad = data.grad.data
        data_denorm = denorm(data)
        perturbed_data = fgsm_attack(data_denorm, epsilon, data_grad)
        perturbed_data_normalized = (perturbed_data - 0.1307) / 0.3081
        output = model(perturbed_data_normalized)
        final_pred = output.max(1, keepdim=True)[1]
        if final_pred.item() == target.item():
            correct += 1
        elif len(adv_examples) < 2:
            adv_ex = perturbed_data.squeeze().detach().cpu().numpy()
            adv_examples.append((init_pred.item(), final_pred.item(), adv_ex.shape))
    final_acc = correct / float(len(images))
    print(f"Epsilon: {epsilon}\tTest Accuracy = {correct} / {len(images)} = {final_acc}")
    accuracies.append(final_acc)
    examples.append(adv_examples)
print(accuracies, examples)
out(data.grad, perturbed_data)
# ---
# Style transfer pieces: gram matrix, content/style loss modules, normalisation, LBFGS on the image
import copy


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
        self.mean = torch.tensor(mean, dtype=torch.float64).view(-1, 1, 1)
        self.std = torch.tensor(std, dtype=torch.float64).view(-1, 1, 1)

    def forward(self, img):
        return (img - self.mean) / self.std


cnn = nn.Sequential(
    nn.Conv2d(3, 6, 3, padding=1), nn.ReLU(), nn.Conv2d(6, 6, 3, padding=1), nn.ReLU()
).eval()
# float64: clamping inside the LBFGS closure amplifies float32 rounding differences over 40 steps
cnn.double()
style_img, content_img = torch.rand(1, 3, 8, 8).double(), torch.rand(1, 3, 8, 8).double()
model = nn.Sequential(Normalization([0.485, 0.456, 0.406], [0.229, 0.224, 0.225]))
content_losses, style_losses = [], []
i = 0
for layer in copy.deepcopy(cnn).children():
    if isinstance(layer, nn.Conv2d):
        i += 1
        name = f"conv_{i}"
    else:
        name = f"relu_{i}"
        layer = nn.ReLU(inplace=False)
    model.add_module(name, layer)
    if name == "conv_2":
        target = model(content_img).detach()
        content_loss = ContentLoss(target)
        model.add_module(f"content_loss_{i}", content_loss)
        content_losses.append(content_loss)
    if name.startswith("conv"):
        target_feature = model(style_img).detach()
        style_loss = StyleLoss(target_feature)
        model.add_module(f"style_loss_{i}", style_loss)
        style_losses.append(style_loss)
print(model)
input_img = content_img.clone()
input_img.requires_grad_(True)
model.eval()
model.requires_grad_(False)
optimizer = torch.optim.LBFGS([input_img])
run = [0]
while run[0] <= 20:

    def closure():
        with torch.no_grad():
            input_img.clamp_(0, 1)
        optimizer.zero_grad()
        model(input_img)
        style_score = sum(sl.loss for sl in style_losses) * 1000
        content_score = sum(cl.loss for cl in content_losses)
        loss = style_score + content_score
        loss.backward()
        run[0] += 1
        if run[0] % 10 == 0:
            print(
                f"run {run}: Style Loss : {style_score.item():.4f}",
                f"Content Loss: {content_score.item():.4f}",
            )
        return style_score + content_score

    optimizer.step(closure)
with torch.no_grad():
    input_img.clamp_(0, 1)
out(input_img, gram_matrix(style_img))
# ---
# Transfer learning: freeze a backbone, replace the head, StepLR, keep the best weights by deepcopy
import copy

backbone = nn.Sequential(nn.Conv2d(3, 8, 3), nn.BatchNorm2d(8), nn.ReLU(), nn.AdaptiveAvgPool2d(1))


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = backbone
        self.fc = nn.Linear(8, 10)

    def forward(self, x):
        return self.fc(torch.flatten(self.features(x), 1))


model_conv = Net()
for param in model_conv.parameters():
    param.requires_grad = False
num_ftrs = model_conv.fc.in_features
model_conv.fc = nn.Linear(num_ftrs, 2)
print(sum(p.numel() for p in model_conv.parameters() if p.requires_grad))
criterion = nn.CrossEntropyLoss()
optimizer_conv = torch.optim.SGD(model_conv.fc.parameters(), lr=0.01, momentum=0.9)
exp_lr_scheduler = torch.optim.lr_scheduler.StepLR(optimizer_conv, step_size=2, gamma=0.1)
inputs = torch.randn(16, 3, 6, 6)
labels = (inputs.mean((1, 2, 3)) > 0).long()
best_model_wts = copy.deepcopy(model_conv.state_dict())
best_acc = 0.0
for epoch in range(4):
    for phase in ["train", "val"]:
        model_conv.train() if phase == "train" else model_conv.eval()
        running_loss, running_corrects = 0.0, 0
        for xb, yb in zip(inputs.split(4), labels.split(4)):
            optimizer_conv.zero_grad()
            with torch.set_grad_enabled(phase == "train"):
                outputs = model_conv(xb)
                _, preds = torch.max(outputs, 1)
                loss = criterion(outputs, yb)
                if phase == "train":
                    loss.backward()
                    optimizer_conv.step()
            running_loss += loss.item() * xb.size(0)
            running_corrects += torch.sum(preds == yb.data)
        if phase == "train":
            exp_lr_scheduler.step()
        epoch_loss = running_loss / 16
        epoch_acc = running_corrects.double() / 16
        print(
            f"{epoch} {phase} Loss: {epoch_loss:.4f} Acc: {epoch_acc:.4f}",
            exp_lr_scheduler.get_last_lr(),
        )
        if phase == "val" and epoch_acc > best_acc:
            best_acc = epoch_acc
            best_model_wts = copy.deepcopy(model_conv.state_dict())
model_conv.load_state_dict(best_model_wts)
print(best_acc, model_conv.features[1].running_mean)
out(best_acc, *model_conv.fc.parameters(), model_conv.features[0].weight.grad)
