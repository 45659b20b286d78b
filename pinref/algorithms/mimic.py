"""The algorithms on a model with mimic joints (pinref/joints/mimic.py, pinref/model/mimic.py).

Pinocchio 3.8.0 runs rnea, crba, the kinematics, frames, Jacobians, centre of mass and the
centroidal map with mimic joints (its mimic steps add a mimic joint's terms into the mimicked
joint's rows and columns); its Python binding refuses the others with RuntimeError "This
algorithm does not support Joint Mimic type in the model." (``mimic_not_supported_function``).

pinref runs each supported algorithm, unchanged, on the model's extended model E
(``model/mimic.py``: every mimic joint with its own q and v) at the state ``(q_E, G v, G a)``,
on the Data's E fields (``data.extended``), then gives Pinocchio's fields: every cache the call
wrote along the tangent space reduced by G (``tau = G^T tau_E``, ``M = G^T M_E G``, ``Ag =
Ag_E G``, a Jacobian result ``J_E G``), ``data.J``/``data.dJ`` with a mimic joint's columns times
its scaling, and Pinocchio's ``Fcrb``. The refused ones raise MimicUnsupportedError (a
NotImplementedError, and so a RuntimeError as Pinocchio's). ``install`` wraps the public
functions, once, when pinref.algorithms is imported; on a model without mimic joints the
wrapper calls the function as it is.
"""

import functools
import importlib
import inspect

import numpy as np

from ..errors import MimicUnsupportedError
from ..joints.mimic import JointModelMimic
from ..model.mimic import EXTENDED_FIELDS, TANGENT_CACHES, extension, reduce_axes
from ..model.model import Model
from ..spatial._kernels import ANGULAR, LINEAR
from ._args import check_data

# The public functions Pinocchio 3.8.0 runs with mimic joints, by module, and how their result
# maps back: "rows" G^T along the last axis (tau), "matrix" G^T . G (M), "cols" . G (a
# Jacobian), "J" data.J's layout (the mimic joint's columns times its scaling), None as is.
SUPPORTED = {
    "kinematics": {"forwardKinematics": None},
    "rnea": {"rnea": "rows", "nonLinearEffects": "rows", "computeGeneralizedGravity": "rows",
             "computeStaticTorque": "rows"},
    "crba": {"crba": "matrix"},
    "frames": {"updateFramePlacements": None, "updateFramePlacement": None,
               "framesForwardKinematics": None, "getVelocity": None, "getAcceleration": None,
               "getClassicalAcceleration": None, "getFrameVelocity": None,
               "getFrameAcceleration": None, "getFrameClassicalAcceleration": None,
               "getFrameJacobian": "cols", "computeFrameJacobian": "cols",
               "getFrameJacobianTimeVariation": "cols", "frameJacobianTimeVariation": "cols"},
    "jacobian": {"computeJointJacobians": "J", "getJointJacobian": "cols",
                 "computeJointJacobian": "cols", "computeJointJacobiansTimeVariation": "J",
                 "getJointJacobianTimeVariation": "cols"},
    "center_of_mass": {"centerOfMass": None, "jacobianCenterOfMass": "cols",
                       "computeTotalMass": None, "computeSubtreeMasses": None},
    "centroidal": {"ccrba": "cols", "computeCentroidalMap": "cols",
                   "computeCentroidalMomentum": None,
                   "computeCentroidalMomentumTimeVariation": None},
    "geometry": {"updateGeometryPlacements": None},
}

# The public functions Pinocchio 3.8.0's binding refuses with mimic joints, by module, and the
# two it lets through although their C++ asserts "Function does not support mimic joints"
# (computeCoriolisMatrix, getCoriolisMatrix: Pinocchio returns a C with C v != nle - g).
REFUSED = {
    "aba": ("aba",),
    "minverse": ("computeMinverse",),
    "rnea_derivatives": ("computeRNEADerivatives", "computeGeneralizedGravityDerivatives",
                         "computeStaticTorqueDerivatives"),
    "aba_derivatives": ("computeABADerivatives",),
    "energy": ("computeKineticEnergy", "computePotentialEnergy", "computeMechanicalEnergy"),
    "center_of_mass_derivatives": ("getCenterOfMassVelocityDerivatives",
                                   "jacobianSubtreeCenterOfMass",
                                   "getJacobianSubtreeCenterOfMass"),
    "centroidal": ("dccrba", "computeCentroidalMapTimeVariation"),
    "centroidal_derivatives": ("computeCentroidalDynamicsDerivatives",
                               "getCentroidalDynamicsDerivatives"),
    "coriolis": ("computeCoriolisMatrix", "getCoriolisMatrix"),
    "compute_all_terms": ("computeAllTerms",),
    "regressor": ("jointBodyRegressor", "frameBodyRegressor", "computeJointTorqueRegressor",
                  "computeStaticRegressor", "computeJointKinematicRegressor",
                  "computeFrameKinematicRegressor", "computeKineticEnergyRegressor",
                  "computePotentialEnergyRegressor"),
    "kinematics_derivatives": ("computeForwardKinematicsDerivatives",
                               "getJointVelocityDerivatives", "getJointAccelerationDerivatives",
                               "getPointVelocityDerivatives",
                               "getPointClassicAccelerationDerivatives"),
    "frames_derivatives": ("getFrameVelocityDerivatives", "getFrameAccelerationDerivatives"),
    "contact_dynamics": ("forwardDynamics", "impulseDynamics",
                         "computeKKTContactDynamicMatrixInverse",
                         "getKKTContactDynamicMatrixInverse"),
    "cholesky": ("decompose", "solve", "computeMinv"),
}

# Supported in the WORLD frame only: in LOCAL and LOCAL_WORLD_ALIGNED, Pinocchio 3.8.0 adds the
# frame's motion terms over the joint's velocity columns counted without the mimic joints'
# extended columns (``colRef = nv + idx_v - 1`` walked with the extended ``parents_fromRow``),
# so the mimicked joint's column misses them: its dJ is not the derivative of its J.
WORLD_ONLY = ("getFrameJacobianTimeVariation", "frameJacobianTimeVariation")

_MESSAGE = ("{name}: the model has mimic joints ({joints}), and Pinocchio 3.8.0 does not "
            "support them in this algorithm (\"This algorithm does not support Joint Mimic type "
            "in the model.\"); use rnea, crba, the kinematics, Jacobians, frames, centre of "
            "mass or centroidal map, or a model without mimic joints (the mimic joint as an "
            "ordinary joint)")


def _has_mimic_joints(model):
    """A pinref Model with mimic joints (anything else goes to the function's own checks)."""
    return isinstance(model, Model) and bool(model.mimicking_joints)


def refusing(fn):
    """``fn``, refusing a model with mimic joints (MimicUnsupportedError naming them)."""
    @functools.wraps(fn)
    def wrapper(model, *args, **kwargs):
        if _has_mimic_joints(model):
            joints = ", ".join(repr(model.names[m]) for m in model.mimicking_joints)
            raise MimicUnsupportedError(_MESSAGE.format(name=fn.__name__, joints=joints))
        return fn(model, *args, **kwargs)
    return wrapper


def on_extended_model(fn, result):
    """``fn`` running on the extended model for a model with mimic joints (module docstring);
    ``result`` says how its result maps back (``SUPPORTED``)."""
    signature = inspect.signature(fn)

    @functools.wraps(fn)
    def wrapper(model, *args, **kwargs):
        if not _has_mimic_joints(model):
            return fn(model, *args, **kwargs)
        bound = signature.bind(model, *args, **kwargs)
        if fn.__name__ in WORLD_ONLY and bound.arguments["reference_frame"] != 0:
            raise MimicUnsupportedError(
                f"{fn.__name__}: the model has mimic joints, and Pinocchio 3.8.0's result in "
                f"the LOCAL and LOCAL_WORLD_ALIGNED frames misses the mimic joints' terms (it "
                "is not the derivative of the frame's Jacobian); ask for ReferenceFrame.WORLD, "
                "or use getJointJacobianTimeVariation")
        return _run(fn, result, model, bound)
    return wrapper


def _run(fn, result, model, bound):
    """One call of ``fn`` on E (the bound arguments mapped), the Data's fields mapped back."""
    ext = extension(model)
    E = ext.current(model)
    data = bound.arguments.get("data")
    states = _map_states(model, ext, bound)
    args, kwargs = _arguments(bound, E, states)
    if data is None:
        return _result(ext, fn(*args, **kwargs), result)
    check_data(model, data)
    arrays = [x for key, x in states.items() if key not in _MODEL_STATE]
    if arrays:
        data.conform(model, np.broadcast_shapes(*(x.shape[:-1] for x in arrays)))
    out, marked = _with_extended_fields(data, lambda: fn(*args, **kwargs))
    _map_back(model, ext, data, marked, states)
    return _result(ext, out, result)


def _map_states(model, ext, bound):
    """The configuration (``q``) and tangent vectors (``v``, ``a``) among the arguments, checked
    against the model and mapped to E: ``{name or (name, position): array}``; the model's own
    q and v are kept under ``_MODEL_STATE`` (for the JointDataMimic's joint_q, joint_v)."""
    mapped, seen_q = {}, False
    for name, value in bound.arguments.items():
        kind = bound.signature.parameters[name].kind
        values = value if kind is inspect.Parameter.VAR_POSITIONAL else (value,)
        for k, x in enumerate(values):
            key = (name, k) if kind is inspect.Parameter.VAR_POSITIONAL else name
            if name in ("model", "data") or not _is_vector(x):
                continue
            if name == "q" or (kind is inspect.Parameter.VAR_POSITIONAL and not seen_q):
                q = model.check_configuration(x)
                mapped[key], seen_q = ext.configuration(q), True
                mapped.setdefault(_MODEL_Q, q)
            elif name in ("v", "a") or kind is inspect.Parameter.VAR_POSITIONAL:
                v = model.check_vector(x, name if name in ("v", "a") else "v", model.nv)
                mapped[key] = ext.expand(v)
                mapped.setdefault(_MODEL_V, v)
    return mapped


_MODEL_Q, _MODEL_V = ("model", "q"), ("model", "v")   # keys no argument has
_MODEL_STATE = (_MODEL_Q, _MODEL_V)


def _is_vector(x):
    return isinstance(x, np.ndarray) or (isinstance(x, (list, tuple)) and x and
                                         all(isinstance(e, (int, float)) for e in x))


def _arguments(bound, E, states):
    """The positional and keyword arguments of the call on E."""
    args, kwargs = [], {}
    for name, value in bound.arguments.items():
        kind = bound.signature.parameters[name].kind
        if name == "model":
            args.append(E)
        elif kind is inspect.Parameter.VAR_POSITIONAL:
            args.extend(states.get((name, k), x) for k, x in enumerate(value))
        elif kind is inspect.Parameter.VAR_KEYWORD:
            kwargs.update(value)
        elif kind is inspect.Parameter.KEYWORD_ONLY:
            kwargs[name] = value
        else:
            args.append(states.get(name, value))
    return args, kwargs


def _with_extended_fields(data, call):
    """Run ``call`` with the Data's E fields in place; return its result and the caches it
    marked written (``Data.mark``)."""
    public = {name: getattr(data, name) for name in EXTENDED_FIELDS}
    vars(data).update(data.extended)
    written = _Recording(data.written)
    data.written = written
    try:
        out = call()
    finally:
        data.extended = {name: getattr(data, name) for name in EXTENDED_FIELDS}
        vars(data).update(public)
        data.written = dict(written)
    return out, written.marked


class _Recording(dict):
    """``data.written`` during a run on E, recording the caches marked."""

    def __init__(self, written):
        super().__init__(written)
        self.marked = set()

    def __setitem__(self, key, value):
        self.marked.add(key)
        super().__setitem__(key, value)


def _map_back(model, ext, data, marked, states):
    """Pinocchio's fields from the E fields the call wrote."""
    hidden = data.extended
    for name in marked:
        if name in TANGENT_CACHES:
            setattr(data, name, reduce_axes(ext, hidden[name], TANGENT_CACHES[name]))
        elif name in ("J", "dJ"):
            setattr(data, name, ext.scale_mimic_columns(hidden[name]))
        elif name == "Fcrb":
            _pin_fcrb(model, data)
    for m in model.mimicking_joints:
        jdata, jm = data.joints[m], model.joints[m]
        if _MODEL_Q in states:
            jdata.joint_q = states[_MODEL_Q][..., jm.idx_q:jm.idx_q + jm.jmodel.nq].copy()
        if _MODEL_V in states:
            jdata.joint_v = states[_MODEL_V][..., jm.idx_v:jm.idx_v + jm.nvExtended].copy()


def _pin_fcrb(model, data):
    """``data.Fcrb`` as Pinocchio's crba (LOCAL) leaves it with mimic joints, its two passes
    over Fcrb (nv columns) with E's ``Ycrb``, ``liMi`` and S (the rest of crba is E's):

        i = n-1 .. 1, an ordinary joint:  F_i[:, cols_i] = Ycrb_i S_i ;
            F_parent[:, sub_i] = liMi_i F_i[:, sub_i]    (parent > 0; sub_i: nvSubtree[i] wide)
        i a mimic joint:  F_parent += liMi_i F_i          (every column, added: Pinocchio's
            ADDTO, so a mimic joint's children's columns add up over calls, docs/quirks.md)
        each mimic joint m (CrbaLocalConventionMimicStep):  F_m[:, cols_m] = Ycrb_m S_m with
            S_m = scaling S_t, then carried in place through liMi of m's path, m up to the
            joint below the first one (supports[m][2]).

    ``cols_m`` are the mimicked joint's columns."""
    F = [np.array(data.Fcrb[i]) for i in range(model.njoints)]
    hidden = data.extended
    Ycrb = [data.Ycrb[i].matrix() for i in range(model.njoints)]
    S = [None] + [np.asarray(hidden["joints"][i].S) for i in range(1, model.njoints)]
    for i in range(model.njoints - 1, 0, -1):
        jm, parent = model.joints[i], model.parents[i]
        if isinstance(jm, JointModelMimic):
            if parent > 0:
                F[parent] = F[parent] + _act_force(data.liMi[i], F[i])
            continue
        cols = slice(jm.idx_v, jm.idx_v + jm.nv)
        F[i] = _set_columns(F[i], cols, Ycrb[i] @ S[i])
        if parent > 0:
            sub = slice(jm.idx_v, jm.idx_v + data.nvSubtree[i])
            F[parent] = _set_columns(F[parent], sub, _act_force(data.liMi[i], F[i][..., sub]))
    for m in model.mimicking_joints:
        jm = model.joints[m]
        cols = slice(jm.idx_v, jm.idx_v + jm.nvExtended)
        Fm = Ycrb[m] @ (jm.scaling * S[m])
        supports = model.supports[m]
        for j in range(len(supports) - 2, 0, -1):
            Fm = _act_force(data.liMi[supports[j + 1]], Fm)
        F[m] = _set_columns(F[m], cols, Fm)
    for i in range(model.njoints):
        data.Fcrb[i] = F[i]


def _set_columns(F, cols, value):
    """``F`` with ``F[..., :, cols] = value``, broadcast to their common batch shape."""
    shape = np.broadcast_shapes(F.shape[:-2], value.shape[:-2])
    F = np.array(np.broadcast_to(F, shape + F.shape[-2:]))
    F[..., cols] = value
    return F


def _act_force(M, F):
    """``M.act`` on each force column of ``F`` (..., 6, n): R f_lin ; p x R f_lin + R f_ang."""
    R, p = M.rotation, M.translation
    lin = R @ F[..., LINEAR, :]
    ang = R @ F[..., ANGULAR, :] + np.cross(p[..., None, :], lin.swapaxes(-1, -2)).swapaxes(-1, -2)
    return np.concatenate((lin, ang), axis=-2)


def _result(ext, out, kind):
    if kind is None or out is None:
        return out
    if kind == "rows" or kind == "cols":
        return reduce_axes(ext, out, (-1,))
    if kind == "matrix":
        return reduce_axes(ext, out, (-2, -1))
    return ext.scale_mimic_columns(out)


def install():
    """Wrap the public functions of ``SUPPORTED`` and ``REFUSED`` in their modules (and in
    pinref.algorithms and pinref.cholesky, which re-export them), once."""
    package = importlib.import_module("pinref.algorithms")
    if getattr(package, "_mimic_installed", False):
        return
    wrapped = {}
    for module_name, names in SUPPORTED.items():
        for name, result in names.items():
            wrapped[module_name, name] = lambda fn, result=result: on_extended_model(fn, result)
    for module_name, names in REFUSED.items():
        for name in names:
            wrapped[module_name, name] = refusing
    for (module_name, name), wrap in wrapped.items():
        module = importlib.import_module(f"pinref.algorithms.{module_name}")
        fn = wrap(getattr(module, name))
        setattr(module, name, fn)
        if callable(getattr(package, name, None)) and not inspect.ismodule(getattr(package, name)):
            setattr(package, name, fn)
    package._mimic_installed = True
