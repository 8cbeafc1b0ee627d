"""The training demo (``python -m numtorch.demo``) and its shipped data set."""

from __future__ import annotations

import os
import subprocess
import sys
from importlib import resources

import numpy as np
import pytest

import numtorch
from numtorch.demo.__main__ import main
from numtorch.demo.digits import digits_dataset, load_digits
from numtorch.demo.train import DemoConfig, DigitsCNN, run


def test_shipped_digits_and_licence_note():
    images, labels = load_digits()
    assert images.shape == (1797, 8, 8) and images.dtype == np.uint8
    assert images.max() == 16 and images.min() == 0
    assert np.bincount(labels).min() >= 170
    note = resources.files("numtorch.demo").joinpath("data/README.md").read_text("utf-8")
    assert "CC BY 4.0" in note and "Alpaydin" in note and "Kaynak" in note
    x, y = digits_dataset()[5]
    assert x.shape == (1, 8, 8) and x.dtype == numtorch.float32 and float(x.max()) <= 1.0
    assert y.dtype == numtorch.int64


def test_cli_one_epoch_saves_and_reloads(tmp_path):
    out = tmp_path / "demo"
    command = [sys.executable, "-m", "numtorch.demo", "--epochs", "1", "--batch-size", "64"]
    command += ["--out", str(out), "--no-progress", "--seed", "3"]
    env = dict(os.environ, PYTHONWARNINGS="error::DeprecationWarning:numtorch")
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, env=env)
    assert done.returncode == 0, done.stderr
    assert "epoch 1/1: loss" in done.stdout
    assert "identical logits" in done.stdout
    [checkpoint] = os.listdir(out)
    assert checkpoint.startswith("digits_cnn.")
    model = DigitsCNN()
    model.load_state_dict(numtorch.load(str(out / checkpoint)))  # strict: every key matches


@pytest.mark.slow
def test_default_settings_reach_95_percent(tmp_path):
    result = run(DemoConfig(out=str(tmp_path), progress=False))
    assert result.accuracy >= 0.95
    assert result.reload_identical
    assert result.train_size + result.test_size == 1797
    assert result.parameters == sum(p.numel() for p in DigitsCNN().parameters())
    assert os.path.getsize(result.checkpoint) == result.checkpoint_bytes > 0


def test_progress_bar_and_plain_fallback(tmp_path, capsys, monkeypatch):
    pytest.importorskip("tqdm")
    config = DemoConfig(epochs=1, batch_size=256, out=str(tmp_path))
    run(config)
    captured = capsys.readouterr()
    assert "epoch 1/1: 100%" in captured.err and "test accuracy" in captured.err
    monkeypatch.setitem(sys.modules, "tqdm", None)  # import tqdm now raises ImportError
    run(config)
    captured = capsys.readouterr()
    assert "epoch 1/1: loss" in captured.out and "%|" not in captured.err


def test_walkthrough_stays_reachable(capsys):
    assert main(["--walkthrough"]) == 0
    assert "A custom Function: Exp" in capsys.readouterr().out


def test_bad_arguments_are_refused():
    with pytest.raises(SystemExit):
        main(["--epochs", "0"])
