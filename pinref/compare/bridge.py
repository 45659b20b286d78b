"""Convert models between pinref and Pinocchio 3.8.0, number for number.

Pinocchio is imported when a function is called, so ``import pinref`` needs numpy only.
"""

import numpy as np

from ..errors import UnsupportedError
from ..spatial import SE3, Inertia, Motion


def _pinocchio():
    try:
        import pinocchio
    except ImportError:
        raise ImportError("this needs Pinocchio 3.8.0: pip install 'pinref[pin]' "
                          "(pin==3.8.0 with cmeel-urdfdom<5 and cmeel-tinyxml2<11)") from None
    return pinocchio


def _joint_args(jmodel):
    """Constructor arguments shared by pinref's and Pinocchio's joint classes."""
    if hasattr(jmodel, "axis1"):
        return (np.array(jmodel.axis1, dtype=float), np.array(jmodel.axis2, dtype=float))
    args = ()
    if hasattr(jmodel, "axis") and jmodel.shortname()[-1] not in "XYZ":
        args += (np.array(jmodel.axis, dtype=float),)
    if hasattr(jmodel, "pitch"):
        args += (float(jmodel.pitch),)
    return args


def to_pinocchio(model):
    """A ``pinocchio.Model`` equal to the pinref ``model``: joints, names, placements,
    inertias, frames, limits, armature, friction, damping, rotor parameters and gravity."""
    pin = _pinocchio()
    pm = pin.Model()
    pm.name = model.name
    for i in range(1, model.njoints):
        jmodel = model.joints[i]
        name = jmodel.shortname()
        if name == "JointModelRevoluteUnboundedUnaligned":
            if not np.array_equal(jmodel.axis, [1.0, 0.0, 0.0]):
                raise UnsupportedError(
                    f"joint {model.names[i]!r}: Pinocchio's Python API builds a "
                    "JointModelRevoluteUnboundedUnaligned about x only; its axis cannot be set")
            pjoint = pin.JointModelRevoluteUnboundedUnaligned()
        else:
            pjoint = getattr(pin, name)(*_joint_args(jmodel))
        qs, vs = jmodel.q_slice, jmodel.v_slice
        pm.addJoint(model.parents[i], pjoint, _pin_se3(pin, model.jointPlacements[i]),
                    model.names[i], model.effortLimit[vs], model.velocityLimit[vs],
                    model.lowerPositionLimit[qs], model.upperPositionLimit[qs],
                    model.friction[vs], model.damping[vs])
    for _ in range(model.nbodies - pm.nbodies):  # nbodies has no setter: count zero bodies
        pm.appendBodyToJoint(0, pin.Inertia.Zero(), pin.SE3.Identity())
    for i, Y in enumerate(model.inertias):
        pm.inertias[i] = _pin_inertia(pin, Y)
    for frame in model.frames[1:]:
        pm.addFrame(pin.Frame(frame.name, frame.parentJoint, frame.parentFrame,
                              _pin_se3(pin, frame.placement), pin.FrameType(int(frame.type)),
                              _pin_inertia(pin, frame.inertia)), False)
    pm.armature = model.armature.copy()
    pm.rotorInertia = model.rotorInertia.copy()
    pm.rotorGearRatio = model.rotorGearRatio.copy()
    pm.gravity = pin.Motion(model.gravity.vector.copy())
    return pm


def from_pinocchio(pin_model):
    """A pinref ``Model`` equal to ``pin_model``. Mimic and composite joints raise
    UnsupportedError naming the joint."""
    pin = _pinocchio()
    import pinref

    from ..model import Frame, FrameType, Model

    model = Model()
    model.name = pin_model.name
    for i in range(1, pin_model.njoints):
        pjoint = pin_model.joints[i]
        name = pjoint.shortname()
        cls = getattr(pinref.joints, name, None)
        if cls is None or "Mimic" in name or "Composite" in name:
            raise UnsupportedError(f"joint {pin_model.names[i]!r} is a {name}, which pinref does "
                                   "not support (mimic and composite joints are out of scope)")
        jmodel = cls(*_joint_args(pjoint.extract()))
        if name == "JointModelRevoluteUnboundedUnaligned":
            jmodel = cls(_unbounded_unaligned_axis(pin, pjoint))
        qs = slice(pjoint.idx_q, pjoint.idx_q + pjoint.nq)
        vs = slice(pjoint.idx_v, pjoint.idx_v + pjoint.nv)
        model.addJoint(pin_model.parents[i], jmodel, _se3(pin_model.jointPlacements[i]),
                       pin_model.names[i], pin_model.effortLimit[vs], pin_model.velocityLimit[vs],
                       pin_model.lowerPositionLimit[qs], pin_model.upperPositionLimit[qs],
                       pin_model.friction[vs], pin_model.damping[vs])
    model.inertias = [_inertia(Y) for Y in pin_model.inertias]
    for frame in list(pin_model.frames)[1:]:
        model.frames.append(Frame(frame.name, frame.parentJoint, frame.parentFrame,
                                  _se3(frame.placement), FrameType(int(frame.type)),
                                  _inertia(frame.inertia)))
    model.nbodies = pin_model.nbodies
    model.armature = np.array(pin_model.armature, dtype=float)
    model.rotorInertia = np.array(pin_model.rotorInertia, dtype=float)
    model.rotorGearRatio = np.array(pin_model.rotorGearRatio, dtype=float)
    model.gravity = Motion(np.array(pin_model.gravity.vector, dtype=float))
    return model


def _unbounded_unaligned_axis(pin, pjoint):
    """The axis of a RevoluteUnboundedUnaligned joint, which Python does not expose: S's
    angular part at the neutral configuration."""
    jdata = pjoint.createData()
    pjoint.calc(jdata, np.array([1.0, 0.0]))
    return np.array(jdata.S, dtype=float).reshape(6, -1)[3:, 0]


def _se3(M):
    return SE3(np.array(M.rotation, dtype=float), np.array(M.translation, dtype=float))


def _inertia(Y):
    return Inertia(float(Y.mass), np.array(Y.lever, dtype=float), np.array(Y.inertia, dtype=float))


def _pin_se3(pin, M):
    return pin.SE3(M.rotation.copy(), M.translation.copy())


def _pin_inertia(pin, Y):
    return pin.Inertia(float(Y.mass), Y.lever.copy(), Y.inertia.copy())
