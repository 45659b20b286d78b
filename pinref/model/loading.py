"""Which model a tool runs on: a pinref Model, a sample model's name, a URDF or an MJCF file,
with an optional free-flyer root (``pinref diff|trace|check --model M [--free-flyer]``).
"""

import copy
import os

import numpy as np

from ..errors import ModelError
from ..joints import JointModelFreeFlyer
from ..spatial import SE3, Inertia
from .model import Model, model_label
from .sample_models import buildSampleModelHumanoid, buildSampleModelManipulator, buildTutorialModel
from .mjcf import buildModelFromMJCF
from .urdf import buildModelFromUrdf

SAMPLE_MODELS = ("tutorial", "manipulator", "humanoid")
_SAMPLE_BUILDERS = {"tutorial": buildTutorialModel, "manipulator": buildSampleModelManipulator,
                    "humanoid": buildSampleModelHumanoid}


def load_model(spec, free_flyer=False):
    """A pinref Model from ``spec``: a pinref Model (copied), a sample model's name
    ('tutorial', 'manipulator', 'humanoid'), the path of a ``.urdf`` file or of a MuJoCo
    ``.xml`` file.

    ``free_flyer`` puts a free-flyer joint named ``root_joint`` between the universe and the
    model's root: ``buildModelFromUrdf(path, JointModelFreeFlyer())`` for a URDF,
    ``buildModelFromMJCF(path, JointModelFreeFlyer())`` for an MJCF file (Pinocchio adds it
    only when the first body has no joint), otherwise :func:`with_free_flyer`. Raises
    ModelError for an unknown name, URDFError or MJCFError for a file that cannot be read or
    is not a valid URDF or MJCF.
    """
    if isinstance(spec, Model):
        model = copy.deepcopy(spec)
        return with_free_flyer(model) if free_flyer else model
    path = os.fspath(spec) if isinstance(spec, os.PathLike) else spec
    if isinstance(path, str) and path.endswith(".xml"):
        return buildModelFromMJCF(path, JointModelFreeFlyer()) if free_flyer else \
            buildModelFromMJCF(path)
    if isinstance(spec, os.PathLike) or (isinstance(spec, str) and spec.endswith(".urdf")):
        root = JointModelFreeFlyer() if free_flyer else None
        return buildModelFromUrdf(path, root)
    if isinstance(spec, str) and spec in SAMPLE_MODELS:
        model = _SAMPLE_BUILDERS[spec]()
        return with_free_flyer(model) if free_flyer else model
    raise ModelError(f"unknown model {spec!r}: expected one of {', '.join(SAMPLE_MODELS)}, the "
                     "path of a .urdf or MuJoCo .xml file, a pinref.Model or a pinocchio.Model")


def with_free_flyer(model):
    """A copy of ``model`` under a new free-flyer joint ``root_joint`` (joint 1).

    Every joint, placement, inertia, limit and armature entry moves down by one joint id (nq by
    7, nv by 6); the root's own inertia (``inertias[0]``, the root link of a URDF loaded
    without a root joint) becomes the free-flyer's body. When that is zero (the sample models),
    the free-flyer gets the small base body that ``buildSampleModelHumanoid`` gives its own
    free-flyer (mass 0.1, rotational inertia 0.01 I3 at the joint): a massless floating base
    carrying revolute joints about its origin makes ABA's root block singular. Raises
    ModelError when joint 1 already is a free-flyer attached to the universe.
    """
    if model.njoints > 1 and model.joints[1].shortname() == "JointModelFreeFlyer":
        raise ModelError(f"{model_label(model.name)} already has a free-flyer root joint "
                         f"({model.names[1]!r}); drop --free-flyer")
    if "root_joint" in model.names:
        raise ModelError("cannot add a free-flyer 'root_joint': the model has a joint of that "
                         "name")
    out = Model()
    out.name = model.name
    out.gravity = model.gravity.copy()
    out.addJoint(0, JointModelFreeFlyer(), SE3.Identity(), "root_joint")
    base = model.inertias[0]
    out.inertias[1] = (base.copy() if float(base.mass) > 0
                       else Inertia(0.1, np.zeros(3), np.eye(3) * 0.01))
    for i in range(1, model.njoints):
        jmodel = model.joints[i]
        qs, vs = jmodel.q_slice, jmodel.v_slice
        parent = model.parents[i] + 1
        j = out.addJoint(parent, jmodel, model.jointPlacements[i], model.names[i],
                         model.effortLimit[vs], model.velocityLimit[vs],
                         model.lowerPositionLimit[qs], model.upperPositionLimit[qs],
                         model.friction[vs], model.damping[vs])
        out.inertias[j] = model.inertias[i].copy()
    out.armature = np.concatenate((np.zeros(6), model.armature))
    out.rotorInertia = np.concatenate((np.zeros(6), model.rotorInertia))
    out.rotorGearRatio = np.concatenate((np.ones(6), model.rotorGearRatio))
    return out
