"""Models with mimic joints: their Model and Data fields, the extended model the algorithms run
on, and ``transformJointIntoMimic`` (multibody/model.hxx, data.hxx, algorithm/model.hxx).

**Extended model.** A mimic joint m follows the mimicked joint k: ``q_m = scaling q_k +
offset`` and ``v_m = scaling v_k``. The *extended model* E of a model is the same tree with
every mimic joint replaced by its wrapped joint (its own q and v); E's tangent space is the
model's extended one (``nvExtended`` entries, E's ``idx_v`` is the model's ``idx_vExtended``).
With the linear map ``G`` (nvExtended x nv): identity from each joint's own entries, and
``scaling`` from the mimicked joint's entries to the mimic joint's, a state (q, v, a) of the
model is the state ``(q_E, G v, G a)`` of E, every per-joint cache (placements, velocities,
forces, inertias) is E's, and the tangent-space results are E's reduced (Pinocchio 3.8.0
computes the same sums, in its mimic steps):

    tau = G^T tau_E        M = G^T M_E G        Ag = Ag_E G        J = J_E diag(1 .. scaling)

(``data.J`` keeps the extended columns: a mimic joint's columns are ``oMi S``, ``S = scaling
S_t``). pinref/algorithms/mimic.py runs the algorithms that way.
"""

import operator
import weakref

import numpy as np

from ..errors import ModelError
from ..joints.base import shallow_copy
from ..joints.mimic import JointDataMimic, JointModelMimic, check_mimicable, mimic_configuration

# --- Model fields ---------------------------------------------------------------------------


def check_mimicked(model, jmodel, joint_id, joint_name):
    """ModelError unless a mimic joint added as ``joint_id`` follows an earlier joint of
    ``model`` of its sizes (Pinocchio throws "Mimic joint index is lower than its directing
    joint")."""
    if not isinstance(jmodel, JointModelMimic):
        return
    k = jmodel.mimicked_id
    if not 0 < k < joint_id:
        raise ModelError(
            f"addJoint({joint_name!r}): a mimic joint must follow a joint added before it "
            f"(ids 1 .. {joint_id - 1}), got the mimicked joint id {k}; build it with "
            "JointModelMimic(model.joints[k], scaling, offset)")
    mimicked = model.joints[k]
    if (isinstance(mimicked, JointModelMimic) or mimicked.nq != jmodel.jmodel.nq
            or mimicked.nv != jmodel.jmodel.nv):
        raise ModelError(
            f"addJoint({joint_name!r}): the mimicked joint {model.names[k]!r} "
            f"({mimicked.shortname()}) must be an ordinary joint of the sizes of the mimicking "
            f"type {jmodel.jmodel.shortname()} (nq {jmodel.jmodel.nq}, nv {jmodel.jmodel.nv})")
    if (jmodel.idx_q, jmodel.idx_v) != (mimicked.idx_q, mimicked.idx_v):
        raise ModelError(
            f"addJoint({joint_name!r}): the mimic joint reads q[{jmodel.idx_q}], v[{jmodel.idx_v}]"
            f" but joint {model.names[k]!r} starts at q[{mimicked.idx_q}], v[{mimicked.idx_v}]; "
            "build it from model.joints[k] of this model")


def add_mimic_fields(model, jmodel, joint_id):
    """``mimic_joint_supports``, ``mimicking_joints``, ``mimicked_joints`` after ``addJoint``."""
    supports = list(model.mimic_joint_supports[model.parents[joint_id]])
    if isinstance(jmodel, JointModelMimic):
        supports.append(joint_id)
        model.mimicking_joints.append(joint_id)
        model.mimicked_joints.append(jmodel.mimicked_id)
    model.mimic_joint_supports.append(supports)


def mimic_of(jmodel, mimicked, scaling, offset):
    """A JointModelMimic of ``jmodel``'s type following the joint ``mimicked`` (Pinocchio's
    two-joint constructor, which its Python binding does not offer: the sample models' RY
    that follows an RX)."""
    mimic = JointModelMimic(jmodel, scaling, offset)
    mimic.setMimicIndexes(mimicked.id, mimicked.idx_q, mimicked.idx_v, mimicked.idx_vExtended)
    return mimic


def repointed(jmodel, old_model, new_model, where):
    """``jmodel`` of ``old_model`` as ``new_model`` takes it: a mimic joint follows the joint of
    its mimicked joint's name there (``updateMimicIds`` of appendModel, the mimic branch of
    buildReducedModel); ModelError when that joint is not in ``new_model`` (locked)."""
    if not isinstance(jmodel, JointModelMimic):
        return jmodel
    name = old_model.names[jmodel.mimicked_id]
    if name not in new_model.names:
        raise ModelError(f"{where}: the mimic joint follows joint {name!r}, which is not in the "
                         "new model (it is locked); lock the mimic joint too, or keep its joint")
    k = new_model.names.index(name)
    out = shallow_copy(jmodel)
    out.jmodel = shallow_copy(jmodel.jmodel)
    target = new_model.joints[k]
    out.setMimicIndexes(k, target.idx_q, target.idx_v, target.idx_vExtended)
    return out


# --- Data fields (DataTpl::computeParents_fromRow, the mimic part of the constructor) -------


def data_rows(model, nv_subtree):
    """Pinocchio's row bookkeeping of a Data, over the extended rows (nvExtended) of ``model``:
    ``parents_fromRow`` (the row of the parent joint's last column, -1 at a root),
    ``nvSubtree_fromRow``, ``mimic_parents_fromRow`` / ``non_mimic_parents_fromRow`` (the same,
    skipping joints that are not / are mimic joints), ``start_idx_v_fromRow``,
    ``end_idx_v_fromRow`` and ``idx_vExtended_to_idx_v_fromRow``; then ``mimic_subtree_joint``
    (for each mimic joint, the first joint of its subtree with tangent entries, else 0)."""
    n = model.nvExtended
    rows = {name: [-1] * n for name in (
        "parents_fromRow", "mimic_parents_fromRow", "non_mimic_parents_fromRow",
        "nvSubtree_fromRow", "start_idx_v_fromRow", "end_idx_v_fromRow",
        "idx_vExtended_to_idx_v_fromRow")}
    joints = model.joints

    def last_row(k):
        return joints[k].idx_vExtended + joints[k].nvExtended - 1 if k > 0 else -1

    def first_parent(i, mimic):
        k = model.parents[i]
        while k > 0 and isinstance(joints[k], JointModelMimic) != mimic:
            k = model.parents[k]
        return k

    for i in range(1, model.njoints):
        jm = joints[i]
        e, v = jm.idx_vExtended, jm.idx_v
        rows["parents_fromRow"][e] = last_row(model.parents[i])
        rows["non_mimic_parents_fromRow"][e] = last_row(first_parent(i, False))
        rows["mimic_parents_fromRow"][e] = last_row(first_parent(i, True))
        rows["nvSubtree_fromRow"][e] = nv_subtree[i]
        rows["start_idx_v_fromRow"][v] = v
        rows["end_idx_v_fromRow"][v] = v + jm.nvExtended - 1
        rows["idx_vExtended_to_idx_v_fromRow"][e] = v
        for r in range(1, jm.nvExtended):
            for name in ("parents_fromRow", "mimic_parents_fromRow",
                         "non_mimic_parents_fromRow"):
                rows[name][e + r] = e + r - 1
            rows["nvSubtree_fromRow"][e + r] = nv_subtree[i] - r
            rows["start_idx_v_fromRow"][e + r] = rows["start_idx_v_fromRow"][e]
            rows["end_idx_v_fromRow"][e + r] = rows["end_idx_v_fromRow"][e]
            rows["idx_vExtended_to_idx_v_fromRow"][e + r] = v + r
    subtree_joint = []
    for m in model.mimicking_joints:
        below = [j for j in model.subtrees[m][1:] if model.nvs[j] != 0]
        subtree_joint.append(below[0] if below else 0)
    rows["mimic_subtree_joint"] = subtree_joint
    return rows


# --- the extended model ---------------------------------------------------------------------


class Extension:
    """The extended model ``E`` of a model with mimic joints, and the index maps of ``G``.

    ``own_ext``/``own_v``: the extended and model columns of every entry a joint owns (the
    identity part of G); ``mimics``: per mimic joint, its extended columns, the mimicked
    joint's columns and the scaling.
    """

    def __init__(self, model):
        E = type(model)()
        E.name = model.name
        for i in range(1, model.njoints):
            jm = model.joints[i]
            wrapped = jm.jmodel if isinstance(jm, JointModelMimic) else jm
            E.addJoint(model.parents[i], wrapped, model.jointPlacements[i], model.names[i])
        self.model, self.joints = E, list(model.joints)
        self.structure = model.structure()
        own_ext, own_v, self.mimics = [], [], []
        for i in range(1, model.njoints):
            jm = model.joints[i]
            ext = list(range(jm.idx_vExtended, jm.idx_vExtended + jm.nvExtended))
            if isinstance(jm, JointModelMimic):
                self.mimics.append((ext, list(range(jm.idx_v, jm.idx_v + jm.nvExtended)),
                                    jm.scaling))
            else:
                own_ext += ext
                own_v += range(jm.idx_v, jm.idx_v + jm.nv)
        order = np.argsort(own_v)
        self.own_ext = np.array(own_ext, dtype=int)[order]

    def current(self, model):
        """E with the model's numbers of today: placements, inertias and frames are the
        model's objects; armature (zero on a mimic joint's entries), gravity and limits are
        copied."""
        E = self.model
        E.jointPlacements, E.inertias, E.frames = (model.jointPlacements, model.inertias,
                                                   model.frames)
        E.gravity = model.gravity
        E.armature = self.expand(model.armature, zero_mimics=True)
        return E

    def configuration(self, q):
        """q_E: every joint's own segment, and the affine image of the mimicked segment at a
        mimic joint's (``configVectorAffineTransform``)."""
        parts = []
        for jm in self.joints[1:]:
            if isinstance(jm, JointModelMimic):
                seg = q[..., jm.idx_q:jm.idx_q + jm.jmodel.nq]
                parts.append(mimic_configuration(jm.jmodel, seg, jm.scaling, jm.offset))
            else:
                parts.append(q[..., jm.q_slice])
        return np.concatenate(parts, axis=-1) if parts else q

    def expand(self, x, axis=-1, zero_mimics=False):
        """``G x`` along ``axis`` (a velocity-like vector into the extended space); with
        ``zero_mimics``, the embedding that puts 0 on the mimic joints' entries."""
        x = np.moveaxis(np.asarray(x, dtype=float), axis, -1)
        out = np.zeros(x.shape[:-1] + (self.model.nv,))
        out[..., self.own_ext] = x
        if not zero_mimics:
            for ext, cols, scaling in self.mimics:
                out[..., ext] = scaling * x[..., cols]
        return np.moveaxis(out, -1, axis)

    def reduce(self, x, axis=-1):
        """``G^T x`` along ``axis`` (a force-like vector of the extended space onto the
        model's): each joint's own entries, plus scaling times a mimic joint's entries on its
        mimicked joint's."""
        x = np.moveaxis(np.asarray(x, dtype=float), axis, -1)
        out = x[..., self.own_ext].copy()
        for ext, cols, scaling in self.mimics:
            out[..., cols] += scaling * x[..., ext]
        return np.moveaxis(out, -1, axis)

    def scale_mimic_columns(self, J):
        """``J diag(1 .. scaling)``: a mimic joint's extended columns times its scaling."""
        J = np.array(J, dtype=float)
        for ext, _, scaling in self.mimics:
            J[..., ext] *= scaling
        return J


_EXTENSIONS = {}   # id(model) -> (weak reference to the model, its Extension)


def extension(model):
    """The model's Extension, built on first use and again when the model's structure or
    joint objects changed."""
    entry = _EXTENSIONS.get(id(model))
    if (entry is not None and entry[0]() is model and entry[1].structure == model.structure()
            and all(map(operator.is_, model.joints, entry[1].joints))):
        return entry[1]
    built = Extension(model)
    key = id(model)
    _EXTENSIONS[key] = (weakref.ref(model, lambda _: _EXTENSIONS.pop(key, None)), built)
    return built


def mimic_joint_data(data, model):
    """``data.joints`` as Pinocchio's: a JointDataMimic (wrapping E's data of the wrapped joint)
    at each mimic joint."""
    return [JointDataMimic(jd, jm.scaling) if isinstance(jm, JointModelMimic) else jd
            for jd, jm in zip(data.joints, model.joints)]


# --- transformJointIntoMimic ----------------------------------------------------------------


def transformJointIntoMimic(input_model, index_mimicked, index_mimicking, scaling, offset):
    """A copy of ``input_model`` whose joint ``index_mimicking`` becomes a JointModelMimic of
    its own type following joint ``index_mimicked`` (``pinocchio::transformJointIntoMimic``):
    its q and v entries (and their limits, armature, friction, ...) leave the model, the later
    joints' indexes move down; its placement, inertia, frames, name and extended columns stay.
    The named configurations lose the mimicking joint's entries."""
    n = input_model.njoints
    if not 0 < index_mimicked < index_mimicking < n:
        raise ModelError(
            f"transformJointIntoMimic: need 0 < index_mimicked < index_mimicking < njoints = "
            f"{n}, got {index_mimicked}, {index_mimicking} (Pinocchio: \"index_mimicking is "
            "greater than index_mimicked\")")
    model = input_model.copy()
    old = model.joints[index_mimicking]
    if isinstance(old, JointModelMimic) or isinstance(model.joints[index_mimicked],
                                                      JointModelMimic):
        raise ModelError("transformJointIntoMimic: the mimicking and the mimicked joint must "
                         "be ordinary joints, not mimic joints")
    check_mimicable(old, f"transformJointIntoMimic(joint {input_model.names[index_mimicking]!r})")
    mimicked = model.joints[index_mimicked]
    if (old.nq, old.nv) != (mimicked.nq, mimicked.nv):
        raise ModelError(
            f"transformJointIntoMimic: joint {input_model.names[index_mimicking]!r} "
            f"({old.shortname()}) and joint {input_model.names[index_mimicked]!r} "
            f"({mimicked.shortname()}) have different sizes")
    q_gone, v_gone = old.q_slice, old.v_slice
    mimic = mimic_of(old, mimicked, scaling, offset)
    mimic.setIndexes(index_mimicking, 0, 0, old.idx_vExtended)
    model.joints[index_mimicking] = mimic
    keep_q = np.r_[0:q_gone.start, q_gone.stop:input_model.nq]
    keep_v = np.r_[0:v_gone.start, v_gone.stop:input_model.nv]
    idx_q, idx_v = mimic.idx_q, mimic.idx_v
    for i in range(index_mimicking, n):
        jm = model.joints[i]
        if i == index_mimicking:
            idx_q, idx_v = input_model.idx_qs[i], input_model.idx_vs[i]
        elif isinstance(jm, JointModelMimic):
            k = jm.mimicked_id
            jm.setIndexes(i, idx_q, idx_v, input_model.joints[i].idx_vExtended)
            jm.jmodel = shallow_copy(jm.jmodel)
            jm.setMimicIndexes(k, model.idx_qs[k], model.idx_vs[k],
                               input_model.joints[i].idx_vExtended)
        else:
            jm.setIndexes(i, idx_q, idx_v, input_model.joints[i].idx_vExtended)
        model.idx_qs[i], model.idx_vs[i] = jm.idx_q, jm.idx_v
        model.nqs[i], model.nvs[i] = jm.nq, jm.nv
        idx_q += jm.nq
        idx_v += jm.nv
    model.nq, model.nv = input_model.nq - old.nq, input_model.nv - old.nv
    for name in ("lowerPositionLimit", "upperPositionLimit"):
        setattr(model, name, getattr(input_model, name)[keep_q])
    for name in ("effortLimit", "velocityLimit", "armature", "rotorInertia", "rotorGearRatio",
                 "friction", "damping"):
        setattr(model, name, getattr(input_model, name)[keep_v])
    model.referenceConfigurations = {k: q[keep_q] for k, q in
                                     input_model.referenceConfigurations.items()}
    for i in input_model.subtrees[index_mimicking]:
        _insert_sorted(model.mimic_joint_supports[i], index_mimicking)
    _insert_sorted(model.mimicking_joints, index_mimicking)
    _insert_sorted(model.mimicked_joints, index_mimicked)
    return model


def _insert_sorted(ids, k):
    """``details::insertSort``: ``k`` into the sorted list ``ids``, in place."""
    ids.append(k)
    ids.sort()


# --- Data of a model with mimic joints --------------------------------------------------------

# The Data caches with tangent-space axes, and those axes: Pinocchio sizes them with nv (E's
# Data with nvExtended). A written one is E's reduced by G along those axes (``reduce``); J and
# dJ keep the extended columns; Fcrb is Pinocchio's own (pinref/algorithms/mimic.py).
TANGENT_CACHES = {
    **dict.fromkeys(("tau", "nle", "g", "u", "ddq", "D", "Dinv", "torque_residual",
                     "dq_after", "Jcom", "dVdq", "dAdq", "dAdv", "dFda", "dFdq", "dFdv",
                     "SDinv", "Ag", "dAg", "dHdq"), (-1,)),
    **dict.fromkeys(("M", "Minv", "C", "dtau_dq", "dtau_dv", "ddq_dq", "ddq_dv", "ddq_dtau",
                     "U", "sDUiJt"), (-2, -1)),
    "jointTorqueRegressor": (-2,),
}
# What the algorithms read as E's and Pinocchio exposes otherwise: swapped in for a run on E.
EXTENDED_FIELDS = (*TANGENT_CACHES, "Fcrb", "J", "dJ", "nvSubtree", "nvSubtree_fromRow",
                   "joints", "model_structure")


def reduce_axes(ext, x, axes):
    """``x`` of E's sizes reduced by G along ``axes``."""
    for axis in axes:
        x = ext.reduce(x, axis)
    return x


def init_mimic_data(data, model):
    """A Data for a model with mimic joints: E's Data (kept in ``data.extended``, what the
    algorithms run on), with the fields Pinocchio exposes: the tangent caches of nv entries
    (U the identity, the others zero), J and dJ of nvExtended columns, nvSubtree and the row
    bookkeeping of the model, JointDataMimic at the mimic joints."""
    from .data import Data, _nv_subtree
    from .stacks import MatrixStack

    ext = extension(model)
    Data.__init__(data, ext.current(model))
    data.extended = {name: getattr(data, name) for name in EXTENDED_FIELDS}
    for name, axes in TANGENT_CACHES.items():
        setattr(data, name, reduce_axes(ext, getattr(data, name), axes))
    data.U = np.eye(model.nv)
    data.Fcrb = MatrixStack(data.Fcrb.pos, 6, model.nv)
    data.J, data.dJ = data.J.copy(), data.dJ.copy()
    data.nvSubtree = _nv_subtree(model)
    vars(data).update(data_rows(model, data.nvSubtree))
    data.joints = mimic_joint_data(data, model)
    data.model_structure = model.structure()
