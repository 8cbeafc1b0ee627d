# siamese network: shared tower, pairs of same/different class, concatenated features, BCE
import random

random.seed(0)
torch.manual_seed(0)


class SiameseNetwork(nn.Module):
    def __init__(self):
        super().__init__()
        self.tower = nn.Sequential(
            nn.Conv2d(1, 4, kernel_size=3, padding=1),
            nn.BatchNorm2d(4),
            nn.ReLU(inplace=True),
            nn.AdaptiveAvgPool2d((2, 2)),
            nn.Flatten(),
        )
        self.fc_in_features = 16
        self.fc = nn.Sequential(
            nn.Linear(self.fc_in_features * 2, 8), nn.ReLU(inplace=True), nn.Linear(8, 1)
        )
        self.sigmoid = nn.Sigmoid()
        self.tower.apply(self.init_weights)
        self.fc.apply(self.init_weights)

    def init_weights(self, m):
        if isinstance(m, nn.Linear):
            torch.nn.init.xavier_uniform_(m.weight)
            m.bias.data.fill_(0.01)

    def forward_once(self, x):
        output = self.tower(x)
        return output.view(output.size()[0], -1)

    def forward(self, input1, input2):
        output1 = self.forward_once(input1)
        output2 = self.forward_once(input2)
        output = torch.cat((output1, output2), 1)
        return self.sigmoid(self.fc(output))


class PairDataset(torch.utils.data.Dataset):
    def __init__(self, images, targets):
        self.images, self.targets = images, targets
        self.group_examples = {c: torch.nonzero(targets == c).squeeze(1).tolist() for c in range(3)}

    def __len__(self):
        return self.images.shape[0]

    def __getitem__(self, index):
        selected_class = random.randint(0, 2)
        index_1 = random.choice(self.group_examples[selected_class])
        image_1 = self.images[index_1]
        if index % 2 == 0:
            index_2 = random.choice(self.group_examples[selected_class])
            target = torch.tensor(1, dtype=torch.float)
        else:
            other = random.choice([c for c in range(3) if c != selected_class])
            index_2 = random.choice(self.group_examples[other])
            target = torch.tensor(0, dtype=torch.float)
        return image_1, self.images[index_2], target


images = torch.randn(30, 1, 6, 6)
targets = torch.arange(30) % 3
images += targets.view(-1, 1, 1, 1).float()
loader = torch.utils.data.DataLoader(PairDataset(images, targets), batch_size=6, shuffle=False)
model = SiameseNetwork()
optimizer = torch.optim.Adadelta(model.parameters(), lr=1.0)
scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=1, gamma=0.7)
criterion = nn.BCELoss()
for epoch in range(1, 3):
    model.train()
    for batch_idx, (images_1, images_2, t) in enumerate(loader):
        optimizer.zero_grad()
        outputs = model(images_1, images_2).squeeze()
        loss = criterion(outputs, t)
        loss.backward()
        optimizer.step()
        if batch_idx % 2 == 0:
            print(
                f"Train Epoch: {epoch} [{batch_idx * len(images_1)}/{len(loader.dataset)}]",
                f"\tLoss: {loss.item():.6f}",
            )
    scheduler.step()
model.eval()
test_loss, correct = 0, 0
with torch.no_grad():
    for images_1, images_2, t in loader:
        outputs = model(images_1, images_2).squeeze()
        test_loss += criterion(outputs, t).sum().item()
        pred = torch.where(outputs > 0.5, 1, 0)
        correct += pred.eq(t.view_as(pred)).sum().item()
print(
    f"Test set: Average loss: {test_loss / len(loader.dataset):.4f},",
    f"Accuracy: {correct}/{len(loader.dataset)}",
)
e1, e2 = model.forward_once(images[:3]), model.forward_once(images[3:6])
print(F.cosine_similarity(e1, e2).shape, F.pairwise_distance(e1, e2).shape)
out(outputs, pred, F.cosine_similarity(e1, e2), scheduler.get_last_lr())
