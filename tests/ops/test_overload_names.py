"""Keyword names torch's parser takes: each overload's own (tensor_split's ``sections`` and
``indices``), the function's and the method's (``torch.split(tensor=...)``,
``x.split(split_size=...)``), and ``input`` for a schema's ``self``."""

from __future__ import annotations

import pytest

import numtorch as torch


def _lists(parts):
    return [p.tolist() for p in parts]


def test_tensor_split_takes_each_overloads_name():
    x = torch.arange(6)
    assert _lists(torch.tensor_split(x, sections=3)) == [[0, 1], [2, 3], [4, 5]]
    assert _lists(x.tensor_split(indices=[1, 2])) == [[0], [1], [2, 3, 4, 5]]
    assert _lists(torch.tensor_split(x, tensor_indices_or_sections=torch.tensor(2))) == [
        [0, 1, 2],
        [3, 4, 5],
    ]
    assert _lists(torch.hsplit(x, sections=2)) == [[0, 1, 2], [3, 4, 5]]
    with pytest.raises(TypeError, match="multiple values for argument 'indices_or_sections'"):
        torch.tensor_split(x, sections=2, indices_or_sections=2)


def test_split_takes_the_functions_and_the_methods_names():
    x = torch.arange(4)
    assert _lists(torch.split(tensor=x, split_size_or_sections=2)) == [[0, 1], [2, 3]]
    assert _lists(x.split(split_size=3)) == [[0, 1, 2], [3]]
    assert _lists(torch.unsafe_split(x, split_size=2, dim=0)) == [[0, 1], [2, 3]]


def test_schema_names_of_entry_points():
    a = torch.tensor([[2.0, 1.0], [1.0, 3.0]])
    q, tau = torch.geqrf(a)
    expected = torch.ormqr(q, tau, a)
    assert torch.ormqr(input=q, input2=tau, input3=a).allclose(expected)
    out = torch.native_group_norm(
        torch.ones(2, 4, 3), None, None, N=2, C=4, HxW=3, group=2, eps=1e-5
    )
    assert out[0].shape == (2, 4, 3)


def test_input_names_a_schemas_self():
    a = torch.tensor([[4.0, 0.0], [0.0, 9.0]])
    assert torch.det(input=a).item() == 36.0
    assert torch.linalg.cholesky(input=a).tolist() == [[2.0, 0.0], [0.0, 3.0]]
    assert torch.unfold_copy(input=torch.arange(3.0), dimension=0, size=2, step=1).shape == (2, 2)
    with pytest.raises(TypeError, match="unexpected keyword argument 'inp'"):
        torch.det(inp=a)


def test_copy_takes_other_by_name():
    x = torch.zeros(2)
    assert x.copy_(other=torch.ones(2)) is x and x.tolist() == [1.0, 1.0]
    with pytest.raises(TypeError, match="argument 'other' \\(position 1\\) must be Tensor"):
        x.copy_("a")


def test_is_distributed_is_a_function_and_a_method():
    assert torch.is_distributed(torch.ones(1)) is False
    assert torch.ones(1).is_distributed() is False


def test_recurrences_take_their_schemas_names():
    # torch.lstm(input, hx, params, ...) and its packed form (data, batch_sizes, hx, ...)
    import numtorch.nn as nn

    torch.manual_seed(0)
    layer = nn.LSTM(3, 4)
    x = torch.randn(5, 2, 3)
    hx = (torch.zeros(1, 2, 4), torch.zeros(1, 2, 4))
    params = list(layer._flat_weights)
    expected = torch.lstm(x, hx, params, True, 1, 0.0, False, False, False)
    named = torch.lstm(
        input=x, hx=hx, params=params, has_biases=True, num_layers=1, dropout=0.0,
        train=False, bidirectional=False, batch_first=False,
    )  # fmt: skip
    assert all(a.equal(b) for a, b in zip(named, expected))
    h0 = torch.zeros(1, 2, 4)
    out = torch.gru(x, hx=h0, params=list(nn.GRU(3, 4)._flat_weights), has_biases=True,
                    num_layers=1, dropout=0.0, train=False, bidirectional=False,
                    batch_first=False)  # fmt: skip
    assert out[0].shape == (5, 2, 4)
