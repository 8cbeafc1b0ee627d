# knowledge distillation tutorial: soft targets with temperature, cosine loss on hidden states
torch.manual_seed(0)
X = torch.randn(64, 3, 8, 8)
y = torch.randint(0, 4, (64,))
loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(X, y), batch_size=16)


class DeepNN(nn.Module):
    def __init__(self, num_classes=4):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 16, kernel_size=3, padding=1),
            nn.ReLU(),
            nn.Conv2d(16, 8, kernel_size=3, padding=1),
            nn.ReLU(),
            nn.MaxPool2d(2, 2),
        )
        self.classifier = nn.Sequential(
            nn.Linear(128, 32), nn.ReLU(), nn.Dropout(0.1), nn.Linear(32, num_classes)
        )

    def forward(self, x):
        x = self.features(x)
        x = torch.flatten(x, 1)
        return self.classifier(x)


class LightNN(nn.Module):
    def __init__(self, num_classes=4):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 8, kernel_size=3, padding=1), nn.ReLU(), nn.MaxPool2d(2, 2)
        )
        self.classifier = nn.Sequential(
            nn.Linear(128, 16), nn.ReLU(), nn.Dropout(0.1), nn.Linear(16, num_classes)
        )

    def forward(self, x):
        x = self.features(x)
        x = torch.flatten(x, 1)
        return self.classifier(x)


def train(model, epochs, learning_rate):
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=learning_rate)
    model.train()
    for epoch in range(epochs):
        running_loss = 0.0
        for inputs, labels in loader:
            optimizer.zero_grad()
            loss = criterion(model(inputs), labels)
            loss.backward()
            optimizer.step()
            running_loss += loss.item()
        print(f"Epoch {epoch + 1}/{epochs}, Loss: {running_loss / len(loader)}")


def test(model):
    model.eval()
    correct = total = 0
    with torch.no_grad():
        for inputs, labels in loader:
            _, predicted = torch.max(model(inputs).data, 1)
            total += labels.size(0)
            correct += (predicted == labels).sum().item()
    accuracy = 100 * correct / total
    print(f"Test Accuracy: {accuracy:.2f}%")
    return accuracy


nn_deep = DeepNN()
train(nn_deep, epochs=2, learning_rate=0.001)
test_accuracy_deep = test(nn_deep)
torch.manual_seed(42)
nn_light = LightNN()
torch.manual_seed(42)
new_nn_light = LightNN()
print("Norm of 1st layer of nn_light:", torch.norm(nn_light.features[0].weight).item())
print("Norm of 1st layer of new_nn_light:", torch.norm(new_nn_light.features[0].weight).item())
total_params_deep = f"{sum(p.numel() for p in nn_deep.parameters()):,}"
print(f"DeepNN parameters: {total_params_deep}")


def train_knowledge_distillation(
    teacher, student, epochs, learning_rate, T, soft_target_loss_weight, ce_loss_weight
):
    ce_loss = nn.CrossEntropyLoss()
    optimizer = torch.optim.Adam(student.parameters(), lr=learning_rate)
    teacher.eval()
    student.train()
    for epoch in range(epochs):
        running_loss = 0.0
        for inputs, labels in loader:
            optimizer.zero_grad()
            with torch.no_grad():
                teacher_logits = teacher(inputs)
            student_logits = student(inputs)
            soft_targets = nn.functional.softmax(teacher_logits / T, dim=-1)
            soft_prob = nn.functional.log_softmax(student_logits / T, dim=-1)
            soft_targets_loss = (
                torch.sum(soft_targets * (soft_targets.log() - soft_prob))
                / soft_prob.size()[0]
                * (T**2)
            )
            label_loss = ce_loss(student_logits, labels)
            loss = soft_target_loss_weight * soft_targets_loss + ce_loss_weight * label_loss
            loss.backward()
            optimizer.step()
            running_loss += loss.item()
        print(f"Epoch {epoch + 1}/{epochs}, Loss: {running_loss / len(loader)}")


train_knowledge_distillation(
    nn_deep, new_nn_light, 2, 0.001, T=2, soft_target_loss_weight=0.25, ce_loss_weight=0.75
)
test(new_nn_light)


class ModifiedLightNNCosine(nn.Module):
    def __init__(self, num_classes=4):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 8, kernel_size=3, padding=1), nn.ReLU(), nn.MaxPool2d(2, 2)
        )
        self.classifier = nn.Sequential(
            nn.Linear(128, 16), nn.ReLU(), nn.Dropout(0.1), nn.Linear(16, num_classes)
        )

    def forward(self, x):
        x = self.features(x)
        flattened_conv_output = torch.flatten(x, 1)
        x = self.classifier(flattened_conv_output)
        flattened_conv_output_after_pooling = torch.nn.functional.avg_pool1d(
            flattened_conv_output, 1
        )
        return x, flattened_conv_output_after_pooling


student = ModifiedLightNNCosine()
cosine_loss = nn.CosineEmbeddingLoss()
teacher_hidden = torch.flatten(nn_deep.features(X[:16]), 1).detach()
logits, hidden = student(X[:16])
hidden_rep_loss = cosine_loss(hidden, teacher_hidden, target=torch.ones(16))
print(f"{hidden_rep_loss.item():.6f}", logits.shape, hidden.shape)
hidden_rep_loss.backward()
regressor = nn.Conv2d(8, 8, kernel_size=3, padding=1)
feature_map = regressor(student.features(X[:4]))
mse = nn.MSELoss()(feature_map, nn_deep.features(X[:4]).detach())
print(f"{mse.item():.6f}")
out(hidden_rep_loss, mse, student.features[0].weight.grad[:2, 0])
