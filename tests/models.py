"""The models every algorithm test runs on, built in pinref and in Pinocchio, plus random states.

``MODEL_NAMES``: the tutorial chain (free-flyer + 2 RY), Pinocchio's sample manipulator and
humanoid, two seeded random branching trees that use every joint type of pinref.joints, and
"signed", a free-flyer and chains of 1-dof joints whose S is +-e_k, with one about a general
axis (``signed_tree``).
"""

import zlib

import numpy as np
import pinocchio as pin

import pinref
from conftest import assert_close
from pinref.compare import to_pinocchio

MODEL_NAMES = ["tutorial", "manipulator", "humanoid", "tree0", "tree1", "signed"]


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


def signed_tree():
    """A free-flyer and four chains of 1-dof joints: frame-axis joints, and unaligned ones about
    -e_k or +e_k (S = +-e_k: what a URDF axis "0 0 -1" loads), with one unaligned joint about a
    general axis among them (its calc runs with its family, its calc_aba alone); random
    placements and physical inertias. The chains hang from the free-flyer, so each level mixes
    kinds, signs and axes (level 1 holds two joints about -e_z, level 2 the general axis)."""
    rng = np.random.default_rng(7)
    J = pinref.joints
    e = np.eye(3)
    chains = [[J.JointModelRevoluteUnaligned(-e[2]), J.JointModelRY(),
               J.JointModelPrismaticUnaligned(-e[0]), J.JointModelRevoluteUnaligned(e[2])],
              [J.JointModelRevoluteUnaligned(-e[2]), J.JointModelRUBZ(),
               J.JointModelRevoluteUnboundedUnaligned(-e[1]), J.JointModelRX()],
              [J.JointModelRX(), J.JointModelRevoluteUnaligned(np.array([0.36, 0.48, 0.8])),
               J.JointModelPZ(), J.JointModelRevoluteUnaligned(-e[1])],
              [J.JointModelPZ(), J.JointModelRevoluteUnaligned(-e[1]),
               J.JointModelRevoluteUnaligned(-e[1]), J.JointModelRY()]]
    model = pinref.Model()
    model.name = "signed"
    model.addJoint(0, J.JointModelFreeFlyer(), pinref.SE3.Identity(), "root")
    model.appendBodyToJoint(1, pinref.Inertia.Random(rng=rng), pinref.SE3.Random(rng=rng))
    for c, chain in enumerate(chains):
        parent = 1
        for d, jmodel in enumerate(chain):
            parent = model.addJoint(parent, jmodel, pinref.SE3.Random(rng=rng),
                                    f"c{c}d{d}_{jmodel.shortname()[10:]}")
            model.appendBodyToJoint(parent, pinref.Inertia.Random(rng=rng),
                                    pinref.SE3.Random(rng=rng))
    return model


# Models with composite joints (tests/joints/test_composite.py), not among MODEL_NAMES: a
# composite root as pin's humanoids without free-flyer, an RX+PY+RZ composite mid-chain with
# non-identity inner placements, composites of every configuration space in a branching tree,
# and a composite nested in a composite. A composite with more than 6 dofs sits at the root
# only: pin 3.8.0's computeABADerivatives crashes on one below another joint (docs/quirks.md).
COMPOSITE_MODEL_NAMES = ["humanoid_composite", "humanoid_random_composite", "composite_chain",
                         "composite_tree", "composite_nested"]


def composite(*parts, rng):
    """A JointModelComposite of the joints ``parts``, each at a random placement."""
    jmodel = pinref.JointModelComposite()
    for part in parts:
        jmodel.addJoint(part, pinref.SE3.Random(rng=rng))
    return jmodel


def composite_model(name):
    """The pinref model ``name`` of COMPOSITE_MODEL_NAMES (random placements and inertias)."""
    if name == "humanoid_composite":
        return pinref.buildSampleModelHumanoid(False)
    if name == "humanoid_random_composite":
        np.random.seed(11)
        return pinref.buildSampleModelHumanoidRandom(False)
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    J = pinref.joints
    axis = np.array([0.36, 0.48, 0.8])
    if name == "composite_chain":
        joints = [(0, J.JointModelRY()),
                  (1, composite(J.JointModelRX(), J.JointModelPY(), J.JointModelRZ(), rng=rng)),
                  (2, J.JointModelRX())]
    elif name == "composite_tree":
        joints = [(0, J.JointModelFreeFlyer()),
                  (1, composite(J.JointModelSpherical(), J.JointModelPrismaticUnaligned(axis),
                                J.JointModelRUBZ(), rng=rng)),
                  (2, J.JointModelRY()),
                  (1, composite(J.JointModelUniversal(axis, np.array([0.8, -0.6, 0.0])),
                                J.JointModelPlanar(), rng=rng)),
                  (4, composite(J.JointModelHelicalUnaligned(axis, 0.3), J.JointModelSphericalZYX(),
                                J.JointModelPX(), rng=rng)),
                  (4, J.JointModelPZ()),
                  (0, composite(J.JointModelFreeFlyer(), J.JointModelHX(0.2), rng=rng))]
    else:
        inner = composite(J.JointModelRX(), J.JointModelPZ(), J.JointModelSpherical(), rng=rng)
        joints = [(0, composite(J.JointModelRY(), inner, J.JointModelSphericalZYX(), rng=rng)),
                  (1, J.JointModelRUBX()),
                  (1, composite(inner, rng=rng))]
    model = pinref.Model()
    model.name = name
    for k, (parent, jmodel) in enumerate(joints):
        jid = model.addJoint(parent, jmodel, pinref.SE3.Random(rng=rng), f"j{k}")
        model.appendBodyToJoint(jid, pinref.Inertia.Random(rng=rng), pinref.SE3.Random(rng=rng))
    return model


def build(name):
    """(pinref model, pinocchio model) with equal numbers; "pendulum" is one RY joint (nv == 1,
    where eigenpy hands one-column caches back as vectors)."""
    if name == "humanoid_composite":
        return composite_model(name), pin.buildSampleModelHumanoid(False)
    if name in COMPOSITE_MODEL_NAMES:
        model = composite_model(name)
        return model, to_pinocchio(model)
    if name == "tutorial":
        model = pinref.buildTutorialModel()
        return model, to_pinocchio(model)
    if name == "manipulator":
        return pinref.buildSampleModelManipulator(), pin.buildSampleModelManipulator()
    if name == "humanoid":
        return pinref.buildSampleModelHumanoid(), pin.buildSampleModelHumanoid()
    if name == "pendulum":
        model = pinref.Model()
        model.addJoint(0, pinref.JointModelRY(), pinref.SE3.Identity(), "ry")
        model.appendBodyToJoint(1, pinref.Inertia(2.0, np.array([0.0, 0.0, -0.5]), np.eye(3) * 0.1))
        return model, to_pinocchio(model)
    model = signed_tree() if name == "signed" else random_tree(int(name[4:]))
    return model, to_pinocchio(model)


def random_states(pin_model, batch, rng):
    """q (batch + (nq,)) from pin.randomConfiguration in [-1, 1]-bounds, v, a/tau (batch + (nv,)).

    pin's generator is seeded from ``rng``, so the states do not depend on which tests ran
    before."""
    pin.seed(int(rng.integers(2**31)))
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


def caches(model, data, lib, idx, batch):
    """Every cache as a dict of arrays, for one state ``idx`` (pinref arrays are broadcast; pin's
    are reshaped, since eigenpy returns a one-column matrix such as Fcrb at nv == 1 as a vector)."""
    def get(x, tail):
        x = np.asarray(x, dtype=float)
        return np.reshape(x, tail) if lib == "pin" else np.broadcast_to(x, batch + tail)[idx]

    out = {"tau": get(data.tau, (model.nv,)), "nle": get(data.nle, (model.nv,)),
           "g": get(data.g, (model.nv,)), "ddq": get(data.ddq, (model.nv,)),
           "M": get(data.M, (model.nv, model.nv))}
    for i in range(model.njoints):
        out[f"liMi[{i}]"] = get(data.liMi[i].homogeneous, (4, 4))
        out[f"oMi[{i}]"] = get(data.oMi[i].homogeneous, (4, 4))
        for name in ("v", "a", "a_gf", "h", "f"):
            out[f"{name}[{i}]"] = get(getattr(data, name)[i].vector, (6,))
        Y = data.Ycrb[i]
        out[f"Ycrb[{i}].mass"] = get(Y.mass, ())
        out[f"Ycrb[{i}].lever"] = get(Y.lever, (3,))
        out[f"Ycrb[{i}].inertia"] = get(Y.inertia, (3, 3))
        out[f"Fcrb[{i}]"] = get(data.Fcrb[i], (6, model.nv))
        out[f"Yaba[{i}]"] = get(data.Yaba[i], (6, 6))
    for i in range(1, model.njoints):
        jd, nv = data.joints[i], model.nvs[i]
        out[f"joints[{i}].M"] = get(jd.M.homogeneous, (4, 4))
        for name, tail in (("S", (6, nv)), ("U", (6, nv)), ("UDinv", (6, nv)),
                           ("Dinv", (nv, nv)), ("v", (6,)), ("c", (6,))):
            value = getattr(jd, name)
            if name in ("v", "c"):
                value = value.vector
            out[f"joints[{i}].{name}"] = get(value, tail)
    return out


def compare_data(rmodel, rdata, pdatas, pmodel, batch, when):
    """Every cache of ``caches`` agrees with pin's ``pdatas[k]`` at each state (1e-12)."""
    compare_caches(caches, rmodel, rdata, pdatas, pmodel, batch, when)


def check_hidden_caches(rmodel, rdata, pmodel, pdata, idx, batch):
    """u and StU, which pin does not expose, through the equations pin's caches satisfy:
    pass 3 computed ddq_i = Dinv_i u_i - UDinv_i^T a_pre_i (a_pre_i = a_gf_i - S_i ddq_i), so
    pinref's u must give pin's ddq with pin's Dinv, UDinv and a_pre; and
    StU_i = S_i^T U_i + diag(armature_i)."""
    u = np.broadcast_to(rdata.u, batch + (rmodel.nv,))[idx]
    for i in range(1, rmodel.njoints):
        jd, nv, iv = pdata.joints[i], rmodel.nvs[i], rmodel.joints[i].v_slice
        S, U = np.reshape(jd.S, (6, nv)), np.reshape(jd.U, (6, nv))
        UDinv, Dinv = np.reshape(jd.UDinv, (6, nv)), np.reshape(jd.Dinv, (nv, nv))
        ddq = pdata.ddq[iv]
        a_pre = pdata.a_gf[i].vector - S @ ddq
        assert_close(Dinv @ u[iv] - UDinv.T @ a_pre, ddq, what=f"u of joint {i}")
        StU = np.broadcast_to(rdata.joints[i].StU, batch + (nv, nv))[idx]
        assert_close(StU, S.T @ U + np.diag(pmodel.armature[iv]), what=f"StU of joint {i}")


# --- shared by the derivative tests (test_rnea_derivatives.py, test_aba_derivatives.py) ---------


def cache_getter(lib, idx, batch):
    """``get(x, tail)``: cache ``x`` as a float array for state ``idx``; pin's is one state
    already, pinref's is broadcast to ``batch + tail`` first."""
    def get(x, tail):
        x = np.asarray(x, dtype=float)
        return x if lib == "pin" else np.broadcast_to(x, batch + tail)[idx]
    return get


def assert_matrices_match_pin(names, got, ref, nv, idx, batch, tol):
    """Each (..., nv, nv) result in ``got`` has shape ``batch + (nv, nv)`` and equals pin's
    ``ref`` (one state) at state ``idx``."""
    for name, x, r in zip(names, got, ref):
        assert x.shape == batch + (nv, nv)
        assert_close(x[idx], r, tol, f"{name} at state {idx}")


def assert_caches_match_pin(cache_dict, rmodel, rdata, pmodel, pdata, idx, batch, tol):
    """Every entry of ``cache_dict(model, data, lib, idx, batch)`` agrees at state ``idx``."""
    ref_caches = cache_dict(pmodel, pdata, "pin", idx, batch)
    got_caches = cache_dict(rmodel, rdata, "pinref", idx, batch)
    for key, r in ref_caches.items():
        assert_close(got_caches[key], r, tol, f"data.{key} at state {idx}")


def assert_results_are_owned_copies(compute, data, cache_names, first, second):
    """``compute(*first)`` returns arrays that own their memory (no view of the caches
    ``data.<cache_names>`` they were computed in) and that ``compute(*second)`` leaves unchanged."""
    got = compute(*first)
    kept = [x.copy() for x in got]
    for x, name in zip(got, cache_names):
        cache = getattr(data, name)
        assert x.flags.owndata and not np.shares_memory(x, cache)
    compute(*second)
    for x, k in zip(got, kept):
        np.testing.assert_array_equal(x, k)


# --- shared by the call-sequence tests (tests/algorithms/call_sequences.py) ---------------------


def sequence_setup(model_name, sequence, batch, armature):
    """The start of a call-sequence test: an rng seeded by the test's parameters, the (pinref,
    pin) models (with the same random armature when ``armature``) and random q, v, a for
    ``batch``; the rng is returned for further draws."""
    rng = np.random.default_rng(zlib.crc32(repr((model_name, sequence, batch, armature)).encode()))
    rmodel, pmodel = build(model_name)
    if armature:
        rmodel.armature = rng.uniform(0.1, 1.0, rmodel.nv)
        pmodel.armature = rmodel.armature.copy()
    q, v, a = random_states(pmodel, batch, rng)
    return rng, rmodel, pmodel, q, v, a


def compare_caches(cache_dict, rmodel, rdata, pdatas, pmodel, batch, when):
    """``compare_data`` for any cache set: every entry of ``cache_dict(model, data, lib, idx,
    batch)`` agrees with pin's ``pdatas[k]`` at each state, at assert_close's default tolerance."""
    for k, idx in enumerate(np.ndindex(*batch)):
        ref = cache_dict(pmodel, pdatas[k], "pin", idx, batch)
        got = cache_dict(rmodel, rdata, "pinref", idx, batch)
        for key in ref:
            assert_close(got[key], ref[key], what=f"{when}: {key} at state {idx}")


# --- shared by the joint tests (tests/joints/test_joints.py, test_liegroup.py) -----------------


def pin_joint_like(jm):
    """The specialised Pinocchio joint model of pinref joint ``jm``'s type and arguments (axes,
    pitch), indexes unset. pin.JointModelRevoluteUnboundedUnaligned takes no axis in Python:
    for that type this gives the one about x, whatever ``jm.axis`` is."""
    name = jm.shortname()
    if name == "JointModelUniversal":
        return pin.JointModelUniversal(np.array(jm.axis1), np.array(jm.axis2))
    if name == "JointModelHelicalUnaligned":
        return pin.JointModelHelicalUnaligned(np.array(jm.axis), jm.pitch)
    if name in ("JointModelRevoluteUnaligned", "JointModelPrismaticUnaligned"):
        return getattr(pin, name)(np.array(jm.axis))
    if name in ("JointModelHX", "JointModelHY", "JointModelHZ"):
        return getattr(pin, name)(jm.pitch)
    return getattr(pin, name)()
