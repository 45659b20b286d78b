"""Argument checks and batch plumbing shared by the algorithms (the API boundary)."""

import enum
import operator
import weakref

import numpy as np

from ..errors import (ArgumentTypeError, DataModelMismatchError, ModelError, NonFiniteError,
                      NotPositiveDefiniteError, ShapeError, UnsupportedError)
from ..joints.liegroup import ArgumentPosition  # noqa: F401  (re-exported: ARG0, ARG1)
from ..model.frame import ReferenceFrame, pin_printed  # noqa: F401 (re-exported)
from ..model.data import Data
from ..model.model import Model, model_label, real_array
from ..spatial import Force
from ..spatial._kernels import all_finite, as_array, batch_shape


@pin_printed
class Convention(enum.IntEnum):
    """``pinocchio::Convention``: the frame in which CRBA and ABA accumulate (WORLD == 0)."""

    WORLD = 0
    LOCAL = 1


@pin_printed
class KinematicLevel(enum.IntEnum):
    """``pinocchio::KinematicLevel``: how far ``centerOfMass`` goes (position, velocity, accel.)."""

    POSITION = 0
    VELOCITY = 1
    ACCELERATION = 2


def convention_of(convention, algorithm):
    """``convention`` as a Convention (LOCAL or WORLD); what is no Convention (``convention=5``)
    raises ModelError, as for a bad reference frame."""
    if type(convention) is Convention:
        return convention
    try:
        return Convention(operator.index(convention))
    except (TypeError, ValueError):
        raise ModelError(f"{algorithm}: convention must be pinref.Convention.LOCAL or WORLD "
                         f"(1, 0), got {convention!r}") from None


NO_DATA = object()
"""``state``'s and ``check_model``'s default: the call takes no Data (``integrate``, ...)."""


def state(model, q, *, data=NO_DATA, **tangent):
    """Check the model (and data), q and the tangent vectors (v, a, tau, ...); return them and
    their batch shape.

    With ``data``, it is made ready for that batch shape (``Data.conform``): its stale caches
    keep their values when they broadcast to the new batch, as Pinocchio's would.
    """
    check_model(model, data)
    q = model.check_configuration(q)
    arrays = {name: model.check_vector(x, name, model.nv) for name, x in tangent.items()}
    shape = batch_shape((q, 1), *((x, 1) for x in arrays.values()))
    if data is not NO_DATA:
        data.conform(model, shape)
    return q, arrays, shape


def check_model(model, data=NO_DATA):
    """``check_data``, then an armature of nv finite non-negative numbers and a finite gravity;
    otherwise a typed error saying what to pass. Values equal to the model's last checked ones
    (their bytes) pass without the checks' NumPy calls."""
    check_data(model, data)
    armature, gravity, values = model.armature, model.gravity.vector, None
    if type(armature) is np.ndarray and armature.shape == (model.nv,) and \
            armature.dtype == gravity.dtype == np.float64 and gravity.shape == (6,):
        values = armature.tobytes() + gravity.tobytes()
        known = _CHECKED.get(id(model))
        if known is not None and known[0]() is model and known[1] == values:
            return
        # check the numbers of these bytes, which are kept (the arrays may change meanwhile)
        armature = np.frombuffer(values, count=model.nv)
        gravity = np.frombuffer(values, offset=8 * model.nv)
    # min >= 0 refuses NaN too (a NaN minimum compares False)
    if (not isinstance(armature, np.ndarray) or armature.shape != (model.nv,)
            or (model.nv and not (armature.min() >= 0 and all_finite(armature)))):
        raise ShapeError(f"model.armature: expected {model.nv} finite non-negative numbers "
                         f"(one per velocity entry), got {armature!r}")
    if gravity.shape != (6,) or not all_finite(gravity):
        raise NonFiniteError(f"model.gravity: expected one finite Motion, got {model.gravity!r}")
    if values is not None:
        key = id(model)
        _CHECKED[key] = (weakref.ref(model, lambda _: _CHECKED.pop(key, None)), values)


_CHECKED = {}   # id(model) -> (weak reference to it, its armature and gravity bytes that passed)


def check_data(model, data=NO_DATA):
    """A pinref Model and (unless omitted) a Data created for a model of its structure, as the
    functions that only read Data check them. ``data=None`` is refused (ArgumentTypeError), a
    Data of another model too (DataModelMismatchError, where Pinocchio raises RuntimeError)."""
    if not isinstance(model, Model):
        raise UnsupportedError(
            f"expected a pinref.Model, got {type(model).__module__}.{type(model).__name__}; "
            "convert a Pinocchio model with pinref.from_pinocchio(model)")
    if data is None:
        raise ArgumentTypeError("data: expected a pinref.Data, got None; create it with "
                                "model.createData() or pinref.Data(model)")
    if data is not NO_DATA and not isinstance(data, Data):
        raise UnsupportedError(
            f"expected a pinref.Data, got {type(data).__module__}.{type(data).__name__}; "
            "create it with model.createData() or pinref.Data(model)")
    if data is not NO_DATA and data.model_structure != model.structure():
        nq, nv, njoints = data.model_structure[:3]
        raise DataModelMismatchError(
            f"data: this Data was created for another model (njoints {njoints}, nq {nq}, nv "
            f"{nv}, or other parents, joint types or joint axes) than "
            f"{model_label(model.name)} (njoints {model.njoints}, nq {model.nq}, nv "
            f"{model.nv}); create its Data with "
            "model.createData()")


def external_forces(model, fext, shape):
    """``fext`` as an array ``(..., njoints, 6)`` (LOCAL frame of each joint), or None.

    Accepts a list (or ``StdVec_Force``) of ``njoints`` Force (entry 0 ignored, as in
    Pinocchio), or an array ``(..., njoints, 6)``.
    """
    if fext is None:
        return None
    if isinstance(fext, (list, tuple)):
        if len(fext) != model.njoints:
            raise ShapeError(f"fext: expected a list of model.njoints = {model.njoints} Force "
                             f"(entry 0 is ignored), got {len(fext)}")
        vectors = [_force_vector(f, k) for k, f in enumerate(fext)]
        try:
            fext = np.stack(np.broadcast_arrays(*vectors), axis=-2)
        except ValueError:
            raise ShapeError("fext: the batch shapes of the forces do not broadcast") from None
    fext = as_array(real_array(fext, "fext"), "fext", (model.njoints, 6))
    fext_shape = fext.shape[:-2]
    if batch_shape((fext, 2), (np.zeros(shape), 0)) != shape:
        raise ShapeError(f"fext: its batch shape {fext_shape} must broadcast to the batch shape "
                         f"{shape} of q, v and a/tau (give the states the batch axes, or fewer "
                         "axes to fext)")
    return fext


def _force_vector(f, k):
    """Entry ``k`` of a list fext: a pinref Force (Pinocchio too refuses bare arrays there)."""
    if not isinstance(f, Force):
        raise ShapeError(f"fext[{k}]: expected a pinref.Force, got {type(f).__module__}."
                         f"{type(f).__name__} (Pinocchio refuses it too); wrap 6 numbers "
                         "[linear; angular] as pinref.Force(f), a column as "
                         "pinref.Force(f.reshape(6))")
    return np.broadcast_to(f.vector, f.vector.shape)


def named_joint_error(err, model, algorithm):
    """The NotPositiveDefiniteError ``err`` of a joint's calc_aba, its message led by the
    algorithm and the joint's name (``raise named_joint_error(err, model, "aba") from None``)."""
    return NotPositiveDefiniteError(f"{algorithm}: joint {model.names[err.joint_id]!r}: {err}",
                                    joint_id=err.joint_id)


def writable(array, shape):
    """``array`` broadcast to ``shape`` as an owned writable array (copied only if needed)."""
    if array.shape == shape and array.flags.writeable and array.base is None:
        return array
    return np.broadcast_to(array, shape).copy()
