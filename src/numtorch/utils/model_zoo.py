"""``torch.utils.model_zoo``: the old name of the hub's checkpoint loader, which older
programs still call (``model_zoo.load_url(url)``)."""

from ..hub import load_state_dict_from_url as load_url

__all__ = ["load_url"]
