# conv-bn fusion with torch.fx: find conv -> batchnorm call_module pairs, fold the norm
import copy


class ConvBNNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 4, 3, padding=1)
        self.bn1 = nn.BatchNorm2d(4)
        self.block = nn.Sequential(nn.Conv2d(4, 4, 3), nn.BatchNorm2d(4), nn.ReLU())
        self.fc = nn.Linear(4, 2)

    def forward(self, x):
        x = F.relu(self.bn1(self.conv1(x)))
        x = self.block(x)
        x = F.adaptive_avg_pool2d(x, 1).flatten(1)
        return self.fc(x)


def _parent_name(target):
    *parent, name = target.rsplit(".", 1)
    return parent[0] if parent else "", name


def replace_node_module(node, modules, new_module):
    parent_name, name = _parent_name(node.target)
    modules[node.target] = new_module
    setattr(modules[parent_name], name, new_module)


def fuse(model):
    model = copy.deepcopy(model)
    fx_model = torch.fx.symbolic_trace(model)
    modules = dict(fx_model.named_modules())
    for node in fx_model.graph.nodes:
        if node.op != "call_module" or not isinstance(modules[node.target], nn.BatchNorm2d):
            continue
        conv_node = node.args[0]
        if conv_node.op != "call_module" or len(conv_node.users) > 1:
            continue
        conv, bn = modules[conv_node.target], modules[node.target]
        fused = torch.nn.utils.fusion.fuse_conv_bn_eval(conv, bn)
        replace_node_module(conv_node, modules, fused)
        node.replace_all_uses_with(conv_node)
        fx_model.graph.erase_node(node)
    fx_model.graph.lint()
    fx_model.delete_all_unused_submodules()
    fx_model.recompile()
    return fx_model


model = ConvBNNet()
for m in model.modules():
    if isinstance(m, nn.BatchNorm2d):
        m.running_mean.uniform_(-0.5, 0.5)
        m.running_var.uniform_(0.5, 1.5)
        m.weight.data.uniform_(0.5, 1.5)
model.eval()
fused = fuse(model)
print(fused.code)
print(fused)
print([n.op + ":" + n.name for n in fused.graph.nodes])
x = torch.randn(2, 1, 6, 6)
with torch.no_grad():
    out(model(x), fused(x))
out(len(list(model.modules())), len(list(fused.modules())))
# ---
# a traced module trains like the original: gradients flow through the generated forward
net = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1))
traced = torch.fx.symbolic_trace(net)
print(traced.code)
opt = torch.optim.SGD(traced.parameters(), lr=0.1)
x, y = torch.randn(8, 3), torch.randn(8, 1)
for _ in range(3):
    opt.zero_grad()
    loss = F.mse_loss(traced(x), y)
    loss.backward()
    opt.step()
    out(loss)
out(net[0].weight, net[0].weight.grad)
out(sorted(traced.state_dict().keys()))
