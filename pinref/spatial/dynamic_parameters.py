"""The other parametrisations of a body's inertia (``PseudoInertiaTpl`` and
``LogCholeskyParametersTpl`` of spatial/inertia.hpp), with leading batch axes.

Dynamic parameters (``Inertia.toDynamicParameters``) are
``pi = [m, h, I_xx, I_xy, I_yy, I_xz, I_yz, I_zz]`` with h = m c and I the rotational inertia
about the frame origin. The pseudo-inertia is the 4x4 ``[[Sigma, h], [h^T, m]]`` with
``Sigma = tr(I)/2 I3 - I`` (Wensing, Kim and Slotine 2017): positive definite exactly when the
body is physically consistent. Log-Cholesky parameters ``(alpha, d1, d2, d3, s12, s23, s13, t1,
t2, t3)`` map every point of R^10 to a physically consistent body.
"""

import math

import numpy as np

from . import _kernels as K
from ._numerics import _c_function, _identity_times, _trace3
from .inertia import Inertia

_exp = _c_function(math.exp, 1)


class PseudoInertia:
    """``mass (...)``, ``h (..., 3)``, ``sigma (..., 3, 3)``. Mirrors ``PseudoInertiaTpl``.

    ``PseudoInertia(mass, h, sigma)`` or ``PseudoInertia(pseudo)`` (a copy).
    """

    __slots__ = ("mass", "h", "sigma")

    def __init__(self, mass, h=None, sigma=None):
        if h is None and sigma is None:
            other = K.expect_type(mass, PseudoInertia, "PseudoInertia(pseudo)")
            mass, h, sigma = other.mass, other.h, other.sigma
        m = K.as_array(mass, "PseudoInertia: mass", ())
        h = K.as_array(h, "PseudoInertia: h", (3,), True)
        sigma = K.as_array(sigma, "PseudoInertia: sigma", (3, 3))
        shape = K.batch_shape((m, 0), (h, 1), (sigma, 2))
        self.mass = np.broadcast_to(m, shape).copy()[()]
        self.h = np.broadcast_to(h, shape + (3,)).copy()
        self.sigma = np.broadcast_to(sigma, shape + (3, 3)).copy()

    def toMatrix(self):
        """The 4x4 ``[[sigma, h], [h^T, mass]]``."""
        mass = np.asarray(self.mass)
        out = np.zeros(mass.shape + (4, 4))
        out[..., :3, :3] = self.sigma
        out[..., :3, 3] = self.h
        out[..., 3, :3] = self.h
        out[..., 3, 3] = mass
        return out

    def __array__(self, dtype=None, copy=None):
        M = self.toMatrix()
        return M if dtype is None else M.astype(dtype)

    @classmethod
    def FromMatrix(cls, pseudo_inertia):
        """Read mass, h and sigma back from a ``(..., 4, 4)`` pseudo-inertia matrix."""
        P = K.as_array(pseudo_inertia, "PseudoInertia.FromMatrix: pseudo_inertia", (4, 4))
        return cls(P[..., 3, 3], P[..., :3, 3], P[..., :3, :3])

    @classmethod
    def FromDynamicParameters(cls, dynamic_params):
        """sigma = tr(I)/2 I3 - I from the dynamic parameters ``(..., 10)``."""
        v = K.as_array(dynamic_params, "PseudoInertia.FromDynamicParameters: dynamic_params",
                       (10,), True)
        I_bar = K.symmetric3_matrix(v[..., 4:10])
        sigma = _identity_times(0.5 * _trace3(I_bar)) - I_bar
        return cls(v[..., 0], v[..., 1:4], sigma)

    def toDynamicParameters(self):
        """``(..., 10)``: I = tr(sigma) I3 - sigma, then [m, h, I_xx, I_xy, I_yy, I_xz, ...]."""
        I_bar = _identity_times(_trace3(self.sigma)) - self.sigma
        mass = np.asarray(self.mass)
        out = np.empty(mass.shape + (10,))
        out[..., 0] = mass
        out[..., 1:4] = self.h
        out[..., 4:10] = K.symmetric3_data(np.swapaxes(I_bar, -1, -2))
        return out

    @classmethod
    def FromInertia(cls, inertia):
        K.expect_type(inertia, Inertia, "PseudoInertia.FromInertia: inertia")
        return cls.FromDynamicParameters(inertia.toDynamicParameters())

    def toInertia(self):
        return Inertia.FromDynamicParameters(self.toDynamicParameters())

    @classmethod
    def FromLogCholeskyParameters(cls, log_cholesky):
        K.expect_type(log_cholesky, LogCholeskyParameters,
                      "PseudoInertia.FromLogCholeskyParameters: log_cholesky")
        return cls.FromDynamicParameters(log_cholesky.toDynamicParameters())

    def __repr__(self):
        return f"PseudoInertia(mass={self.mass!r}, h={self.h!r}, sigma={self.sigma!r})"


class LogCholeskyParameters:
    """``parameters (..., 10)`` = (alpha, d1, d2, d3, s12, s23, s13, t1, t2, t3).
    Mirrors ``LogCholeskyParametersTpl`` (Rucker and Wensing 2022)."""

    __slots__ = ("parameters",)

    def __init__(self, log_cholesky):
        self.parameters = np.array(K.as_array(
            log_cholesky, "LogCholeskyParameters: log_cholesky", (10,), True))

    def _unpack(self):
        return [self.parameters[..., k] for k in range(10)]

    def toDynamicParameters(self):
        """``exp(2 alpha) [1, t1, t2, t3, s23^2 + t2^2 + t3^2 + e2^2 + e3^2,
        -s12 e2 - s13 s23 - t1 t2, s12^2 + s13^2 + t1^2 + t3^2 + e1^2 + e3^2, -s13 e3 - t1 t3,
        -s23 e3 - t2 t3, s12^2 + s13^2 + s23^2 + t1^2 + t2^2 + e1^2 + e2^2]`` with
        e_k = exp(d_k), summed left to right as Pinocchio does."""
        alpha, d1, d2, d3, s12, s23, s13, t1, t2, t3 = self._unpack()
        e1, e2, e3 = _exp(d1), _exp(d2), _exp(d3)
        out = np.stack(np.broadcast_arrays(
            np.ones_like(alpha), t1, t2, t3,
            s23 * s23 + t2 * t2 + t3 * t3 + e2 * e2 + e3 * e3,
            -s12 * e2 - s13 * s23 - t1 * t2,
            s12 * s12 + s13 * s13 + t1 * t1 + t3 * t3 + e1 * e1 + e3 * e3,
            -s13 * e3 - t1 * t3,
            -s23 * e3 - t2 * t3,
            s12 * s12 + s13 * s13 + s23 * s23 + t1 * t1 + t2 * t2 + e1 * e1 + e2 * e2), axis=-1)
        return out * _exp(2 * alpha)[..., None]

    def toPseudoInertia(self):
        return PseudoInertia.FromDynamicParameters(self.toDynamicParameters())

    def toInertia(self):
        return Inertia.FromDynamicParameters(self.toDynamicParameters())

    def calculateJacobian(self):
        """``(..., 10, 10)`` d(dynamic parameters) / d(log-Cholesky parameters)."""
        alpha, d1, d2, d3, s12, s23, s13, t1, t2, t3 = self._unpack()
        a = _exp(2 * alpha)
        e2d1, e2d2, e2d3 = _exp(2 * d1), _exp(2 * d2), _exp(2 * d3)
        ed2, ed3 = _exp(d2), _exp(d3)
        J = np.zeros(self.parameters.shape + (10,))
        J[..., 0, 0] = 2 * a
        J[..., 1, 0], J[..., 1, 7] = 2 * t1 * a, a
        J[..., 2, 0], J[..., 2, 8] = 2 * t2 * a, a
        J[..., 3, 0], J[..., 3, 9] = 2 * t3 * a, a
        J[..., 4, 0] = 2 * (s23 * s23 + t2 * t2 + t3 * t3 + e2d2 + e2d3) * a
        J[..., 4, 2], J[..., 4, 3] = 2 * a * e2d2, 2 * a * e2d3
        J[..., 4, 5], J[..., 4, 8], J[..., 4, 9] = 2 * s23 * a, 2 * t2 * a, 2 * t3 * a
        J[..., 5, 0] = -2 * (s12 * ed2 + s13 * s23 + t1 * t2) * a
        J[..., 5, 2], J[..., 5, 4] = -s12 * a * ed2, -a * ed2
        J[..., 5, 5], J[..., 5, 6] = -s13 * a, -s23 * a
        J[..., 5, 7], J[..., 5, 8] = -t2 * a, -t1 * a
        J[..., 6, 0] = 2 * (s12 * s12 + s13 * s13 + t1 * t1 + t3 * t3 + e2d1 + e2d3) * a
        J[..., 6, 1], J[..., 6, 3] = 2 * a * e2d1, 2 * a * e2d3
        J[..., 6, 4], J[..., 6, 6] = 2 * s12 * a, 2 * s13 * a
        J[..., 6, 7], J[..., 6, 9] = 2 * t1 * a, 2 * t3 * a
        J[..., 7, 0] = -2 * (s13 * ed3 + t1 * t3) * a
        J[..., 7, 3], J[..., 7, 6] = -s13 * a * ed3, -a * ed3
        J[..., 7, 7], J[..., 7, 9] = -t3 * a, -t1 * a
        J[..., 8, 0] = -2 * (s23 * ed3 + t2 * t3) * a
        J[..., 8, 3], J[..., 8, 5] = -s23 * a * ed3, -a * ed3
        J[..., 8, 8], J[..., 8, 9] = -t3 * a, -t2 * a
        J[..., 9, 0] = 2 * (s12 * s12 + s13 * s13 + s23 * s23 + t1 * t1 + t2 * t2
                            + e2d1 + e2d2) * a
        J[..., 9, 1], J[..., 9, 2] = 2 * a * e2d1, 2 * a * e2d2
        J[..., 9, 4], J[..., 9, 5], J[..., 9, 6] = 2 * s12 * a, 2 * s23 * a, 2 * s13 * a
        J[..., 9, 7], J[..., 9, 8] = 2 * t1 * a, 2 * t2 * a
        return J

    def __array__(self, dtype=None, copy=None):
        return np.array(self.parameters, dtype=dtype)

    def __repr__(self):
        return f"LogCholeskyParameters({self.parameters!r})"
