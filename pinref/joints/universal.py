"""The universal (Cardan) joint: a rotation about axis1, then about axis2 in the rotated frame
(multibody/joint/joint-universal.hpp).

nq = nv = 2, q = (q0, q1). With c_k, s_k the cosine and sine of q_k and R1 = R(axis1, q0),
R2 = R(axis2, q1) (the axis-angle formula of math/rotation.hpp, ``toRotationMatrix``):

    M = (R1 R2, 0)
    S = [0; S_ang],  S_ang = [R2^T axis1, axis2]
    v = S q_dot = (0; S_ang q_dot)
    c = (0; t qd1 qd0),  t = s1 (axis2 (axis2 . axis1) - axis1) + c1 (axis1 x axis2)

t is Pinocchio's ``tmp`` of each row of c, its sin and cos parts gathered (two constant
directions, built when an axis is set).

Pinocchio asks for unit, orthogonal axes (checked by assertions in debug builds only); the
formulas above hold for any two axes, and pinref takes the axes as given.
"""

import numpy as np

from ._axis import (EYES, ZERO3, axis_rotation, check_axis, read_only, rotation_basis,
                    unit_vector)
from .base import JointData, JointModel
from .liegroup import VectorSpace
from ..errors import ShapeError
from ..spatial import SE3, Motion
from ..spatial._kernels import ANGULAR, cross, matvec


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
        # (B0, Bc, Bs) of axis1 and axis2, stacked: (2, 9) each
        self._rotations = tuple(read_only(np.stack(B))
                                for B in zip(rotation_basis(a1), rotation_basis(a2)))
        # The bias direction t = s1 (axis2 (axis2 . axis1) - axis1) + c1 (axis1 x axis2), by part.
        self._t_sin = read_only(a2 * (a2 @ a1) - a1)
        self._t_cos = read_only(cross(a1, a2))

    def createData(self):
        return JointData(self.classname(), 2, 2, np.zeros((6, 2)))

    def calc(self, jdata, q, v=None):
        """M = (R1 R2, 0) ; S = [0; R2^T axis1, axis2] ; v = S q_dot ; c = (0; t qd1 qd0);
        see the module docstring. calc(q) writes M and S."""
        qs, vs = self._segments(q, v)
        jdata.joint_q = qs
        b = qs.shape[:-1]
        cos, sin = np.cos(qs)[..., None], np.sin(qs)[..., None]  # (..., 2, 1): c_k, s_k
        # R1 = R(axis1, q0), R2 = R(axis2, q1): R_k = u u^T + c_k (I3 - u u^T) + s_k [u]x
        R12 = axis_rotation(cos, sin, self._rotations)
        R1, R2 = R12[..., 0, :, :], R12[..., 1, :, :]
        # M = (R1 R2, 0)
        jdata.M = SE3.unchecked(R1 @ R2, ZERO3)
        # S = [0; R2^T axis1, axis2]
        S = np.zeros(b + (6, 2))
        S[..., ANGULAR, 0] = self._axis1 @ R2
        S[..., ANGULAR, 1] = self._axis2
        jdata.S = S
        if vs is not None:
            jdata.joint_v = vs
            # v = S q_dot
            jdata.v = Motion.unchecked(matvec(S, vs))
            # c = (0; t qd1 qd0),  t = s1 (axis2 (axis2 . axis1) - axis1) + c1 (axis1 x axis2)
            t = sin[..., 1, :] * self._t_sin + cos[..., 1, :] * self._t_cos
            c = np.zeros(b + (6,))
            c[..., ANGULAR] = t * (vs[..., 1:2] * vs[..., 0:1])
            jdata.c = Motion.unchecked(c)

    def calc_aba(self, jdata, armature, I, update_I):
        """U = I S = I[:, 3:6] S_ang ; StU = S_ang^T U[3:6, :] + diag(armature) ;
        Dinv = StU^-1 (Cholesky) ; UDinv = U Dinv ; if update_I: I -= UDinv U^T."""
        S_ang = jdata.S[..., ANGULAR, :]
        U = I[..., :, ANGULAR] @ S_ang
        self._aba_ndof(jdata, U, S_ang.mT @ U[..., ANGULAR, :] + EYES[2] * armature, I, update_I)
