# the channels-last tutorial: strides after conversion, contiguity checks, a converted model
N, C, H, W = 10, 3, 32, 32
x = torch.empty(N, C, H, W)
print(x.stride())
x = x.to(memory_format=torch.channels_last)
print(x.shape)
print(x.stride())
x = x.to(memory_format=torch.contiguous_format)
print(x.stride())
x = torch.empty(N, C, H, W, memory_format=torch.channels_last)
print(x.stride())
x = torch.randn(N, C, H, W).contiguous(memory_format=torch.channels_last)
print(x.stride(), x.is_contiguous(memory_format=torch.channels_last), x.is_contiguous())
special_x = torch.empty(4, 1, 4, 4)
print(special_x.is_contiguous(memory_format=torch.channels_last), special_x.is_contiguous())
special_y = torch.empty(4, 1, 4, 4).to(memory_format=torch.channels_last)
print(special_y.stride())
y = x.clone(memory_format=torch.channels_last)
print(y.stride(), torch.equal(x, y))
z = torch.randn(2, 3, 4, 5, 6).to(memory_format=torch.channels_last_3d)
print(z.stride(), z.is_contiguous(memory_format=torch.channels_last_3d))
err(lambda: torch.randn(3, 4, 5).to(memory_format=torch.channels_last))

model = nn.Sequential(
    nn.Conv2d(3, 8, 3, padding=1),
    nn.ReLU(),
    nn.Conv2d(8, 4, 3, stride=2),
    nn.Flatten(),
    nn.Linear(4 * 15 * 15, 10),
)
model = model.to(memory_format=torch.channels_last)
print(model[0].weight.stride(), model[0].bias.stride(), model[4].weight.stride())
inp = torch.randn(4, 3, 32, 32).to(memory_format=torch.channels_last)
feat = model[0](inp)
print(feat.stride(), feat.is_contiguous(memory_format=torch.channels_last))
target = torch.randint(0, 10, (4,))
opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
for step in range(3):
    opt.zero_grad()
    loss = F.cross_entropy(model(inp), target)
    loss.backward()
    opt.step()
    print(f"step {step}: {loss.item():.4f}")
out(model[0].weight.grad.stride(), model[2].weight[0, 0], type(feat.grad_fn).__name__)
plain = torch.randn(4, 3, 32, 32, requires_grad=True)
as_cl = plain.to(memory_format=torch.channels_last)
out(as_cl, as_cl.is_contiguous(), (as_cl * 2).stride())
as_cl.pow(2).sum().backward()
out(plain.grad, plain.grad.stride())
