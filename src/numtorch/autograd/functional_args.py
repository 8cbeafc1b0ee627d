"""Argument handling for torch.autograd.functional: inputs as tuples, fresh leaves, checks of
``v`` and of strict mode, with torch's error messages (functional.py holds the transforms)."""

from __future__ import annotations

from .._core import tensor as _tensor
from .api import grad as _grad


def as_tuple(value, arg_name: str, fn_name: str):
    """``(was_tuple, tuple_of_tensors)``, raising torch's TypeError for anything else."""
    is_tuple = isinstance(value, tuple)
    items = value if is_tuple else (value,)
    for i, item in enumerate(items):
        if not isinstance(item, _tensor.Tensor):
            where = f"the value at index {i}" if is_tuple else f"the given {arg_name}"
            raise TypeError(
                f"The {arg_name} given to {fn_name} must be either a Tensor or a tuple of "
                f"Tensors but {where} has type {type(item)}."
            )
    return is_tuple, items


def unpack(result, to_unpack):
    """Undo ``as_tuple`` on a (possibly nested) result: ``to_unpack`` is one flag or two."""
    if isinstance(to_unpack, tuple):
        if not to_unpack[1]:
            result = tuple(r[0] for r in result)
        if not to_unpack[0]:
            result = result[0]
    elif not to_unpack:
        result = result[0]
    return result


def fresh_leaves(inputs, create_graph: bool, need_graph: bool):
    # Always new tensor objects: the function may also capture the originals (torch #32576).
    return tuple(
        t.view_as(t) if create_graph and t.requires_grad else t.detach().requires_grad_(need_graph)
        for t in inputs
    )


def detached(tensors, create_graph: bool):
    if isinstance(tensors[0], _tensor.Tensor):
        return tensors if create_graph else tuple(t.detach() for t in tensors)
    return tuple(detached(t, create_graph) for t in tensors)


def validate_v(v, other, is_other_tuple: bool) -> None:
    if len(other) != len(v):
        if is_other_tuple:
            raise RuntimeError(
                f"v is a tuple of invalid length: should be {len(other)} but got {len(v)}."
            )
        raise RuntimeError("The given v should contain a single Tensor.")
    for i, (el_v, el_other) in enumerate(zip(v, other)):
        if el_v.size() != el_other.size():
            prefix = f"Entry {i} in " if is_other_tuple else ""
            raise RuntimeError(
                f"{prefix}v has invalid size: should be {el_other.size()} but got {el_v.size()}."
            )


_INDEPENDENT = {
    "hessian": "The hessian of the user-provided function with respect to input {i} is "
    "independent of the input. This is not allowed in strict mode. You should ensure that your "
    "function is thrice differentiable and that the hessian depends on the inputs.",
    "jacobian": "While computing the hessian, found that the jacobian of the user-provided "
    "function with respect to input {i} is independent of the input. This is not allowed in "
    "strict mode. You should ensure that your function is twice differentiable and that the "
    "jacobian depends on the inputs (this would be violated by a linear function for example).",
    "grad_inputs": "The gradient with respect to input {i} is independent of the inputs of the "
    "user-provided function. This is not allowed in strict mode.",
    "outputs": "Output {i} of the user-provided function does not require gradients. The "
    "outputs must be computed in a differentiable manner from the input when running in "
    "strict mode.",
}


def check_requires_grad(tensors, kind: str, strict: bool) -> None:
    if not strict:
        return
    for i, t in enumerate(tensors):
        if t is None:
            raise RuntimeError(
                f"The output of the user-provided function is independent of input {i}. This "
                "is not allowed in strict mode."
            )
        if not t.requires_grad:
            raise RuntimeError(_INDEPENDENT[kind].format(i=i))


def autograd_grad(outputs, inputs, grad_outputs=None, create_graph=False, retain_graph=None):
    """``autograd.grad`` that skips outputs without history (None for every input if none)."""
    if grad_outputs is None:
        grad_outputs = (None,) * len(outputs)
    pairs = [(o, g) for o, g in zip(outputs, grad_outputs) if o is not None and o.requires_grad]
    if not pairs:
        return (None,) * len(inputs)
    return _grad(
        tuple(o for o, _ in pairs),
        inputs,
        tuple(g for _, g in pairs),
        allow_unused=True,
        create_graph=create_graph,
        retain_graph=retain_graph,
    )


_ZERO_STAGE = {
    "back": "The output of the user-provided function is independent of input {i}. This is "
    "not allowed in strict mode.",
    "back_trick": "The gradient with respect to the input is independent of entry {i} in the "
    "grad_outputs when using the double backward trick to compute forward mode gradients. This "
    "is not allowed in strict mode.",
    "double_back": "The jacobian of the user-provided function is independent of input {i}. "
    "This is not allowed in strict mode.",
    "double_back_trick": "The hessian of the user-provided function is independent of entry "
    "{i} in the grad_jacobian. This is not allowed in strict mode as it prevents from using "
    "the double backward trick to replace forward mode AD.",
}


def fill_in_zeros(grads, refs, strict: bool, create_graph: bool, stage: str):
    """Replace missing gradients by zeros, or raise torch's strict-mode error."""
    from .._creation import zeros_like

    result = []
    for i, g in enumerate(grads):
        if g is None:
            if strict:
                raise RuntimeError(_ZERO_STAGE[stage].format(i=i))
            g = zeros_like(refs[i])
        elif strict and create_graph and not g.requires_grad:
            what = "hessian" if "double" in stage else "jacobian"
            raise RuntimeError(
                f"The {what} of the user-provided function is independent of input {i}. This "
                "is not allowed in strict mode when create_graph=True."
            )
        result.append(g)
    return tuple(result)


def prepare(func, inputs, v, fn_name, create_graph, strict, v_message):
    """Run ``func`` on fresh leaves and check ``v`` (against the inputs before the call, or
    against the outputs after it when ``v_message`` is None); shared by vjp, jvp, vhp, hvp."""
    is_inputs_tuple, inputs = as_tuple(inputs, "inputs", fn_name)
    inputs = fresh_leaves(inputs, create_graph, need_graph=True)
    if v is not None:
        _, v = as_tuple(v, "v", fn_name)
        v = fresh_leaves(v, create_graph, need_graph=False)
    if v_message is not None:
        check_v_given(v, inputs, is_inputs_tuple, v_message)
    outputs = func(*inputs)
    is_outputs_tuple, outputs = as_tuple(outputs, "outputs of the user-provided function", fn_name)
    check_requires_grad(outputs, "outputs", strict)
    if v_message is None:
        check_v_given(
            v,
            outputs,
            is_outputs_tuple,
            "The vector v can only be None if the user-provided function returns a single "
            "Tensor with a single element.",
        )
    return is_inputs_tuple, inputs, v, is_outputs_tuple, outputs


def check_v_given(v, against, is_tuple, message):
    if v is not None:
        validate_v(v, against, is_tuple)
    elif len(against) != 1 or against[0].nelement() != 1:
        raise RuntimeError(message)


def check_scalar_output(outputs, is_outputs_tuple, fn_name: str) -> None:
    if is_outputs_tuple or not isinstance(outputs[0], _tensor.Tensor):
        raise RuntimeError(f"The function given to {fn_name} should return a single Tensor")
    if outputs[0].nelement() != 1:
        raise RuntimeError(
            f"The Tensor returned by the function given to {fn_name} should contain a single "
            "element"
        )


V_FOR_INPUT = (
    "The vector v can only be None if the input to the user-provided function is a single "
    "Tensor with a single element."
)
