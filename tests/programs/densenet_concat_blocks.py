# DenseNet: dense layers concatenating features (bn-relu-conv bottleneck), transitions, checkpoint
from collections import OrderedDict


class _DenseLayer(nn.Module):
    def __init__(self, num_input_features, growth_rate, bn_size, drop_rate, memory_efficient=False):
        super().__init__()
        self.norm1 = nn.BatchNorm2d(num_input_features)
        self.relu1 = nn.ReLU(inplace=True)
        self.conv1 = nn.Conv2d(
            num_input_features, bn_size * growth_rate, kernel_size=1, stride=1, bias=False
        )
        self.norm2 = nn.BatchNorm2d(bn_size * growth_rate)
        self.relu2 = nn.ReLU(inplace=True)
        self.conv2 = nn.Conv2d(
            bn_size * growth_rate, growth_rate, kernel_size=3, stride=1, padding=1, bias=False
        )
        self.drop_rate = float(drop_rate)
        self.memory_efficient = memory_efficient

    def bn_function(self, inputs):
        concated_features = torch.cat(inputs, 1)
        return self.conv1(self.relu1(self.norm1(concated_features)))

    def any_requires_grad(self, input):
        return any(tensor.requires_grad for tensor in input)

    def call_checkpoint_bottleneck(self, input):
        def closure(*inputs):
            return self.bn_function(inputs)

        return torch.utils.checkpoint.checkpoint(closure, *input, use_reentrant=False)

    def forward(self, input):
        prev_features = [input] if isinstance(input, torch.Tensor) else input
        if self.memory_efficient and self.any_requires_grad(prev_features):
            bottleneck_output = self.call_checkpoint_bottleneck(prev_features)
        else:
            bottleneck_output = self.bn_function(prev_features)
        new_features = self.conv2(self.relu2(self.norm2(bottleneck_output)))
        if self.drop_rate > 0:
            new_features = F.dropout(new_features, p=self.drop_rate, training=self.training)
        return new_features


class _DenseBlock(nn.ModuleDict):
    _version = 2

    def __init__(
        self,
        num_layers,
        num_input_features,
        bn_size,
        growth_rate,
        drop_rate,
        memory_efficient=False,
    ):
        super().__init__()
        for i in range(num_layers):
            layer = _DenseLayer(
                num_input_features + i * growth_rate,
                growth_rate,
                bn_size,
                drop_rate,
                memory_efficient,
            )
            self.add_module("denselayer%d" % (i + 1), layer)  # noqa: UP031

    def forward(self, init_features):
        features = [init_features]
        for _name, layer in self.items():
            new_features = layer(features)
            features.append(new_features)
        return torch.cat(features, 1)


class _Transition(nn.Sequential):
    def __init__(self, num_input_features, num_output_features):
        super().__init__()
        self.norm = nn.BatchNorm2d(num_input_features)
        self.relu = nn.ReLU(inplace=True)
        self.conv = nn.Conv2d(
            num_input_features, num_output_features, kernel_size=1, stride=1, bias=False
        )
        self.pool = nn.AvgPool2d(kernel_size=2, stride=2)


def densenet(memory_efficient):
    torch.manual_seed(0)
    growth_rate, block_config, num_init_features, bn_size = 4, (2, 2), 8, 2
    features = nn.Sequential(
        OrderedDict(
            [
                (
                    "conv0",
                    nn.Conv2d(3, num_init_features, kernel_size=3, stride=1, padding=1, bias=False),
                ),
                ("norm0", nn.BatchNorm2d(num_init_features)),
                ("relu0", nn.ReLU(inplace=True)),
                ("pool0", nn.MaxPool2d(kernel_size=3, stride=2, padding=1)),
            ]
        )
    )
    num_features = num_init_features
    for i, num_layers in enumerate(block_config):
        block = _DenseBlock(num_layers, num_features, bn_size, growth_rate, 0.0, memory_efficient)
        features.add_module("denseblock%d" % (i + 1), block)  # noqa: UP031
        num_features = num_features + num_layers * growth_rate
        if i != len(block_config) - 1:
            trans = _Transition(num_features, num_features // 2)
            features.add_module("transition%d" % (i + 1), trans)  # noqa: UP031
            num_features = num_features // 2
    features.add_module("norm5", nn.BatchNorm2d(num_features))
    classifier = nn.Linear(num_features, 3)
    return features, classifier


def run(memory_efficient):
    features, classifier = densenet(memory_efficient)
    x = torch.randn(2, 3, 8, 8)
    f = F.relu(features(x), inplace=True)
    f = F.adaptive_avg_pool2d(f, (1, 1))
    logits = classifier(torch.flatten(f, 1))
    logits.sum().backward()
    return logits, features.conv0.weight.grad, features


a, ga, feats = run(False)
b, gb, _ = run(True)
print(list(feats._modules.keys()))
print(feats.denseblock2.denselayer2.conv1, feats.transition1.conv.weight.shape)
print(torch.allclose(a, b, atol=1e-6), torch.allclose(ga, gb, atol=1e-5))
out(a)
print(f"conv0 grad norm {ga.norm().item():.4f}")
print(feats.denseblock1.denselayer1.norm1.running_mean[:4])
