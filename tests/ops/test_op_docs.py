"""Registry ops carry a signature, a summary and the torch page they mirror, so that
``help(torch.exp)`` and editors show something useful (ops/docs.py)."""

import inspect
import pydoc

import numtorch as torch
from numtorch.ops import FUNCTIONS


def test_registry_op_has_signature_and_generated_doc():
    assert str(inspect.signature(torch.exp)) == "(input) -> 'Tensor'"
    text = pydoc.render_doc(torch.exp, renderer=pydoc.plaintext)
    assert "exp(input) -> Tensor" in text
    assert "records ``ExpBackward0`` as ``grad_fn``" in text
    assert "https://docs.pytorch.org/docs/stable/generated/torch.exp.html" in text


def test_defaults_come_from_the_entry():
    assert str(inspect.signature(torch.addcmul)) == "(input, tensor1, tensor2, value=1) -> 'Tensor'"
    assert torch.addcmul.__doc__.startswith("addcmul(input, tensor1, tensor2, value) -> Tensor")


def test_tensor_method_shares_the_function_doc():
    assert torch.Tensor.exp.__doc__ == torch.exp.__doc__


def test_hand_written_docs_are_kept():
    doc = torch.sum.__doc__
    assert doc.startswith("Sum of all elements")
    assert doc.rstrip().endswith("torch.sum.html")


def test_every_published_registry_op_is_documented():
    ops = {n: f for n, f in FUNCTIONS.items() if hasattr(f, "spec")}
    assert len(ops) > 50
    undocumented = sorted(
        n for n, f in ops.items() if "Mirrors ``torch." not in f.__doc__ or not f.__signature__
    )
    assert undocumented == []
