"""Array kernels behind the spatial classes: every function works on leading batch axes.

Shapes: 3-vectors ``(..., 3)``, spatial vectors ``(..., 6)`` ordered [linear; angular],
rotations ``(..., 3, 3)``, 6x6 matrices ``(..., 6, 6)``. Only last-axis operations are used, so
any leading axes broadcast. The classes in this package are thin wrappers over these functions;
the algorithms call the classes, so no axis juggling shows there.
"""

import numpy as np

from ..errors import NonFiniteError, ShapeError

LINEAR = slice(0, 3)
ANGULAR = slice(3, 6)

_P1 = np.array([1, 2, 0])
_P2 = np.array([2, 0, 1])


def mT(A):
    """Transpose of the last two axes: ``(..., m, n) -> (..., n, m)``."""
    return np.swapaxes(A, -1, -2)


def matvec(A, x):
    """``A x`` over leading axes: ``(..., m, n), (..., n) -> (..., m)``."""
    return np.matvec(A, x)


def cross(a, b):
    """``a x b`` for ``(..., 3)`` arrays, Eigen's evaluation order (a1 b2 - a2 b1, ...)."""
    return a[..., _P1] * b[..., _P2] - a[..., _P2] * b[..., _P1]


def skew(v):
    """``[v]x`` with ``[v]x w == v x w``: ``(..., 3) -> (..., 3, 3)``. Mirrors ``pinocchio::skew``."""
    v = np.asarray(v, dtype=float)
    out = np.zeros(v.shape[:-1] + (3, 3))
    out[..., 0, 1] = -v[..., 2]
    out[..., 0, 2] = v[..., 1]
    out[..., 1, 0] = v[..., 2]
    out[..., 1, 2] = -v[..., 0]
    out[..., 2, 0] = -v[..., 1]
    out[..., 2, 1] = v[..., 0]
    return out


def unSkew(M):
    """The vector of the skew part of M: ``0.5 (M21 - M12, M02 - M20, M10 - M01)``.

    Mirrors ``pinocchio::unSkew``: ``(..., 3, 3) -> (..., 3)``.
    """
    M = np.asarray(M, dtype=float)
    return 0.5 * np.stack(
        (M[..., 2, 1] - M[..., 1, 2], M[..., 0, 2] - M[..., 2, 0], M[..., 1, 0] - M[..., 0, 1]),
        axis=-1,
    )


def batch_shape(*arrays_and_tails):
    """Broadcast of the leading axes of ``(array, n_trailing_axes)`` pairs; ShapeError if none."""
    shapes = [a.shape[: a.ndim - tail] for a, tail in arrays_and_tails]
    try:
        return np.broadcast_shapes(*shapes)
    except ValueError:
        raise ShapeError(f"batch shapes {shapes} do not broadcast") from None


def as_array(x, name, tail):
    """``x`` as a float64 array whose trailing shape is ``tail``; ShapeError or NonFiniteError.

    ``tail`` is a tuple such as ``(6,)`` or ``(3, 3)``. Leading axes are batch axes.
    """
    try:
        a = np.asarray(x, dtype=float)
    except (TypeError, ValueError):
        raise ShapeError(f"{name}: expected an array of trailing shape {tail}, got {x!r}") from None
    if a.shape[a.ndim - len(tail):] != tuple(tail) or a.ndim < len(tail):
        raise ShapeError(f"{name}: expected trailing shape {tuple(tail)}, got shape {a.shape}")
    if not np.all(np.isfinite(a)):
        raise NonFiniteError(f"{name}: contains NaN or infinity")
    return a


def stack6(linear, angular):
    """Concatenate ``(..., 3)`` linear and angular parts into ``(..., 6)``, broadcasting."""
    if linear.shape != angular.shape:
        shape = batch_shape((linear, 1), (angular, 1)) + (3,)
        linear = np.broadcast_to(linear, shape)
        angular = np.broadcast_to(angular, shape)
    return np.concatenate((linear, angular), axis=-1)


def rot_pair(R, x):
    """Apply R to both halves of a spatial vector: ``(R x_lin, R x_ang)`` as ``(..., 6)``."""
    y = matvec(R[..., None, :, :], x.reshape(x.shape[:-1] + (2, 3)))
    return y.reshape(y.shape[:-2] + (6,))


# --- SE3 actions on motions and forces (spatial/se3-tpl.hpp, motion-dense.hpp, force-dense.hpp)


def act_motion(R, p, m):
    """``aMb.act(m_b)``: w' = R w ; v' = R v + p x w'."""
    out = rot_pair(R, m)
    out[..., LINEAR] += cross(p, out[..., ANGULAR])
    return out


def act_inv_motion(R, p, m):
    """``aMb.actInv(m_a)``: v' = R^T (v - p x w) ; w' = R^T w."""
    x = stack6(m[..., LINEAR] - cross(p, m[..., ANGULAR]), m[..., ANGULAR])
    return rot_pair(mT(R), x)


def act_force(R, p, f):
    """``aMb.act(f_b)``: f' = R f ; n' = R n + p x f'."""
    out = rot_pair(R, f)
    out[..., ANGULAR] += cross(p, out[..., LINEAR])
    return out


def act_inv_force(R, p, f):
    """``aMb.actInv(f_a)``: f' = R^T f ; n' = R^T (n - p x f)."""
    x = stack6(f[..., LINEAR], f[..., ANGULAR] - cross(p, f[..., LINEAR]))
    return rot_pair(mT(R), x)


def act_force_set(R, p, F):
    """``forceSet::se3Action``: the force act applied to every column of ``F (..., 6, k)``."""
    return mT(act_force(R[..., None, :, :], p[..., None, :], mT(F)))


def motion_cross_motion(a, b):
    """``a ^ b`` (motion x motion): v = a_v x b_w + a_w x b_v ; w = a_w x b_w."""
    av, aw, bv, bw = a[..., LINEAR], a[..., ANGULAR], b[..., LINEAR], b[..., ANGULAR]
    return stack6(cross(av, bw) + cross(aw, bv), cross(aw, bw))


def motion_cross_force(v, f):
    """``v.cross(f)`` (v x* f): f' = w x f ; n' = w x n + v x f."""
    vv, vw, ff, fn = v[..., LINEAR], v[..., ANGULAR], f[..., LINEAR], f[..., ANGULAR]
    return stack6(cross(vw, ff), cross(vw, fn) + cross(vv, ff))


def motion_action(m):
    """6x6 ``[[w]x, [v]x; 0, [w]x]`` with ``motion_action(a) @ b == a ^ b``."""
    out = np.zeros(m.shape[:-1] + (6, 6))
    sw = skew(m[..., ANGULAR])
    out[..., LINEAR, LINEAR] = sw
    out[..., LINEAR, ANGULAR] = skew(m[..., LINEAR])
    out[..., ANGULAR, ANGULAR] = sw
    return out


def se3_action(R, p):
    """6x6 ``[[R, [p]x R]; [0, R]]`` acting on motions."""
    out = np.zeros(np.broadcast_shapes(R.shape[:-2], p.shape[:-1]) + (6, 6))
    out[..., LINEAR, LINEAR] = R
    out[..., LINEAR, ANGULAR] = skew(p) @ R
    out[..., ANGULAR, ANGULAR] = R
    return out


# --- Inertia (spatial/inertia.hpp, spatial/symmetric3.hpp); I is the full symmetric (..., 3, 3)


def inertia_mult(m, c, I, v):
    """``Y * v`` (inertia times motion): f = m (v - c x w) ; n = I w + c x f."""
    w = v[..., ANGULAR]
    f = m[..., None] * (v[..., LINEAR] - cross(c, w))
    return stack6(f, matvec(I, w) + cross(c, f))


def skew_square(u):
    """``[u]x [u]x = u u^T - |u|^2 I3`` as ``(..., 3, 3)``; mirrors ``Symmetric3::SkewSquare``."""
    out = u[..., :, None] * u[..., None, :]
    d = np.einsum("...i,...i->...", u, u)
    out[..., [0, 1, 2], [0, 1, 2]] -= d[..., None]
    return out


def inertia_matrix(m, c, I):
    """6x6 ``[[m I3, -m [c]x]; [m [c]x, I - m [c]x [c]x]]``; mirrors ``Inertia::matrix``."""
    out = np.zeros(np.broadcast_shapes(m.shape, c.shape[:-1], I.shape[:-2]) + (6, 6))
    mc = skew(m[..., None] * c)
    out[..., [0, 1, 2], [0, 1, 2]] = m[..., None]
    out[..., LINEAR, ANGULAR] = -mc
    out[..., ANGULAR, LINEAR] = mc
    out[..., ANGULAR, ANGULAR] = I - m[..., None, None] * skew_square(c)
    return out


def symmetric_rotate(I, R):
    """``Symmetric3::rotate``: R I R^T evaluated as Pinocchio does (exact for orthonormal R).

    With ``L = [[xx-zz, xy], [xy, yy-zz], [2xz, 2yz]]`` and ``Y = R[1:3, :] L`` the result's
    xy, yy, xz, yz, zz are row products of Y with R's first two columns, xx follows from the
    trace, then a skew correction ``r_k = -R[k,0] yz + R[k,1] xz`` and zz on the diagonal.
    """
    xx, xy, yy = I[..., 0, 0], I[..., 1, 0], I[..., 1, 1]
    xz, yz, zz = I[..., 2, 0], I[..., 2, 1], I[..., 2, 2]
    L00, L10 = xx - zz, yy - zz
    Y00 = R[..., 1, 0] * L00 + R[..., 1, 1] * xy + R[..., 1, 2] * (2 * xz)
    Y01 = R[..., 1, 0] * xy + R[..., 1, 1] * L10 + R[..., 1, 2] * (yz + yz)
    Y10 = R[..., 2, 0] * L00 + R[..., 2, 1] * xy + R[..., 2, 2] * (2 * xz)
    Y11 = R[..., 2, 0] * xy + R[..., 2, 1] * L10 + R[..., 2, 2] * (yz + yz)
    s1 = Y00 * R[..., 0, 0] + Y01 * R[..., 0, 1]
    s2 = Y00 * R[..., 1, 0] + Y01 * R[..., 1, 1]
    s3 = Y10 * R[..., 0, 0] + Y11 * R[..., 0, 1]
    s4 = Y10 * R[..., 1, 0] + Y11 * R[..., 1, 1]
    s5 = Y10 * R[..., 2, 0] + Y11 * R[..., 2, 1]
    r0 = -R[..., 0, 0] * yz + R[..., 0, 1] * xz
    r1 = -R[..., 1, 0] * yz + R[..., 1, 1] * xz
    r2 = -R[..., 2, 0] * yz + R[..., 2, 1] * xz
    s0 = L00 + L10 - s2 - s5 + zz
    s1, s2, s3, s4, s5 = s1 + r2, s2 + zz, s3 - r1, s4 + r0, s5 + zz
    return np.stack((s0, s1, s3, s1, s2, s4, s3, s4, s5), axis=-1).reshape(s0.shape + (3, 3))


def inertia_add(m1, c1, I1, m2, c2, I2):
    """``Ya += Yb`` (``Inertia::__pequ__``), guarded against zero total mass.

    M = ma + mb ; inv = 1 / max(M, eps) ; AB = ca - cb ;
    c = ca (ma inv) + (mb inv) cb ; I = Ia + Ib - (ma mb inv) [AB]x^2 ; m = M
    """
    mab = m1 + m2
    inv = 1.0 / np.maximum(mab, np.finfo(float).eps)
    AB = c1 - c2
    c = c1 * (m1 * inv)[..., None] + (m2 * inv)[..., None] * c2
    I = I1 + I2 - (m1 * m2 * inv)[..., None, None] * skew_square(AB)
    return mab, c, I
