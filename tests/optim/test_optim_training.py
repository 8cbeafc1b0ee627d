"""optim + utils.data + save/load together: training resumed from a checkpoint is identical."""

import numpy as np

import numtorch as torch
from numtorch.utils.data import DataLoader, TensorDataset


def make_run():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((64, 3)).astype(np.float32)
    y = (x @ np.array([1.0, -2.0, 0.5], dtype=np.float32) > 0).astype(np.float32)
    generator = torch.Generator().manual_seed(7)
    loader = DataLoader(
        TensorDataset(torch.tensor(x), torch.tensor(y)),
        batch_size=10,
        shuffle=True,
        drop_last=True,
        generator=generator,
    )
    w = torch.zeros(3, requires_grad=True)
    b = torch.zeros(1, requires_grad=True)
    opt = torch.optim.SGD([w, b], lr=0.5, momentum=0.9, nesterov=True)
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
    return {"loader": loader, "generator": generator, "w": w, "b": b, "opt": opt, "sched": sched}


def train_epochs(run, epochs):
    losses = []
    for _ in range(epochs):
        for xb, yb in run["loader"]:
            p = (xb @ run["w"] + run["b"]).sigmoid()
            loss = -(yb * p.log() + (1 - yb) * (1 - p).log()).mean()
            run["opt"].zero_grad()
            loss.backward()
            run["opt"].step()
            losses.append(loss.item())
        run["sched"].step()
    return losses


def test_resume_from_checkpoint_matches_uninterrupted_training(tmp_path):
    straight = make_run()
    losses = train_epochs(straight, 6)
    assert np.mean(losses[-6:]) < 0.5 * np.mean(losses[:6])  # it learns

    first = make_run()
    train_epochs(first, 3)
    torch.save(
        {
            "w": first["w"],
            "b": first["b"],
            "optimizer": first["opt"].state_dict(),
            "scheduler": first["sched"].state_dict(),
            "shuffle_rng": first["generator"].get_state(),
        },
        tmp_path / "checkpoint.pt",
    )

    resumed = make_run()
    saved = torch.load(tmp_path / "checkpoint.pt")
    with torch.no_grad():
        resumed["w"].copy_(saved["w"])
        resumed["b"].copy_(saved["b"])
    resumed["opt"].load_state_dict(saved["optimizer"])
    resumed["sched"].load_state_dict(saved["scheduler"])
    resumed["generator"].set_state(saved["shuffle_rng"])
    assert saved["w"].requires_grad  # parameters keep requires_grad through the file
    assert resumed["opt"].param_groups[0]["lr"] == straight["opt"].param_groups[0]["lr"] * 4
    train_epochs(resumed, 3)
    assert resumed["w"].tolist() == straight["w"].tolist()
    assert resumed["b"].tolist() == straight["b"].tolist()
