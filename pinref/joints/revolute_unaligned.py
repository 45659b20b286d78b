"""Revolute joint about any axis u (multibody/joint/joint-revolute-unaligned.hpp).

nq = nv = 1, q = (theta). M = (R(u, theta), 0) with the axis-angle formula of
math/rotation.hpp, S = [0; u], v = q_dot S, c = 0.
"""

import numpy as np

from ._axis import (ZERO3, UnalignedJointModel, cos_sin, motion_subspace, rotation_basis,
                    rotation_from_cos_sin)
from .base import JointData
from .liegroup import VectorSpace
from ..spatial import SE3, Motion
from ..spatial._kernels import ANGULAR


class JointModelRevoluteUnaligned(UnalignedJointModel):
    """Revolute about ``axis``: ``()`` (x), ``(axis)`` (as given), ``(x, y, z)`` (normalised)."""

    nq = 1
    nv = 1
    part = ANGULAR
    lie_group = VectorSpace(1)
    calc_writes_joint_v = False   # Pinocchio's quirk, kept by the grouped calc too (calc's note)

    def _set_axis(self, u):
        self._S = motion_subspace(angular=self._axis_col)
        self._S_col = self._S[:, 0]
        self._rotation = rotation_basis(u)

    def createData(self):
        """As Pinocchio's JointDataRevoluteUnaligned(axis): v starts as (0; axis * NaN), i.e.
        NaN angular velocity until the first calc(q, v)."""
        jdata = JointData(self.classname(), 1, 1, self._S)
        jdata.v = Motion.unchecked(np.concatenate((np.zeros(3), self._axis * np.nan)))
        return jdata

    def calc(self, jdata, q, v=None):
        """M = (R(u, q), 0) ; S = [0; u] (constant) ; v = q_dot S ; c = 0.

        Like Pinocchio, the (q, v) call writes v but not joint_v (it keeps its last value).
        """
        qs, vs = self._segments(q, v)
        jdata.joint_q = qs
        jdata.M = self._transform(qs)
        if vs is not None:
            jdata.v = Motion.unchecked(vs * self._S_col)

    def _transform(self, qs):
        """M = (R(u, q), 0), the axis-angle formula at c = cos q, s = sin q."""
        return SE3.unchecked(rotation_from_cos_sin(cos_sin(qs), self._rotation), ZERO3)

    def calc_aba(self, jdata, armature, I, update_I):
        """U = I S = I[:, 3:6] u ; StU = u . U[3:6] + armature ; Dinv = 1 / StU ;
        UDinv = U Dinv ; if update_I: I -= UDinv U^T.  (Pinocchio 3.8.0 leaves StU unwritten.)"""
        U = I[..., :, ANGULAR] @ self._axis_col
        self._aba_1dof(jdata, U, self._axis_row @ U[..., ANGULAR, :] + armature, I, update_I)
