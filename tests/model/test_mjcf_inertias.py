"""MJCF inertias against ``pin.buildModelFromMJCF`` (3.8.0): <inertial> with diaginertia or
fullinertia, rotated (quat, euler); inertias from geoms (box, sphere, capsule, cylinder,
ellipsoid; fromto; mass or density; a visual contype=conaffinity=0 geom left out; a group 3
collision geom counted); a mesh geom counts as Pinocchio counts it (mass 1, inertia I3)."""

import numpy as np
import pytest

import pinref
from mjcf_check import MJCF_DIR, PIN_PARSER_IS_3_8_0, assert_matches_pin, load

pytestmark = PIN_PARSER_IS_3_8_0


def test_matches_pin():
    assert_matches_pin(MJCF_DIR / "inertias.xml",
                       warns="the mesh geom counts as mass 1 with inertia I3")


def test_fullinertia_is_rotated_and_symmetric():
    rmodel, _ = load(MJCF_DIR / "inertias.xml")
    Y = rmodel.inertias[rmodel.getJointId("j_root")]
    assert Y.mass == 2.0
    np.testing.assert_array_equal(Y.lever, [0.1, 0.2, 0.3])
    assert np.array_equal(Y.inertia, Y.inertia.T)
    assert np.trace(Y.inertia) == pytest.approx(1.8, rel=1e-14)


def test_mesh_geom_is_unit_inertia():
    rmodel, _ = load(MJCF_DIR / "inertias.xml")
    sphere = pinref.Inertia.FromSphere(4.0 / 3 * np.pi * 0.02 ** 3 * 1000, 0.02)
    mesh = pinref.SE3(np.eye(3), np.array([0.0, 0.1, 0.0])).act(pinref.Inertia.Identity())
    assert rmodel.inertias[rmodel.getJointId("j_mesh")].isApprox(sphere + mesh, 1e-14)


@pytest.mark.parametrize("geom", ['type="box" size="0.1 0.2 0.3"', 'type="sphere" size="0.2"',
                                  'type="capsule" size="0.05 0.2"',
                                  'type="cylinder" size="0.05 0.2"',
                                  'type="ellipsoid" size="0.1 0.2 0.3"',
                                  'type="capsule" fromto="0 0 0 0.2 0.1 -0.3" size="0.03"'])
def test_each_shape(tmp_path, geom):
    path = tmp_path / "shape.xml"
    path.write_text(f"""<mujoco model="m"><worldbody><body name="b">
      <joint name="j" axis="0 1 0"/><geom {geom} euler="10 0 0"/></body></worldbody></mujoco>""")
    assert_matches_pin(path)


def test_pos_and_fromto_are_refused(tmp_path):
    path = tmp_path / "both.xml"
    path.write_text("""<mujoco model="m"><worldbody><body name="b"><joint/>
      <geom type="capsule" fromto="0 0 0 0 0 1" size="0.1" pos="1 0 0"/></body></worldbody>
      </mujoco>""")
    with pytest.raises(pinref.errors.MJCFError, match="line 2, <geom>: both pos and fromto"):
        pinref.buildModelFromMJCF(path)
