# gamma-family functions and gradients: lgamma, digamma, polygamma, mvlgamma, gammainc, beta
x = torch.tensor([0.3, 1.0, 2.5, 7.0, 15.0], dtype=torch.float64, requires_grad=True)
lg = torch.lgamma(x)
dg = torch.digamma(x)
tg = torch.polygamma(1, x)
pg3 = torch.polygamma(3, x)
print(lg, dg, tg, pg3, sep="\n")
(g,) = torch.autograd.grad(lg.sum(), x, create_graph=True)
print("d lgamma = digamma:", torch.allclose(g, dg))
(h,) = torch.autograd.grad(g.sum(), x)
print("d digamma = trigamma:", torch.allclose(h, tg))
a, b = torch.tensor([0.5, 2.0, 3.0]), torch.tensor([0.5, 1.0, 4.0])
log_beta = torch.lgamma(a) + torch.lgamma(b) - torch.lgamma(a + b)
print(log_beta.exp())
print(torch.special.gammainc(a, b), torch.special.gammaincc(a, b), torch.igamma(a, b))
print(
    torch.mvlgamma(torch.tensor([2.5, 4.0]), p=2), torch.special.multigammaln(torch.tensor(3.0), 3)
)
print(torch.special.gammaln(torch.tensor([0.5, -0.5, -1.5])), torch.special.psi(torch.tensor(1.0)))
out(lg, dg, tg, pg3, h, log_beta)
# ---
# error functions, Bessel functions, zeta, xlogy/xlog1py, entr, sinc, logit, ndtr/ndtri/log_ndtr
x = torch.tensor([-2.0, -0.5, 0.0, 0.1, 0.9, 3.0])
sp = torch.special
vals = {
    "erf": sp.erf(x),
    "erfc": sp.erfc(x),
    "erfcx": sp.erfcx(x),
    "erfinv": sp.erfinv(x.clamp(-0.99, 0.99)),
    "ndtr": sp.ndtr(x),
    "log_ndtr": sp.log_ndtr(x),
    "ndtri": sp.ndtri(torch.tensor([0.01, 0.5, 0.975])),
    "i0": sp.i0(x),
    "i0e": sp.i0e(x),
    "i1": sp.i1(x),
    "i1e": sp.i1e(x),
    "j0": sp.bessel_j0(x),
    "j1": sp.bessel_j1(x),
    "y0": sp.bessel_y0(x.abs() + 0.5),
    "y1": sp.bessel_y1(x.abs() + 0.5),
    "k0": sp.modified_bessel_k0(x.abs() + 0.5),
    "k1e": sp.scaled_modified_bessel_k1(x.abs() + 0.5),
    "i0_mod": sp.modified_bessel_i0(x),
    "airy": sp.airy_ai(x),
    "sph_j0": sp.spherical_bessel_j0(x),
    "zeta": sp.zeta(torch.tensor([2.0, 3.0, 4.5]), torch.tensor([1.0, 2.0, 0.5])),
    "xlogy": sp.xlogy(torch.tensor([0.0, 2.0, 3.0]), torch.tensor([0.0, 0.5, 4.0])),
    "xlog1py": sp.xlog1py(torch.tensor([0.0, 2.0]), torch.tensor([-1.0, 0.5])),
    "entr": sp.entr(torch.tensor([0.0, 0.25, 1.0, -1.0])),
    "sinc": sp.sinc(x),
    "logit": sp.logit(torch.tensor([0.1, 0.5, 0.99]), eps=1e-6),
    "expit": sp.expit(x),
    "expm1": sp.expm1(x),
    "log1p": sp.log1p(x.abs()),
    "exp2": sp.exp2(x),
    "round": sp.round(x * 3.3),
    "softmax": sp.softmax(x, 0),
    "log_softmax": sp.log_softmax(x, 0),
    "logsumexp": sp.logsumexp(x, 0),
}
for name, v in vals.items():
    print(f"{name:8s}", [f"{t:.5g}" for t in v.reshape(-1).tolist()])
out(vals)
print(
    sp.chebyshev_polynomial_t(torch.tensor([0.5, -0.3]), 3),
    sp.hermite_polynomial_h(torch.tensor(1.5), 4),
)
print(
    sp.legendre_polynomial_p(torch.tensor([0.2, 0.7]), torch.tensor([2, 5])),
    sp.laguerre_polynomial_l(torch.tensor(0.5), 3),
)
y = torch.tensor([0.2, 0.6], requires_grad=True)
(sp.erfinv(y).sum() + sp.i0(y).sum() + sp.xlogy(y, y).sum() + sp.i1e(y).sum()).backward()
print(y.grad)
