"""Model surgery: lock joints (``buildReducedModel``) and graft one model onto another
(``appendModel``), built as Pinocchio 3.8.0's ``algorithm/model.hxx`` builds them.

buildReducedModel(model, list_of_joints_to_lock, reference_configuration), for j = 1 .. njoints-1:
    p = the closest kept ancestor of j; pMj0 = placement of j's parent in p's frame
        (identity when the parent is kept, its FIXED_JOINT frame's placement when it is locked)
    j kept:   addJoint(p, joint_j, pMj0 * jointPlacements[j], ...); its body, limits and
              rotor parameters follow it
    j locked: the input frames up to j's JOINT frame are copied first; then a FIXED_JOINT frame
              named after j on p, at liMi = pMj0 * jointPlacements[j] * M_j(q_ref), carrying
              inertias[j], which addFrame merges into inertias[p] (liMi.act(inertias[j]))
    the remaining input frames are copied, a frame of a locked joint moved onto the FIXED_JOINT
    frame's joint at placement * its own; reference configurations keep the kept joints' slices.

appendModel(modelA, modelB, frameInModelA, aMb): modelA's joints up to frameInModelA's joint and
its descendants, then modelB hung from that joint at frame.placement * aMb, then the rest of
modelA. Frames keep their names; a frame's inertia is taken off its new joint's body before
addFrame merges it back at the frame's placement (Pinocchio's order, docs/surgery.md).
"""

import copy
import itertools

import numpy as np

from ..errors import ArgumentTypeError, ModelError, ShapeError
from ..spatial import SE3, Inertia
from ..spatial import _kernels as K
from .frame import ALL_FRAME_TYPES, Frame, FrameType
from .geometry import CollisionPair, GeometryModel
from .mimic import repointed
from .model import Model, bind_positional, real_array

_EPS = np.finfo(float).eps


# --- lookups as Pinocchio does them ---------------------------------------------------------


def _frame_id(model, name, type=ALL_FRAME_TYPES):
    """The first frame called ``name`` of a type in ``type``, else ``model.nframes``
    (``Model::getFrameId``, which does not refuse an ambiguous name as pinref's does)."""
    for k, frame in enumerate(model.frames):
        if frame.name == name and frame.type & type:
            return k
    return model.nframes


def _joint_id_in(model_in, model_out, name):
    """``details::getJointId``: the joint of ``model_out`` matching joint ``name`` of
    ``model_in`` (the universe by position, whatever its name)."""
    if model_in.names.index(name) == 0 and model_in.parents[0] == 0:
        return model_out.getJointId(model_out.names[0])
    return model_out.getJointId(name)


def _frame_id_in(model_in, model_out, name, type):
    """``details::getFrameId``: the frame of ``model_out`` matching frame ``name`` of
    ``model_in`` (the universe frame by position, whatever its name)."""
    fid = _frame_id(model_in, name)
    first = model_in.frames[0]
    if fid == 0 and first.parentFrame == 0 and first.parentJoint == 0:
        return _frame_id(model_out, model_out.frames[0].name, type)
    return _frame_id(model_out, name, type)


def _nan_free(Y):
    """``Y == Y`` of Pinocchio: no NaN in mass, lever or rotational inertia."""
    return not (np.isnan(Y.mass).any() or np.isnan(Y.lever).any() or np.isnan(Y.inertia).any())


def _inertia_minus(Y, Yb):
    """``Y -= Yb`` (``Inertia::__mequ__``), on a copy: the body Yb taken off Y, both in one frame.

    ma = m - mb ; inv = 1 / max(ma, eps) ; c = c (m inv) - (mb inv) cb ; AB = c - cb ;
    I = (I - Ib) + (ma mb / m) [AB]x^2 ; m = ma
    """
    m, mb = np.asarray(Y.mass), np.asarray(Yb.mass)
    ma = m - mb
    inv = 1.0 / np.maximum(ma, _EPS)
    lever = Y.lever * (m * inv) - (mb * inv) * Yb.lever
    ab = lever - Yb.lever
    inertia = (Y.inertia - Yb.inertia) + K.alpha_skew_square(ma * mb / m, ab)
    return Inertia.unchecked(ma, lever, inertia)


# --- argument checks -------------------------------------------------------------------------


def _check_model(model, name, where):
    if not isinstance(model, Model):
        raise ArgumentTypeError(f"{where}: {name} must be a pinref Model, got "
                                f"{type(model).__name__}; convert a pinocchio Model with "
                                "pinref.from_pinocchio(model)")


def _check_geometry_model(geometry_model, name, where):
    if not isinstance(geometry_model, GeometryModel):
        raise ArgumentTypeError(f"{where}: {name} must be a pinref GeometryModel (or a list "
                                f"of them), got {K.type_name(geometry_model)}; load the "
                                "geometry with pinref (pinref.buildGeomFromUrdf)")


def _joints_to_lock(model, joints):
    """The sorted joint ids to lock; ModelError for the universe, an id past the model or a
    repeated id, ArgumentTypeError for what is not a list of integers."""
    where = "buildReducedModel"
    try:
        ids = list(joints)
    except TypeError:
        raise ArgumentTypeError(f"{where}: list_of_joints_to_lock must be a list of joint ids "
                                f"(int), got {type(joints).__name__}") from None
    out = []
    for jid in ids:
        if isinstance(jid, (bool, np.bool_)) or not isinstance(jid, (int, np.integer)):
            raise ArgumentTypeError(
                f"{where}: list_of_joints_to_lock holds {jid!r} ({type(jid).__name__}); pass "
                "joint ids (int), e.g. model.getJointId(name) for a joint name")
        if not 1 <= jid < model.njoints:
            raise ModelError(
                f"{where}: list_of_joints_to_lock holds joint id {int(jid)}, not a joint of the "
                f"model that can be locked (1 .. {model.njoints - 1}; 0 is the universe)")
        out.append(int(jid))
    out.sort()
    for a, b in itertools.pairwise(out):
        if a == b:
            raise ModelError(f"{where}: list_of_joints_to_lock holds joint {a} "
                             f"({model.names[a]!r}) twice; list each joint once")
    return out


def _reference_configuration(model, q):
    """``q`` as one configuration ``(nq,)`` (a column ``(nq, 1)`` too), finite, normalized."""
    a = real_array(q, "buildReducedModel: reference_configuration")
    if a.shape == (model.nq, 1):
        a = a[:, 0]
    if a.shape != (model.nq,):
        raise ShapeError(f"buildReducedModel: reference_configuration has shape {a.shape}, "
                         f"expected one configuration of shape ({model.nq},) (model.nq); a batch "
                         "of configurations is not accepted, reduce once per configuration")
    return model.check_configuration(a, "buildReducedModel: reference_configuration")


# --- buildReducedModel -----------------------------------------------------------------------


def _copy_input_frame(reduced, model, frame, locked):
    """One frame of ``model`` into ``reduced`` without its inertia (Pinocchio's loop body).

    A frame on a locked joint moves onto that joint's FIXED_JOINT frame (placement composed);
    the JOINT frame of a locked joint is already there as that FIXED_JOINT frame."""
    support_name = model.names[frame.parentJoint]
    out = frame.copy()
    if frame.parentJoint in locked:
        if (frame.type == FrameType.JOINT and reduced.existFrame(frame.name)
                and support_name == frame.name):
            return
        joint_frame = reduced.frames[_frame_id(reduced, support_name)]
        out.placement = joint_frame.placement * frame.placement
        out.parentJoint = joint_frame.parentJoint
    else:
        out.parentJoint = reduced.getJointId(support_name)
    out.parentFrame = _frame_id(reduced, model.frames[frame.parentFrame].name)
    reduced.addFrame(out, False)


def _reduce(model, locked, q):
    """The reduced Model (Pinocchio's ``buildReducedModel(model, joints, q, reduced_model)``)."""
    reduced = Model()
    reduced.names[0] = model.names[0]
    reduced.joints[0] = copy.deepcopy(model.joints[0])
    reduced.jointPlacements[0] = model.jointPlacements[0].copy()
    reduced.parents[0] = model.parents[0]
    reduced.inertias[0] = model.inertias[0].copy()
    reduced.name = model.name
    reduced.gravity = model.gravity
    frames = model.frames
    k = 0          # Pinocchio's frame_it: the input frames before frames[k] are handled
    n_locked = 0
    for joint_id in range(1, model.njoints):
        to_lock = locked[n_locked] if n_locked < len(locked) else 0
        name = model.names[joint_id]
        jmodel = model.joints[joint_id]
        parent_name = model.names[model.parents[joint_id]]
        if reduced.existJointName(parent_name):
            parent, pM0, previous_frame = reduced.getJointId(parent_name), SE3.Identity(), 0
        else:
            previous_frame = _frame_id(reduced, parent_name)
            parent_frame = reduced.frames[previous_frame]
            parent, pM0 = parent_frame.parentJoint, parent_frame.placement
        if joint_id == to_lock:
            if not any(frame.name == name for frame in frames[k + 1:]):
                raise ModelError(
                    f"buildReducedModel: joint {name!r} (id {joint_id}) has no frame of its name "
                    "after the frames already placed, which Pinocchio needs to lock it (it reads "
                    "past the end of model.frames); add one with model.addJointFrame(joint_id)")
            while frames[k].name != name:
                k += 1
                if frames[k].name == name:
                    break
                _copy_input_frame(reduced, model, frames[k], locked)
            jdata = jmodel.createData()
            jmodel.calc(jdata, q)
            liMi = pM0 * model.jointPlacements[joint_id] * jdata.M
            fid = reduced.addFrame(Frame(name, parent, previous_frame, liMi,
                                         FrameType.FIXED_JOINT, model.inertias[joint_id].copy()))
            reduced.frames[fid].parentFrame = fid  # Pinocchio's own choice for the missing parent
            n_locked += 1
            continue
        qs, vs = jmodel.q_slice, jmodel.v_slice
        jmodel = repointed(jmodel, model, reduced, "buildReducedModel")
        rid = reduced.addJoint(parent, jmodel, pM0 * model.jointPlacements[joint_id], name,
                               model.effortLimit[vs], model.velocityLimit[vs],
                               model.lowerPositionLimit[qs], model.upperPositionLimit[qs],
                               model.friction[vs], model.damping[vs])
        reduced.appendBodyToJoint(rid, model.inertias[joint_id], SE3.Identity())
        out = reduced.joints[rid].v_slice
        reduced.rotorInertia[out] = model.rotorInertia[vs]
        reduced.rotorGearRatio[out] = model.rotorGearRatio[vs]
        reduced.armature[out] = model.armature[vs]
    for config_name, config in model.referenceConfigurations.items():
        reduced_config = np.empty(reduced.nq)
        for rid in range(1, reduced.njoints):
            source = model.joints[model.getJointId(reduced.names[rid])]
            reduced_config[reduced.joints[rid].q_slice] = config[source.q_slice]
        reduced.referenceConfigurations[config_name] = reduced_config
    for frame in frames[k:]:
        _copy_input_frame(reduced, model, frame, locked)
    return reduced


def _reduce_geometry(model, reduced, geometry_model):
    """The GeometryModel of ``reduced``: each object on its joint's closest kept ancestor, at the
    locked joints' FIXED_JOINT placement times its own; its parent frame is the reduced model's
    BODY frame of the same name (Pinocchio's ``getBodyId``)."""
    out = GeometryModel()
    for geometry in geometry_model.geometryObjects:
        if not 0 <= geometry.parentJoint < model.njoints:
            raise ModelError(f"buildReducedModel: geometry object {geometry.name!r} has parent "
                             f"joint {geometry.parentJoint}, not a joint of the model "
                             f"(0 .. {model.njoints - 1})")
        if not 0 <= geometry.parentFrame < model.nframes:
            raise ModelError(f"buildReducedModel: geometry object {geometry.name!r} has parent "
                             f"frame {geometry.parentFrame}, not a frame of the model "
                             f"(0 .. {model.nframes - 1}); set geometry.parentFrame")
        joint_name = model.names[geometry.parentJoint]
        reduced_geometry = geometry.copy()
        if reduced.existJointName(joint_name):
            reduced_geometry.parentJoint = reduced.getJointId(joint_name)
            relative = SE3.Identity()
        else:
            joint_frame = reduced.frames[_frame_id(reduced, joint_name)]
            reduced_geometry.parentJoint = joint_frame.parentJoint
            relative = joint_frame.placement
        reduced_geometry.parentFrame = _frame_id(reduced, model.frames[geometry.parentFrame].name,
                                                 FrameType.BODY)
        reduced_geometry.placement = relative * geometry.placement
        out.addGeometryObject(reduced_geometry)
    out.collisionPairs = [pair.copy() for pair in geometry_model.collisionPairs]
    return out


def buildReducedModel(model, *args, **kwargs):
    """``model`` with the joints of ``list_of_joints_to_lock`` fixed at
    ``reference_configuration`` (Pinocchio's ``buildReducedModel``, algorithm/model.hxx).

    ``buildReducedModel(model, list_of_joints_to_lock, reference_configuration) -> Model``
    ``buildReducedModel(model, geom_model, list_of_joints_to_lock, q) -> (Model, GeometryModel)``
    ``buildReducedModel(model, list_of_geom_models, list_of_joints_to_lock, q) -> (Model, list)``

    A locked joint becomes a FIXED_JOINT frame on its closest kept ancestor, at
    ``jointPlacements[j] * M_j(q)`` composed with the locked ancestors'; its body merges into
    that ancestor's (in joint order); its children hang from the ancestor; every other frame is
    kept, moved with its joint. The kept joints keep their limits, friction, damping,
    armature and rotor parameters; ``idx_q``/``idx_v`` are renumbered; each reference
    configuration keeps the kept joints' entries. The input model is not changed.
    """
    where = "buildReducedModel"
    names = ("list_of_joints_to_lock", "reference_configuration")
    geometry_keys = {"geom_model", "list_of_geom_models"}
    if len(args) + len(kwargs) == 3 and args and not geometry_keys & kwargs.keys():
        kwargs["list_of_geom_models" if isinstance(args[0], (list, tuple))
               else "geom_model"] = args[0]
        args = args[1:]
    bind_positional(where, names, args, kwargs)
    unknown = set(kwargs) - {*names, *geometry_keys}
    missing = [key for key in names if key not in kwargs]
    if unknown or missing or geometry_keys <= set(kwargs):
        raise ArgumentTypeError(f"{where}: expected (model, [geom_model or "
                                f"list_of_geom_models,] list_of_joints_to_lock, "
                                f"reference_configuration); "
                        f"{'unknown ' + str(sorted(unknown)) if unknown else ''}"
                        f"{'missing ' + str(missing) if missing else ''}")
    _check_model(model, "model", where)
    geometry_models = None
    if "geom_model" in kwargs:
        _check_geometry_model(kwargs["geom_model"], "geom_model", where)
    if "list_of_geom_models" in kwargs:
        geometry_models = kwargs["list_of_geom_models"]
        if not isinstance(geometry_models, (list, tuple)):
            raise ArgumentTypeError(f"{where}: list_of_geom_models must be a list of pinref "
                                    f"GeometryModel, got {K.type_name(geometry_models)}")
        geometry_models = list(geometry_models)
        for n, geometry_model in enumerate(geometry_models):
            _check_geometry_model(geometry_model, f"list_of_geom_models[{n}]", where)
    locked = _joints_to_lock(model, kwargs["list_of_joints_to_lock"])
    q = _reference_configuration(model, kwargs["reference_configuration"])
    reduced = _reduce(model, locked, q)
    if "geom_model" in kwargs:
        return reduced, _reduce_geometry(model, reduced, kwargs["geom_model"])
    if geometry_models is not None:
        return reduced, [_reduce_geometry(model, reduced, g) for g in geometry_models]
    return reduced


# --- appendModel -----------------------------------------------------------------------------


def _append_frame(model, frame, joint_id, parent_frame):
    """``frame`` (a copy) on ``joint_id`` of ``model``: its inertia is taken off the joint's body
    first, then addFrame merges it back at the frame's placement (Pinocchio's order)."""
    if model.existFrame(frame.name, frame.type):
        raise ModelError(f"appendModel: the two models have conflicting frame names: both have "
                         f"a frame {frame.name!r} of type {frame.type}; rename one of them")
    frame.parentJoint, frame.parentFrame = joint_id, parent_frame
    if _nan_free(frame.inertia) and frame.inertia != Inertia.Zero():
        model.inertias[joint_id] = _inertia_minus(model.inertias[joint_id], frame.inertia)
    model.addFrame(frame)


def _append_universe(source, source_geometry, parent_frame, pfM, model, geometry_model):
    """What hangs from joint 0 of ``source`` (its body, frames and geometry) onto frame
    ``parent_frame`` of ``model`` at ``pfM`` (``details::appendUniverseToModel``)."""
    if not 0 <= parent_frame < model.nframes:
        raise ModelError(f"appendModel: parent frame {parent_frame} is not a frame of the model "
                         f"being built (0 .. {model.nframes - 1})")
    pframe = model.frames[parent_frame]
    jid = pframe.parentJoint
    if _nan_free(source.inertias[0]):
        model.appendBodyToJoint(jid, source.inertias[0], pframe.placement * pfM)
    for frame in source.frames[1:]:
        if frame.parentJoint != 0:
            continue
        out = frame.copy()
        parent = (parent_frame if frame.parentFrame == 0 else _frame_id_in(
            source, model, source.frames[frame.parentFrame].name,
            source.frames[frame.parentFrame].type))
        out.placement = pframe.placement * pfM * frame.placement
        _append_frame(model, out, jid, parent)
    for geometry in source_geometry.geometryObjects:
        if geometry.parentJoint != 0:
            continue
        out = geometry.copy()
        out.parentJoint = jid
        out.parentFrame = (parent_frame if geometry.parentFrame == 0 else _frame_id_in(
            source, model, source.frames[geometry.parentFrame].name,
            source.frames[geometry.parentFrame].type))
        out.placement = (pframe.placement * pfM) * geometry.placement
        geometry_model.addGeometryObject(out)


def _append_joint(source, source_geometry, joint_in, parent_id, pMi, model, geometry_model):
    """Joint ``joint_in`` of ``source`` with its body, frames and geometry onto ``model``
    (``details::AppendJointOfModelAlgo``): under ``parent_id`` at ``pMi * jointPlacements`` when
    its parent is the universe, else under its parent's copy. Armature is not copied (0)."""
    if source.parents[joint_in] > 0:
        parent_id = _joint_id_in(source, model, source.names[source.parents[joint_in]])
    name = source.names[joint_in]
    if model.existJointName(name):
        raise ModelError(f"appendModel: the two models have conflicting joint names: both have "
                         f"a joint {name!r}; rename one of them")
    jmodel = repointed(source.joints[joint_in], source, model, "appendModel")
    qs, vs = jmodel.q_slice, jmodel.v_slice
    joint_out = model.addJoint(parent_id, jmodel, pMi * source.jointPlacements[joint_in], name,
                               source.effortLimit[vs], source.velocityLimit[vs],
                               source.lowerPositionLimit[qs], source.upperPositionLimit[qs],
                               source.friction[vs], source.damping[vs])
    model.appendBodyToJoint(joint_out, source.inertias[joint_in])
    out = model.joints[joint_out].v_slice
    model.rotorInertia[out] = source.rotorInertia[vs]
    model.rotorGearRatio[out] = source.rotorGearRatio[vs]
    for frame in source.frames[1:]:
        if frame.parentJoint != joint_in:
            continue
        parent = (0 if frame.parentFrame == 0 else _frame_id_in(
            source, model, source.frames[frame.parentFrame].name,
            source.frames[frame.parentFrame].type))
        _append_frame(model, frame.copy(), joint_out, parent)
    for geometry in source_geometry.geometryObjects:
        if geometry.parentJoint != joint_in:
            continue
        out = geometry.copy()
        out.parentJoint = joint_out
        if 0 < geometry.parentFrame < source.nframes:
            out.parentFrame = _frame_id_in(source, model, source.frames[geometry.parentFrame].name,
                                           source.frames[geometry.parentFrame].type)
        geometry_model.addGeometryObject(out)


def _append_reference_configurations(model, source, configurations, neutral):
    """Each named configuration of ``source`` written into ``model``'s (a missing name starts
    from the neutral configuration)."""
    for config_name, config in source.referenceConfigurations.items():
        out = configurations.get(config_name, neutral).copy()
        for joint_id in range(1, source.njoints):
            target = model.joints[model.getJointId(source.names[joint_id])]
            out[target.q_slice] = config[source.joints[joint_id].q_slice]
        configurations[config_name] = out


def _append(modelA, modelB, geometryA, geometryB, frame_id, aMb):
    frame = modelA.frames[frame_id]
    model, geometry_model = Model(), GeometryModel()
    identity = SE3.Identity()
    _append_universe(modelA, geometryA, 0, identity, model, geometry_model)
    parent = frame.parentJoint
    before = [j for j in range(1, modelA.njoints) if j <= parent or parent in modelA.supports[j]]
    after = [j for j in range(1, modelA.njoints) if j not in before]
    for j in before:
        _append_joint(modelA, geometryA, j, 0, identity, model, geometry_model)
    _append_universe(modelB, geometryB, _frame_id_in(modelA, model, frame.name, frame.type), aMb,
                     model, geometry_model)
    for j in range(1, modelB.njoints):
        pMi = frame.placement * aMb if modelB.parents[j] == 0 else identity
        _append_joint(modelB, geometryB, j, parent, pMi, model, geometry_model)
    for j in after:
        _append_joint(modelA, geometryA, j, 0, identity, model, geometry_model)
    neutral = np.empty(model.nq)
    for jmodel in model.joints[1:]:
        neutral[jmodel.q_slice] = jmodel.neutral()
    configurations = {}
    _append_reference_configurations(model, modelA, configurations, neutral)
    _append_reference_configurations(model, modelB, configurations, neutral)
    for config_name, config in configurations.items():
        model.referenceConfigurations[config_name] = config
    _append_collision_pairs(geometry_model, geometryA, geometryB)
    return model, geometry_model


def _append_collision_pairs(geometry_model, geometryA, geometryB):
    """``geometry_model``'s collision pairs as Pinocchio's ``appendModel`` adds them: geomModelA's
    pairs, geomModelB's, then every (A object, B object) pair on different joints, A-major;
    each object found by its name (the first object of that name, as ``getGeometryId``), an
    equal pair added once (``addCollisionPair``)."""
    objects = geometry_model.geometryObjects
    ids = {}
    for k, geometry in enumerate(objects):
        ids.setdefault(geometry.name, k)
    pairs, seen = [], set()

    def add(first, second):
        key = (min(first, second), max(first, second))
        if key not in seen:
            seen.add(key)
            pairs.append(CollisionPair(first, second))

    for source in (geometryA, geometryB):
        names = [geometry.name for geometry in source.geometryObjects]
        for pair in source.collisionPairs:
            add(ids[names[pair.first]], ids[names[pair.second]])
    in_b = [ids[geometry.name] for geometry in geometryB.geometryObjects]
    for a in (ids[geometry.name] for geometry in geometryA.geometryObjects):
        for b in in_b:
            if objects[a].parentJoint != objects[b].parentJoint:
                add(a, b)
    geometry_model.collisionPairs = pairs


def appendModel(modelA, modelB, *args, **kwargs):
    """``modelB`` attached to frame ``frameInModelA`` of ``modelA`` at ``aMb`` (placement of
    modelB's universe in that frame): Pinocchio's ``appendModel`` (algorithm/model.hxx).

    ``appendModel(modelA, modelB, frame_in_modelA, aMb) -> Model``
    ``appendModel(modelA, modelB, geomModelA, geomModelB, frame_in_modelA, aMb)
    -> (Model, GeometryModel)``

    Joint order: modelA's joints up to the frame's joint and that joint's descendants, then
    modelB's, then modelA's others. Joint and frame names must not clash (ModelError). The new
    model has the default name and gravity and zero armature (Pinocchio does not copy it). The
    GeometryModel's ``collisionPairs`` are geomModelA's and geomModelB's (ids moved to the new
    objects) and then every (geomModelA object, geomModelB object) pair on different joints.
    """
    where = "appendModel"
    geometric = len(args) + len(kwargs) == 4
    names = (("geomModelA", "geomModelB") if geometric else ()) + ("frame_in_modelA", "aMb")
    bind_positional(where, names, args, kwargs)
    if set(kwargs) != set(names):
        raise ArgumentTypeError(f"{where}: expected (modelA, modelB, [geomModelA, "
                                f"geomModelB,] frame_in_modelA, aMb), got the arguments "
                                f"{sorted(kwargs)}")
    _check_model(modelA, "modelA", where)
    _check_model(modelB, "modelB", where)
    geometryA = kwargs.get("geomModelA", GeometryModel())
    geometryB = kwargs.get("geomModelB", GeometryModel())
    _check_geometry_model(geometryA, "geomModelA", where)
    _check_geometry_model(geometryB, "geomModelB", where)
    frame_id, aMb = kwargs["frame_in_modelA"], kwargs["aMb"]
    if isinstance(frame_id, (bool, np.bool_)) or not isinstance(frame_id, (int, np.integer)):
        raise ArgumentTypeError(f"{where}: frame_in_modelA must be a frame id (int), got "
                                f"{frame_id!r}; use modelA.getFrameId(name) for a frame name")
    if not 0 <= frame_id < modelA.nframes:
        raise ModelError(f"{where}: frame_in_modelA = {int(frame_id)} is not a frame of modelA "
                         f"(0 .. {modelA.nframes - 1})")
    if not isinstance(aMb, SE3) or aMb.shape != ():
        raise ArgumentTypeError(f"{where}: aMb must be one pinref SE3 (the placement of modelB's "
                                f"universe in the frame), got {type(aMb).__name__}")
    model, geometry_model = _append(modelA, modelB, geometryA, geometryB, int(frame_id), aMb)
    return (model, geometry_model) if geometric else model


__all__ = ["appendModel", "buildReducedModel"]
