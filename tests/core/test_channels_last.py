"""Channels-last memory format as strides (Note [Channels last]), against an installed torch:
the conversions, the contiguity checks, the convolution's result layout and Module.to."""

import pytest

import numtorch

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.parity


def _story(lib):
    F = lib.nn.functional
    seen = []
    x = lib.randn(2, 3, 4, 5, requires_grad=True)
    cl = x.to(memory_format=lib.channels_last)
    seen += [type(cl.grad_fn).__name__, cl.stride(), cl.is_contiguous()]
    seen += [cl.is_contiguous(memory_format=lib.channels_last), lib.equal(cl, x)]
    seen += [type(x.contiguous(memory_format=lib.channels_last).grad_fn).__name__]
    seen += [x.clone(memory_format=lib.channels_last).stride()]
    seen += [cl.to(memory_format=lib.channels_last) is cl, cl.contiguous() is cl]
    seen += [cl.contiguous(memory_format=lib.channels_last) is cl, cl.contiguous().stride()]
    wide = x.to(lib.float64, memory_format=lib.channels_last)
    seen += [type(wide.grad_fn).__name__, wide.stride(), str(wide.dtype)]
    seen += [cl.to(memory_format=lib.contiguous_format).stride()]
    seen += [lib.randn(2, 1, 4, 5).to(memory_format=lib.channels_last).stride()]
    seen += [lib.randn(1, 3, 1, 1).contiguous(memory_format=lib.channels_last).stride()]
    seen += [lib.randn(2, 3, 4, 5, 6).contiguous(memory_format=lib.channels_last_3d).stride()]
    seen += [lib.empty(2, 3, 4, 5, memory_format=lib.channels_last).stride()]
    c = cl.detach()
    seen += [(c + 1).stride(), c.exp().stride(), c.sum(1).stride(), c.reshape(2, 3, 20).stride()]
    w = lib.randn(4, 3, 3, 3)
    seen += [
        F.conv2d(c, w).stride(),
        F.conv2d(x.detach(), w.to(memory_format=lib.channels_last)).stride(),
    ]
    conv = lib.nn.Conv2d(3, 4, 3).to(memory_format=lib.channels_last)
    seen += [conv.weight.stride(), conv.bias.stride()]
    cl.sum().backward()
    seen += [x.grad.stride()]
    # the gradient layout contract: a channels-last parameter gets a channels-last gradient
    conv(lib.randn(2, 3, 5, 5)).sum().backward()
    seen += [conv.weight.grad.stride(), conv.bias.grad.stride()]
    for bad in (
        lambda: lib.randn(3, 4, 5).to(memory_format=lib.channels_last),
        lambda: lib.randn(3, 4, 5).contiguous(memory_format=lib.channels_last),
        lambda: lib.randn(2, 3, 4, 5).clone(memory_format=lib.channels_last_3d),
        lambda: lib.empty(2, 3, 4, memory_format=lib.channels_last),
    ):
        try:
            bad()
            seen.append("no error")
        except RuntimeError as e:
            seen.append(str(e))
    return seen


def test_channels_last_strides_match_torch():
    assert _story(numtorch) == _story(torch)


def test_convert_conv_weight_memory_format_matches_torch():
    def story(lib):
        nn = lib.nn
        inner = nn.Sequential(nn.ConvTranspose2d(4, 2, 2), nn.Conv3d(2, 2, 1))
        model = nn.Sequential(nn.Conv2d(3, 4, 3), nn.ReLU(), inner)
        weight = model[0].weight
        same = nn.utils.convert_conv2d_weight_memory_format(model, lib.channels_last) is model
        seen = [same, model[0].weight is weight, model[0].weight.stride()]
        seen += [inner[0].weight.stride(), inner[1].weight.stride()]
        nn.utils.convert_conv3d_weight_memory_format(model, lib.channels_last_3d)
        seen += [inner[1].weight.stride()]
        return seen

    assert story(numtorch) == story(torch)
