"""torch.hub offline: local hubconf.py entry points, the cache directory, cached checkpoints
and cached repositories, and the errors torch raises with no network."""

from __future__ import annotations

import hashlib
import os
import textwrap
from urllib.error import URLError

import pytest

import numtorch
from numtorch import hub

HUBCONF = """
dependencies = {deps!r}
import {lib} as torch
from {helper} import make


def tiny(n=3, bias=True):
    '''A tiny linear model.'''
    return make(n, bias)


def _private():
    pass

CONSTANT = 3
"""


@pytest.fixture
def hub_dir(tmp_path, monkeypatch):
    monkeypatch.setattr(hub, "_hub_dir", None)
    monkeypatch.delenv("TORCH_HUB", raising=False)
    monkeypatch.setenv("TORCH_HOME", str(tmp_path / "home"))
    return tmp_path / "home" / "hub"


def _repo(path, lib="numtorch", deps=("numpy",), helper="hub_helper_numtorch"):
    path.mkdir(parents=True, exist_ok=True)
    (path / "hubconf.py").write_text(HUBCONF.format(deps=list(deps), lib=lib, helper=helper))
    (path / f"{helper}.py").write_text(
        f"import {lib} as torch\n\n\ndef make(n, bias):\n"
        "    return torch.nn.Linear(n, 2, bias=bias)\n"
    )
    return str(path)


def test_load_local_calls_the_entry_point_with_args_and_kwargs(tmp_path):
    model = hub.load(_repo(tmp_path / "repo"), "tiny", 4, source="local", bias=False)
    assert isinstance(model, numtorch.nn.Linear)
    assert (model.in_features, model.bias) == (4, None)
    assert str(tmp_path / "repo") not in __import__("sys").path  # the path is taken back off


def test_load_local_errors_match_torch(tmp_path):
    torch = pytest.importorskip("torch")
    ours_dir = _repo(tmp_path / "ours", deps=("numpy", "no_such_pkg_xyz"))
    theirs_dir = _repo(
        tmp_path / "theirs", lib="torch", deps=("numpy", "no_such_pkg_xyz"), helper="hub_h_t"
    )
    for lib, repo in ((hub, ours_dir), (torch.hub, theirs_dir)):
        with pytest.raises(RuntimeError, match="^Missing dependencies: no_such_pkg_xyz$"):
            lib.load(repo, "tiny", source="local")
        with pytest.raises(ValueError, match='Unknown source: "svn"'):
            lib.load(repo, "tiny", source="svn")
        with pytest.raises(FileNotFoundError):
            lib.load(str(tmp_path / "nowhere"), "tiny", source="local")
    good_ours, good_theirs = _repo(tmp_path / "o2"), _repo(tmp_path / "t2", "torch", helper="h2")
    for lib, repo in ((hub, good_ours), (torch.hub, good_theirs)):
        with pytest.raises(ValueError, match="model should be a string"):
            lib.load(repo, 3, source="local")
        for name in ("CONSTANT", "missing"):
            with pytest.raises(RuntimeError, match=f"^Cannot find callable {name} in hubconf$"):
                lib.load(repo, name, source="local")


def test_get_dir_and_set_dir_follow_torch_home_and_xdg(hub_dir, tmp_path, monkeypatch):
    torch = pytest.importorskip("torch")
    monkeypatch.setattr(torch.hub, "_hub_dir", None)
    assert hub.get_dir() == torch.hub.get_dir() == str(hub_dir)
    monkeypatch.delenv("TORCH_HOME")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert hub.get_dir() == torch.hub.get_dir() == str(tmp_path / "xdg" / "torch" / "hub")
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert hub.get_dir() == torch.hub.get_dir() == os.path.expanduser("~/.cache/torch/hub")
    hub.set_dir("~/elsewhere")
    assert hub.get_dir() == os.path.expanduser("~/elsewhere")
    monkeypatch.setenv("TORCH_HUB", "x")
    with pytest.warns(UserWarning, match="TORCH_HUB is deprecated"):
        hub.get_dir()


def test_load_state_dict_from_url_reads_the_cached_checkpoint(hub_dir, capsys):
    net = numtorch.nn.Linear(3, 2)
    (hub_dir / "checkpoints").mkdir(parents=True)
    numtorch.save(net.state_dict(), hub_dir / "checkpoints" / "tiny-0123abcd.pth")
    url = "https://example.com/models/tiny-0123abcd.pth"
    state = hub.load_state_dict_from_url(url, weights_only=True)
    assert numtorch.equal(state["weight"], net.weight)
    assert capsys.readouterr().out == ""  # nothing "downloaded"
    other = hub_dir / "mine"
    other.mkdir()
    numtorch.save({"w": numtorch.ones(2)}, other / "renamed.pth")
    state = hub.load_state_dict_from_url(url, model_dir=str(other), file_name="renamed.pth")
    assert numtorch.equal(state["w"], numtorch.ones(2))


def test_load_state_dict_from_url_reads_a_checkpoint_torch_saved(hub_dir):
    torch = pytest.importorskip("torch")
    (hub_dir / "checkpoints").mkdir(parents=True)
    torch.save({"w": torch.arange(4.0)}, hub_dir / "checkpoints" / "t.pt")
    state = hub.load_state_dict_from_url("http://host/t.pt")
    assert numtorch.equal(state["w"], numtorch.arange(4.0))


def test_a_file_not_in_the_cache_raises_url_error_as_torch_offline(hub_dir, tmp_path, capsys):
    url = "https://example.com/a/b-123abc.pth"
    with pytest.raises(URLError, match="numtorch does not download files"):
        hub.load_state_dict_from_url(url)
    cached = hub_dir / "checkpoints" / "b-123abc.pth"
    assert capsys.readouterr().out == f'Downloading: "{url}" to {cached}\n'
    with pytest.raises(URLError, match="numtorch does not download files"):
        hub.download_url_to_file(url, str(tmp_path / "dst"))
    assert not (tmp_path / "dst").exists()


def test_download_url_to_file_copies_from_the_cache_checking_the_hash(hub_dir, tmp_path):
    (hub_dir / "checkpoints").mkdir(parents=True)
    (hub_dir / "checkpoints" / "w.bin").write_bytes(b"weights")
    digest = hashlib.sha256(b"weights").hexdigest()
    hub.download_url_to_file("https://h/x/w.bin", str(tmp_path / "out"), digest[:8])
    assert (tmp_path / "out").read_bytes() == b"weights"
    with pytest.raises(RuntimeError, match="invalid hash value"):
        hub.download_url_to_file("https://h/x/w.bin", str(tmp_path / "out2"), "ffff0000")


def test_github_repositories_are_never_downloaded(hub_dir):
    with pytest.raises(RuntimeError, match="no internet connection.*numtorch does not download"):
        hub.load("pytorch/vision", "resnet18")
    with pytest.raises(URLError, match="numtorch does not download repositories"):
        hub.load("pytorch/vision:v0.10", "resnet18")
    with pytest.raises(ValueError, match="too many values to unpack"):
        hub.list("/a/local/dir")


def test_a_repository_in_the_cache_loads_lists_and_helps(hub_dir, capsys):
    _repo(hub_dir / "someone_models_main", helper="hub_helper_cached")
    assert hub.list("someone/models", verbose=False) == ["make", "tiny"]
    assert hub.help("someone/models", "tiny") == "A tiny linear model."
    model = hub.load("someone/models", "tiny", n=5)
    assert model.in_features == 5
    assert "Using cache found in" in capsys.readouterr().err
    with pytest.raises(URLError):
        hub.load("someone/models", "tiny", force_reload=True)


def test_an_untrusted_repository_asks_first(hub_dir, monkeypatch):
    _repo(hub_dir / "x_y_dev", helper="hub_helper_untrusted")
    answers = iter(["n", "maybe"])
    monkeypatch.setattr("builtins.input", lambda prompt: next(answers))
    # an unpacked repository counts as trusted unless trust_repo=False asks anyway
    with pytest.raises(Exception, match="^Untrusted repository.$"):
        hub.load("x/y:dev", "tiny", trust_repo=False)
    with pytest.raises(ValueError, match="Unrecognized response maybe"):
        hub.load("x/y:dev", "tiny", trust_repo=False)
    assert hub.load("x/y:dev", "tiny", verbose=False).in_features == 3  # asks nothing
    with pytest.raises(URLError):  # trusted now, but not in the cache
        hub.load("new/repo:main", "tiny", trust_repo=True)
    assert (hub_dir / "trusted_list").read_text().split() == ["new_repo"]


def test_hub_is_a_lazy_submodule():
    assert numtorch.hub is hub
    assert sorted(hub.__all__) == sorted(
        textwrap.dedent(
            "download_url_to_file get_dir help list load load_state_dict_from_url set_dir"
        ).split()
    )
