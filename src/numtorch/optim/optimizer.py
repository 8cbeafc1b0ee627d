"""Optimizer: parameter groups, per-parameter state, and torch's state_dict format.

Subclasses implement ``_update_group(group)``; the base class runs it for every group
under ``no_grad`` (Note [Optimizer updates on arrays]).
"""

from __future__ import annotations

import copy
import warnings
from collections import OrderedDict, defaultdict
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from .._core.dtypes import float64, get_default_dtype
from .._core.grad_mode import enable_grad, no_grad
from .._core.graph import RemovableHandle, _add_hook
from .._core.tensor import Tensor
from .._runtime import typename
from ..profiler import recorder as profiler_recorder
from ..profiler.autograd_profiler import record_function
from ._checks import check_step_flags
from ._parallel import run_elementwise

# Note [Optimizer updates on arrays]
# Updates are written with NumPy ufuncs on the tensors' arrays (``out=`` and augmented
# assignment), not with numtorch ops: a step then costs a few NumPy calls per parameter,
# and no autograd bookkeeping. Because this bypasses the in-place ops, every optimizer
# bumps the version counter of each tensor it writes (parameters and state), so a
# parameter saved for backward and then changed by ``step()`` raises torch's error.


class _RequiredParameter:
    """Marks an option a parameter group must give (torch.optim.optimizer.required)."""

    def __repr__(self) -> str:
        return "<required parameter>"


required = _RequiredParameter()


class Optimizer:
    """Base class of all optimizers.

    Args:
        params: an iterable of tensors, of ``(name, tensor)`` pairs, or of dicts, each a
            parameter group: ``{"params": [...], "lr": ...}`` with options overriding
            ``defaults``.
        defaults: the default value of every option.

    Examples:
        >>> import numtorch as torch
        >>> w = torch.zeros(2, requires_grad=True)
        >>> b = torch.zeros(1, requires_grad=True)
        >>> opt = torch.optim.SGD([{"params": [w]}, {"params": [b], "lr": 0.5}], lr=0.1)
        >>> [g["lr"] for g in opt.param_groups]
        [0.1, 0.5]
        >>> opt.state_dict()["param_groups"][1]["params"]
        [1]
    """

    def __init__(self, params, defaults: dict[str, Any]) -> None:
        self.defaults = defaults
        self._optimizer_step_pre_hooks: OrderedDict = OrderedDict()
        self._optimizer_step_post_hooks: OrderedDict = OrderedDict()
        self._patch_state_dict_hooks()
        if isinstance(params, Tensor):
            raise TypeError(
                "params argument given to the optimizer should be an iterable of Tensors or "
                "dicts, but got torch.Tensor"
            )
        self.state: defaultdict = defaultdict(dict)
        self.param_groups: list[dict[str, Any]] = []
        param_groups = list(params)
        if len(param_groups) == 0:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(param_groups[0], dict):
            param_groups = [{"params": param_groups}]
        for group in param_groups:
            self.add_param_group(group)

    def __init_subclass__(cls, **kwargs):
        # A subclass that writes its own ``step`` still runs the step hooks.
        super().__init_subclass__(**kwargs)
        step = cls.__dict__.get("step")
        if step is not None and not getattr(step, "_hooked", False):
            cls.step = _with_step_hooks(step)

    def __getstate__(self) -> dict[str, Any]:
        return {"defaults": self.defaults, "state": self.state, "param_groups": self.param_groups}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self.__dict__.setdefault("_optimizer_step_pre_hooks", OrderedDict())
        self.__dict__.setdefault("_optimizer_step_post_hooks", OrderedDict())
        self._patch_state_dict_hooks()

    def _patch_state_dict_hooks(self) -> None:
        for name in _STATE_DICT_HOOKS:
            self.__dict__.setdefault(name, OrderedDict())

    def __repr__(self) -> str:
        text = self.__class__.__name__ + " ("
        for i, group in enumerate(self.param_groups):
            text += f"\nParameter Group {i}\n"
            for key in sorted(group):
                if key != "params":
                    text += f"    {key}: {group[key]}\n"
        return text + ")"

    # -- parameter groups --------------------------------------------------------------------
    def add_param_group(self, param_group: dict[str, Any]) -> None:
        """Add a group of parameters (with its own options) to ``param_groups``."""
        if not isinstance(param_group, dict):
            raise TypeError(f"param_group must be a dict, but got {type(param_group)}")
        params = param_group["params"]
        if isinstance(params, Tensor):
            params = [params]
        elif isinstance(params, set):
            raise TypeError(
                "optimizer parameters need to be organized in ordered collections, but the "
                "ordering of tensors in sets will change between runs. Please use a list instead."
            )
        else:
            params = list(params)
        names = [p[0] for p in params if isinstance(p, tuple)]
        params = [p[1] if isinstance(p, tuple) else p for p in params]
        param_group["params"] = params
        if names:
            if len(names) != len(params):
                raise ValueError(
                    "all optimizer params should be with/without names. Some param names are "
                    "missing"
                )
            param_group["param_names"] = names
        for param in params:
            if not isinstance(param, Tensor):
                raise TypeError(
                    "optimizer can only optimize Tensors, but one of the params is "
                    + typename(param)
                )
            if not (param.is_leaf or param.retains_grad):
                raise ValueError("can't optimize a non-leaf Tensor")
        for name, default in self.defaults.items():
            if default is required and name not in param_group:
                raise ValueError(
                    "parameter group didn't specify a value of required optimization "
                    f"parameter {name}"
                )
            param_group.setdefault(name, default)
        if len(params) != len({id(p) for p in params}):
            warnings.warn(
                "optimizer contains a parameter group with duplicate parameters; in future, "
                "this will cause an error; see github.com/pytorch/pytorch/issues/40967 for more "
                "information",
                stacklevel=3,
            )
        seen = set()
        for group in self.param_groups:
            seen.update(id(p) for p in group["params"])
            if ("param_names" in param_group) != ("param_names" in group):
                which = "with names" if "param_names" in param_group else "without names"
                raise ValueError(
                    "all optimizer param groups should be with/without names. cannot add param "
                    f"group {which} to the optimizer"
                )
        if any(id(p) in seen for p in params):
            raise ValueError("some parameters appear in more than one parameter group")
        self.param_groups.append(param_group)

    # -- gradients and steps -----------------------------------------------------------------
    def zero_grad(self, set_to_none: bool = True) -> None:
        """Reset the gradients of all optimized tensors (to ``None`` by default)."""
        if profiler_recorder.current is not None:
            with record_function(f"Optimizer.zero_grad#{type(self).__name__}.zero_grad"):
                self._zero_grad(set_to_none)
        else:
            self._zero_grad(set_to_none)

    def _zero_grad(self, set_to_none: bool) -> None:
        for group in self.param_groups:
            for p in group["params"]:
                grad = p._grad
                if grad is None:
                    continue
                if set_to_none:
                    p._grad = None
                    continue
                if grad._grad_fn is not None:
                    grad.detach_()
                else:
                    grad._requires_grad = False
                grad._data.fill(0)
                grad._bump_version()

    def step(self, closure: Callable[[], Any] | None = None):
        """Update the parameters once; ``closure`` re-evaluates the loss and returns it."""
        loss = None
        if closure is not None:
            with enable_grad():
                loss = closure()
        with no_grad():
            for group in self.param_groups:
                sparse = [p for p in group["params"] if p._grad is not None and p._grad.is_sparse]
                if sparse and self._sparse_gradients == "refuse":
                    self._refuse_sparse()
                if self._sparse_gradients == "sparse":
                    sparse = []
                # a sparse gradient's update equals its dense form's here (rows without
                # entries are left as they are): run on that, then give .grad back
                kept = [p._grad for p in sparse]
                for p in sparse:
                    p._grad = p._grad.to_dense()
                try:
                    self._update_group(group)
                finally:
                    for p, g in zip(sparse, kept):
                        p._grad = g
        return loss

    # torch's SGD and Adagrad update sparse gradients (here on their dense form), SparseAdam
    # only those; the others refuse them
    _sparse_gradients = "refuse"

    def _refuse_sparse(self):
        raise RuntimeError(f"{type(self).__name__} does not support sparse gradients")

    def _update_group(self, group: dict[str, Any]) -> None:
        raise NotImplementedError(f"{type(self).__name__} must implement step or _update_group")

    def register_step_pre_hook(self, hook) -> RemovableHandle:
        """Call ``hook(optimizer, args, kwargs)`` before each ``step``; it may return new
        ``(args, kwargs)``."""
        return _add_hook(self._optimizer_step_pre_hooks, hook)

    def register_step_post_hook(self, hook) -> RemovableHandle:
        """Call ``hook(optimizer, args, kwargs)`` after each ``step``."""
        return _add_hook(self._optimizer_step_post_hooks, hook)

    @staticmethod
    def _add_ordered(hooks, hook, prepend: bool) -> RemovableHandle:
        handle = _add_hook(hooks, hook)
        if prepend:
            hooks.move_to_end(handle.id, last=False)
        return handle

    def register_state_dict_pre_hook(self, hook, prepend: bool = False) -> RemovableHandle:
        """``hook(optimizer)`` runs before ``state_dict()`` builds the dict."""
        return self._add_ordered(self._optimizer_state_dict_pre_hooks, hook, prepend)

    def register_state_dict_post_hook(self, hook, prepend: bool = False) -> RemovableHandle:
        """``hook(optimizer, state_dict)`` may edit or replace the dict ``state_dict()`` returns."""
        return self._add_ordered(self._optimizer_state_dict_post_hooks, hook, prepend)

    def register_load_state_dict_pre_hook(self, hook, prepend: bool = False) -> RemovableHandle:
        """``hook(optimizer, state_dict)`` may edit or replace the dict being loaded."""
        return self._add_ordered(self._optimizer_load_state_dict_pre_hooks, hook, prepend)

    def register_load_state_dict_post_hook(self, hook, prepend: bool = False) -> RemovableHandle:
        """``hook(optimizer)`` runs after ``load_state_dict``."""
        return self._add_ordered(self._optimizer_load_state_dict_post_hooks, hook, prepend)

    # -- state dicts -------------------------------------------------------------------------
    def state_dict(self) -> dict[str, Any]:
        """The optimizer's state: ``state`` keyed by parameter index and ``param_groups``
        whose ``params`` are indices, as in torch. Tensors are the live state, not copies."""
        for hook in list(self._optimizer_state_dict_pre_hooks.values()):
            hook(self)
        state_dict = self._state_dict()
        for hook in list(self._optimizer_state_dict_post_hooks.values()):
            result = hook(self, state_dict)
            if result is not None:
                state_dict = result
        return state_dict

    def _state_dict(self) -> dict[str, Any]:
        index: dict[int, int] = {}
        start = 0
        packed_groups = []
        for group in self.param_groups:
            packed = {k: v for k, v in group.items() if k != "params"}
            for i, p in enumerate(group["params"], start):
                index.setdefault(id(p), i)
            packed["params"] = [index[id(p)] for p in group["params"]]
            start += len(packed["params"])
            packed_groups.append(packed)
        packed_state = {
            (index[id(k)] if isinstance(k, Tensor) else k): v for k, v in self.state.items()
        }
        return {"state": packed_state, "param_groups": packed_groups}

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        """Load a state from ``state_dict()`` (numtorch's or torch's, tensors converted).

        Floating state tensors are cast to their parameter's dtype (``step`` keeps its
        dtype); tensors that need no cast are shared with ``state_dict``, as in torch.
        """
        state_dict = dict(state_dict)  # hooks may edit it; the caller's dict stays as it was
        for hook in list(self._optimizer_load_state_dict_pre_hooks.values()):
            result = hook(self, state_dict)
            if result is not None:
                state_dict = result
        self._load_state_dict(state_dict)
        for hook in list(self._optimizer_load_state_dict_post_hooks.values()):
            hook(self)

    def _load_state_dict(self, state_dict: dict[str, Any]) -> None:
        groups = self.param_groups
        saved_groups = copy.deepcopy(state_dict["param_groups"])
        if len(groups) != len(saved_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        if any(len(g["params"]) != len(s["params"]) for g, s in zip(groups, saved_groups)):
            raise ValueError(
                "loaded state dict contains a parameter group that doesn't match the size of "
                "optimizer's group"
            )
        id_map = {
            saved_id: p
            for g, s in zip(groups, saved_groups)
            for saved_id, p in zip(s["params"], g["params"])
        }
        state: defaultdict = defaultdict(dict)
        for key, value in state_dict["state"].items():
            if key in id_map:
                param = id_map[key]
                state[param] = {k: _cast_state(param, v, k) for k, v in value.items()}
            else:
                state[key] = value
        for group, saved in zip(groups, saved_groups):
            saved["params"] = group["params"]
            if "param_names" in group and "param_names" not in saved:
                saved["param_names"] = group["param_names"]
        self.__setstate__({"state": state, "param_groups": saved_groups})


def _cast_state(param: Tensor, value, key):
    """One state entry as torch loads it: floating tensors cast to the parameter's dtype,
    ``step`` untouched. A tensor needing no cast is kept, not copied, so (as in torch) an
    optimizer loaded from a live one's ``state_dict()`` shares those state tensors."""
    if isinstance(value, Tensor):
        if key != "step" and param._data.dtype.kind in "fV":
            return value.to(dtype=param.dtype)
        return value
    if isinstance(value, dict):
        return {k: _cast_state(param, v, k) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(_cast_state(param, v, None) for v in value)
    return value


_STATE_DICT_HOOKS = (
    "_optimizer_state_dict_pre_hooks",
    "_optimizer_state_dict_post_hooks",
    "_optimizer_load_state_dict_pre_hooks",
    "_optimizer_load_state_dict_post_hooks",
)


# hooks every optimizer runs around its step: the global pre-hooks before its own, the
# global post-hooks after its own
_global_step_pre_hooks: OrderedDict = OrderedDict()
_global_step_post_hooks: OrderedDict = OrderedDict()


def register_optimizer_step_pre_hook(hook) -> RemovableHandle:
    """Call ``hook(optimizer, args, kwargs)`` before the step of every optimizer; it may
    return new ``(args, kwargs)``."""
    return _add_hook(_global_step_pre_hooks, hook)


def register_optimizer_step_post_hook(hook) -> RemovableHandle:
    """Call ``hook(optimizer, args, kwargs)`` after the step of every optimizer."""
    return _add_hook(_global_step_post_hooks, hook)


def _with_step_hooks(step):
    """Wrap a subclass's ``step`` so registered pre/post hooks run around it."""

    def wrapper(self, *args, **kwargs):
        if self.__dict__.get("_in_step"):  # super().step() from an overriding step
            return step(self, *args, **kwargs)
        self._in_step = True
        try:
            if profiler_recorder.current is None:
                return hooked(self, args, kwargs)
            # The label torch's profiler shows for a step.
            with record_function(f"Optimizer.step#{type(self).__name__}.step"):
                return hooked(self, args, kwargs)
        finally:
            self._in_step = False

    def hooked(self, args, kwargs):
        # as torch's, the hooks' ``args`` start with the optimizer itself: a pre-hook that
        # returns new arguments gives the whole call, the optimizer included
        args = (self, *args)
        pre = [*_global_step_pre_hooks.values(), *self._optimizer_step_pre_hooks.values()]
        for hook in pre:
            result = hook(self, args, kwargs)
            if result is not None:
                if not (isinstance(result, tuple) and len(result) == 2):
                    raise RuntimeError(
                        f"{hook} must return None or a tuple of (new_args, new_kwargs), but "
                        f"got {result}."
                    )
                args, kwargs = result
        check_step_flags(self)
        out = step(*args, **kwargs)
        if self.__dict__.get("_steps_tracked"):  # a scheduler watches for a first step
            self._opt_called = True
        post = [*self._optimizer_step_post_hooks.values(), *_global_step_post_hooks.values()]
        for hook in post:
            hook(self, args, kwargs)
        return out

    wrapper.__name__ = step.__name__
    wrapper.__qualname__ = step.__qualname__
    wrapper.__doc__ = step.__doc__
    wrapper._hooked = True
    return wrapper


Optimizer.step = _with_step_hooks(Optimizer.step)


def scalar_state(value: float = 0.0) -> Tensor:
    """A 0-d float state tensor (``step``, NAdam's ``mu_product``, ASGD's ``eta``): float64
    only under that default dtype, as torch's."""
    dtype = np.float64 if get_default_dtype() is float64 else np.float32
    return Tensor._make(np.array(value, dtype))


def zeros_state(param: Tensor) -> Tensor:
    """A state tensor of zeros shaped and typed like ``param``."""
    return Tensor._make(np.zeros_like(param._data))


def fill_state(state: dict, param: Tensor, zeros: tuple[str, ...] = (), **scalars: float) -> None:
    """A fresh state in torch's key order: ``step``, 0-d ``scalars``, then zero tensors."""
    state["step"] = scalar_state()
    for key, value in scalars.items():
        state[key] = scalar_state(value)
    for key in zeros:
        state[key] = zeros_state(param)


def advance_step(state: dict) -> float:
    """Add one to ``state["step"]`` in place and return it; a plain number (old torch
    checkpoints) becomes a step tensor first."""
    step_t = state["step"]
    if not isinstance(step_t, Tensor):
        step_t = state["step"] = scalar_state(float(step_t))
    step_t._data += 1
    step_t._bump_version()
    return step_t._data.item()


def _params_with_grad(group: dict[str, Any]) -> Iterable[Tensor]:
    """The parameters of a group that have a gradient (sparse ones reach the update in their
    dense form: see Optimizer.step)."""
    return [p for p in group["params"] if p._grad is not None]


def _as_real(array):
    # torch's elementwise optimizers update a complex parameter, its gradient and its
    # state through view_as_real: real and imaginary parts are separate elements (Adam's
    # second moment squares each part, not the complex number)
    if array.dtype.kind != "c":
        return array
    return array.reshape(array.shape + (1,)).view(array.real.dtype)


def update_elementwise(
    optimizer: Optimizer,
    group: dict[str, Any],
    kernel: Callable,
    options: dict[str, Any],
    state_keys: tuple[str, ...],
    init_state: Callable[[dict, Tensor], None],
    per_param: Callable[[dict, float], dict[str, Any]] | None = None,
) -> None:
    """Run ``kernel(param, grad, *state arrays, **options)`` for every parameter of ``group``
    that has a gradient (Note [Optimizer updates on arrays]).

    A parameter's state is made by ``init_state(state, param)`` on first use and its ``step``
    advanced; the arrays passed are those of ``state_keys`` present in the state, in that
    order. ``per_param(state, step)`` gives options of one parameter (bias corrections).
    Every tensor the kernel may write has its version bumped.
    """
    jobs, written = [], []
    for p in _params_with_grad(group):
        state = optimizer.state[p]
        if not state:
            init_state(state, p)
        step = advance_step(state)
        tensors = [state[key] for key in state_keys if key in state]
        arrays = (p._data, p._grad._data, *(t._data for t in tensors))
        if p._data.dtype.kind == "c":
            arrays = tuple(_as_real(a) for a in arrays)
        jobs.append(
            (kernel, arrays, {**options, **per_param(state, step)} if per_param else options)
        )
        written.append(p)
        written += tensors
    run_elementwise(jobs)
    for t in written:
        t._bump_version()
