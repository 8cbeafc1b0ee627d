"""``swap_in_optimizer_params_and_state``: run an optimizer on other parameters and state for
the length of a ``with`` block, then put its own back."""

from __future__ import annotations

import contextlib
from collections import defaultdict

from .._core.tensor import Tensor

_NAME = "swap_in_optimizer_params_and_state"


def _state_of(swapin_optim_state) -> dict:
    state = swapin_optim_state.get("state")
    if not isinstance(state, dict):
        raise RuntimeError(
            f"{_NAME} requires swapin_optim_state['state'] to be a dict mapping packed "
            f"parameter ids to per-param state dicts, got {type(state).__name__}."
        )
    if any(isinstance(key, Tensor) for key in state):
        raise RuntimeError(
            f"{_NAME} requires optimizer.state_dict()-style state keyed by packed parameter ids."
        )
    if any(isinstance(key, int) and not isinstance(value, dict) for key, value in state.items()):
        raise RuntimeError(
            f"{_NAME} requires per-parameter optimizer state entries to be dictionaries."
        )
    return state


def _group_ids(index, live, swapin) -> list:
    if not isinstance(swapin, dict):
        raise RuntimeError(f"{_NAME} requires each optimizer param group to be a dictionary.")
    ids = swapin.get("params")
    if not isinstance(ids, list) or not all(isinstance(i, int) for i in ids):
        raise RuntimeError(
            f"{_NAME} requires optimizer.state_dict()-style param_groups[*]['params'] entries "
            "keyed by packed parameter ids."
        )
    if len(live["params"]) != len(ids):
        raise RuntimeError(
            f"swapin_optim_state param group {index} has a different number of params than the "
            "live optimizer param group."
        )
    only_swapin = [key for key in swapin if key not in live]
    only_live = [key for key in live if key not in swapin]
    if only_swapin or only_live:
        raise RuntimeError(
            f"{_NAME} requires optimizer.state_dict()-style param group keys to exactly match "
            f"the live optimizer group keys for group {index}. Keys only in swap-in: "
            f"{only_swapin}. Keys only in live: {only_live}."
        )
    return ids


@contextlib.contextmanager
def swap_in_optimizer_params_and_state(optimizer, swapin_parameters: dict,
                                       swapin_optim_state: dict):  # fmt: skip
    """Within the block, ``optimizer`` steps ``swapin_parameters`` (in the order of its
    param groups) with the state and hyperparameters of ``swapin_optim_state`` (an
    ``optimizer.state_dict()``); its own parameters, groups and state come back on exit. Only
    in-place changes to the swapped-in state tensors reach ``swapin_optim_state``."""
    if not optimizer.state:
        raise RuntimeError(f"{_NAME} requires initialized optimizer state.")
    if not isinstance(swapin_optim_state, dict):
        raise RuntimeError(f"{_NAME} requires a DCP-style optimizer state_dict.")
    state = _state_of(swapin_optim_state)
    groups = swapin_optim_state.get("param_groups")
    if not isinstance(groups, list):
        raise RuntimeError(
            f"{_NAME} requires swapin_optim_state['param_groups'] to be a list of param-group "
            f"dicts, got {type(groups).__name__}."
        )
    if len(groups) != len(optimizer.param_groups):
        raise RuntimeError(
            "swapin_optim_state has a different number of parameter groups than the live optimizer."
        )
    parameters = list(swapin_parameters.values())
    plan, offset = [], 0
    for index, (live, swapin) in enumerate(zip(optimizer.param_groups, groups)):
        ids = _group_ids(index, live, swapin)
        if offset + len(ids) > len(parameters):
            raise RuntimeError(
                f"{_NAME} requires the explicit parameter state to match optimizer.param_groups "
                "ordering."
            )
        plan.append((live, swapin, parameters[offset : offset + len(ids)]))
        offset += len(ids)
    saved_state = optimizer.state
    saved_groups = [dict(group) for group in optimizer.param_groups]  # keeps each params list
    try:
        swapped = defaultdict(dict)
        for live, swapin, params in plan:
            live.update({key: value for key, value in swapin.items() if key != "params"})
            live["params"] = params
            for param, param_id in zip(params, swapin["params"]):
                # a shallow copy: in-place tensor updates reach the caller's dict, new entries
                # do not
                swapped[param] = dict(state.get(param_id, {}))
        optimizer.state = swapped
        yield
    finally:
        for group, saved in zip(optimizer.param_groups, saved_groups):
            group.clear()
            group.update(saved)
        optimizer.state = saved_state
