"""``numtorch.nn.utils.parametrizations``: ``weight_norm``, ``spectral_norm`` and
``orthogonal`` written as parametrizations (see ``parametrize``)."""

from __future__ import annotations

from enum import Enum, auto

from ..._core import grad_mode
from ..._core.tensor import Tensor
from .. import functional as F
from ..modules.conv import ConvTranspose1d, ConvTranspose2d, ConvTranspose3d
from ..modules.module import Module
from . import parametrize

__all__ = ["orthogonal", "spectral_norm", "weight_norm"]


class _WeightNorm(Module):
    def __init__(self, dim: int | None = 0) -> None:
        super().__init__()
        self.dim = -1 if dim is None else dim

    def forward(self, weight_g, weight_v):
        from ... import _weight_norm

        return _weight_norm(weight_v, weight_g, self.dim)

    def right_inverse(self, weight):
        from ... import norm_except_dim

        return norm_except_dim(weight, 2, self.dim), weight


def weight_norm(module: Module, name: str = "weight", dim: int | None = 0) -> Module:
    """Reparametrize ``module.<name>`` as ``g * v / ||v||`` (norm over every dim but ``dim``);
    ``g`` and ``v`` are ``parametrizations.<name>.original0`` and ``original1``.

    Example:
        >>> import numtorch as torch
        >>> m = torch.nn.utils.parametrizations.weight_norm(torch.nn.Linear(3, 2))
        >>> [name for name, _ in m.named_parameters()]
        ['bias', 'parametrizations.weight.original0', 'parametrizations.weight.original1']
    """
    parametrize.register_parametrization(module, name, _WeightNorm(dim), unsafe=True)

    def _weight_norm_compat_hook(
        state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs
    ) -> None:
        # checkpoints of the legacy nn.utils.weight_norm name the tensors <name>_g, <name>_v
        g_key, v_key = f"{prefix}{name}_g", f"{prefix}{name}_v"
        if g_key in state_dict and v_key in state_dict:
            state_dict[f"{prefix}parametrizations.{name}.original0"] = state_dict.pop(g_key)
            state_dict[f"{prefix}parametrizations.{name}.original1"] = state_dict.pop(v_key)

    module._register_load_state_dict_pre_hook(_weight_norm_compat_hook)
    return module


class _SpectralNorm(Module):
    def __init__(
        self, weight: Tensor, n_power_iterations: int = 1, dim: int = 0, eps: float = 1e-12
    ) -> None:
        super().__init__()
        ndim = weight.ndim
        if dim >= ndim or dim < -ndim:
            raise IndexError(
                "Dimension out of range (expected to be in range of "
                f"[-{ndim}, {ndim - 1}] but got {dim})"
            )
        if n_power_iterations <= 0:
            raise ValueError(
                "Expected n_power_iterations to be positive, but "
                f"got n_power_iterations={n_power_iterations}"
            )
        self.dim = dim if dim >= 0 else dim + ndim
        self.eps = eps
        if ndim > 1:
            self.n_power_iterations = n_power_iterations
            weight_mat = self._reshape_weight_to_matrix(weight)
            h, w = weight_mat.size()
            u = weight_mat.new_empty(h).normal_(0, 1)
            v = weight_mat.new_empty(w).normal_(0, 1)
            self.register_buffer("_u", F.normalize(u, dim=0, eps=self.eps))
            self.register_buffer("_v", F.normalize(v, dim=0, eps=self.eps))
            self._power_method(weight_mat, 15)

    def _reshape_weight_to_matrix(self, weight: Tensor) -> Tensor:
        if self.dim != 0:
            weight = weight.permute(self.dim, *(d for d in range(weight.dim()) if d != self.dim))
        return weight.flatten(1)

    def _power_method(self, weight_mat: Tensor, n_power_iterations: int) -> None:
        # u and v are updated in place (torch uses out=), so they keep their identity
        with grad_mode.no_grad():
            for _ in range(n_power_iterations):
                self._u.copy_(F.normalize(weight_mat.mv(self._v), dim=0, eps=self.eps))
                self._v.copy_(F.normalize(weight_mat.mT.mv(self._u), dim=0, eps=self.eps))

    def forward(self, weight: Tensor) -> Tensor:
        if weight.ndim == 1:
            return F.normalize(weight, dim=0, eps=self.eps)
        weight_mat = self._reshape_weight_to_matrix(weight)
        if self.training:
            self._power_method(weight_mat, self.n_power_iterations)
        u, v = self._u.clone(), self._v.clone()
        sigma = u.vdot(weight_mat.mv(v))
        return weight / sigma

    def right_inverse(self, value: Tensor) -> Tensor:
        return value


def spectral_norm(
    module: Module,
    name: str = "weight",
    n_power_iterations: int = 1,
    eps: float = 1e-12,
    dim: int | None = None,
) -> Module:
    """Divide ``module.<name>`` by its largest singular value, estimated by power iteration
    (``n_power_iterations`` steps per training-mode read; ``u``/``v`` are buffers)."""
    weight = getattr(module, name, None)
    if not isinstance(weight, Tensor):
        raise ValueError(f"Module '{module}' has no parameter or buffer with name '{name}'")
    if dim is None:
        transposed = (ConvTranspose1d, ConvTranspose2d, ConvTranspose3d)
        dim = 1 if isinstance(module, transposed) else 0
    parametrize.register_parametrization(
        module, name, _SpectralNorm(weight, n_power_iterations, dim, eps)
    )
    return module


class _OrthMaps(Enum):
    matrix_exp = auto()
    cayley = auto()
    householder = auto()


def _make_orthogonal(A: Tensor) -> Tensor:
    # the Q of A's QR decomposition with R's diagonal made positive (torch's geqrf route)
    from ... import linalg

    Q, R = linalg.qr(A)
    return Q * R.diagonal(dim1=-2, dim2=-1).sgn().unsqueeze(-2)


def _is_orthogonal(Q: Tensor) -> bool:
    from ... import allclose, eye, finfo

    n, k = Q.size(-2), Q.size(-1)
    identity = eye(k, dtype=Q.dtype)
    return allclose(Q.mT @ Q, identity, atol=10.0 * n * finfo(Q.dtype).eps)


class _Orthogonal(Module):
    def __init__(self, weight, orthogonal_map: _OrthMaps, *, use_trivialization=True) -> None:
        super().__init__()
        if weight.is_complex() and orthogonal_map == _OrthMaps.householder:
            # complex reflectors below the diagonal cannot carry the n^2 real parameters
            raise ValueError("The householder parametrization does not support complex tensors.")
        self.shape = weight.shape
        self.orthogonal_map = orthogonal_map
        if use_trivialization:
            self.register_buffer("base", None)

    def forward(self, X: Tensor) -> Tensor:
        from ... import cat, eye, linalg, matrix_exp

        n, k = X.size(-2), X.size(-1)
        transposed = n < k
        if transposed:
            X = X.mT
            n, k = k, n
        if self.orthogonal_map == _OrthMaps.householder:
            # reflectors below X's diagonal, scaled to be orthogonal (tau = 2 / |v|^2); X's
            # diagonal only picks each column's sign, and is not differentiated through
            A = X.tril(diagonal=-1)
            tau = 2.0 / (1.0 + (A * A).sum(dim=-2))
            Q = linalg.householder_product(A, tau)
            Q = Q * X.diagonal(dim1=-2, dim2=-1).int().unsqueeze(-2)
        else:
            # Q = exp(A) or the Cayley map of the skew-symmetric A from X's lower triangle
            X = X.tril()
            if n != k:
                X = cat([X, X.new_zeros(n, n - k).expand(*X.shape[:-2], -1, -1)], dim=-1)
            A = X - X.mT
            if self.orthogonal_map == _OrthMaps.matrix_exp:
                Q = matrix_exp(A)
            else:
                identity = eye(n, dtype=A.dtype)
                Q = linalg.solve(identity - 0.5 * A, identity + 0.5 * A)
            if n != k:
                Q = Q[..., :k]
        if hasattr(self, "base"):
            Q = self.base @ Q
        if transposed:
            Q = Q.mT
        return Q

    def right_inverse(self, Q: Tensor) -> Tensor:
        from ... import cat, geqrf, randn, zeros_like

        if Q.shape != self.shape:
            raise ValueError(
                f"Expected a matrix or batch of matrices of shape {self.shape}. "
                f"Got a tensor of shape {Q.shape}."
            )
        with grad_mode.no_grad():
            Q_init = Q
            n, k = Q.size(-2), Q.size(-1)
            if n < k:
                Q = Q.mT
                n, k = k, n
            if not hasattr(self, "base"):
                if self.orthogonal_map != _OrthMaps.householder:
                    raise NotImplementedError(
                        "It is not possible to assign to the matrix exponential "
                        "or the Cayley parametrizations when use_trivialization=False."
                    )
                # the inverse of the Householder map: Q's compact QR, with the diagonal of
                # R (the signs) made +-1; a reflector LAPACK skipped (tau 0) flips its sign
                A, tau = geqrf(Q)
                signs = A.diagonal(dim1=-2, dim2=-1)
                signs.sign_()
                signs[tau == 0.0] *= -1
                return A.mT if Q_init.size(-2) < Q_init.size(-1) else A
            if n == k:
                Q = Q.clone() if _is_orthogonal(Q) else _make_orthogonal(Q)
            else:
                noise = randn(*(Q.size()[:-2] + (n, n - k)), dtype=Q.dtype)
                Q = _make_orthogonal(cat([Q, noise], dim=-1))
            self.base = Q
            neg_identity = zeros_like(Q_init)
            neg_identity.diagonal(dim1=-2, dim2=-1).fill_(-1.0)
            return neg_identity


def orthogonal(
    module: Module,
    name: str = "weight",
    orthogonal_map: str | None = None,
    *,
    use_trivialization: bool = True,
) -> Module:
    """Constrain the matrix (or batch of matrices) ``module.<name>`` to be orthogonal,
    through ``matrix_exp`` or ``cayley`` of a skew-symmetric matrix, or a product of
    Householder reflections (``householder``, the default for non-square matrices)."""
    weight = getattr(module, name, None)
    if not isinstance(weight, Tensor):
        raise ValueError(f"Module '{module}' has no parameter or buffer with name '{name}'")
    if weight.ndim < 2:
        raise ValueError(
            f"Expected a matrix or batch of matrices. Got a tensor of {weight.ndim} dimensions."
        )
    if orthogonal_map is None:
        orthogonal_map = "matrix_exp" if weight.size(-2) == weight.size(-1) else "householder"
    orth_enum = getattr(_OrthMaps, orthogonal_map, None)
    if orth_enum is None:
        raise ValueError(
            'orthogonal_map has to be one of "matrix_exp", "cayley", "householder". '
            f"Got: {orthogonal_map}"
        )
    orth = _Orthogonal(weight, orth_enum, use_trivialization=use_trivialization)
    parametrize.register_parametrization(module, name, orth, unsafe=True)
    return module
