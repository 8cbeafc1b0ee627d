"""State dicts: ``Module.state_dict`` / ``load_state_dict`` with torch's keys and errors.

Keys are dotted paths (``fc1.weight``); values are the module's tensors detached (sharing
storage). Loading copies under ``no_grad``; with ``strict`` it reports missing and unexpected
keys in torch's words, and a shape mismatch is always an error naming the key. The dict's
``_metadata`` carries each module's ``_version`` so layers can upgrade old checkpoints
(BatchNorm adds ``num_batches_tracked``).
"""

from __future__ import annotations

import functools
import itertools
import warnings
from collections import OrderedDict, namedtuple
from collections.abc import Mapping

from ..._core import grad_mode
from ..._core.tensor import Tensor
from ..parameter import Parameter
from .hooks import add_hook

_EXTRA_STATE_KEY_SUFFIX = "_extra_state"


class _IncompatibleKeys(namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])):
    __slots__ = ()

    def __repr__(self) -> str:
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return super().__repr__()

    __str__ = __repr__


class StateDictMixin:
    """The state-dict half of ``Module`` (kept in its own file for size)."""

    def _register_state_dict_hook(self, hook):
        """``hook(module, state_dict, prefix, local_metadata)`` runs after ``state_dict``
        collects this module's entries; a returned dict replaces the state dict."""
        if getattr(hook, "_from_public_api", False):
            raise RuntimeError(
                "Cannot register the same function as the state dict post hook that was "
                "previously registered via register_state_dict_post_hook"
            )
        return add_hook(self._state_dict_hooks, hook)

    def register_state_dict_post_hook(self, hook):
        """``hook(module, state_dict, prefix, local_metadata)`` runs after ``state_dict``
        collects this module's entries; it may edit the dict in place and returns None."""
        hook._from_public_api = True
        return add_hook(self._state_dict_hooks, hook)

    def _register_load_state_dict_pre_hook(self, hook, with_module: bool = False):
        """``hook(state_dict, prefix, local_metadata, strict, missing_keys,
        unexpected_keys, error_msgs)`` (the module first with ``with_module``) runs before
        this module loads its entries; it may edit ``state_dict``."""
        if with_module:
            return add_hook(self._load_state_dict_pre_hooks, functools.partial(hook, self))
        return add_hook(self._load_state_dict_pre_hooks, hook)

    def register_load_state_dict_pre_hook(self, hook):
        """``hook(module, state_dict, prefix, local_metadata, strict, missing_keys,
        unexpected_keys, error_msgs)`` runs before this module loads its entries."""
        return self._register_load_state_dict_pre_hook(hook, with_module=True)

    # -- extra state (anything a module keeps beside tensors) --
    def get_extra_state(self):
        raise RuntimeError(
            "Reached a code path in Module.get_extra_state() that should never be called. "
            "Please file an issue at https://github.com/pytorch/pytorch/issues/new?template="
            "bug-report.yml to report this bug."
        )

    def set_extra_state(self, state) -> None:
        raise RuntimeError(
            "Reached a code path in Module.set_extra_state() that should never be called. "
            "Please file an issue at https://github.com/pytorch/pytorch/issues/new?template="
            "bug-report.yml to report this bug."
        )

    def _has_extra_state(self, method: str) -> bool:
        return getattr(type(self), method) is not getattr(StateDictMixin, method)

    def _save_to_state_dict(self, destination, prefix: str, keep_vars: bool) -> None:
        for name, param in self._parameters.items():
            if param is not None:
                destination[prefix + name] = param if keep_vars else param.detach()
        for name, buffer in self._buffers.items():
            if buffer is not None and name not in self._non_persistent_buffers_set:
                destination[prefix + name] = buffer if keep_vars else buffer.detach()
        if self._has_extra_state("get_extra_state"):
            destination[prefix + _EXTRA_STATE_KEY_SUFFIX] = self.get_extra_state()

    def state_dict(self, *args, destination=None, prefix: str = "", keep_vars: bool = False):
        """An ordered dict of parameters and persistent buffers by dotted name (detached
        tensors sharing storage with the module's). Older code passes destination, prefix
        and keep_vars by position, which torch still reads, with a FutureWarning."""
        if args:
            warnings.warn(
                "Positional args are being deprecated, use kwargs instead. Refer to "
                "https://pytorch.org/docs/main/generated/torch.nn.Module.html"
                "#torch.nn.Module.state_dict for details.",
                FutureWarning,
                stacklevel=2,
            )
            # a keyword given too keeps its value where it differs from the default
            destination = args[0] if destination is None else destination
            prefix = args[1] if len(args) > 1 and prefix == "" else prefix
            keep_vars = args[2] if len(args) > 2 and keep_vars is False else keep_vars
        if destination is None:
            destination = OrderedDict()
            destination._metadata = OrderedDict()
        local_metadata = {"version": self._version}
        if hasattr(destination, "_metadata"):
            destination._metadata[prefix[:-1]] = local_metadata
        for hook in self._state_dict_pre_hooks.values():
            hook(self, prefix, keep_vars)
        self._save_to_state_dict(destination, prefix, keep_vars)
        for name, module in self._modules.items():
            if module is not None:
                module.state_dict(
                    destination=destination, prefix=prefix + name + ".", keep_vars=keep_vars
                )
        for hook in self._state_dict_hooks.values():
            result = hook(self, destination, prefix, local_metadata)
            if getattr(hook, "_from_public_api", False):
                if result is not None:
                    raise RuntimeError("state_dict post-hook must return None")
            elif result is not None:
                destination = result
        return destination

    def _load_from_state_dict(
        self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, errors
    ) -> None:
        for hook in self._load_state_dict_pre_hooks.values():
            hook(state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, errors)
        persistent = {
            k: v for k, v in self._buffers.items() if k not in self._non_persistent_buffers_set
        }
        local_state = {
            k: v
            for k, v in itertools.chain(self._parameters.items(), persistent.items())
            if v is not None
        }
        assign = local_metadata.get("assign_to_params_buffers", False)
        for name, param in local_state.items():
            key = prefix + name
            if key not in state_dict:
                if strict:
                    missing_keys.append(key)
                continue
            source = state_dict[key]
            if not isinstance(source, Tensor):
                errors.append(
                    f'While copying the parameter named "{key}", expected torch.Tensor or '
                    f"Tensor-like object from checkpoint but received {type(source)}"
                )
                continue
            if param.ndim == 0 and source.ndim == 1:  # checkpoints of torch 0.3
                source = source[0]
            if source.shape != param.shape:
                errors.append(
                    f"size mismatch for {key}: copying a param with shape {source.shape} from "
                    f"checkpoint, the shape in current model is {param.shape}."
                )
                continue
            try:
                with grad_mode.no_grad():
                    if assign:
                        if isinstance(param, Parameter) and not isinstance(source, Parameter):
                            source = Parameter(source, requires_grad=param.requires_grad)
                        setattr(self, name, source)
                    else:
                        param.copy_(source)
            except Exception as error:
                errors.append(
                    f'While copying the parameter named "{key}", whose dimensions in the model '
                    f"are {param.size()} and whose dimensions in the checkpoint are "
                    f"{source.size()}, an exception occurred : {error.args}."
                )
        extra_key = prefix + _EXTRA_STATE_KEY_SUFFIX
        has_extra = self._has_extra_state("set_extra_state")
        if has_extra and extra_key in state_dict:
            self.set_extra_state(state_dict[extra_key])
        elif has_extra and strict:
            missing_keys.append(extra_key)
        if strict:
            for key in state_dict:
                if key.startswith(prefix) and not (has_extra and key == extra_key):
                    parts = key[len(prefix) :].split(".", 1)
                    if len(parts) > 1:
                        if parts[0] not in self._modules:
                            unexpected_keys.append(key)
                    elif parts[0] not in local_state:
                        unexpected_keys.append(key)

    def load_state_dict(self, state_dict, strict: bool = True, assign: bool = False):
        """Copy parameters and buffers from ``state_dict``.

        With ``strict`` (the default) missing or unexpected keys raise a RuntimeError that
        lists them; shape mismatches always raise. Returns ``(missing_keys, unexpected_keys)``.
        """
        if not isinstance(state_dict, Mapping):
            raise TypeError(f"Expected state_dict to be dict-like, got {type(state_dict)}.")
        missing, unexpected, errors = [], [], []
        metadata = getattr(state_dict, "_metadata", None)
        state_dict = OrderedDict(state_dict)
        if metadata is not None:
            state_dict._metadata = metadata

        def load(module, local_state, prefix=""):
            local_metadata = {} if metadata is None else dict(metadata.get(prefix[:-1], {}))
            if assign:
                local_metadata["assign_to_params_buffers"] = assign
            module._load_from_state_dict(
                local_state, prefix, local_metadata, True, missing, unexpected, errors
            )
            for name, child in module._modules.items():
                if child is not None:
                    child_prefix = prefix + name + "."
                    child_state = {
                        k: v for k, v in local_state.items() if k.startswith(child_prefix)
                    }
                    load(child, child_state, child_prefix)
            keys = _IncompatibleKeys(missing, unexpected)
            for hook in module._load_state_dict_post_hooks.values():
                hook(module, keys)

        load(self, state_dict)
        if strict:
            if unexpected:
                listed = ", ".join(f'"{k}"' for k in unexpected)
                errors.insert(0, f"Unexpected key(s) in state_dict: {listed}. ")
            if missing:
                listed = ", ".join(f'"{k}"' for k in missing)
                errors.insert(0, f"Missing key(s) in state_dict: {listed}. ")
        if errors:
            raise RuntimeError(
                f"Error(s) in loading state_dict for {type(self).__name__}:\n\t"
                + "\n\t".join(errors)
            )
        return _IncompatibleKeys(missing, unexpected)
