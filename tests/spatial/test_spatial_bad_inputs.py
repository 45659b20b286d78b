"""A sweep of bad inputs at the spatial boundary (issue 13): each one raises a typed error of
``pinref.errors``. On the main branch before issue 13's work, 11 of these 51 raised a typed
error, 14 an untyped one (IndexError, ValueError from NumPy, AttributeError, TypeError) and 21
returned a result silently (complex parts dropped, skew(zeros(4)) using three entries,
Motion(v)[5] a Motion of one number, ...); 5 named functions did not exist."""

import numpy as np
import pytest

import pinref
from pinref.errors import PinrefError


def _motion_of_force():
    return pinref.Motion(pinref.Force.Zero())


CASES = {
    "SE3 complex R": lambda: pinref.SE3(np.eye(3) + 0j, np.zeros(3)),
    "SE3 complex p": lambda: pinref.SE3(np.eye(3), np.zeros(3) + 1j),
    "Motion complex": lambda: pinref.Motion(np.zeros(6) + 1j),
    "Force complex lin/ang": lambda: pinref.Force(np.zeros(3) * 1j, np.zeros(3)),
    "Inertia complex mass": lambda: pinref.Inertia(1 + 1j, np.zeros(3), np.eye(3)),
    "Inertia complex I": lambda: pinref.Inertia(1.0, np.zeros(3), np.eye(3) * (1 + 1j)),
    "exp3 complex": lambda: pinref.exp3(np.zeros(3) + 1j),
    "log6 complex": lambda: pinref.log6(np.eye(4) + 1j),
    "quaternion_to_matrix(zeros(3))": lambda: pinref.quaternion_to_matrix(np.zeros(3)),
    "quaternion_to_matrix(zeros(5))": lambda: pinref.quaternion_to_matrix(np.zeros(5)),
    "unSkew(eye(2))": lambda: pinref.unSkew(np.eye(2)),
    "unSkew(eye(4))": lambda: pinref.unSkew(np.eye(4)),
    "skew(zeros(4))": lambda: pinref.skew(np.zeros(4)),
    "skew(zeros(2))": lambda: pinref.skew(np.zeros(2)),
    "Motion(v)[5]": lambda: pinref.Motion(np.zeros(6))[5],
    "Force(v)[0]": lambda: pinref.Force(np.zeros(6))[0],
    "SE3()[0]": lambda: pinref.SE3.Identity()[0],
    "Inertia[1]": lambda: pinref.Inertia.Identity()[1],
    "Motion batch[0,3]": lambda: pinref.Motion.Zero((5,))[0, 3],
    "Force.se3Action(Motion)": lambda: pinref.Force.Zero().se3Action(pinref.Motion.Zero()),
    "Motion.se3Action(Force)": lambda: pinref.Motion.Zero().se3Action(pinref.Force.Zero()),
    "Inertia.se3Action(Motion)": lambda: pinref.Inertia.Identity().se3Action(pinref.Motion.Zero()),
    "Motion.se3ActionInverse(1)": lambda: pinref.Motion.Zero().se3ActionInverse(1),
    "Inertia.vxiv(Force)": lambda: pinref.Inertia.Identity().vxiv(pinref.Force.Zero()),
    "Inertia.variation(Force)": lambda: pinref.Inertia.Identity().variation(pinref.Force.Zero()),
    "Motion.dot(Motion)": lambda: pinref.Motion.Zero().dot(pinref.Motion.Zero()),
    "Motion.cross(2)": lambda: pinref.Motion.Zero().cross(2),
    "Motion + Force": lambda: pinref.Motion.Zero() + pinref.Force.Zero(),
    "SE3.isApprox(Motion)": lambda: pinref.SE3.Identity().isApprox(pinref.Motion.Zero()),
    "Inertia.isApprox(SE3)": lambda: pinref.Inertia.Identity().isApprox(pinref.SE3.Identity()),
    "SE3.act(zeros(4))": lambda: pinref.SE3.Identity().act(np.zeros(4)),
    "SE3.actInv('42')": lambda: pinref.SE3.Identity().actInv("42"),
    "SE3.act(nan point)": lambda: pinref.SE3.Identity().act(np.array([np.nan, 0, 0])),
    "M.translation = zeros(4)": lambda: setattr(pinref.SE3.Identity(), "translation", np.zeros(4)),
    "M.rotation = eye(2)": lambda: setattr(pinref.SE3.Identity(), "rotation", np.eye(2)),
    "v.vector = zeros(5)": lambda: setattr(pinref.Motion.Zero(), "vector", np.zeros(5)),
    "v.linear = zeros(2)": lambda: setattr(pinref.Motion.Zero(), "linear", np.zeros(2)),
    "Y.lever = 'abc'": lambda: setattr(pinref.Inertia.Identity(), "lever", "abc"),
    "Y.mass = nan": lambda: setattr(pinref.Inertia.Identity(), "mass", np.nan),
    "Motion(ragged)": lambda: pinref.Motion([[0] * 6, [0] * 5]),
    "Inertia(m, ragged c, I)": lambda: pinref.Inertia(1.0, [0, [0, 0]], np.eye(3)),
    "SE3(R, p, extra)": lambda: pinref.SE3(np.eye(3), np.zeros(3), np.zeros(3)),
    "Motion(Force)": lambda: _motion_of_force(),
    "exp6(zeros(5))": lambda: pinref.exp6(np.zeros(5)),
    "log3(zeros(3))": lambda: pinref.log3(np.zeros(3)),
    "Jlog6(eye(3))": lambda: pinref.Jlog6(np.eye(3)),
    "SE3(zero quaternion?) via XYZQUATToSE3": lambda: pinref.XYZQUATToSE3(np.zeros(7)),
    "XYZQUATToSE3 norm 2": lambda: pinref.XYZQUATToSE3([0, 0, 0, 0, 0, 0, 2.0]),
    "XYZQUATToSE3([1,2,3])": lambda: pinref.XYZQUATToSE3([1.0, 2.0, 3.0]),
    "Quaternion(zeros(3))": lambda: pinref.Quaternion(np.zeros(3)),
    "Quaternion(1,2)": lambda: pinref.Quaternion(1.0, 2.0),
}


@pytest.mark.parametrize("name", list(CASES))
def test_bad_input_raises_a_typed_error(name):
    with pytest.raises(PinrefError):
        CASES[name]()
