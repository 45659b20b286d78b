"""Array kernels of the spatial algebra, and the argument checks of pinref's API boundary.

Kernels (every function works on leading batch axes). Shapes: 3-vectors ``(..., 3)``, spatial
vectors ``(..., 6)`` ordered [linear; angular], rotations ``(..., 3, 3)``, 6x6 matrices
``(..., 6, 6)``. Only last-axis operations are used, so any leading axes broadcast. The
spatial classes (SE3, Motion, Force, Inertia, ...) wrap them; the joints, the tree's level
tables (model/tree.py), the URDF loader's batched inertia merges and the algorithms that work
on stacked arrays (jacobian, regressor, the derivatives, ...) call them directly, where a class
would cost an object and a dispatch per call.

Argument checks (design.md, section 5), shared by the whole core: ``batch_shape``,
``as_array``, ``expect_type``, ``type_name``, ``unit_norm_error``, ``checked_setattr`` and the
``broadcasting`` decorator (a ShapeError naming both batch shapes).

Cost model (performance-notes.md): on one state, time is NumPy dispatch (0.1 to 1 us a call),
not arithmetic, so the kernels minimise calls: ``take`` on the last axis (0.3 us) instead of a
fancy index (1 us) or ``np.cross`` (16 us), and both halves of a spatial vector handled by one
call on a ``(..., 2, 3)`` view. Results follow Pinocchio's evaluation order where it is
simple to follow (cross products, dot products, the inertia formulas), so cancelling terms
round the same way.
"""

import functools
import math

import numpy as np

from ..errors import (ArgumentTypeError, BatchIndexError, NonFiniteError, NotNormalizedError,
                      PinrefError, ShapeError)

LINEAR = slice(0, 3)
ANGULAR = slice(3, 6)

EPS = np.finfo(float).eps

_NEXT = np.array([1, 2, 0])  # (y, z, x): a.take(_NEXT) is a cyclic shift
_PREV = np.array([2, 0, 1])  # (z, x, y)
# a x b = a_next b_prev - a_prev b_next: one gather of each operand holds both terms' factors
_CROSS_A = np.concatenate((_NEXT, _PREV))
_CROSS_B = np.concatenate((_PREV, _NEXT))


def mT(A):
    """Transpose of the last two axes: ``(..., m, n) -> (..., n, m)`` (a view)."""
    return np.asarray(A).mT


def matvec(A, x):
    """``A x`` over leading axes: ``(..., m, n), (..., n) -> (..., m)``."""
    return np.matvec(A, x)


def cross(a, b):
    """``a x b`` for ``(..., 3)`` arrays, in Eigen's order: ``(a_y b_z - a_z b_y, ...)``."""
    p = a.take(_CROSS_A, -1) * b.take(_CROSS_B, -1)  # [a_next b_prev, a_prev b_next]
    return p[..., :3] - p[..., 3:]


def skew(v):
    """``[v]x`` with ``[v]x w == v x w``: ``(..., 3) -> (..., 3, 3)`` (``pinocchio::skew``)."""
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


def eigen_str(A):
    """``A`` printed as Eigen's ``operator<<`` does (as Pinocchio's ``__str__`` shows it): six
    significant digits, every entry right-aligned to the widest, columns separated by a space,
    one line per row (a 1-D array is one row)."""
    A = np.atleast_2d(np.asarray(A, dtype=float))
    cells = [[f"{x:.6g}" for x in row] for row in A]
    width = max(len(c) for row in cells for c in row)
    return "\n".join(" ".join(c.rjust(width) for c in row) for row in cells)


# --- argument checking (the API boundary, design.md section 5) ---------------------------------


def batch_shape(*arrays_and_tails):
    """Broadcast of the leading axes of ``(array, n_trailing_axes)`` pairs; ShapeError if none."""
    shapes = [a.shape[: a.ndim - tail] for a, tail in arrays_and_tails]
    if shapes.count(shapes[0]) == len(shapes):
        return shapes[0]
    try:
        return np.broadcast_shapes(*shapes)
    except ValueError:
        raise ShapeError(f"batch shapes {shapes} do not broadcast") from None


def all_finite(a):
    """Whether every entry of the float array ``a`` is finite. A vector takes one sum (NaN and
    infinity propagate; a sum past the largest float, entries near 1e308, falls back to
    ``np.isfinite``), a third of ``np.isfinite(a).all()``'s cost. A square (``a.dot(a)``) would
    overflow from 1e154 on, with a NumPy warning before the result's own."""
    if a.ndim == 1 and math.isfinite(np.add.reduce(a)):
        return True
    return bool(np.isfinite(a).all())


def as_array(x, name, tail, column=False):
    """``x`` as a float64 array whose trailing shape is ``tail``; ShapeError or NonFiniteError
    (ArgumentTypeError for complex numbers, whose imaginary part would be lost).

    ``tail`` is a tuple such as ``(6,)`` or ``(3, 3)``. Leading axes are batch axes. With
    ``column=True`` and ``tail == (n,)``, an ``(n, 1)`` column vector (as Pinocchio accepts it)
    is read as one ``(n,)`` vector: its trailing size 1 cannot be a batch of n-vectors.
    """
    try:
        a = np.asarray(x)
        if a.dtype.kind == "c":
            raise ArgumentTypeError(
                f"{name}: expected real numbers, got complex ones; pass x.real if the imaginary "
                "part is meant to be dropped")
        a = a.astype(float, copy=False)
    except (TypeError, ValueError) as exc:
        if isinstance(exc, PinrefError):
            raise
        raise ShapeError(
            f"{name}: expected an array of trailing shape {tail}, got {x!r}") from None
    if column and len(tail) == 1 and a.shape == (tail[0], 1):
        a = a[:, 0]
    if a.shape[a.ndim - len(tail):] != tuple(tail) or a.ndim < len(tail):
        raise ShapeError(f"{name}: expected trailing shape {tuple(tail)}, got shape {a.shape}")
    if not all_finite(a):
        raise NonFiniteError(f"{name}: contains NaN or infinity")
    return a


def checked_setattr(obj, name, value, fields):
    """``obj.name = value`` for a spatial object: a field listed in ``fields`` (name -> trailing
    shape) is read as ``as_array`` reads arguments (so a ``(3, 1)`` column is stored ``(3,)`` and a
    wrong size or NaN is refused, naming the field), and stored as a copy. The classes' own code
    stores checked arrays with ``object.__setattr__`` instead."""
    tail = fields.get(name)
    if tail is not None:
        value = np.array(as_array(value, f"{type(obj).__name__}.{name}", tail, column=True))
    object.__setattr__(obj, name, value)
    SETATTR_COUNT[0] += 1


# How many times checked_setattr ran: the model's Tree (pinref/model/tree.py) re-checks its
# constants when this changed since it last looked.
SETATTR_COUNT = [0]


class PinCopies:
    """Pinocchio's copy idioms over a spatial class's own ``copy()``: ``cast()`` (to double,
    Pinocchio's one scalar type here), ``copy.copy`` and ``copy.deepcopy``."""

    __slots__ = ()

    def cast(self):
        """A copy (Pinocchio's ``cast`` to its one scalar type, double)."""
        return self.copy()

    def __copy__(self):
        return self.copy()

    def __deepcopy__(self, memo):
        return self.copy()


def type_name(x):
    """How a message names the type of ``x``: ``Motion`` for pinref's own classes, the module
    for anyone else's, so ``pinocchio.Force (from the pinocchio package, not pinref)`` cannot be
    read as pinref's Force."""
    cls = type(x)
    module = cls.__module__ or ""
    if module.startswith("pinref") or module == "builtins":
        return cls.__name__
    package = module.split(".")[0]
    return f"{package}.{cls.__name__} (from the {package} package, not pinref)"


def expect_type(x, cls, name, fix=""):
    """``x`` if it is a ``cls`` (a class or a tuple of classes), else ArgumentTypeError naming
    ``name``, what it got and the ``fix``."""
    if isinstance(x, cls):
        return x
    names = " or ".join(c.__name__ for c in (cls if isinstance(cls, tuple) else (cls,)))
    raise ArgumentTypeError(f"{name}: expected a pinref {names}, got {type_name(x)}"
                            + (f"; {fix}" if fix else ""))


def check_batch_index(index, shape, name, entry=".vector[i]"):
    """Refuse an index with more entries than the batch axes ``shape`` (BatchIndexError):
    ``Motion(v)[5]`` must not silently pick an entry of the 6-vector."""
    n = len(index) if isinstance(index, tuple) else 1
    if index is Ellipsis or (isinstance(index, tuple) and Ellipsis in index):
        n -= 1
    if n > len(shape):
        raise BatchIndexError(
            f"{name}[{index!r}]: indexing selects batch elements, and this {name} has "
            f"{'no batch axes' if not shape else f'batch shape {shape}'}; read an entry of "
            f"its arrays instead ({entry})")


def unit_norm_error(name, kind, norms, tolerance, fix):
    """The NotNormalizedError for unit-norm parts (``kind`` "quaternion" or "(cos, sin) pair")
    whose ``norms`` are off 1 by more than ``tolerance``, saying the worst real norm.

    A zero part is told that normalising leaves it zero and to set a unit value; any other gets
    ``fix`` (such as "call normalize(q) first")."""
    norms = np.asarray(norms, dtype=float).reshape(-1)
    identity = "(0, 0, 0, 1)" if kind == "quaternion" else "(1, 0)"
    if np.any(norms == 0.0):
        return NotNormalizedError(
            f"{name}: a {kind} is zero (norm 0): it is no rotation, and normalizing leaves it "
            f"zero; set it to a unit {kind}, such as the identity {identity}")
    worst = norms[np.argmax(np.abs(norms - 1.0))]
    return NotNormalizedError(
        f"{name}: a {kind} of norm {worst:.12g} (off 1 by {abs(worst - 1.0):.3g}, tolerance "
        f"{tolerance:g}); {fix}")


def _batch_of(x, tail):
    """The batch shape of an operand: ``.shape`` of a spatial object, leading axes of an array."""
    if isinstance(x, (np.ndarray, list, tuple, int, float)):
        shape = np.shape(x)
        return shape[: len(shape) - tail]
    return getattr(x, "shape", ())


def broadcasting(tail=0):
    """Decorator of a binary method ``self.op(other)``: batch shapes that do not broadcast raise
    a ShapeError naming both, instead of NumPy's ValueError from inside a kernel.

    The check runs only when the kernel failed (a ``try`` block costs nothing otherwise), so the
    hot path pays one extra Python call. ``tail`` is the number of trailing axes of ``other``
    when it is a plain array (a point has 1, a scalar 0). Any other error propagates unchanged.
    """

    def decorate(method):
        @functools.wraps(method)
        def checked(self, other, *args, **kwargs):
            try:
                return method(self, other, *args, **kwargs)
            except ValueError as exc:
                if isinstance(exc, PinrefError):
                    raise
                shapes = (self.shape, _batch_of(other, tail))
                try:
                    np.broadcast_shapes(*shapes)
                except ValueError:
                    raise ShapeError(
                        f"{type(self).__name__}.{method.__name__}: batch shapes {shapes[0]} and "
                        f"{shapes[1]} do not broadcast") from None
                raise

        return checked

    return decorate


def is_approx(a, b, prec, ndim):
    """Eigen's ``a.isApprox(b, prec)`` over the last ``ndim`` axes, one bool per batch element:
    ``|a - b|^2 <= prec^2 min(|a|^2, |b|^2)`` (so a zero is approximately only an exact zero)."""
    axes = tuple(range(-ndim, 0))
    d2 = np.sum((a - b) ** 2, axis=axes)
    return d2 <= prec * prec * np.minimum(np.sum(a * a, axis=axes), np.sum(b * b, axis=axes))


def is_identity(A, prec):
    """Eigen's ``A.isIdentity(prec)`` per batch element: ``|A_ii - 1| <= prec min(|A_ii|, 1)``
    on the diagonal and ``|A_ij| <= prec`` off it."""
    n = A.shape[-1]
    eye = np.eye(n, dtype=bool)
    off = np.all(np.abs(np.where(eye, 0.0, A)) <= prec, axis=(-2, -1))
    d = np.diagonal(A, axis1=-2, axis2=-1)
    return off & np.all(np.abs(d - 1.0) <= prec * np.minimum(np.abs(d), 1.0), axis=-1)


# --- spatial vectors --------------------------------------------------------------------------


def stack6(linear, angular):
    """Concatenate ``(..., 3)`` linear and angular parts into ``(..., 6)``, broadcasting."""
    if linear.shape != angular.shape:
        shape = batch_shape((linear, 1), (angular, 1)) + (3,)
        linear = np.broadcast_to(linear, shape)
        angular = np.broadcast_to(angular, shape)
    return np.concatenate((linear, angular), axis=-1)


def halves(x):
    """A spatial vector as the rows of a ``(..., 2, 3)`` array: ``[[linear], [angular]]`` (a view
    when x is contiguous). Lets one 3-D operation act on both halves at once."""
    return x.reshape(x.shape[:-1] + (2, 3))


def rot_pair(R, x):
    """Apply R to both halves of a spatial vector: ``(R x_lin, R x_ang)`` as ``(..., 6)``.

    The halves are the rows of a ``(..., 2, 3)`` matrix X, so this is ``X R^T`` (a matrix
    product, not a matrix-vector product).
    """
    y = halves(x) @ mT(R)
    return y.reshape(y.shape[:-2] + (6,))


def spatial_dot(a, b):
    """``a . b = a_lin . b_lin + a_ang . b_ang`` (``MotionDense::dot``), shape ``(...)``.

    Each 3-term dot is summed left to right, then the two are added, as Eigen does; this order
    matters when the terms cancel.
    """
    p = halves(a * b)  # [[linear products], [angular products]]
    dots = p[..., 0] + p[..., 1] + p[..., 2]  # (lin . lin, ang . ang)
    return dots[..., 0] + dots[..., 1]


def _crm_literal(m):
    """``[[w]x, [v]x; 0, [w]x]`` for one motion ``m = [v; w]``, written block by block."""
    out = np.zeros((6, 6))
    out[LINEAR, LINEAR] = out[ANGULAR, ANGULAR] = skew(m[ANGULAR])
    out[LINEAR, ANGULAR] = skew(m[LINEAR])
    return out


# crm(m) is linear in m: crm(m) = sum_k m_k crm(e_k). Row k of this basis is crm(e_k) flattened,
# so ``m @ _CRM_BASIS`` builds every crm(m) of a batch in one product (for a finite m each entry
# is one +-m_k plus exact zeros, so the matrix is exact).
_CRM_BASIS = np.stack([_crm_literal(e).reshape(36) for e in np.eye(6)])
_CRF_BASIS = np.stack([-_crm_literal(e).T.reshape(36) for e in np.eye(6)])


def motion_action(m):
    """6x6 ``crm(m) = [[w]x, [v]x; 0, [w]x]`` with ``motion_action(a) @ b == a ^ b``."""
    return (m @ _CRM_BASIS).reshape(m.shape[:-1] + (6, 6))


def motion_dual_action(m):
    """6x6 ``crf(m) = -crm(m)^T = [[w]x, 0; [v]x, [w]x]`` with ``crf(v) @ f == v x* f``."""
    return (m @ _CRF_BASIS).reshape(m.shape[:-1] + (6, 6))


def _block_cross_indices(blocks):
    """Gather indices for ``cross_blocks``; ``blocks`` lists the (offset in x, offset in y) of
    the 3-D blocks to cross, e.g. ``(0, 3)`` for ``x[0:3] x y[3:6]``."""
    def gather(offsets, first, second):
        return np.concatenate([offset + first for offset in offsets]
                              + [offset + second for offset in offsets])

    xs, ys = [i for i, _ in blocks], [j for _, j in blocks]
    return gather(xs, _NEXT, _PREV), gather(ys, _PREV, _NEXT)


def cross_blocks(x, y, indices):
    """Several 3-D cross products between blocks of x and y, concatenated on the last axis,
    each in Eigen's order ``(x_1 y_2 - x_2 y_1, ...)``: two gathers whatever their number."""
    x_index, y_index = indices
    p = x.take(x_index, -1) * y.take(y_index, -1)  # [x_next y_prev ..., x_prev y_next ...]
    half = p.shape[-1] // 2
    return p[..., :half] - p[..., half:]


# a ^ b needs a_v x b_w, a_w x b_v, a_w x b_w;  v x* f needs w x f, w x n, v x f
_MOTION_CROSS_MOTION = _block_cross_indices([(0, 3), (3, 0), (3, 3)])
_MOTION_CROSS_FORCE = _block_cross_indices([(3, 0), (3, 3), (0, 0)])


def motion_cross_motion(a, b):
    """``a ^ b`` (motion x motion, ``== crm(a) b``): v = a_v x b_w + a_w x b_v ; w = a_w x b_w.

    Evaluated in Pinocchio's order, so the results are the same bits.
    """
    c = cross_blocks(a, b, _MOTION_CROSS_MOTION)  # [a_v x b_w, a_w x b_v, a_w x b_w]
    return stack6(c[..., 0:3] + c[..., 3:6], c[..., 6:9])


def motion_cross_force(v, f):
    """``v.cross(f)`` (v x* f, ``== crf(v) f``): f' = w x f ; n' = w x n + v x f.

    Evaluated in Pinocchio's order, so the results are the same bits.
    """
    c = cross_blocks(v, f, _MOTION_CROSS_FORCE)  # [w x f, w x n, v x f]
    return stack6(c[..., 0:3], c[..., 3:6] + c[..., 6:9])


# --- SE3 actions on motions and forces (spatial/se3-tpl.hpp, motion-dense.hpp, force-dense.hpp)


def act_motion(R, p, m):
    """``aMb.act(m_b)``: w' = R w ; v' = R v + p x w'."""
    y = rot_pair(R, m)  # [R v ; R w]
    return stack6(y[..., LINEAR] + cross(p, y[..., ANGULAR]), y[..., ANGULAR])


def act_inv_motion(R, p, m):
    """``aMb.actInv(m_a)``: v' = R^T (v - p x w) ; w' = R^T w."""
    x = stack6(m[..., LINEAR] - cross(p, m[..., ANGULAR]), m[..., ANGULAR])
    return rot_pair(mT(R), x)


def act_force(R, p, f):
    """``aMb.act(f_b)``: f' = R f ; n' = R n + p x f'."""
    y = rot_pair(R, f)  # [R f ; R n]
    return stack6(y[..., LINEAR], y[..., ANGULAR] + cross(p, y[..., LINEAR]))


def act_inv_force(R, p, f):
    """``aMb.actInv(f_a)``: f' = R^T f ; n' = R^T (n - p x f)."""
    x = stack6(f[..., LINEAR], f[..., ANGULAR] - cross(p, f[..., LINEAR]))
    return rot_pair(mT(R), x)


def _shapes_broadcast(a, b):
    """The broadcast of two batch shapes (without ``np.broadcast_shapes`` when they are equal)."""
    return a if a == b else np.broadcast_shapes(a, b)


# Row k is [e_k]x flattened: ``p @ _SKEW_BASIS`` builds [p]x for a batch in one product, exact
# (each entry is one +-p_k or a zero).
_SKEW_BASIS = np.stack([np.cross(e, np.eye(3)).T.reshape(9) for e in np.eye(3)])
_SKEW_BASIS.flags.writeable = False


def skew_product(p):
    """``[p]x`` as :func:`skew` gives it, ``(..., 3) -> (..., 3, 3)``, in one product with a
    constant basis: two NumPy calls instead of seven (zeros may carry a sign)."""
    return (p @ _SKEW_BASIS).reshape(p.shape[:-1] + (3, 3))


def se3_action(R, p):
    """6x6 ``[[R, [p]x R]; [0, R]]`` acting on motions (``SE3::toActionMatrix``)."""
    out = np.zeros(_shapes_broadcast(R.shape[:-2], p.shape[:-1]) + (6, 6))
    out[..., LINEAR, LINEAR] = out[..., ANGULAR, ANGULAR] = R
    out[..., LINEAR, ANGULAR] = skew_product(p) @ R
    return out


def se3_action_inverse(R, p):
    """6x6 ``[[R^T, -R^T [p]x]; [0, R^T]]`` (``SE3::toActionMatrixInverse``).

    Written with R^T and [p]x, as Pinocchio does, so it is the matrix of ``actInv`` for any R;
    it is the action of ``inverse()`` only when R is orthonormal.
    """
    Rt = mT(R)
    out = np.zeros(_shapes_broadcast(R.shape[:-2], p.shape[:-1]) + (6, 6))
    out[..., LINEAR, LINEAR] = out[..., ANGULAR, ANGULAR] = Rt
    out[..., LINEAR, ANGULAR] = -(Rt @ skew_product(p))
    return out


def se3_dual_action(R, p):
    """6x6 ``[[R, 0]; [[p]x R, R]]`` acting on forces (``SE3::toDualActionMatrix``)."""
    out = np.zeros(_shapes_broadcast(R.shape[:-2], p.shape[:-1]) + (6, 6))
    out[..., LINEAR, LINEAR] = out[..., ANGULAR, ANGULAR] = R
    out[..., ANGULAR, LINEAR] = skew_product(p) @ R
    return out


# --- Inertia (spatial/inertia.hpp, spatial/symmetric3.hpp); I is the full symmetric (..., 3, 3)


def inertia_mult(m, c, I, v):
    """``Y * v`` (inertia times motion): f = m (v - c x w) ; n = I w + c x f."""
    w = v[..., ANGULAR]
    f = m[..., None] * (v[..., LINEAR] - cross(c, w))
    return stack6(f, matvec(I, w) + cross(c, f))


_STRICT_UPPER = (np.array([0, 0, 1]), np.array([1, 2, 2]))  # (row, col) above the diagonal


def alpha_skew_square(alpha, u):
    """``alpha [u]x [u]x`` as ``(..., 3, 3)``, evaluated as ``Symmetric3::AlphaSkewSquare``:
    below the diagonal ``(alpha u_j) u_i`` (i > j), mirrored above so the matrix is exactly
    symmetric, and diagonal ``-alpha (u_j^2 + u_k^2)`` (not ``u_i^2 - |u|^2``).
    """
    out = u[..., :, None] * (alpha[..., None] * u)[..., None, :]  # [i, j] = (alpha u_j) u_i
    rows, cols = _STRICT_UPPER
    out[..., rows, cols] = out[..., cols, rows]
    sq = u * u
    diagonal = out.reshape(out.shape[:-2] + (9,))[..., ::4]  # a view of out's diagonal
    diagonal[...] = -(alpha[..., None] * (sq.take(_NEXT, -1) + sq.take(_PREV, -1)))
    return out


def inertia_matrix(m, c, I):
    """6x6 ``[[m I3, -m [c]x]; [m [c]x, I - m [c]x [c]x]]``; mirrors ``Inertia::matrix``."""
    out = np.zeros(np.broadcast_shapes(m.shape, c.shape[:-1], I.shape[:-2]) + (6, 6))
    mc = skew(m[..., None] * c)
    out[..., [0, 1, 2], [0, 1, 2]] = m[..., None]
    out[..., LINEAR, ANGULAR] = -mc
    out[..., ANGULAR, LINEAR] = mc
    out[..., ANGULAR, ANGULAR] = I - alpha_skew_square(m, c)
    return out


_SYM3_INDEX = np.array([0, 1, 3, 1, 2, 4, 3, 4, 5])  # Symmetric3 data -> row-major 3x3
_SYM3_DATA = np.array([0, 3, 4, 6, 7, 8])  # row-major 3x3 -> (xx, xy, yy, xz, yz, zz), lower


def symmetric3_matrix(data):
    """The symmetric ``(..., 3, 3)`` matrix of the six stored numbers (xx, xy, yy, xz, yz, zz)."""
    return data.take(_SYM3_INDEX, -1).reshape(data.shape[:-1] + (3, 3))


def symmetric3_data(I):
    """The six numbers Pinocchio stores for a symmetric 3x3, ``(xx, xy, yy, xz, yz, zz)``."""
    return I.reshape(I.shape[:-2] + (9,)).take(_SYM3_DATA, -1)


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


def act_inertia(R, p, m, c, I):
    """``M.act(Y)`` for M = (R, p) and Y = (m, c, I), as ``Inertia::se3Action`` computes it:
    (m, R c + p, ``Symmetric3::rotate(I, R)``). Every algorithm that moves a body inertia to
    the world frame goes through here, so that an R off orthonormal (the rotation of a
    quaternion accepted as unit up to its tolerance) gives what Pinocchio gives: the 6x6 product
    ``X* Y X*^T`` would not (its linear block is m R R^T, not m I3)."""
    return m, p + matvec(R, c), symmetric_rotate(I, R)


def act_inertia_matrix(R, p, m, c, I):
    """The 6x6 ``matrix()`` of ``act_inertia(R, p, m, c, I)``, shapes broadcast."""
    return inertia_matrix(*act_inertia(R, p, m, c, I))


def inertia_parts(Y):
    """``(m, c, I)`` of the inertia whose ``matrix()`` is ``Y (..., 6, 6)`` (a composite held
    as a sum of matrices): m = Y_LL[0, 0] ; m c = unskew(Y_AL) ; I = Y_AA + m [c]x [c]x,
    symmetrised (c = 0 when m = 0)."""
    m = Y[..., 0, 0]
    mc = Y[..., (5, 3, 4), (1, 2, 0)]  # Y_AL = m [c]x: entries (2, 1), (0, 2), (1, 0)
    c = mc / np.maximum(m, EPS)[..., None]
    I = Y[..., ANGULAR, ANGULAR] + alpha_skew_square(m, c)
    return m.copy(), c, 0.5 * (I + mT(I))


def inertia_add(m1, c1, I1, m2, c2, I2):
    """``Ya + Yb`` (``Inertia::__plus__``), guarded against zero total mass.

    M = ma + mb ; inv = 1 / max(M, eps) ; AB = ca - cb ;
    c = (ma ca + mb cb) inv ; I = Ia + Ib - (ma mb inv) [AB]x^2 ; m = M
    """
    mab = m1 + m2
    inv = 1.0 / np.maximum(mab, EPS)
    c = (m1[..., None] * c1 + m2[..., None] * c2) * inv[..., None]
    I = (I1 + I2) - alpha_skew_square(m1 * m2 * inv, c1 - c2)
    return mab, c, I


def inertia_iadd(m1, c1, I1, m2, c2, I2):
    """``Ya += Yb`` (``Inertia::__pequ__``, what Pinocchio's algorithms use): as ``inertia_add``
    with Pinocchio's other evaluation order, c = ca (ma inv) + (mb inv) cb."""
    mab = m1 + m2
    inv = 1.0 / np.maximum(mab, EPS)
    c = c1 * (m1 * inv)[..., None] + (m2 * inv)[..., None] * c2
    I = (I1 + I2) - alpha_skew_square(m1 * m2 * inv, c1 - c2)
    return mab, c, I
