"""``torch.utils.model_zoo.load_url``, the old name of the hub's checkpoint loader, reads a
checkpoint already in the hub cache (numtorch never downloads)."""

import numtorch
from numtorch import hub
from numtorch.utils import model_zoo


def test_load_url_reads_the_cached_checkpoint(tmp_path):
    old = hub.get_dir()
    hub.set_dir(str(tmp_path))
    try:
        (tmp_path / "checkpoints").mkdir()
        numtorch.save({"w": numtorch.arange(3.0)}, tmp_path / "checkpoints" / "tiny.pth")
        state = model_zoo.load_url("https://example.com/models/tiny.pth", progress=False)
    finally:
        hub.set_dir(old)
    assert state["w"].tolist() == [0.0, 1.0, 2.0]
    assert model_zoo.load_url is hub.load_state_dict_from_url
