# Sequential slicing, insert, extend, append, pop, del, add, mul
s = nn.Sequential(nn.ReLU(), nn.Tanh(), nn.Sigmoid(), nn.Identity())
print(s[1:3])
print(s[::-1])
out(type(s[1:]).__name__, len(s), [n for n, _ in s[1:].named_children()])
s.append(nn.GELU())
s.insert(0, nn.SiLU())
s.insert(-1, nn.ELU())
print(s)
s.extend([nn.Softplus()])
out(len(s))
p = s.pop(1)
print(p, s)
del s[0]
del s[-2:]
print(s)
err(lambda: s[10])
err(lambda: s.insert(20, nn.ReLU()))
err(lambda: s.append(3))
err(lambda: s.__getitem__("a"))
s2 = s + nn.Sequential(nn.ReLU())
print(s2)
print(s * 2)
s[0] = nn.Hardtanh()
print(s)
out([n for n, _ in s.named_children()])
# ---
# Sequential with OrderedDict and iteration
import collections

s = nn.Sequential(collections.OrderedDict([("fc", nn.Linear(1, 1)), ("act", nn.ReLU())]))
print(s)
out([n for n, _ in s.named_children()], list(s.state_dict().keys()))
print(s[0], s.act)
out([type(m).__name__ for m in s])
del s[0]
out([n for n, _ in s.named_children()])
err(lambda: nn.Sequential(collections.OrderedDict([("a", 3)])))
# ---
# ModuleList operations
ml = nn.ModuleList([nn.ReLU(), nn.Tanh()])
ml.append(nn.Sigmoid())
ml.extend([nn.Identity(), nn.GELU()])
ml.insert(1, nn.SiLU())
print(ml)
print(ml[1:3], ml[-1])
del ml[0]
out([n for n, _ in ml.named_children()])
ml[0] = nn.ELU()
out(len(ml), type(ml.pop(0)).__name__, len(ml))
ml += [nn.ReLU()]
out(len(ml), [type(m).__name__ for m in ml])
print(ml + nn.ModuleList([nn.Tanh()]))
err(lambda: ml[100])
err(lambda: ml.extend(nn.ReLU()))
err(lambda: ml.append(5))
del ml[1:3]
print(ml)
err(lambda: ml(torch.ones(1)))
out(nn.ModuleList().__len__(), bool(nn.ModuleList()))
# ---
# ModuleDict operations
md = nn.ModuleDict({"b": nn.ReLU(), "a": nn.Tanh()})
print(md)
out(list(md.keys()), [type(v).__name__ for v in md.values()], "a" in md, len(md))
md["c"] = nn.Sigmoid()
md.update({"d": nn.Identity()})
md.update([("e", nn.GELU())])
out(list(md))
print(type(md.pop("a")).__name__)
del md["b"]
out([k for k, _ in md.items()], [n for n, _ in md.named_children()])
err(lambda: md["zz"])
err(lambda: md.update(3))
err(lambda: md.__setitem__("x", 4))
md.clear()
out(len(md))
# ---
# ParameterList and ParameterDict
pl = nn.ParameterList([nn.Parameter(torch.ones(1)), torch.zeros(2)])
out([type(p).__name__ for p in pl], [p.requires_grad for p in pl], len(pl))
print(pl)
pd = nn.ParameterDict({"a": nn.Parameter(torch.ones(2, 2))})
pd["b"] = torch.zeros(3)
print(pd)
out(list(pd.keys()))
m = nn.Module()
m.pl = pl
out([n for n, _ in m.named_parameters()])
# ---
# Parameter semantics
p = nn.Parameter(torch.ones(2))
print(p)
out(p, p.requires_grad, type(p * 2).__name__, isinstance(p, torch.Tensor))
q = nn.Parameter(torch.ones(2), requires_grad=False)
print(q)
out(q.requires_grad)
e = nn.Parameter()
out(e.shape, e.requires_grad)
d = p.detach()
out(type(d).__name__)
out(type(p.data).__name__)
print(repr(nn.Parameter(torch.tensor([1.0, 2.0], dtype=torch.float64))))
err(lambda: nn.Parameter(torch.tensor([1, 2])))
out(nn.Parameter(torch.tensor([1, 2]), requires_grad=False).dtype)
# ---
# Identity and Flatten / Unflatten
x = torch.arange(24.0).reshape(2, 3, 4)
out(nn.Identity(54, unused="x")(x) is x)
out(
    nn.Flatten()(x).shape,
    nn.Flatten(0)(x).shape,
    nn.Flatten(0, 1)(x).shape,
    nn.Flatten(-2, -1)(x).shape,
)
err(lambda: nn.Flatten()(torch.ones(3)).shape)
err(lambda: nn.Flatten(2, 1)(x))
out(nn.Unflatten(1, (3, 1))(x).shape)
print(nn.Unflatten(1, (3, 1)))
# ---
# Sequential multiplication and in-place add
s = nn.Sequential(nn.ReLU(), nn.Tanh())
t = s * 2
out(len(t), t[0] is t[2], [n for n, _ in t.named_children()])
out(len(3 * s))
s += nn.Sequential(nn.Sigmoid())
out(len(s))
s *= 2
out(len(s), [n for n, _ in s.named_children()])
err(lambda: s * 0)
err(lambda: s * 1.5)
err(lambda: s + nn.ReLU())
out("0" in dir(s), "forward" in dir(s))
# ---
# ParameterDict as torch: sorted plain dicts, get/setdefault/copy/popitem/|, key checks
pd = nn.ParameterDict({"b": torch.ones(1), "a": torch.zeros(2)})
out(list(pd), [n for n, _ in pd.named_parameters()])
pd.update([("d", torch.ones(3)), ("c", torch.ones(1))])
out(list(pd), type(pd.get("zz", 5)).__name__, pd.get("a"))
out(pd.setdefault("e", torch.ones(4)).shape, list(pd))
out(pd.popitem()[0], list(pd))
c = pd.copy()
out(type(c).__name__, c["a"] is pd["a"], list(reversed(pd)))
m = pd | nn.ParameterDict({"z": torch.ones(1)})
out(list(m), list(pd))
pd |= {"y": torch.ones(1)}
out(list(pd))
err(lambda: pd[1])
err(lambda: pd.__setitem__(2, torch.ones(1)))
err(lambda: pd.update(5))
err(lambda: pd.update([("a", torch.ones(1), 3)]))
err(lambda: pd.update([5]))
err(lambda: print(pd))  # the int key stays listed in torch too, and printing fails
