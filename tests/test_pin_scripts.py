"""Scripts written for pinocchio run unchanged with pinref posing as pinocchio (issue 12).

Each script below is our own, in the style of Pinocchio's examples: it imports
``pinocchio``, uses only names that pinref covers and prints numbers.  It runs
twice in a subprocess, once with the real pin 3.8.0 and once with a throwaway
``pinocchio`` package that re-exports pinref, and every printed number must
agree at 1e-12 * max(1, |ref|); every other token must be the same. The simulation script
hands coal shapes to GeometryObject, as pin's examples do: pinref keeps them as data."""
import math
import os
import re
import subprocess
import sys
import textwrap

import pytest

SHIM = '''"""pinref posing as pinocchio for tests/test_pin_scripts.py, submodules included."""
import sys as _sys

import pinref as _pinref

globals().update({k: getattr(_pinref, k) for k in dir(_pinref) if not k.startswith("__")})
for _name in ("explog", "liegroups", "robot_wrapper", "rpy", "utils"):
    _sys.modules[__name__ + "." + _name] = getattr(_pinref, _name)
'''

PRELUDE = '''
import numpy as np


def show(label, x):
    print(label, *np.asarray(x, dtype=float).ravel().tolist())
'''

SPATIAL = '''
import pinocchio as pin
from pinocchio.explog import exp
from pinocchio.rpy import rotate
from pinocchio.utils import zero

R = pin.rpy.rpyToMatrix(0.3, -0.2, 0.7)
M = pin.SE3(R, np.array([0.1, -0.4, 0.25]))
N = pin.SE3(pin.utils.rotate("z", 0.5), np.array([[1.0], [2.0], [3.0]]))
show("M*N", (M * N).homogeneous)
show("inv", (~M).homogeneous)
show("actInv", M.actInv(N).homogeneous)
v = pin.Motion(np.array([0.1, 0.2, 0.3]), np.array([-0.3, 0.5, 0.9]))
f = pin.Force(np.array([1.0, -2.0, 0.5, 0.3, 0.1, -0.2]))
show("M*v", (M * v).vector)
show("M.act(f)", M.act(f).vector)
show("point", M * np.array([1.0, 1.0, 1.0]))
show("actInv point", M.actInv(np.array([1.0, 1.0, 1.0])))
show("v x f", v.cross(f).vector)
show("log6", pin.log(M).vector)
show("exp6", pin.exp(v).homogeneous)
show("log3", pin.log(R))
show("Jlog6", pin.Jlog6(M))
show("rpy", pin.rpy.matrixToRpy(R))
quat = pin.Quaternion(R)
show("quat", quat.coeffs())
show("xyzquat", pin.SE3ToXYZQUAT(M))
Y = pin.Inertia(2.0, np.array([0.0, 0.1, -0.2]), np.diag([0.3, 0.4, 0.5]))
show("Y*v", (Y * v).vector)
show("M*Y", (M * Y).matrix())
show("skew", pin.skew(np.array([1.0, 2.0, 3.0])))
print("mass", Y.mass, "isIdentity", pin.SE3.Identity().isIdentity())
show("explog.exp", exp(np.array([0.2, -0.1, 0.4])))
show("rpyJ", pin.rpy.computeRpyJacobian(np.array([0.1, 0.2, 0.3]), pin.LOCAL))
show("rotate", rotate("y", 0.25))
show("zero", zero(3))
'''

KINEMATICS = '''
import pinocchio as pin
from numpy.linalg import norm, solve

model = pin.buildSampleModelManipulator()
data = model.createData()
print("nq", model.nq, "nv", model.nv, "njoints", model.njoints, "nframes", model.nframes)
q = pin.neutral(model) + 0.3
pin.forwardKinematics(model, data, q)
pin.updateFramePlacements(model, data)
for name, oMi in zip(model.names, data.oMi):
    show(name, oMi.translation)
frame_id = model.getFrameId("effector_body")
show("oMf", data.oMf[frame_id].homogeneous)
pin.computeJointJacobians(model, data, q)
for rf in (pin.LOCAL, pin.WORLD, pin.LOCAL_WORLD_ALIGNED):
    show(str(rf), pin.getFrameJacobian(model, data, frame_id, rf))
show("J6", pin.computeJointJacobian(model, data, q, 6))

oMdes = pin.SE3(np.eye(3), np.array([0.5, 0.2, 0.8]))
q = pin.neutral(model)
for it in range(12):
    pin.forwardKinematics(model, data, q)
    dMi = oMdes.actInv(data.oMi[6])
    err = pin.log(dMi).vector
    J = pin.computeJointJacobian(model, data, q, 6)
    J = -np.dot(pin.Jlog6(dMi.inverse()), J)
    v = -J.T.dot(solve(J.dot(J.T) + 1e-1 * np.eye(6), err))
    q = pin.integrate(model, q, v * 0.2)
    if it % 4 == 0:
        show("err %d" % it, err)
show("q", q)
print("final", norm(err) < 1.0)
'''

DYNAMICS = '''
import pinocchio as pin

model = pin.buildSampleModelHumanoid()
data = model.createData()
rng = np.random.default_rng(7)
q = pin.neutral(model)
q[:3] = rng.uniform(-1, 1, 3)
quat = rng.normal(size=4)
q[3:7] = quat / np.linalg.norm(quat)
q[7:] = rng.uniform(-1, 1, model.nq - 7)
v = rng.uniform(-1, 1, model.nv)
a = rng.uniform(-1, 1, (model.nv, 1))
tau = pin.rnea(model, data, q, v, a)
show("tau", tau)
show("ddq", pin.aba(model, data, q, v, tau))
M = pin.crba(model, data, q)
M[np.tril_indices(model.nv, -1)] = M.T[np.tril_indices(model.nv, -1)]
show("M", M)
show("nle", pin.nonLinearEffects(model, data, q, v))
show("g", pin.computeGeneralizedGravity(model, data, q))
fext = pin.StdVec_Force()
for i in range(model.njoints):
    fext.append(pin.Force(np.full(6, 0.1 * i)))
show("static", pin.computeStaticTorque(model, data, q, fext))
show("com", pin.centerOfMass(model, data, q, v))
show("vcom", data.vcom[0])
show("Jcom", pin.jacobianCenterOfMass(model, data, q))
print("mass", pin.computeTotalMass(model))
print("T", pin.computeKineticEnergy(model, data, q, v))
print("V", pin.computePotentialEnergy(model, data, q))
pin.computeRNEADerivatives(model, data, q, v, a)
show("dtau_dq", data.dtau_dq)
show("dtau_dv", data.dtau_dv)
pin.computeABADerivatives(model, data, q, v, tau)
show("ddq_dq", data.ddq_dq)
show("Minv", data.Minv)
q2 = pin.integrate(model, q, v)
show("integrate", q2)
show("difference", pin.difference(model, q, q2))
show("interpolate", pin.interpolate(model, q, q2, 0.3))
show("dIntegrate", pin.dIntegrate(model, q, v, pin.ARG1))
lo = -np.ones((model.nq, 1))
hi = np.ones((model.nq, 1))
qr = pin.randomConfiguration(model, lo, hi)
print("random", qr.shape, bool(np.all(qr[:3] >= -1)), bool(np.all(qr[:3] <= 1)))
print("unit", abs(np.linalg.norm(qr[3:7]) - 1) < 1e-12)
'''

ARM_URDF = '''<robot name="arm">
  <link name="base"/>
  <link name="upper">
    <inertial><origin xyz="0 0 0.2"/><mass value="1.5"/>
      <inertia ixx="0.02" ixy="0" ixz="0" iyy="0.02" iyz="0" izz="0.01"/></inertial>
  </link>
  <link name="lower">
    <inertial><origin xyz="0.1 0 0.15" rpy="0.1 0 0"/><mass value="0.8"/>
      <inertia ixx="0.01" ixy="0.001" ixz="0" iyy="0.012" iyz="0" izz="0.005"/></inertial>
  </link>
  <link name="tool"/>
  <joint name="shoulder" type="revolute">
    <parent link="base"/><child link="upper"/><origin xyz="0 0 0.1"/><axis xyz="0 1 0"/>
    <limit lower="-2" upper="2" effort="10" velocity="3"/>
  </joint>
  <joint name="elbow" type="revolute">
    <parent link="upper"/><child link="lower"/><origin xyz="0 0 0.4" rpy="0 0.2 0"/>
    <axis xyz="1 0 0"/><limit lower="-2" upper="2" effort="10" velocity="3"/>
  </joint>
  <joint name="slide" type="prismatic">
    <parent link="lower"/><child link="tool"/><origin xyz="0 0 0.3"/><axis xyz="0 0 1"/>
    <limit lower="0" upper="0.2" effort="10" velocity="1"/>
  </joint>
</robot>'''

URDF = '''
import pinocchio as pin

xml = """''' + ARM_URDF + '''"""
for root in (None, pin.JointModelFreeFlyer()):
    model = pin.buildModelFromXML(xml) if root is None else pin.buildModelFromXML(xml, root)
    data = model.createData()
    print(model.name, model.nq, model.nv, list(model.names))
    print([f.name for f in model.frames])
    show("limits", np.concatenate([model.lowerPositionLimit, model.upperPositionLimit]))
    q = pin.neutral(model)
    q[-3:] = [0.4, -0.3, 0.1]
    v = np.linspace(-1, 1, model.nv)
    pin.forwardKinematics(model, data, q, v)
    tool = model.getFrameId("tool")
    pin.updateFramePlacements(model, data)
    show("tool", data.oMf[tool].translation)
    show("vel", pin.getFrameVelocity(model, data, tool, pin.LOCAL_WORLD_ALIGNED).vector)
    show("J", pin.computeFrameJacobian(model, data, q, tool, pin.LOCAL))
    show("tau", pin.rnea(model, data, q, v, np.zeros(model.nv)))
    show("M", pin.crba(model, data, q))
'''

SIMULATION = '''
import math

import coal
import pinocchio as pin

model = pin.Model()
geom_model = pin.GeometryModel()
rotation = pin.Quaternion(np.array([0.0, 0.0, 1.0]), np.array([0.0, 1.0, 0.0]))
cart_placement = pin.SE3.Identity()
cart_placement.rotation = rotation.toRotationMatrix()
cart = model.addJoint(0, pin.JointModelPY(), pin.SE3.Identity(), "joint_cart")
model.appendBodyToJoint(cart, pin.Inertia.FromCylinder(2.0, 0.1, 0.5), cart_placement)
parent, placement = cart, pin.SE3.Identity()
for k in range(2):
    joint = model.addJoint(parent, pin.JointModelRX(), placement, "joint_%d" % (k + 1))
    body_placement = placement.copy()
    body_placement.translation[2] = 1.0
    model.appendBodyToJoint(joint, pin.Inertia.FromSphere(1.0, 0.1), body_placement)
    model.addJointFrame(joint, 0)
    model.addBodyFrame("body_%d" % (k + 1), joint, body_placement,
                       model.getFrameId("joint_%d" % (k + 1)))
    geom = pin.GeometryObject("ball_%d" % (k + 1), joint, body_placement, coal.Sphere(0.1))
    geom.meshColor = np.ones(4)
    geom_model.addGeometryObject(geom)
    parent, placement = joint, body_placement.copy()
print(model)
model.lowerPositionLimit.fill(-math.pi)
model.upperPositionLimit.fill(+math.pi)
data, geom_data = pin.createDatas(model, geom_model)
q = np.array([0.1, 0.4, -0.3])
v = np.zeros(model.nv)
for k in range(20):
    a = pin.aba(model, data, q, v, -0.1 * v)
    v += a * 0.01
    q = pin.integrate(model, q, v * 0.01)
    if k % 5 == 0:
        show("q %d" % k, q)
pin.updateGeometryPlacements(model, data, geom_model, geom_data, q)
for oMg in geom_data.oMg:
    show("oMg", oMg.translation)
pin.framesForwardKinematics(model, data, q)
show("body_2", data.oMf[model.getFrameId("body_2")].homogeneous)
print("E", pin.computeMechanicalEnergy(model, data, q, v))
'''

ROBOT_WRAPPER = '''
import pinocchio as pin
from pinocchio.robot_wrapper import RobotWrapper

with open("arm.urdf", "w") as out:
    out.write("""''' + ARM_URDF + '''""")
for robot in (RobotWrapper.BuildFromURDF("arm.urdf"),
              RobotWrapper.BuildFromURDF("arm.urdf", [], pin.JointModelFreeFlyer())):
    print(robot.model.name, robot.nq, robot.nv, list(robot.model.names))
    q = robot.q0.copy()
    q[-3:] = [0.4, -0.3, 0.1]
    v = np.linspace(-1, 1, robot.nv)
    a = np.linspace(0.5, -0.5, robot.nv)
    show("com", robot.com(q))
    print("mass", robot.mass(q))
    show("nle", robot.nle(q, v))
    show("gravity", robot.gravity(q))
    tool = robot.model.getFrameId("tool")
    show("placement", robot.placement(q, robot.model.njoints - 1).homogeneous)
    show("framePlacement", robot.framePlacement(q, tool).homogeneous)
    show("velocity", robot.velocity(q, v, 2).vector)
    show("acceleration", robot.acceleration(q, v, a, 2, True, pin.LOCAL_WORLD_ALIGNED).vector)
    show("Jtool", robot.computeFrameJacobian(q, tool))
    robot.computeJointJacobians(q)
    show("Jjoint", robot.getJointJacobian(2, pin.WORLD))
'''

REGRESSOR = '''
import pinocchio as pin

model = pin.buildSampleModelManipulator()
data = model.createData()
q = np.linspace(-0.8, 0.8, model.nq)
v = np.linspace(0.3, -0.6, model.nv)
a = np.linspace(1.0, -1.0, model.nv)
Y = pin.computeJointTorqueRegressor(model, data, q, v, a)
params = np.concatenate([model.inertias[i].toDynamicParameters() for i in range(1, model.njoints)])
show("Y", Y)
show("Y pi", Y @ params)
show("rnea", pin.rnea(model, data, q, v, a))
show("body", pin.jointBodyRegressor(model, data, model.njoints - 1))
show("static", pin.computeStaticRegressor(model, data, q))
pin.forwardKinematics(model, data, q)
for rf in (pin.LOCAL, pin.WORLD, pin.LOCAL_WORLD_ALIGNED):
    show("K", pin.computeJointKinematicRegressor(model, data, 4, rf, pin.SE3.Identity()))
    show("Kf", pin.computeFrameKinematicRegressor(model, data, model.nframes - 1, rf))
show("bodyRegressor", pin.bodyRegressor(pin.Motion(v[:6]), pin.Motion(a[:6])))
'''

SCRIPTS = {"simulation": SIMULATION, "spatial": SPATIAL, "kinematics": KINEMATICS,
           "dynamics": DYNAMICS, "urdf": URDF, "robot_wrapper": ROBOT_WRAPPER,
           "regressor": REGRESSOR}
NUMBER = re.compile(r"^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$")


def run(script, tmp_path, python_path):
    path = tmp_path / "script.py"
    path.write_text(textwrap.dedent(PRELUDE + script))
    env = dict(os.environ)
    if python_path:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(python_path),
                                                          env.get("PYTHONPATH")]))
    done = subprocess.run([sys.executable, str(path)], check=False, capture_output=True, text=True,
                          env=env, cwd=tmp_path, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout


def tokens(text):
    return re.findall(r"[^\s,\[\]()']+", text)


@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_script_runs_unchanged(name, tmp_path):
    shim = tmp_path / "shim" / "pinocchio"
    shim.mkdir(parents=True)
    (shim / "__init__.py").write_text(SHIM)
    ref = run(SCRIPTS[name], tmp_path, None)
    got = run(SCRIPTS[name], tmp_path, shim.parent)
    assert "pinref" not in ref
    ref_tokens, got_tokens = tokens(ref), tokens(got)
    assert len(ref_tokens) == len(got_tokens), (ref, got)
    checked = 0
    for r, g in zip(ref_tokens, got_tokens):
        if NUMBER.match(r) and NUMBER.match(g):
            bound = 1e-12 * max(1.0, abs(float(r)))
            assert math.isclose(float(g), float(r), rel_tol=0, abs_tol=bound), (r, g)
            checked += 1
        else:
            assert r == g
    assert checked > 20


def test_shim_is_pinref(tmp_path):
    shim = tmp_path / "shim" / "pinocchio"
    shim.mkdir(parents=True)
    (shim / "__init__.py").write_text(SHIM)
    out = run("import pinocchio, pinref\nprint(pinocchio.rnea is pinref.rnea)\n"
              "from pinocchio.robot_wrapper import RobotWrapper\n"
              "print(RobotWrapper is pinref.RobotWrapper)\n", tmp_path, shim.parent)
    assert out.split() == ["True", "True"]
