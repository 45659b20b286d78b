"""The models every algorithm test runs on, built in pinref and in Pinocchio, plus random states.

``MODEL_NAMES``: the tutorial chain (free-flyer + 2 RY), Pinocchio's sample manipulator and
humanoid, and two seeded random branching trees that use every joint type of pinref.joints.
"""

import numpy as np
import pinocchio as pin

import pinref
from pinref.compare import to_pinocchio

MODEL_NAMES = ["tutorial", "manipulator", "humanoid", "tree0", "tree1"]


def random_tree(seed):
    """A branching tree using every joint type of ``pinref.joints.JOINT_TYPES`` (twice, shuffled),
    random placements and random physical inertias.

    Each new joint hangs from a joint of the path from the root to the last joint added, so the
    joints come in depth-first order and every subtree owns a contiguous range of dofs, as
    Pinocchio's CRBA requires.
    """
    rng = np.random.default_rng(seed)
    types = [j() if callable(j) and not isinstance(j, pinref.JointModel) else j
             for j in pinref.joints.JOINT_TYPES]
    types = types + types
    rng.shuffle(types)
    model = pinref.Model()
    model.name = f"tree{seed}"
    for k, jmodel in enumerate(types):
        if jmodel.shortname() == "JointModelRevoluteUnboundedUnaligned":
            # Pinocchio's Python API makes this joint about x only; the random placement
            # below still turns that axis anywhere.
            jmodel = type(jmodel)(np.array([1.0, 0.0, 0.0]))
        path = model.supports[model.njoints - 1]
        parent = int(path[rng.integers(0, len(path))])
        placement = pinref.SE3.Random(rng=rng)
        jid = model.addJoint(parent, jmodel, placement, f"j{k}_{jmodel.shortname()[10:]}")
        model.appendBodyToJoint(jid, pinref.Inertia.Random(rng=rng), pinref.SE3.Random(rng=rng))
    return model


def build(name):
    """(pinref model, pinocchio model) with equal numbers."""
    if name == "tutorial":
        model = pinref.buildTutorialModel()
        return model, to_pinocchio(model)
    if name == "manipulator":
        return pinref.buildSampleModelManipulator(), pin.buildSampleModelManipulator()
    if name == "humanoid":
        return pinref.buildSampleModelHumanoid(), pin.buildSampleModelHumanoid()
    model = random_tree(int(name[4:]))
    return model, to_pinocchio(model)


def random_states(pin_model, batch, rng):
    """q (batch + (nq,)) from pin.randomConfiguration in [-1, 1]-bounds, v, a/tau (batch + (nv,))."""
    n = int(np.prod(batch)) if batch else 1
    lo, hi = -np.ones(pin_model.nq), np.ones(pin_model.nq)
    q = np.stack([pin.randomConfiguration(pin_model, lo, hi) for _ in range(n)])
    v = rng.normal(size=(n, pin_model.nv))
    a = rng.normal(size=(n, pin_model.nv))
    shape = tuple(batch)
    return (q.reshape(shape + (pin_model.nq,)), v.reshape(shape + (pin_model.nv,)),
            a.reshape(shape + (pin_model.nv,)))


def random_fext(njoints, batch, rng):
    """External wrenches as an array (batch + (njoints, 6)); entry 0 is ignored by both."""
    return rng.normal(size=tuple(batch) + (njoints, 6))
