"""L-BFGS with an optional strong-Wolfe line search (torch's port of minFunc)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .._core.grad_mode import enable_grad, no_grad
from .._core.tensor import Tensor
from ..backend.fused import add_scaled
from ._checks import check_lr, scalar
from .optimizer import Optimizer

# Note [L-BFGS scalars]
# torch keeps dot products, ``t``, ``H_diag`` and ``ro`` as 0-d tensors of the parameters'
# dtype, so float32 parameters give float32 scalar arithmetic with Python numbers. NumPy
# scalars of the same dtype follow the same rules (a Python float does not promote them),
# so the search below is written on arrays and NumPy scalars; the state keeps torch's
# layout, with 0-d tensors where torch has them.


def _add_scaled(target: np.ndarray, x: np.ndarray, alpha) -> None:
    """torch's ``target.add_(x, alpha=alpha)`` (one rounding per element for real floats)."""
    if add_scaled(target, x, alpha, out=target) is None:
        target += alpha * x


def _cubic_interpolate(x1, f1, g1, x2, f2, g2, bounds=None):
    """The minimiser of the cubic through two points with slopes, clamped to ``bounds``."""
    if bounds is not None:
        xmin_bound, xmax_bound = bounds
    else:
        xmin_bound, xmax_bound = (x1, x2) if x1 <= x2 else (x2, x1)
    d1 = g1 + g2 - 3 * (f1 - f2) / (x1 - x2)
    d2_square = d1**2 - g1 * g2
    if d2_square >= 0:
        d2 = np.sqrt(d2_square)
        if x1 <= x2:
            min_pos = x2 - (x2 - x1) * ((g2 + d2 - d1) / (g2 - g1 + 2 * d2))
        else:
            min_pos = x1 - (x1 - x2) * ((g1 + d2 - d1) / (g1 - g2 + 2 * d2))
        return min(max(min_pos, xmin_bound), xmax_bound)
    return (xmin_bound + xmax_bound) / 2.0


def _strong_wolfe(obj_func, x, t, d, f, g, gtd, c1=1e-4, c2=0.9, tolerance_change=1e-9, max_ls=25):
    """A step ``t`` along ``d`` meeting the strong Wolfe conditions: bracket, then zoom."""
    d_norm = np.abs(d).max()
    g = g.copy()
    f_new, g_new = obj_func(x, t, d)
    ls_func_evals = 1
    gtd_new = g_new.dot(d)

    t_prev, f_prev, g_prev, gtd_prev = 0, f, g, gtd
    done = False
    ls_iter = 0
    while ls_iter < max_ls:
        if f_new > (f + c1 * t * gtd) or (ls_iter > 1 and f_new >= f_prev):
            bracket, bracket_f = [t_prev, t], [f_prev, f_new]
            bracket_g, bracket_gtd = [g_prev, g_new.copy()], [gtd_prev, gtd_new]
            break
        if abs(gtd_new) <= -c2 * gtd:
            bracket, bracket_f, bracket_g = [t], [f_new], [g_new]
            done = True
            break
        if gtd_new >= 0:
            bracket, bracket_f = [t_prev, t], [f_prev, f_new]
            bracket_g, bracket_gtd = [g_prev, g_new.copy()], [gtd_prev, gtd_new]
            break
        # extrapolate
        min_step = t + 0.01 * (t - t_prev)
        max_step = t * 10
        tmp = t
        t = _cubic_interpolate(
            t_prev, f_prev, gtd_prev, t, f_new, gtd_new, bounds=(min_step, max_step)
        )
        t_prev, f_prev, g_prev, gtd_prev = tmp, f_new, g_new.copy(), gtd_new
        f_new, g_new = obj_func(x, t, d)
        ls_func_evals += 1
        gtd_new = g_new.dot(d)
        ls_iter += 1

    if ls_iter == max_ls:  # reached the most evaluations
        bracket, bracket_f, bracket_g = [0, t], [f, f_new], [g, g_new]

    # zoom until the interval is small enough or the conditions hold
    insuf_progress = False
    low_pos, high_pos = (0, 1) if bracket_f[0] <= bracket_f[-1] else (1, 0)
    while not done and ls_iter < max_ls:
        if abs(bracket[1] - bracket[0]) * d_norm < tolerance_change:
            break
        t = _cubic_interpolate(
            bracket[0], bracket_f[0], bracket_gtd[0], bracket[1], bracket_f[1], bracket_gtd[1]
        )
        # Too close to an end without progress last time: move away from that end.
        eps = 0.1 * (max(bracket) - min(bracket))
        if min(max(bracket) - t, t - min(bracket)) < eps:
            if insuf_progress or t >= max(bracket) or t <= min(bracket):
                if abs(t - max(bracket)) < abs(t - min(bracket)):
                    t = max(bracket) - eps
                else:
                    t = min(bracket) + eps
                insuf_progress = False
            else:
                insuf_progress = True
        else:
            insuf_progress = False

        f_new, g_new = obj_func(x, t, d)
        ls_func_evals += 1
        gtd_new = g_new.dot(d)
        ls_iter += 1

        if f_new > (f + c1 * t * gtd) or f_new >= bracket_f[low_pos]:
            bracket[high_pos], bracket_f[high_pos] = t, f_new
            bracket_g[high_pos], bracket_gtd[high_pos] = g_new.copy(), gtd_new
            low_pos, high_pos = (0, 1) if bracket_f[0] <= bracket_f[1] else (1, 0)
        else:
            if abs(gtd_new) <= -c2 * gtd:
                done = True
            elif gtd_new * (bracket[high_pos] - bracket[low_pos]) >= 0:
                bracket[high_pos], bracket_f[high_pos] = bracket[low_pos], bracket_f[low_pos]
                bracket_g[high_pos] = bracket_g[low_pos]
                bracket_gtd[high_pos] = bracket_gtd[low_pos]
            bracket[low_pos], bracket_f[low_pos] = t, f_new
            bracket_g[low_pos], bracket_gtd[low_pos] = g_new.copy(), gtd_new

    return bracket_f[low_pos], bracket_g[low_pos], bracket[low_pos], ls_func_evals


def _wrap(value):
    """A NumPy scalar or array as torch keeps it in the state: a tensor."""
    return Tensor._make(np.asarray(value)) if isinstance(value, (np.ndarray, np.generic)) else value


def _unwrap(value):
    """A state entry back to the array or NumPy scalar the search works on."""
    if isinstance(value, Tensor):
        return value._data[()] if value._data.ndim == 0 else value._data
    if isinstance(value, list):
        return [_unwrap(v) for v in value]
    return value


class LBFGS(Optimizer):
    """L-BFGS, torch's algorithm; ``step(closure)`` runs up to ``max_iter`` iterations.

    The closure clears the gradients, computes the loss, calls ``backward`` and returns
    the loss. Only one parameter group is allowed. ``line_search_fn="strong_wolfe"`` picks
    each step length by a line search; without it the step is ``lr`` (the first one scaled
    by ``min(1, 1 / sum|g|)``).

    Example:
        >>> import numtorch as torch
        >>> w = torch.tensor([1.0, -2.0], requires_grad=True)
        >>> opt = torch.optim.LBFGS([w], line_search_fn="strong_wolfe")
        >>> def closure():
        ...     opt.zero_grad()
        ...     loss = ((w - 3) ** 2).sum()
        ...     loss.backward()
        ...     return loss
        >>> opt.step(closure)
        tensor(29., grad_fn=<SumBackward0>)
        >>> [round(v, 4) for v in w.tolist()]
        [3.0, 3.0]
    """

    def __init__(
        self,
        params,
        lr: float | Tensor = 1,
        max_iter: int = 20,
        max_eval: int | None = None,
        tolerance_grad: float = 1e-7,
        tolerance_change: float = 1e-9,
        history_size: int = 100,
        line_search_fn: str | None = None,
    ) -> None:
        check_lr(lr)
        if max_eval is None:
            max_eval = max_iter * 5 // 4
        defaults = {
            "lr": lr,
            "max_iter": max_iter,
            "max_eval": max_eval,
            "tolerance_grad": tolerance_grad,
            "tolerance_change": tolerance_change,
            "history_size": history_size,
            "line_search_fn": line_search_fn,
        }
        super().__init__(params, defaults)
        if len(self.param_groups) != 1:
            raise ValueError("LBFGS doesn't support per-parameter options (parameter groups)")
        self._params = self.param_groups[0]["params"]

    def __setstate__(self, state) -> None:
        super().__setstate__(state)
        self._params = self.param_groups[0]["params"]

    def _gather_flat_grad(self) -> np.ndarray:
        return np.concatenate(
            [
                np.zeros(p._data.size, p._data.dtype) if p._grad is None else p._grad._data.ravel()
                for p in self._params
            ]
        )

    def _add_grad(self, step_size, update: np.ndarray) -> None:
        offset = 0
        for p in self._params:
            numel = p._data.size
            _add_scaled(p._data, update[offset : offset + numel].reshape(p._data.shape), step_size)
            p._bump_version()
            offset += numel

    def _set_param(self, params_data: list[np.ndarray]) -> None:
        for p, data in zip(self._params, params_data):
            np.copyto(p._data, data)
            p._bump_version()

    def _directional_evaluate(self, closure, x, t, d):
        self._add_grad(t, d)
        loss = float(closure())
        flat_grad = self._gather_flat_grad()
        self._set_param(x)
        return loss, flat_grad

    def step(self, closure: Callable[[], Tensor]):  # type: ignore[override]
        """Run up to ``max_iter`` iterations; returns the closure's first loss."""
        if len(self.param_groups) != 1:
            raise AssertionError(
                f"Expected exactly one param_group, but got {len(self.param_groups)}"
            )
        with no_grad():
            return self._step(closure)

    def _step(self, closure):
        group = self.param_groups[0]
        lr = group["lr"]
        lr = scalar(lr) if isinstance(lr, Tensor) else lr
        max_iter, max_eval = group["max_iter"], group["max_eval"]
        tolerance_grad, tolerance_change = group["tolerance_grad"], group["tolerance_change"]
        line_search_fn, history_size = group["line_search_fn"], group["history_size"]

        def evaluate():
            with enable_grad():
                return closure()

        state = self.state[self._params[0]]
        state.setdefault("func_evals", 0)
        state.setdefault("n_iter", 0)

        orig_loss = evaluate()
        loss = float(orig_loss)
        current_evals = 1
        state["func_evals"] += 1

        flat_grad = self._gather_flat_grad()
        if np.abs(flat_grad).max() <= tolerance_grad:  # already optimal
            return orig_loss

        d, t = _unwrap(state.get("d")), _unwrap(state.get("t"))
        old_dirs, old_stps = _unwrap(state.get("old_dirs")), _unwrap(state.get("old_stps"))
        ro, H_diag = _unwrap(state.get("ro")), _unwrap(state.get("H_diag"))
        al = _unwrap(state.get("al"))
        prev_flat_grad, prev_loss = _unwrap(state.get("prev_flat_grad")), state.get("prev_loss")

        n_iter = 0
        while n_iter < max_iter:
            n_iter += 1
            state["n_iter"] += 1

            # the descent direction
            if state["n_iter"] == 1:
                d = -flat_grad
                old_dirs, old_stps, ro, H_diag = [], [], [], 1
            else:
                y = flat_grad - prev_flat_grad
                s = d * t
                ys = y.dot(s)
                if ys > 1e-10:  # update the memory
                    if len(old_dirs) == history_size:
                        old_dirs.pop(0)
                        old_stps.pop(0)
                        ro.pop(0)
                    old_dirs.append(y)
                    old_stps.append(s)
                    ro.append(1.0 / ys)
                    H_diag = ys / y.dot(y)
                num_old = len(old_dirs)
                if al is None:
                    al = [None] * history_size
                # two-loop recursion: d = -H g
                q = -flat_grad
                for i in range(num_old - 1, -1, -1):
                    al[i] = old_stps[i].dot(q) * ro[i]
                    _add_scaled(q, old_dirs[i], -al[i])
                d = r = q * H_diag
                for i in range(num_old):
                    be_i = old_dirs[i].dot(r) * ro[i]
                    _add_scaled(r, old_stps[i], al[i] - be_i)

            if prev_flat_grad is None:
                prev_flat_grad = flat_grad.copy()
            else:
                np.copyto(prev_flat_grad, flat_grad)
            prev_loss = loss

            # the step length
            if state["n_iter"] == 1:
                t = min(1.0, 1.0 / np.abs(flat_grad).sum()) * lr
            else:
                t = lr
            gtd = flat_grad.dot(d)
            if gtd > -tolerance_change:  # not a descent direction
                break

            ls_func_evals = 0
            if line_search_fn is not None:
                if line_search_fn != "strong_wolfe":
                    raise RuntimeError("only 'strong_wolfe' is supported")
                x_init = [p._data.copy() for p in self._params]

                def obj_func(x, t, d):
                    return self._directional_evaluate(evaluate, x, t, d)

                loss, flat_grad, t, ls_func_evals = _strong_wolfe(
                    obj_func, x_init, t, d, loss, flat_grad, gtd, max_ls=max_eval - current_evals
                )
                self._add_grad(t, d)
                opt_cond = np.abs(flat_grad).max() <= tolerance_grad
            else:
                self._add_grad(t, d)
                if n_iter != max_iter:
                    # Re-evaluate unless this is the last iteration (the next step() will).
                    loss = float(evaluate())
                    flat_grad = self._gather_flat_grad()
                    opt_cond = np.abs(flat_grad).max() <= tolerance_grad
                    ls_func_evals = 1
            current_evals += ls_func_evals
            state["func_evals"] += ls_func_evals

            # stopping conditions
            if n_iter == max_iter or current_evals >= max_eval or opt_cond:
                break
            if np.abs(d * t).max() <= tolerance_change:
                break
            if abs(loss - prev_loss) < tolerance_change:
                break

        if al is not None:  # torch's key order: "al" comes before "d"
            state["al"] = [_wrap(a) for a in al]
        state["d"] = _wrap(d)
        state["t"] = _wrap(t)
        state["old_dirs"] = [_wrap(v) for v in old_dirs]
        state["old_stps"] = [_wrap(v) for v in old_stps]
        state["ro"] = [_wrap(v) for v in ro]
        state["H_diag"] = _wrap(H_diag)
        state["prev_flat_grad"] = _wrap(prev_flat_grad)
        state["prev_loss"] = prev_loss
        return orig_loss
