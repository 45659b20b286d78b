"""``RobotWrapper`` without a viewer: a Model, its GeometryModels and their Datas in one object,
with one-line methods over the algorithms (Pinocchio 3.8.0's bindings/python/pinocchio/
robot_wrapper.py).

Each method runs the algorithm of the same name on ``self.model`` and ``self.data`` and returns
what Pinocchio's method returns; ``update_kinematics=False`` reads the kinematics the last call
left in ``self.data``. The viewer methods raise UnsupportedError: pinref displays nothing.
"""

import numpy as np

from .algorithms import (
    ReferenceFrame,
    ccrba,
    centerOfMass,
    computeCentroidalMap,
    computeCentroidalMomentum,
    computeCentroidalMomentumTimeVariation,
    computeFrameJacobian,
    computeGeneralizedGravity,
    computeJointJacobian,
    computeJointJacobians,
    createDatas,
    forwardKinematics,
    framesForwardKinematics,
    getAcceleration,
    getClassicalAcceleration,
    getFrameAcceleration,
    getFrameClassicalAcceleration,
    getFrameJacobian,
    getFrameVelocity,
    getJointJacobian,
    getVelocity,
    jacobianCenterOfMass,
    neutral,
    nonLinearEffects,
    updateFramePlacement,
    updateGeometryPlacements,
)
from .algorithms.crba import crba
from .errors import UnsupportedError
from .model import Model, buildModelsFromMJCF, buildModelsFromUrdf
from .model.surgery import buildReducedModel

LOCAL = ReferenceFrame.LOCAL


class RobotWrapper:
    """``pinocchio.RobotWrapper``: ``model``, ``data``, ``collision_model``, ``visual_model``,
    ``collision_data``, ``visual_data`` (None without the geometry model), ``q0`` (the neutral
    configuration), ``v0`` (zeros), ``nq``, ``nv``.

    ``RobotWrapper(model=None, collision_model=None, visual_model=None, verbose=False)``;
    ``model=None`` is an empty Model (Pinocchio's default argument is one shared ``pin.Model()``).
    """

    def __init__(self, model=None, collision_model=None, visual_model=None, verbose=False):
        self.model = Model() if model is None else model
        self.collision_model = collision_model
        self.visual_model = visual_model
        self.data, self.collision_data, self.visual_data = createDatas(
            self.model, collision_model, visual_model)
        self.v0 = np.zeros(self.model.nv)
        self.q0 = neutral(self.model)
        self.viz = None

    @staticmethod
    def BuildFromURDF(filename, *args, **kwargs):
        """A RobotWrapper of the URDF ``filename``: ``buildModelsFromUrdf(filename, *args,
        **kwargs)`` (``package_dirs=None, root_joint=None, ...``) gives model, collision and
        visual models."""
        robot = RobotWrapper()
        robot.initFromURDF(filename, *args, **kwargs)
        return robot

    def initFromURDF(self, filename, *args, **kwargs):
        """Re-initialise this wrapper from the URDF ``filename`` (as ``BuildFromURDF``)."""
        model, collision_model, visual_model = buildModelsFromUrdf(filename, *args, **kwargs)
        RobotWrapper.__init__(self, model=model, collision_model=collision_model,
                              visual_model=visual_model)

    @staticmethod
    def BuildFromMJCF(filename, *args, **kwargs):
        """A RobotWrapper of the MuJoCo file ``filename``: ``buildModelsFromMJCF(filename,
        *args, **kwargs)`` (``root_joint=None, ...``) gives model, collision and visual
        models."""
        robot = RobotWrapper()
        robot.initFromMJCF(filename, *args, **kwargs)
        return robot

    def initFromMJCF(self, filename, *args, **kwargs):
        """Re-initialise this wrapper from the MJCF ``filename`` (as ``BuildFromMJCF``)."""
        model, collision_model, visual_model = buildModelsFromMJCF(filename, *args, **kwargs)
        RobotWrapper.__init__(self, model=model, collision_model=collision_model,
                              visual_model=visual_model)

    @property
    def nq(self):
        return self.model.nq

    @property
    def nv(self):
        return self.model.nv

    # --- centre of mass and dynamics ------------------------------------------------------

    def com(self, q=None, v=None, a=None):
        """The centre of mass (3,): ``centerOfMass`` at q (with v: (com, vcom); with v and a:
        (com, vcom, acom)); without q, of the kinematics already in ``data``."""
        if q is None:
            centerOfMass(self.model, self.data)
            return self.data.com[0]
        if v is not None:
            if a is None:
                centerOfMass(self.model, self.data, q, v)
                return self.data.com[0], self.data.vcom[0]
            centerOfMass(self.model, self.data, q, v, a)
            return self.data.com[0], self.data.vcom[0], self.data.acom[0]
        return centerOfMass(self.model, self.data, q)

    def vcom(self, q, v):
        """The centre-of-mass velocity (3,) in the world frame."""
        centerOfMass(self.model, self.data, q, v)
        return self.data.vcom[0]

    def acom(self, q, v, a):
        """The centre-of-mass acceleration (3,) in the world frame."""
        centerOfMass(self.model, self.data, q, v, a)
        return self.data.acom[0]

    def centroidalMomentum(self, q, v):
        """``computeCentroidalMomentum(model, data, q, v)``: hg (Force) at the CoM."""
        return computeCentroidalMomentum(self.model, self.data, q, v)

    def centroidalMap(self, q):
        """``computeCentroidalMap(model, data, q)``: Ag (6, nv), with hg = Ag v."""
        return computeCentroidalMap(self.model, self.data, q)

    def centroidal(self, q, v):
        """``ccrba(model, data, q, v)``, then ``(data.hg, data.Ag, data.Ig)``: the centroidal
        momentum, map and inertia (the data's own objects, as in Pinocchio)."""
        ccrba(self.model, self.data, q, v)
        return self.data.hg, self.data.Ag, self.data.Ig

    def centroidalMomentumVariation(self, q, v, a):
        """``computeCentroidalMomentumTimeVariation(model, data, q, v, a)``: dhg (Force)."""
        return computeCentroidalMomentumTimeVariation(self.model, self.data, q, v, a)

    def Jcom(self, q):
        """``jacobianCenterOfMass(model, data, q)`` (3, nv)."""
        return jacobianCenterOfMass(self.model, self.data, q)

    def mass(self, q):
        """The joint-space inertia matrix ``crba(model, data, q)`` (nv, nv)."""
        return crba(self.model, self.data, q)

    def nle(self, q, v):
        """``nonLinearEffects(model, data, q, v)``: C(q, v) v + g(q) (nv,)."""
        return nonLinearEffects(self.model, self.data, q, v)

    def gravity(self, q):
        """``computeGeneralizedGravity(model, data, q)``: g(q) (nv,)."""
        return computeGeneralizedGravity(self.model, self.data, q)

    # --- kinematics -------------------------------------------------------------------------

    def forwardKinematics(self, q, v=None, a=None):
        """``forwardKinematics`` at the order given (q; q, v; q, v, a)."""
        if v is None:
            forwardKinematics(self.model, self.data, q)
        elif a is None:
            forwardKinematics(self.model, self.data, q, v)
        else:
            forwardKinematics(self.model, self.data, q, v, a)

    def framesForwardKinematics(self, q):
        framesForwardKinematics(self.model, self.data, q)

    def placement(self, q, index, update_kinematics=True):
        """``data.oMi[index]``, the placement of joint ``index`` in the world (after FK at q)."""
        if update_kinematics:
            forwardKinematics(self.model, self.data, q)
        return self.data.oMi[index]

    def velocity(self, q, v, index, update_kinematics=True, reference_frame=LOCAL):
        """``getVelocity`` of joint ``index`` in ``reference_frame`` (after FK at q, v)."""
        if update_kinematics:
            forwardKinematics(self.model, self.data, q, v)
        return getVelocity(self.model, self.data, index, reference_frame)

    def acceleration(self, q, v, a, index, update_kinematics=True, reference_frame=LOCAL):
        """``getAcceleration`` of joint ``index`` (after FK at q, v, a)."""
        if update_kinematics:
            forwardKinematics(self.model, self.data, q, v, a)
        return getAcceleration(self.model, self.data, index, reference_frame)

    def classicalAcceleration(self, q, v, a, index, update_kinematics=True,
                              reference_frame=LOCAL):
        """``getClassicalAcceleration`` of joint ``index`` (after FK at q, v, a)."""
        if update_kinematics:
            forwardKinematics(self.model, self.data, q, v, a)
        return getClassicalAcceleration(self.model, self.data, index, reference_frame)

    def framePlacement(self, q, index, update_kinematics=True):
        """``updateFramePlacement`` of frame ``index`` (after FK at q)."""
        if update_kinematics:
            forwardKinematics(self.model, self.data, q)
        return updateFramePlacement(self.model, self.data, index)

    def frameVelocity(self, q, v, index, update_kinematics=True, reference_frame=LOCAL):
        """``getFrameVelocity`` of frame ``index`` (after FK at q, v)."""
        if update_kinematics:
            forwardKinematics(self.model, self.data, q, v)
        return getFrameVelocity(self.model, self.data, index, reference_frame)

    def frameAcceleration(self, q, v, a, index, update_kinematics=True, reference_frame=LOCAL):
        """``getFrameAcceleration`` of frame ``index`` (after FK at q, v, a)."""
        if update_kinematics:
            forwardKinematics(self.model, self.data, q, v, a)
        return getFrameAcceleration(self.model, self.data, index, reference_frame)

    def frameClassicalAcceleration(self, q, v, a, index, update_kinematics=True,
                                   reference_frame=LOCAL):
        """``getFrameClassicalAcceleration`` of frame ``index`` (after FK at q, v, a)."""
        if update_kinematics:
            forwardKinematics(self.model, self.data, q, v, a)
        return getFrameClassicalAcceleration(self.model, self.data, index, reference_frame)

    # --- Jacobians --------------------------------------------------------------------------

    def computeJointJacobian(self, q, index):
        """``computeJointJacobian(model, data, q, index)``: joint ``index``'s, LOCAL (6, nv)."""
        return computeJointJacobian(self.model, self.data, q, index)

    def getJointJacobian(self, index, rf_frame=LOCAL):
        """``getJointJacobian`` from ``data.J`` (after ``computeJointJacobians``)."""
        return getJointJacobian(self.model, self.data, index, rf_frame)

    def computeJointJacobians(self, q):
        """``computeJointJacobians(model, data, q)``: ``data.J`` (6, nv), WORLD."""
        return computeJointJacobians(self.model, self.data, q)

    def getFrameJacobian(self, frame_id, rf_frame=LOCAL):
        """``getFrameJacobian`` of frame ``frame_id`` from ``data.J``."""
        return getFrameJacobian(self.model, self.data, frame_id, rf_frame)

    def computeFrameJacobian(self, q, frame_id):
        """``computeFrameJacobian(model, data, q, frame_id)``: LOCAL (6, nv), from q alone."""
        return computeFrameJacobian(self.model, self.data, q, frame_id)

    def jointJacobian(self, q, index):
        """Pinocchio 2's name of ``computeJointJacobian`` (3.8.0's RobotWrapper has no
        ``jointJacobian``; scripts written for 2.x call it)."""
        return self.computeJointJacobian(q, index)

    def frameJacobian(self, q, frame_id):
        """Pinocchio 2's name of ``computeFrameJacobian`` (not in 3.8.0's RobotWrapper)."""
        return self.computeFrameJacobian(q, frame_id)

    # --- geometry, names, surgery -----------------------------------------------------------

    def updateGeometryPlacements(self, q=None, visual=False):
        """``updateGeometryPlacements`` of the collision (or, with ``visual``, the visual)
        model, after FK at q when q is given."""
        if visual:
            geometry_model, geometry_data = self.visual_model, self.visual_data
        else:
            geometry_model, geometry_data = self.collision_model, self.collision_data
        if q is None:
            updateGeometryPlacements(self.model, self.data, geometry_model, geometry_data)
        else:
            updateGeometryPlacements(self.model, self.data, geometry_model, geometry_data, q)

    def buildReducedRobot(self, list_of_joints_to_lock, reference_configuration=None):
        """A new RobotWrapper with the joints of ``list_of_joints_to_lock`` (ids or names)
        locked at ``reference_configuration`` (default: ``neutral(model)``), through
        ``buildReducedModel`` with the visual and collision models. A geometry model that is
        None stays None (Pinocchio's binding refuses None)."""
        ids = [self.model.getJointId(j) if isinstance(j, str) else j
               for j in list_of_joints_to_lock]
        if reference_configuration is None:
            reference_configuration = neutral(self.model)
        geometry = [self.visual_model, self.collision_model]
        present = [g for g in geometry if g is not None]
        model, reduced = buildReducedModel(self.model, present, ids, reference_configuration)
        reduced = iter(reduced)
        visual_model, collision_model = (None if g is None else next(reduced) for g in geometry)
        return RobotWrapper(model=model, visual_model=visual_model,
                            collision_model=collision_model)

    def rebuildData(self):
        """Fresh ``data``, ``collision_data`` and ``visual_data`` (needed after changing the
        models; every cache is lost)."""
        self.data, self.collision_data, self.visual_data = createDatas(
            self.model, self.collision_model, self.visual_model)

    def index(self, name):
        """``model.getJointId(name)``."""
        return self.model.getJointId(name)

    def getFrameId(self, name):
        """``model.getFrameId(name)`` (Pinocchio 2's RobotWrapper method; 3.8.0 has none)."""
        return self.model.getFrameId(name)

    # --- viewer -----------------------------------------------------------------------------

    def _no_viewer(self, method):
        raise UnsupportedError(
            f"RobotWrapper.{method}: pinref has no viewer (it computes, it does not display); "
            "build pinocchio.RobotWrapper from the same URDF to display, e.g. with "
            "pinref.to_pinocchio(robot.model) for the model")

    def initViewer(self, *args, **kwargs):
        self._no_viewer("initViewer")

    def loadViewerModel(self, *args, **kwargs):
        self._no_viewer("loadViewerModel")

    def setVisualizer(self, *args, **kwargs):
        self._no_viewer("setVisualizer")

    def display(self, q):
        self._no_viewer("display")

    def displayCollisions(self, visibility):
        self._no_viewer("displayCollisions")

    def displayVisuals(self, visibility):
        self._no_viewer("displayVisuals")

    @property
    def viewer(self):
        return self._no_viewer("viewer")


__all__ = ["RobotWrapper"]
