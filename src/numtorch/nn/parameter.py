"""``Parameter``: a tensor that a Module registers as one of its parameters."""

from __future__ import annotations

from .._core.tensor import Tensor
from .._creation import empty
from ..overrides import _disabled_torch_function_impl


class Parameter(Tensor):
    """A Tensor that requires grad by default and that Modules register when assigned.

    It shares storage (and version counter) with the tensor it wraps.

    Example:
        >>> import numtorch as torch
        >>> torch.nn.Parameter(torch.ones(2))
        Parameter containing:
        tensor([1., 1.], requires_grad=True)
    """

    _is_param = True
    # ops on parameters run as on plain tensors and return plain tensors, as in torch
    __torch_function__ = _disabled_torch_function_impl

    def __new__(cls, data=None, requires_grad: bool = True):
        if data is None:
            data = empty(0)
        if not isinstance(data, Tensor):
            raise TypeError(
                f"Parameter(): argument 'data' must be a Tensor, not {type(data).__name__}"
            )
        param = Tensor._make(data._data, cls)
        param._vc = data._get_vc()
        param.requires_grad_(requires_grad)
        return param

    def __init__(self, data=None, requires_grad: bool = True):
        pass  # everything happens in __new__ (Tensor.__init__ would allocate)

    def __repr__(self) -> str:
        return "Parameter containing:\n" + super().__repr__()

    def __deepcopy__(self, memo):
        if id(self) in memo:
            return memo[id(self)]
        result = type(self)(Tensor._make(self._data.copy()), self._requires_grad)
        if self._grad is not None:
            result._grad = self._grad.__deepcopy__(memo)
        result.__dict__.update(self._user_state())
        memo[id(self)] = result
        return result

    def __reduce_ex__(self, protocol):
        return (Parameter, (Tensor._make(self._data), self._requires_grad))


class _BufferMeta(type):
    # isinstance(t, Buffer) holds for the tensors Buffer() returns (as in torch)
    def __instancecheck__(cls, instance) -> bool:
        return isinstance(instance, Tensor) and getattr(instance, "_is_buffer", False)


class Buffer(metaclass=_BufferMeta):
    """Marks a tensor as a buffer when assigned to a Module attribute (``nn.Buffer``).

    Example:
        >>> import numtorch as torch
        >>> m = torch.nn.Module()
        >>> m.steps = torch.nn.Buffer(torch.zeros(1))
        >>> list(m.state_dict())
        ['steps']
    """

    def __new__(cls, data=None, *, persistent: bool = True):
        if data is None:
            data = empty(0)
        buffer = data.detach().requires_grad_(data.requires_grad)
        buffer.persistent = persistent
        buffer._is_buffer = True
        return buffer


_UNINITIALIZED = (
    "Can't access the shape of an uninitialized parameter or buffer. This error usually "
    "happens in `load_state_dict` when trying to load an uninitialized parameter into an "
    "initialized one. Call `forward` to initialize the parameters before accessing their "
    "attributes."
)


class UninitializedParameter(Parameter):
    """A parameter whose shape is not known yet (lazy modules); ``materialize(shape)``
    allocates it and turns it into a plain ``Parameter``."""

    cls_to_become = Parameter

    def __new__(cls, requires_grad: bool = True, device=None, dtype=None):
        param = Tensor._make(empty(0, dtype=dtype)._data, cls)
        param.requires_grad_(requires_grad)
        return param

    @property
    def shape(self):
        raise RuntimeError(_UNINITIALIZED)

    def size(self, dim=None):
        raise RuntimeError(_UNINITIALIZED)

    def __init__(self, requires_grad: bool = True, device=None, dtype=None):
        pass  # everything happens in __new__

    def materialize(self, shape, device=None, dtype=None) -> None:
        """Allocate the data (uninitialized values) with ``shape``, in place."""
        shape = (shape,) if isinstance(shape, int) else tuple(shape)
        self._data = empty(*shape, dtype=dtype or self.dtype)._data
        self.__class__ = self.cls_to_become

    def __repr__(self) -> str:
        return "<UninitializedParameter>"


class UninitializedBuffer(Tensor):
    """A buffer whose shape is not known yet (lazy modules' running statistics);
    ``materialize(shape)`` allocates it and turns it into a plain tensor."""

    cls_to_become = Tensor

    def __new__(cls, requires_grad: bool = False, device=None, dtype=None, persistent=True):
        buffer = Tensor._make(empty(0, dtype=dtype)._data, cls)
        buffer.requires_grad_(requires_grad)
        buffer.persistent = persistent
        return buffer

    def __init__(self, requires_grad=False, device=None, dtype=None, persistent=True):
        pass  # everything happens in __new__

    shape = UninitializedParameter.shape
    size = UninitializedParameter.size
    materialize = UninitializedParameter.materialize

    def __repr__(self) -> str:
        return "<UninitializedBuffer>"


def is_lazy(param) -> bool:
    return isinstance(param, (UninitializedParameter, UninitializedBuffer))
