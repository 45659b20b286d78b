"""Helical (screw) joints with pitch h: HX, HY, HZ (multibody/joint/joint-helical.hpp) and
HelicalUnaligned (joint-helical-unaligned.hpp).

nq = nv = 1, q = (theta). M = (R(u, theta), theta h u), S = [h u; u], v = q_dot S, c = 0, with
u = e_axis or the user's axis. Unlike the revolute and prismatic joints, Pinocchio 3.8.0's
calc_aba writes StU for these.
"""

import numpy as np

from ._axis import (UnalignedJointModel, check_scalar, cos_sin, frame_axis_rotation,
                    motion_subspace, normalized_axis, rotation_basis, rotation_from_cos_sin,
                    unit_vector)
from .base import JointData, JointModel
from .liegroup import VectorSpace
from ..errors import ShapeError
from ..spatial import SE3, Motion
from ..spatial._kernels import ANGULAR, LINEAR


class JointModelHelicalTpl(JointModel):
    """Helical joint about the frame axis ``axis`` (0, 1, 2 for x, y, z) with ``pitch`` h
    (translation per radian)."""

    nq = 1
    nv = 1
    axis = 0
    lie_group = VectorSpace(1)

    @classmethod
    def classname(cls):
        return "JointModelH" + "XYZ"[cls.axis]

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls._unit = unit_vector(cls.axis)
        cls._S_no_pitch = motion_subspace(angular=cls._unit[:, None])

    def __init__(self, pitch=0.0):
        super().__init__()
        self.pitch = pitch

    @property
    def pitch(self):
        """h: translation along the axis per radian of rotation."""
        return self._pitch

    @pitch.setter
    def pitch(self, value):
        self._pitch = check_scalar(value, self.classname(), "pitch")
        self._S = motion_subspace(linear=self._pitch * self._unit[:, None],
                                  angular=self._unit[:, None])
        self._S_col = self._S[:, 0]

    def getMotionAxis(self):
        """The unit axis e_axis ``(3,)``."""
        return np.array(self._unit)

    def createData(self):
        """S starts as [0; e_axis], without the pitch, as in Pinocchio; calc writes S."""
        return JointData(self.classname(), 1, 1, self._S_no_pitch)

    def calc(self, jdata, q, v=None):
        """M = (R_axis(q), (q h) e_axis) ; S = [h e_axis; e_axis] (constant, written here) ;
        v = q_dot S ; c = 0."""
        qs, vs = self._segments(q, v)
        jdata.joint_q = qs
        jdata.M = SE3.unchecked(frame_axis_rotation(cos_sin(qs), self.axis),
                            (qs * self._pitch) * self._unit)
        jdata.S = self._S
        if vs is not None:
            jdata.joint_v = vs
            jdata.v = Motion.unchecked(vs * self._S_col)

    def calc_aba(self, jdata, armature, I, update_I):
        """U = I S = I[:, 3+axis] + h I[:, axis] ; StU = U[3+axis] + h U[axis] + armature ;
        Dinv = 1 / StU ; UDinv = U Dinv ; if update_I: I -= UDinv U^T."""
        a, k = LINEAR.start + self.axis, ANGULAR.start + self.axis
        U = I[..., :, k:k + 1] + self._pitch * I[..., :, a:a + 1]
        self._aba_1dof(jdata, U, U[..., k:k + 1, :] + self._pitch * U[..., a:a + 1, :] + armature,
                       I, update_I)


class JointModelHX(JointModelHelicalTpl):
    """Helical about x."""
    axis = 0


class JointModelHY(JointModelHelicalTpl):
    """Helical about y."""
    axis = 1


class JointModelHZ(JointModelHelicalTpl):
    """Helical about z."""
    axis = 2


class JointModelHelicalUnaligned(UnalignedJointModel):
    """Helical about ``axis`` with ``pitch`` h: ``()`` (x, h = 0), ``(axis)`` (h = 0),
    ``(axis, pitch)`` (axis as given), ``(x, y, z, pitch)`` (axis normalised)."""

    nq = 1
    nv = 1
    lie_group = VectorSpace(1)

    def __init__(self, *args, axis=None, pitch=None):
        JointModel.__init__(self)
        owner = self.classname()
        if axis is not None:
            args = (axis,) + args
        if pitch is not None:
            args = args + (pitch,)
        if len(args) > 4 or len(args) == 3 or (len(args) == 4 and axis is not None):
            raise ShapeError(f"{owner}: takes (), (axis), (axis, pitch) or (x, y, z, pitch)")
        self._pitch = check_scalar(args[-1], owner, "pitch") if len(args) in (2, 4) else 0.0
        if len(args) == 4:
            self._assign_axis(normalized_axis(*args[:3], owner))
        else:
            self._assign_axis(args[0] if args else unit_vector(0))

    @property
    def pitch(self):
        """h: translation along the axis per radian of rotation."""
        return self._pitch

    @pitch.setter
    def pitch(self, value):
        self._pitch = check_scalar(value, self.classname(), "pitch")
        self._set_axis(self._axis)

    def _set_axis(self, u):
        self._S = motion_subspace(linear=self._pitch * self._axis_col, angular=self._axis_col)
        self._S_col = self._S[:, 0]
        self._rotation = rotation_basis(u)

    def createData(self):
        """S starts at zero, as in Pinocchio (its JointData gets the axis and pitch in calc)."""
        return JointData(self.classname(), 1, 1, np.zeros((6, 1)))

    def calc(self, jdata, q, v=None):
        """M = (R(u, q), (u q) h) ; S = [h u; u] (constant, written here) ; v = q_dot S ; c = 0.

        Like Pinocchio, the (q, v) call writes v but not joint_v (it keeps its last value).
        """
        qs, vs = self._segments(q, v)
        jdata.joint_q = qs
        jdata.M = SE3.unchecked(rotation_from_cos_sin(cos_sin(qs), self._rotation),
                            qs * self._axis * self._pitch)
        jdata.S = self._S
        if vs is not None:
            jdata.v = Motion.unchecked(vs * self._S_col)

    def calc_aba(self, jdata, armature, I, update_I):
        """U = I S = I[:, 3:6] u + h I[:, 0:3] u ; StU = u . U[3:6] + h u . U[0:3] + armature ;
        Dinv = 1 / StU ; UDinv = U Dinv ; if update_I: I -= UDinv U^T."""
        u, h = self._axis_row, self._pitch
        U = I[..., :, ANGULAR] @ self._axis_col + h * (I[..., :, LINEAR] @ self._axis_col)
        self._aba_1dof(jdata, U, u @ U[..., ANGULAR, :] + h * (u @ U[..., LINEAR, :]) + armature,
                       I, update_I)

