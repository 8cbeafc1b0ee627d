"""DistributedDataParallel and SyncBatchNorm: real 2-rank jobs (tests/mpi_scripts) checked
against single-process training on the whole batch, plus one-process behaviour in here."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest
from mpi_harness import mpi_unavailable_reason, run_mpi

import numtorch as torch
import numtorch.distributed as dist
from numtorch import nn
from numtorch.nn.parallel import DistributedDataParallel as DDP

MPI_REASON = mpi_unavailable_reason()
needs_mpi = pytest.mark.skipif(MPI_REASON is not None, reason=str(MPI_REASON))
pytestmark = pytest.mark.mpi
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@needs_mpi
def test_ddp_matches_single_process_training():
    out = run_mpi("ddp.py", nprocs=2, timeout=90).stdout
    assert "rank 0 of 2: DDP OK" in out and "rank 1 of 2: DDP OK" in out, out


@needs_mpi
@pytest.mark.parametrize("nprocs", [2, 3])
def test_sync_batchnorm_matches_batchnorm_on_the_whole_batch(nprocs):
    out = run_mpi("syncbn.py", nprocs=nprocs, timeout=90).stdout
    for r in range(nprocs):
        assert f"rank {r} of {nprocs}: SyncBatchNorm OK" in out, out


@needs_mpi
def test_example_trains_on_two_ranks():
    script = os.path.join(ROOT, "examples", "ddp_train.py")
    launch = [sys.executable, "-m", "numtorch.distributed.run", "-n", "2", "--rank-timeout", "60"]
    done = subprocess.run(
        [*launch, script, "--epochs", "2", "--samples", "512"],
        capture_output=True, text=True, timeout=90, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert "all 2 replicas identical" in done.stdout
    accuracy = float(done.stdout.split("final test accuracy ")[1].split(";")[0])
    assert accuracy > 0.5, done.stdout


# -- one process ---------------------------------------------------------------------------------
@pytest.fixture
def world():
    dist.init_process_group("mpi")
    yield
    dist.destroy_process_group()


def test_ddp_needs_a_process_group():
    with pytest.raises(ValueError, match="Default process group has not been initialized"):
        DDP(nn.Linear(2, 2))


def test_ddp_in_a_world_of_one_is_the_module(world):
    torch.manual_seed(0)
    model = nn.Linear(3, 2)
    reference = nn.Linear(3, 2)
    reference.load_state_dict(model.state_dict())
    ddp = DDP(model, bucket_cap_mb=0.00001)
    x = torch.randn(4, 3)
    ddp(x).pow(2).sum().backward()
    reference(x).pow(2).sum().backward()
    for p, q in zip(ddp.parameters(), reference.parameters()):
        assert np.array_equal(p.grad.numpy(), q.grad.numpy())
    assert list(ddp.state_dict()) == ["module.weight", "module.bias"]
    with pytest.raises(TypeError, match="unsupported arguments"):
        DDP(model, mixed_precision=True)


def test_sync_batchnorm_without_process_group_is_batchnorm():
    torch.manual_seed(0)
    x = torch.randn(6, 3, 2)
    sync, plain = nn.SyncBatchNorm(3), nn.BatchNorm1d(3)
    assert np.array_equal(sync(x).detach().numpy(), plain(x).detach().numpy())
    assert np.array_equal(sync.running_var.numpy(), plain.running_var.numpy())
    sync(torch.randn(2, 3, 4, 4, 4))  # any rank >= 2, unlike BatchNorm3d
    with pytest.raises(ValueError, match="expected at least 2D input"):
        sync(torch.randn(3))


def test_convert_sync_batchnorm_keeps_parameters_and_buffers():
    net = nn.Sequential(nn.Linear(4, 3), nn.BatchNorm1d(3, momentum=0.3), nn.ReLU())
    net[1].running_mean.fill_(2.0)
    converted = nn.SyncBatchNorm.convert_sync_batchnorm(net)
    bn = converted[1]
    assert type(bn) is nn.SyncBatchNorm and bn.momentum == 0.3
    assert bn.weight is net[1].weight and bn.running_mean is net[1].running_mean
    assert type(nn.SyncBatchNorm.convert_sync_batchnorm(nn.BatchNorm2d(2))) is nn.SyncBatchNorm


@pytest.mark.slow
@pytest.mark.skipif(
    os.environ.get("NUMTORCH_LONG_TESTS") != "1", reason="long test: set NUMTORCH_LONG_TESTS=1"
)
def test_example_runs_on_torch_under_torchrun(tmp_path):
    """What the example's docstring claims: with torch's imports it runs under torchrun."""
    pytest.importorskip("torch")
    with open(os.path.join(ROOT, "examples", "ddp_train.py")) as f:
        source = f.read()
    for name in ("import numtorch as torch", "import numtorch.distributed as dist"):
        assert name in source
    source = source.replace("import numtorch as torch", "import torch")
    source = source.replace("numtorch.distributed", "torch.distributed")
    source = source.replace("from numtorch", "from torch")
    script = tmp_path / "ddp_train_torch.py"
    script.write_text(source)
    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    launch = [sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc-per-node=2"]
    done = subprocess.run(
        [*launch, str(script), "--epochs", "2", "--samples", "512"],
        capture_output=True, text=True, timeout=180, check=False, env=env, cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert "all 2 replicas identical" in done.stdout
