"""The universal (Cardan) joint: a rotation about axis1, then about axis2 in the rotated frame
(multibody/joint/joint-universal.hpp).

nq = nv = 2, q = (theta1, theta2). With R1 = R(axis1, theta1), R2 = R(axis2, theta2) (the
axis-angle formula of math/rotation.hpp) and c2, s2 the cosine and sine of theta2:

    M = (R1 R2, 0)
    S = [0; S_ang],  S_ang = [R2^T axis1, axis2]
    v = (0; S_ang q_dot)
    c = (0; t qd1 qd0),  t = s2 axis2 (axis2 . axis1) - s2 axis1 + c2 (axis1 x axis2)

Pinocchio asks for unit, orthogonal axes (checked by assertions in debug builds only); the
formulas above hold for any two axes, and pinref takes the axes as given.
"""

import numpy as np

from ._axis import EYES, ZERO3, affine_eval, affine_map, check_axis, cos_sin, unit_vector
from .base import JointData, JointModel
from .liegroup import VectorSpace
from ..errors import ShapeError
from ..spatial import SE3, Motion
from ..spatial._kernels import ANGULAR, matvec, skew


class JointModelUniversal(JointModel):
    """Two rotations, about ``axis1`` then ``axis2``: ``()`` (x then y), ``(axis1, axis2)``, or
    ``(x1, y1, z1, x2, y2, z2)``; neither form normalises (as in Pinocchio)."""

    nq = 2
    nv = 2
    lie_group = VectorSpace(2)

    def __init__(self, *args, axis1=None, axis2=None):
        super().__init__()
        owner = self.classname()
        if axis1 is not None or axis2 is not None:
            args = args + tuple(a for a in (axis1, axis2) if a is not None)
        if len(args) == 6:
            args = (args[:3], args[3:])
        if not args:
            args = (unit_vector(0), unit_vector(1))
        if len(args) != 2:
            raise ShapeError(f"{owner}: takes (), (axis1, axis2) or (x1, y1, z1, x2, y2, z2)")
        self._axis1 = check_axis(args[0], owner, "axis1")
        self.axis2 = args[1]

    @property
    def axis1(self):
        """The first axis ``(3,)``, in the parent-side joint frame."""
        return self._axis1

    @axis1.setter
    def axis1(self, value):
        self._axis1 = check_axis(value, self.classname(), "axis1")
        self._set_axes()

    @property
    def axis2(self):
        """The second axis ``(3,)``, in the child frame."""
        return self._axis2

    @axis2.setter
    def axis2(self, value):
        self._axis2 = check_axis(value, self.classname(), "axis2")
        self._set_axes()

    def _set_axes(self):
        a1, a2 = self._axis1, self._axis2
        uu1, uu2 = np.outer(a1, a1), np.outer(a2, a2)
        a1xa2 = skew(a1) @ a2

        def blocks(c1, c2, s1, s2):
            """R1, R2 ``(3, 3)``, S ``(6, 2)`` and the bias direction t padded to 6, flattened;
            affine in (c1, c2, s1, s2)."""
            R1 = uu1 + c1 * (np.eye(3) - uu1) + s1 * skew(a1)
            R2 = uu2 + c2 * (np.eye(3) - uu2) + s2 * skew(a2)
            S = np.zeros((6, 2))
            S[ANGULAR, 0], S[ANGULAR, 1] = a1 @ R2, a2
            t = s2 * a2 * (a2 @ a1) - s2 * a1 + c2 * a1xa2
            return np.concatenate((R1.ravel(), R2.ravel(), S.ravel(), np.zeros(3), t))

        self._W, self._W0 = affine_map(blocks, 4)

    def createData(self):
        return JointData(self.classname(), 2, 2, np.zeros((6, 2)))

    def calc(self, jdata, q, v=None):
        """M = (R1 R2, 0) ; S = [0; R2^T axis1, axis2] ; v = S q_dot ; c = (0; t qd1 qd0);
        see the module docstring. calc(q) writes M and S."""
        qs, vs = self._segments(q, v)
        jdata.joint_q = qs
        b = qs.shape[:-1]
        L = affine_eval(cos_sin(qs), self._W, self._W0)
        jdata.M = SE3._wrap(L[..., :9].reshape(b + (3, 3)) @ L[..., 9:18].reshape(b + (3, 3)),
                            ZERO3)
        jdata.S = L[..., 18:30].reshape(b + (6, 2))
        if vs is not None:
            jdata.joint_v = vs
            jdata.v = Motion._wrap(matvec(jdata.S, vs))
            jdata.c = Motion._wrap(L[..., 30:] * (vs[..., 1:2] * vs[..., 0:1]))

    def calc_aba(self, jdata, armature, I, update_I):
        """U = I S = I[:, 3:6] S_ang ; StU = S_ang^T U[3:6, :] + diag(armature) ;
        Dinv = StU^-1 (Cholesky) ; UDinv = U Dinv ; if update_I: I -= UDinv U^T."""
        S_ang = jdata.S[..., ANGULAR, :]
        U = I[..., :, ANGULAR] @ S_ang
        self._aba_ndof(jdata, U, S_ang.mT @ U[..., ANGULAR, :] + EYES[2] * armature, I, update_I)
