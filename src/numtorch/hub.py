"""torch.hub without a network: entry points from a local ``hubconf.py`` and checkpoints
from the hub cache.

Note [Hub without downloads]: numtorch never fetches anything. ``load(dir, model,
source='local')`` imports the directory's ``hubconf.py`` and calls the entry point, as torch
does (it runs the user's own code at the user's request). A GitHub repository works when it is
already in the hub cache (``<hub_dir>/<owner>_<name>_<ref>``, where torch would have unpacked
it); otherwise the call raises the error torch raises offline, saying that numtorch does not
download. ``load_state_dict_from_url`` reads ``<hub_dir>/checkpoints/<file>`` when it is there
(through numtorch's restricted loader) and otherwise raises ``URLError`` as torch does with no
network.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import os
import shutil
import sys
import warnings
import zipfile
from pathlib import Path
from urllib.error import URLError
from urllib.parse import urlparse

from .serialization import load as _load

__all__ = [
    "download_url_to_file",
    "get_dir",
    "help",
    "list",
    "load",
    "load_state_dict_from_url",
    "set_dir",
]

ENV_TORCH_HOME = "TORCH_HOME"
ENV_XDG_CACHE_HOME = "XDG_CACHE_HOME"
DEFAULT_CACHE_DIR = "~/.cache"
VAR_DEPENDENCY = "dependencies"
MODULE_HUBCONF = "hubconf.py"
_TRUSTED_REPO_OWNERS = ("facebookresearch", "facebookincubator", "pytorch", "fairinternal")
_hub_dir: str | None = None


def _get_torch_home() -> str:
    default = os.path.join(os.getenv(ENV_XDG_CACHE_HOME, DEFAULT_CACHE_DIR), "torch")
    return os.path.expanduser(os.getenv(ENV_TORCH_HOME, default))


def get_dir() -> str:
    """The hub cache directory: the one given to ``set_dir``, else ``$TORCH_HOME/hub``
    (``$TORCH_HOME`` defaults to ``$XDG_CACHE_HOME/torch``, that to ``~/.cache``)."""
    if os.getenv("TORCH_HUB"):
        warnings.warn("TORCH_HUB is deprecated, please use env TORCH_HOME instead", stacklevel=2)
    if _hub_dir is not None:
        return _hub_dir
    return os.path.join(_get_torch_home(), "hub")


def set_dir(d: str | os.PathLike) -> None:
    """Set the hub cache directory (``~`` is expanded)."""
    global _hub_dir
    _hub_dir = os.path.expanduser(d)


@contextlib.contextmanager
def _on_sys_path(path):
    # hubconf.py imports its repository's own modules by plain name, as torch lets it
    sys.path.insert(0, path)
    try:
        yield
    finally:
        sys.path.remove(path)


def _import_hubconf(repo_dir):
    with _on_sys_path(repo_dir):
        path = os.path.join(repo_dir, MODULE_HUBCONF)
        spec = importlib.util.spec_from_file_location(MODULE_HUBCONF, path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    return module


def _check_dependencies(module):
    dependencies = getattr(module, VAR_DEPENDENCY, None)
    if dependencies is not None:
        missing = [name for name in dependencies if importlib.util.find_spec(name) is None]
        if missing:
            raise RuntimeError(f"Missing dependencies: {', '.join(missing)}")


def _entry(module, model):
    if not isinstance(model, str):
        raise ValueError("Invalid input: model should be a string of function name")
    _check_dependencies(module)
    func = getattr(module, model, None) if model in dir(module) else None
    if func is None or not callable(func):
        raise RuntimeError(f"Cannot find callable {model} in hubconf")
    return func


def _no_download(what: str, where: str) -> str:
    return f"numtorch does not download {what}: put it at {where} to use it offline"


def _no_repo_download(what: str, where: str) -> str:
    return _no_download(what, where) + ", or pass a local directory with source='local'"


def _parse_repo_info(github):
    repo_info, ref = github.split(":") if ":" in github else (github, None)
    repo_owner, repo_name = repo_info.split("/")
    if ref is None:
        # torch asks GitHub for the default branch; offline it looks in the cache, as here
        for possible_ref in ("main", "master"):
            if os.path.exists(f"{get_dir()}/{repo_owner}_{repo_name}_{possible_ref}"):
                return repo_owner, repo_name, possible_ref
        raise RuntimeError(
            "It looks like there is no internet connection and the repo could not be found in "
            f"the cache ({get_dir()}); "
            + _no_repo_download("repositories", f"{get_dir()}/{repo_owner}_{repo_name}_main")
        )
    return repo_owner, repo_name, ref


def _check_repo_is_trusted(repo_owner, repo_name, owner_name_branch, trust_repo):
    hub_dir = get_dir()
    filepath = os.path.join(hub_dir, "trusted_list")
    if not os.path.exists(filepath):
        Path(filepath).touch()
    with open(filepath) as file:
        trusted = tuple(line.strip() for line in file)
    # a repository already unpacked in the cache counts as trusted, as in torch
    downloaded = next(os.walk(hub_dir))[1]
    owner_name = f"{repo_owner}_{repo_name}"
    is_trusted = (
        owner_name in trusted
        or owner_name_branch in downloaded
        or repo_owner in _TRUSTED_REPO_OWNERS
    )
    if trust_repo is False or (trust_repo == "check" and not is_trusted):
        response = input(
            f"The repository {owner_name} does not belong to the list of trusted repositories "
            "and as such cannot be downloaded. Do you trust this repository and wish to add it "
            "to the trusted list of repositories (y/N)?"
        )
        if response.lower() in ("y", "yes"):
            if is_trusted:
                print("The repository is already trusted.")
        elif response.lower() in ("n", "no", ""):
            raise Exception("Untrusted repository.")  # torch raises the bare Exception
        else:
            raise ValueError(f"Unrecognized response {response}.")
    if not is_trusted:
        with open(filepath, "a") as file:
            file.write(owner_name + "\n")


def _cached_repo(github, force_reload, trust_repo, verbose=True):
    hub_dir = get_dir()
    os.makedirs(hub_dir, exist_ok=True)
    repo_owner, repo_name, ref = _parse_repo_info(github)
    owner_name_branch = "_".join([repo_owner, repo_name, ref.replace("/", "_")])
    repo_dir = os.path.join(hub_dir, owner_name_branch)
    _check_repo_is_trusted(repo_owner, repo_name, owner_name_branch, trust_repo)
    if force_reload or not os.path.exists(repo_dir):
        raise URLError(
            _no_repo_download(f"repositories ({repo_owner}/{repo_name}:{ref})", repo_dir)
        )
    if verbose:
        sys.stderr.write(f"Using cache found in {repo_dir}\n")
    return repo_dir


def list(github, force_reload=False, skip_validation=False, trust_repo="check", verbose=True):
    """The callable entry points (names not starting with ``_``) of a repository's hubconf.py."""
    module = _import_hubconf(_cached_repo(github, force_reload, trust_repo, verbose))
    return [f for f in dir(module) if callable(getattr(module, f)) and not f.startswith("_")]


def help(github, model, force_reload=False, skip_validation=False, trust_repo="check"):
    """The docstring of the entry point ``model`` of a repository's hubconf.py."""
    module = _import_hubconf(_cached_repo(github, force_reload, trust_repo))
    return _entry(module, model).__doc__


def load(repo_or_dir, model, *args, source="github", trust_repo="check", force_reload=False,
         verbose=True, skip_validation=False, **kwargs):  # fmt: skip
    """Call the entry point ``model`` of ``repo_or_dir``'s hubconf.py with ``*args`` and
    ``**kwargs``: a local directory with ``source='local'``, or a GitHub repository
    (``owner/name[:ref]``) already in the hub cache (Note [Hub without downloads])."""
    source = source.lower()
    if source not in ("github", "local"):
        raise ValueError(f'Unknown source: "{source}". Allowed values: "github" | "local".')
    if source == "github":
        repo_or_dir = _cached_repo(repo_or_dir, force_reload, trust_repo, verbose)
    with _on_sys_path(repo_or_dir):
        entry = _entry(_import_hubconf(repo_or_dir), model)
        return entry(*args, **kwargs)


def _cache_path(url):
    return os.path.join(get_dir(), "checkpoints", os.path.basename(urlparse(url).path))


def _cached_copy(url):
    path = _cache_path(url)
    return path if os.path.isfile(path) else None


def download_url_to_file(url: str, dst: str, hash_prefix: str | None = None,
                         progress: bool = True) -> None:  # fmt: skip
    """Copy ``url``'s file from the hub cache (``<hub_dir>/checkpoints/<file>``) to ``dst``,
    checking the SHA256 ``hash_prefix``; numtorch never downloads, so a file not in the cache
    raises ``URLError`` as torch does offline."""
    source = _cached_copy(url)
    if source is None:
        raise URLError(_no_download(f"files ({url})", _cache_path(url)))
    if hash_prefix is not None:
        digest = hashlib.sha256(Path(source).read_bytes()).hexdigest()
        if digest[: len(hash_prefix)] != hash_prefix:
            raise RuntimeError(f'invalid hash value (expected "{hash_prefix}", got "{digest}")')
    dst = os.path.expanduser(dst)
    if os.path.abspath(source) != os.path.abspath(dst):
        shutil.copyfile(source, dst)


def load_state_dict_from_url(url: str, model_dir: str | None = None, map_location=None,
                             progress: bool = True, check_hash: bool = False,
                             file_name: str | None = None, weights_only: bool = False):  # fmt: skip
    """Load the checkpoint ``url`` names from ``model_dir`` (default
    ``<hub_dir>/checkpoints``) through ``torch.load``'s restricted unpickler; numtorch never
    downloads, so a file not there raises ``URLError`` as torch does offline."""
    if os.getenv("TORCH_MODEL_ZOO"):
        warnings.warn(
            "TORCH_MODEL_ZOO is deprecated, please use env TORCH_HOME instead", stacklevel=2
        )
    if model_dir is None:
        model_dir = os.path.join(get_dir(), "checkpoints")
    os.makedirs(model_dir, exist_ok=True)
    filename = file_name if file_name is not None else os.path.basename(urlparse(url).path)
    cached_file = os.path.join(model_dir, filename)
    if not os.path.exists(cached_file):
        sys.stdout.write(f'Downloading: "{url}" to {cached_file}\n')
        raise URLError(_no_download(f"files ({url})", cached_file))
    if _is_legacy_zip(cached_file):
        warnings.warn(
            "Falling back to the old format < 1.6. This support will be deprecated in favor of "
            "default zipfile format introduced in 1.6. Please redo torch.save() to save it in "
            "the new zipfile format.",
            FutureWarning,
            stacklevel=2,
        )
        # zipfile.extract drops absolute paths and '..' parts, so the member stays inside
        with zipfile.ZipFile(cached_file) as zf:
            cached_file = zf.extract(zf.infolist()[0], model_dir)
    return _load(cached_file, map_location=map_location, weights_only=weights_only)


def _is_legacy_zip(filename: str) -> bool:
    # torch.save's own format is a zip of many entries; a zip of one file is the old wrapper
    if not zipfile.is_zipfile(filename):
        return False
    with zipfile.ZipFile(filename) as zf:
        info = zf.infolist()
    return len(info) == 1 and not info[0].is_dir()
