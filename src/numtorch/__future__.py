"""``torch.__future__``: switches for behaviour torch plans to make the default.

They decide what ``Module.to``/``double``/... do with the parameters they convert: by
default the converted values go into the same ``Parameter`` objects (``param.data = ...``);
``set_overwrite_module_params_on_conversion(True)`` makes new ``Parameter`` objects instead,
``set_swap_module_params_on_conversion(True)`` keeps the objects and swaps their contents
with ``torch.utils.swap_tensors`` (so backward into a graph built before the conversion is
refused).
"""

_settings = {"overwrite": False, "swap": False}


def set_overwrite_module_params_on_conversion(value: bool) -> None:
    _settings["overwrite"] = value


def get_overwrite_module_params_on_conversion() -> bool:
    return _settings["overwrite"]


def set_swap_module_params_on_conversion(value: bool) -> None:
    _settings["swap"] = value


def get_swap_module_params_on_conversion() -> bool:
    return _settings["swap"]
