"""torchvision's ResNet rebuilt with torch.nn only (there is no CPU torchvision here), the
reference for numtorch.models in tests and bench/resnet.py."""

from __future__ import annotations


def torch_resnet(torch, bottleneck: bool, layers, num_classes=1000):
    """torchvision.models.ResNet (v1.5, default options), parameter for parameter."""
    nn = torch.nn
    expansion = 4 if bottleneck else 1

    def conv_bn(cin, cout, k, stride=1):
        conv = nn.Conv2d(cin, cout, k, stride=stride, padding=k // 2, bias=False)
        return conv, nn.BatchNorm2d(cout)

    class Block(nn.Module):
        def __init__(self, cin, planes, stride):
            super().__init__()
            cout = planes * expansion
            if bottleneck:
                self.conv1, self.bn1 = conv_bn(cin, planes, 1)
                self.conv2, self.bn2 = conv_bn(planes, planes, 3, stride)
                self.conv3, self.bn3 = conv_bn(planes, cout, 1)
            else:
                self.conv1, self.bn1 = conv_bn(cin, planes, 3, stride)
                self.conv2, self.bn2 = conv_bn(planes, planes, 3)
            self.relu = nn.ReLU(inplace=True)
            self.downsample = None
            if stride != 1 or cin != cout:
                self.downsample = nn.Sequential(*conv_bn(cin, cout, 1, stride))

        def forward(self, x):
            out = self.relu(self.bn1(self.conv1(x)))
            out = self.bn2(self.conv2(out))
            if bottleneck:
                out = self.bn3(self.conv3(self.relu(out)))
            shortcut = x if self.downsample is None else self.downsample(x)
            return self.relu(out + shortcut)

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv1 = nn.Conv2d(3, 64, 7, stride=2, padding=3, bias=False)
            self.bn1 = nn.BatchNorm2d(64)
            self.relu = nn.ReLU(inplace=True)
            self.maxpool = nn.MaxPool2d(3, stride=2, padding=1)
            cin = 64
            for i, (planes, count) in enumerate(zip((64, 128, 256, 512), layers)):
                blocks = []
                for j in range(count):
                    blocks.append(Block(cin, planes, 2 if i > 0 and j == 0 else 1))
                    cin = planes * expansion
                setattr(self, f"layer{i + 1}", nn.Sequential(*blocks))
            self.avgpool = nn.AdaptiveAvgPool2d((1, 1))
            self.fc = nn.Linear(512 * expansion, num_classes)

        def forward(self, x):
            x = self.maxpool(self.relu(self.bn1(self.conv1(x))))
            x = self.layer4(self.layer3(self.layer2(self.layer1(x))))
            return self.fc(torch.flatten(self.avgpool(x), 1))

    return Net()
