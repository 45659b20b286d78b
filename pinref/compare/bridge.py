"""Convert models between pinref and the installed Pinocchio (3.8.0 or 4.x), number for number.

``to_pinocchio(model)`` and ``from_pinocchio(pin_model)`` copy the joints (type, axis, pitch),
names, parents, joint placements, inertias, frames (name, type, parents, placement, inertia),
limits (which may be infinite, as a URDF's), friction, damping, armature, rotor parameters,
gravity, ``nbodies`` and the model name. Every number is copied, never recomputed, so a round
trip returns equal arrays (``np.array_equal``). With Pinocchio 4.x, whose limits have lower and
upper bounds, ``to_pinocchio`` stores pinref's symmetric bounds as 4.x's URDF parser does and
``from_pinocchio`` copies the upper ones (``effortLimit``, ``velocityLimit``, ``friction``, which
4.x keeps as their aliases); ``pinref.compare.versions`` holds every version-dependent call.

Pinocchio is imported when a function is called, so ``import pinref`` needs numpy only.
"""

import numpy as np

from ..errors import UnsupportedError
from ..spatial import SE3, Inertia, Motion
from .versions import add_joint

# Model fields holding one number per configuration (q) or velocity (v) entry.
_LIMIT_FIELDS = ("effortLimit", "velocityLimit", "lowerPositionLimit", "upperPositionLimit",
                 "friction", "damping", "armature", "rotorInertia", "rotorGearRatio")


def is_pinocchio_model(obj):
    """True for a ``pinocchio.Model`` (checked without importing pinocchio)."""
    return type(obj).__module__.split(".")[0] == "pinocchio" and type(obj).__name__ == "Model"


def import_pinocchio():
    """The ``pinocchio`` module, or an ImportError naming the extra to install."""
    try:
        import pinocchio
    except ImportError:
        raise ImportError("this needs Pinocchio: pip install 'pinref[pin]' (pin==3.8.0 with "
                          "cmeel-urdfdom<5 and cmeel-tinyxml2<11, the baseline) or "
                          "'pinref[pin4]' (pin==4.1.0)") from None
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
    """A ``pinocchio.Model`` equal to the pinref ``model``, field for field.

    A ``JointModelRevoluteUnboundedUnaligned`` about any axis is supported, although
    Pinocchio's Python constructor makes it about e_x only (see
    ``_pin_revolute_unbounded_unaligned``).
    """
    pin = import_pinocchio()
    pm = pin.Model()
    pm.name = model.name
    for i in range(1, model.njoints):
        jmodel = model.joints[i]
        pjoint = _pin_joint(pin, jmodel, model.names[i])
        qs, vs = jmodel.q_slice, jmodel.v_slice
        add_joint(pin, pm, model.parents[i], pjoint, _pin_se3(pin, model.jointPlacements[i]),
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
    for field in _LIMIT_FIELDS:
        setattr(pm, field, np.array(getattr(model, field), dtype=float))
    pm.gravity = pin.Motion(model.gravity.vector.copy())
    return pm


def _pin_joint(pin, jmodel, joint_name):
    """Pinocchio's joint model equal to the pinref ``jmodel`` (a composite's joints and
    placements converted one by one)."""
    name = jmodel.shortname()
    if name == "JointModelMimic":
        raise UnsupportedError(
            f"joint {joint_name!r} is a JointModelMimic, which to_pinocchio does not convert "
            "(Pinocchio's Python makes a mimic joint of the mimicked joint's own type only); "
            "build the model in Pinocchio too (buildModelFromUrdf(..., mimic=True), "
            "transformJointIntoMimic)")
    if name == "JointModelRevoluteUnboundedUnaligned":
        return _pin_revolute_unbounded_unaligned(pin, jmodel.axis, joint_name)
    if name == "JointModelComposite":
        pjoint = pin.JointModelComposite()
        for joint, placement in zip(jmodel.joints, jmodel.jointPlacements):
            pjoint.addJoint(_pin_joint(pin, joint, joint_name), _pin_se3(pin, placement))
        return pjoint
    return getattr(pin, name)(*_joint_args(jmodel))


def _joint(pin, pjoint, joint_name):
    """The pinref joint model equal to Pinocchio's ``pjoint`` (a generic ``pin.JointModel``);
    UnsupportedError naming the joint for a type pinref does not have."""
    import pinref

    name = pjoint.shortname()
    if name == "JointModelMimic":
        raise UnsupportedError(
            f"joint {joint_name!r} is a JointModelMimic, which from_pinocchio does not convert "
            "(Pinocchio's Python hides the mimicking joint type); build the model in pinref "
            "too (buildModelFromUrdf(..., mimic=True), transformJointIntoMimic)")
    cls = getattr(pinref.joints, name, None)
    if cls is None:
        raise UnsupportedError(f"joint {joint_name!r} is a {name}, which pinref does not "
                               "support (pin 4.x's ellipsoid joints are out of scope)")
    if name == "JointModelRevoluteUnboundedUnaligned":
        return cls(_unbounded_unaligned_axis(pin, pjoint))
    if name == "JointModelComposite":
        composite = pjoint.extract()
        jmodel = cls()
        for joint, placement in zip(composite.joints, composite.jointPlacements):
            jmodel.addJoint(_joint(pin, joint, joint_name), _se3(placement))
        return jmodel
    return cls(*_joint_args(pjoint.extract()))


def from_pinocchio(pin_model):
    """A pinref ``Model`` equal to ``pin_model``, field for field. Mimic joints (and pin 4.x's
    ellipsoid joints) raise UnsupportedError naming the joint (build a mimic model in both
    libraries instead)."""
    pin = import_pinocchio()

    from ..model import Frame, FrameType, Model

    model = Model()
    model.name = pin_model.name
    for i in range(1, pin_model.njoints):
        jmodel = _joint(pin, pin_model.joints[i], pin_model.names[i])
        # The limits, which Pinocchio allows to be infinite, are copied below.
        model.addJoint(pin_model.parents[i], jmodel, _se3(pin_model.jointPlacements[i]),
                       pin_model.names[i])
    model.inertias = [_inertia(Y) for Y in pin_model.inertias]
    for frame in list(pin_model.frames)[1:]:
        model.frames.append(Frame(frame.name, frame.parentJoint, frame.parentFrame,
                                  _se3(frame.placement), FrameType(int(frame.type)),
                                  _inertia(frame.inertia)))
    model.nbodies = pin_model.nbodies
    for field in _LIMIT_FIELDS:
        setattr(model, field, np.array(getattr(pin_model, field), dtype=float))
    model.gravity = Motion(np.array(pin_model.gravity.vector, dtype=float))
    return model


def _unbounded_unaligned_axis(pin, pjoint):
    """The axis of a RevoluteUnboundedUnaligned joint, which Python does not expose: S's
    angular part at the neutral configuration (S = [0; axis] exactly)."""
    jdata = pjoint.createData()
    pjoint.calc(jdata, np.array([1.0, 0.0]))
    return np.array(jdata.S, dtype=float).reshape(6, -1)[3:, 0]


def _pin_revolute_unbounded_unaligned(pin, axis, joint_name):
    """``pin.JointModelRevoluteUnboundedUnaligned`` about ``axis``, bit for bit.

    Pinocchio's Python constructor takes no axis (it is e_x). The joint is therefore read back
    from Pinocchio's own text archive (``Model.saveToString``, doubles printed with 17
    significant digits, so they round-trip exactly) of a one-joint model, in which the three
    numbers of e_x are replaced by ``axis``. The archive holds e_x-like triples elsewhere too
    (identity rotations), so each occurrence is tried and the result is accepted only when the
    loaded joint's S reproduces ``axis`` exactly; otherwise UnsupportedError.
    """
    axis = np.asarray(axis, dtype=float)
    if np.array_equal(axis, [1.0, 0.0, 0.0]):
        return pin.JointModelRevoluteUnboundedUnaligned()
    template = pin.Model()
    template.addJoint(0, pin.JointModelRevoluteUnboundedUnaligned(), pin.SE3.Identity(), "j")
    text = template.saveToString()
    ex = " ".join(f"{c:.17e}" for c in (1.0, 0.0, 0.0))
    patched_axis = " ".join(f"{c:.17e}" for c in axis)
    start = text.find(ex)
    while start >= 0:
        candidate = pin.Model()
        try:
            candidate.loadFromString(text[:start] + patched_axis + text[start + len(ex):])
        except Exception:  # a number the archive reader refuses (e.g. subnormal): give up
            break
        pjoint = candidate.joints[1]
        if (pjoint.shortname() == "JointModelRevoluteUnboundedUnaligned"
                and np.array_equal(_unbounded_unaligned_axis(pin, pjoint), axis)):
            return pjoint
        start = text.find(ex, start + 1)
    raise UnsupportedError(
        f"joint {joint_name!r}: could not build Pinocchio's JointModelRevoluteUnboundedUnaligned "
        f"about {axis.tolist()} (its Python API makes it about e_x only)")


def _se3(M):
    return SE3(np.array(M.rotation, dtype=float), np.array(M.translation, dtype=float))


def _inertia(Y):
    """pin's inertia copied verbatim: the model is pin's, already built, so a value the checked
    constructor refuses (pin's URDF parser keeps a -5e-20 diagonal of icub) is kept as it is."""
    return Inertia.unchecked(np.array(float(Y.mass)), np.array(Y.lever, dtype=float),
                         np.array(Y.inertia, dtype=float))


def _pin_se3(pin, M):
    return pin.SE3(M.rotation.copy(), M.translation.copy())


def _pin_inertia(pin, Y):
    """pinref's inertia set field by field: pin's constructor refuses what its URDF parser loads
    (a diagonal of -5e-20), its setters copy the numbers."""
    out = pin.Inertia.Zero()
    out.mass, out.lever, out.inertia = float(Y.mass), Y.lever.copy(), Y.inertia.copy()
    return out
