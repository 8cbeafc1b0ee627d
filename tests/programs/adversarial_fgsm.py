# FGSM adversarial examples: input gradients, sign, clamp, and accuracy under attack
rng = np.random.default_rng(0)
model = nn.Sequential(nn.Flatten(), nn.Linear(16, 12), nn.ReLU(), nn.Linear(12, 3))
with torch.no_grad():
    for p in model.parameters():
        p.copy_(torch.tensor(rng.uniform(-0.6, 0.6, tuple(p.shape))))
model.eval()
images = torch.tensor(rng.uniform(0, 1, (10, 1, 4, 4)), dtype=torch.float32)
with torch.no_grad():
    labels = model(images).argmax(1)


def fgsm_attack(image, epsilon, data_grad):
    sign_data_grad = data_grad.sign()
    perturbed_image = image + epsilon * sign_data_grad
    return torch.clamp(perturbed_image, 0, 1)


for epsilon in (0.0, 0.05, 0.1, 0.3):
    correct = 0
    examples = []
    for data, target in zip(images, labels):
        data = data.unsqueeze(0).clone().requires_grad_(True)
        target = target.unsqueeze(0)
        output = model(data)
        init_pred = output.max(1, keepdim=True)[1]
        if init_pred.item() != target.item():
            continue
        loss = F.nll_loss(F.log_softmax(output, dim=1), target)
        model.zero_grad()
        loss.backward()
        data_grad = data.grad.data
        perturbed_data = fgsm_attack(data, epsilon, data_grad)
        output = model(perturbed_data)
        final_pred = output.max(1, keepdim=True)[1]
        if final_pred.item() == target.item():
            correct += 1
        elif len(examples) < 2:
            adv_ex = perturbed_data.squeeze().detach().cpu().numpy()
            examples.append((init_pred.item(), final_pred.item(), adv_ex))
    final_acc = correct / float(len(images))
    print(f"Epsilon: {epsilon}\tTest Accuracy = {correct} / {len(images)} = {final_acc}")
    out(epsilon, correct, examples)
out(model[1].weight.grad is not None, data.grad.abs().sum())
