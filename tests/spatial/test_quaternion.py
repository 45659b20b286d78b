"""The quaternion functions of pinref/spatial/quaternion.py (math/quaternion.hpp, Eigen's
Quaternion.h) against Pinocchio 3.8.0 and eigenpy's Quaternion, state by state, at batch shapes
(), (5,), (2, 3). Their conversions to and from rotation matrices are checked beside exp3 and
log3 in test_explog.py.
"""

import numpy as np
import pinocchio as pin
import pytest
from conftest import assert_close_each
from test_explog import SHAPES, reference, rotation_vectors

from pinref.spatial import quaternion as Q


@pytest.mark.parametrize("batch", SHAPES, ids=str)
def test_quaternion_algebra_matches_eigen(batch, rng):
    a = reference(pin.exp3_quat, rotation_vectors(rng, batch), batch)
    b = reference(pin.exp3_quat, rotation_vectors(rng, batch), batch)
    x = rng.normal(size=tuple(batch) + (3,))
    pairs = np.concatenate((a, b), axis=-1)
    assert_close_each(Q.quaternion_multiply(a, b),
                      reference(lambda ab: (pin.Quaternion(ab[:4]) * pin.Quaternion(ab[4:]))
                                .coeffs(), pairs, batch), batch, what="multiply")
    assert_close_each(Q.quaternion_conjugate(a),
                      reference(lambda q: pin.Quaternion(q).conjugate().coeffs(), a, batch),
                      batch, what="conjugate")
    assert_close_each(Q.quaternion_dot(a, b),
                      reference(lambda ab: pin.Quaternion(ab[:4]).dot(pin.Quaternion(ab[4:])),
                                pairs, batch), batch, what="dot")
    qx = np.concatenate((a, x), axis=-1)
    assert_close_each(Q.quaternion_rotate(a, x),
                      reference(lambda v: pin.Quaternion(v[:4])._transformVector(v[4:]), qx,
                                batch), batch, what="rotate")
    scaled = a * (1.0 + 1e-6 * rng.normal(size=tuple(batch) + (1,)))
    assert_close_each(Q.quaternion_first_order_normalize(scaled),
                      scaled * ((3.0 - np.sum(scaled**2, axis=-1, keepdims=True)) / 2.0),
                      batch, what="first_order_normalize")
