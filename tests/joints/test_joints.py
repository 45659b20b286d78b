"""Joint models: calc against Pinocchio 3.8.0, calc_aba against the dense formula.

Oracles, in the project's order (design.md §7):
1. the dense formula: ``JointModel.calc_aba`` (U = I S, StU = S^T U + diag(armature),
   Dinv = StU^-1, UDinv = U Dinv, I -= UDinv U^T) for every joint's sparse ``calc_aba``;
2. Pinocchio 3.8.0: ``calc`` through the generic ``pin.JointModel`` wrapper (the specialised
   JointData types have no Python converters), field by field: M, S, v, c, joint_q, joint_v.
Every check runs at batch shapes (), (5,) and (2, 3), state by state, with the project
tolerance ``1e-12 * max(1, max|ref|)``; batched results must equal per-state results.
"""

import numpy as np
import pinocchio as pin
import pytest
from conftest import assert_close
from models import pin_joint_like

import pinref
from pinref.joints import JOINT_TYPES, JointModel
from pinref.joints import liegroup

SHAPES = [(), (5,), (2, 3)]
IDS = [factory().shortname() for factory in JOINT_TYPES]
TYPES = list(zip(JOINT_TYPES, IDS))
# Joint types whose S depends on q (all others keep the constant S set by createData).
Q_DEPENDENT_S = {"JointModelSphericalZYX", "JointModelUniversal"}
# Joint types whose calc(q, v) leaves joint_v untouched in Pinocchio 3.8.0.
NO_JOINT_V = {"JointModelRevoluteUnaligned", "JointModelHelicalUnaligned"}
# Where the unit-norm part of q sits, by Lie group (quaternion or (cos, sin) pair).
UNIT_PART = {"SpecialEuclidean3": slice(3, 7), "SpecialOrthogonal3": slice(0, 4),
             "SpecialOrthogonal2": slice(0, 2), "SpecialEuclidean2": slice(2, 4)}


def _urdf_continuous(axis):
    """A two-link URDF whose continuous joint has ``axis``: Pinocchio's parser makes it a
    RevoluteUnboundedUnaligned (the only way to give that type an axis from Python)."""
    xyz = " ".join(repr(float(a)) for a in axis)
    link = ('<link name="{}"><inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" '
            'iyy="1" iyz="0" izz="1"/></inertial></link>')
    return (f'<robot name="r">{link.format("a")}{link.format("b")}<joint name="j" '
            f'type="continuous"><parent link="a"/><child link="b"/><axis xyz="{xyz}"/>'
            '</joint></robot>')


def pin_joint(jm):
    """The Pinocchio joint equal to the pinref joint ``jm``, as a generic ``pin.JointModel``
    with id 1 and idx_q = idx_v = 0."""
    name = jm.shortname()
    if name == "JointModelRevoluteUnboundedUnaligned" and not np.array_equal(jm.axis, [1, 0, 0]):
        pj = pin.buildModelFromXML(_urdf_continuous(jm.axis)).joints[1]
        assert pj.shortname() == name and (pj.idx_q, pj.idx_v) == (0, 0)
        return pj
    pj = pin_joint_like(jm)
    pj.setIndexes(1, 0, 0)
    return pin.JointModel(pj)


def placed(factory):
    jm = factory()
    jm.setIndexes(1, 0, 0)
    return jm


def random_states(jm, shape, rng, unnormalised=False):
    """q from ``pin.randomConfiguration`` on a one-joint model (bounds +-3), v normal.
    With ``unnormalised``, the quaternion / (cos, sin) part is scaled by a factor in [0.5, 2]."""
    pm = pin.Model()
    pj = pin_joint(jm)
    if jm.shortname() == "JointModelRevoluteUnboundedUnaligned":
        pj = pin.JointModelRevoluteUnboundedUnaligned()  # same configuration space, any axis
    pm.addJoint(0, pj, pin.SE3.Identity(), "j", np.full(jm.nv, 10.0), np.full(jm.nv, 10.0),
                np.full(jm.nq, -3.0), np.full(jm.nq, 3.0))
    n = int(np.prod(shape, dtype=int))
    q = np.array([pin.randomConfiguration(pm) for _ in range(n)]).reshape(shape + (jm.nq,))
    part = UNIT_PART.get(type(jm.lie_group).__name__)
    if unnormalised and part is not None:
        q[..., part] *= rng.uniform(0.5, 2.0, shape + (1,))
    return q, rng.normal(size=shape + (jm.nv,))


def pin_calc(jm, q, v=None):
    """Pinocchio's calc on one state: dict of M rotation/translation, S, v, c, joint_q/v."""
    pj = pin_joint(jm)
    pd = pj.createData()
    if v is None:
        pj.calc(pd, q)
    else:
        pj.calc(pd, q, v)
    return {"R": pd.M.rotation, "p": pd.M.translation, "S": np.array(pd.S).reshape(6, jm.nv),
            "v": pd.v.vector, "c": pd.c.vector, "joint_q": pd.joint_q, "joint_v": pd.joint_v}


def ours(jd, shape, nv):
    """pinref's JointData fields broadcast to the batch shape (constant fields are unbatched)."""
    return {"R": np.broadcast_to(jd.M.rotation, shape + (3, 3)),
            "p": np.broadcast_to(jd.M.translation, shape + (3,)),
            "S": np.broadcast_to(jd.S, shape + (6, nv)),
            "v": np.broadcast_to(jd.v.vector, shape + (6,)),
            "c": np.broadcast_to(jd.c.vector, shape + (6,)),
            "joint_q": jd.joint_q, "joint_v": np.broadcast_to(jd.joint_v, shape + (nv,))}


def random_spd(shape, rng):
    """Articulated-inertia-like SPD 6x6 matrices: a random rigid inertia (pin.Inertia.Random)
    plus a random positive semi-definite rank-3 term, made exactly symmetric."""
    n = int(np.prod(shape, dtype=int))
    out = []
    for _ in range(n):
        B = rng.normal(size=(6, 3))
        A = pin.Inertia.Random().matrix() + B @ B.T
        out.append(0.5 * (A + A.T))
    return np.array(out).reshape(shape + (6, 6))


@pytest.fixture(autouse=True)
def _seed_pinocchio():
    pin.seed(2024)


# --- the registry and the names ------------------------------------------------------------

def test_registry_covers_every_type_once():
    expected = {"JointModelFreeFlyer", "JointModelRX", "JointModelRY", "JointModelRZ",
                "JointModelRevoluteUnaligned", "JointModelRUBX", "JointModelRUBY",
                "JointModelRUBZ", "JointModelRevoluteUnboundedUnaligned", "JointModelPX",
                "JointModelPY", "JointModelPZ", "JointModelPrismaticUnaligned", "JointModelHX",
                "JointModelHY", "JointModelHZ", "JointModelHelicalUnaligned",
                "JointModelSpherical", "JointModelSphericalZYX", "JointModelPlanar",
                "JointModelTranslation", "JointModelUniversal"}
    assert sorted(IDS) == sorted(expected)
    for name in expected:
        assert getattr(pinref, name) is getattr(pinref.joints, name)
        assert name in pinref.joints.__all__
    assert pinref.JOINT_TYPES is JOINT_TYPES
    assert JOINT_TYPES[0]() is not JOINT_TYPES[0]()  # factories, not shared instances


LIE_GROUPS = {"JointModelFreeFlyer": liegroup.SpecialEuclidean3,
              "JointModelSpherical": liegroup.SpecialOrthogonal3,
              "JointModelPlanar": liegroup.SpecialEuclidean2,
              "JointModelRUBX": liegroup.SpecialOrthogonal2,
              "JointModelRUBY": liegroup.SpecialOrthogonal2,
              "JointModelRUBZ": liegroup.SpecialOrthogonal2,
              "JointModelRevoluteUnboundedUnaligned": liegroup.SpecialOrthogonal2}


@pytest.mark.parametrize("factory, name", TYPES, ids=IDS)
def test_sizes_names_and_lie_group_match_pin(factory, name):
    jm = placed(factory)
    pj = pin_joint(jm)
    assert (jm.nq, jm.nv, jm.shortname(), jm.classname()) == (pj.nq, pj.nv, pj.shortname(), name)
    assert jm.createData().shortname() == name.replace("JointModel", "JointData")
    group = jm.lie_group
    assert isinstance(group, LIE_GROUPS.get(name, liegroup.VectorSpace))
    assert (group.nq, group.nv) == (jm.nq, jm.nv)


def test_indexes_and_slices_follow_each_other():
    jm = pinref.JointModelFreeFlyer()
    jm.setIndexes(3, 5, 4)
    assert (jm.id, jm.idx_q, jm.idx_v) == (3, 5, 4)
    assert (jm.q_slice, jm.v_slice) == (slice(5, 12), slice(4, 10))
    jm.idx_q, jm.idx_v = 1, 2
    assert (jm.q_slice, jm.v_slice) == (slice(1, 8), slice(2, 8))


# --- constructors and type-specific attributes -----------------------------------------------

@pytest.mark.filterwarnings("ignore::pinref.errors.AxisWarning")  # long axes kept as given
@pytest.mark.parametrize("name", ["JointModelRevoluteUnaligned", "JointModelPrismaticUnaligned"])
def test_unaligned_constructors_normalise_scalars_not_vectors(name):
    ours_cls, pins_cls = getattr(pinref, name), getattr(pin, name)
    assert_close(ours_cls(1.0, 2.0, 3.0).axis, pins_cls(1.0, 2.0, 3.0).axis, what="x, y, z")
    assert_close(ours_cls(np.array([1.0, 2.0, 3.0])).axis, [1.0, 2.0, 3.0], what="vector")
    assert_close(pins_cls(np.array([1.0, 2.0, 3.0])).axis, [1.0, 2.0, 3.0], what="pin vector")
    assert_close(ours_cls(axis=np.array([0.0, 0.0, 2.0])).axis, [0.0, 0.0, 2.0], what="keyword")
    assert_close(ours_cls().axis, [1.0, 0.0, 0.0], what="default")


@pytest.mark.filterwarnings("ignore::pinref.errors.AxisWarning")  # long axes kept as given
def test_unbounded_unaligned_constructors():
    assert_close(pinref.JointModelRevoluteUnboundedUnaligned().axis, [1.0, 0.0, 0.0])
    assert_close(pinref.JointModelRevoluteUnboundedUnaligned(0.0, 3.0, 4.0).axis, [0, 0.6, 0.8])
    assert_close(pinref.JointModelRevoluteUnboundedUnaligned([0.0, 3.0, 4.0]).axis, [0, 3, 4])


@pytest.mark.filterwarnings("ignore::pinref.errors.AxisWarning")  # long axes kept as given
def test_helical_constructors_and_pitch():
    assert pinref.JointModelHX().pitch == 0.0  # Pinocchio's HX() leaves pitch uninitialised
    assert pinref.JointModelHY(0.5).pitch == pin.JointModelHY(0.5).pitch == 0.5
    ours_h = pinref.JointModelHelicalUnaligned(1.0, 2.0, 2.0, 0.3)
    pins_h = pin.JointModelHelicalUnaligned(1.0, 2.0, 2.0, 0.3)
    assert_close(ours_h.axis, pins_h.axis)
    assert ours_h.pitch == pins_h.pitch == 0.3
    h = pinref.JointModelHelicalUnaligned(np.array([0.0, 0.0, 2.0]), 0.1)
    assert_close(h.axis, [0.0, 0.0, 2.0])
    assert pinref.JointModelHelicalUnaligned(np.array([0.0, 1.0, 0.0])).pitch == 0.0
    h.pitch = 0.7  # pitch is writable in Pinocchio; S follows
    h.setIndexes(1, 0, 0)
    jd = h.createData()
    h.calc(jd, np.array([0.1]))
    assert_close(jd.S[:, 0], [0, 0, 1.4, 0, 0, 2.0])


def test_universal_constructors_keep_the_axes():
    a1, a2 = np.array([0.0, 0.0, 1.0]), np.array([0.0, 1.0, 0.0])
    u = pinref.JointModelUniversal(a1, a2)
    p = pin.JointModelUniversal(a1, a2)
    assert_close(u.axis1, p.axis1)
    assert_close(u.axis2, p.axis2)
    u6 = pinref.JointModelUniversal(1, 0, 0, 0, 2, 0)
    assert_close(u6.axis2, pin.JointModelUniversal(1, 0, 0, 0, 2, 0).axis2)  # not normalised


def test_axis_can_be_reassigned():
    jm = pinref.JointModelRevoluteUnaligned()
    jm.axis = np.array([0.0, 1.0, 0.0])
    jm.setIndexes(1, 0, 0)
    jd = jm.createData()
    jm.calc(jd, np.array([0.4]))
    assert_close(jd.M.rotation, pin.exp3(np.array([0.0, 0.4, 0.0])))


def test_quaternion_rotation_is_the_spatial_one_to_the_bit(rng):
    from pinref.joints._axis import quaternion_rotation
    quat = rng.normal(size=(50, 4)) * rng.uniform(0.3, 3.0, (50, 1))
    assert np.array_equal(quaternion_rotation(quat), pinref.quaternion_to_matrix(quat))


# --- calc against Pinocchio -----------------------------------------------------------------

@pytest.mark.parametrize("unnormalised", [False, True], ids=["unit", "unnormalised"])
@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("factory, name", TYPES, ids=IDS)
def test_calc_matches_pin(factory, name, shape, unnormalised, rng):
    jm = placed(factory)
    q, v = random_states(jm, shape, rng, unnormalised)
    jd = jm.createData()
    jm.calc(jd, q, v)
    got = ours(jd, shape, jm.nv)
    assert jd.joint_q.shape == shape + (jm.nq,)
    assert jd.M.shape == shape
    for idx in np.ndindex(*shape):
        ref = pin_calc(jm, q[idx], v[idx])
        for key in ("R", "p", "S", "v", "c", "joint_q", "joint_v"):
            assert_close(got[key][idx], ref[key], what=f"{name} {key}{idx}")
    if name in NO_JOINT_V:
        assert not np.any(jd.joint_v)  # left as createData made it, as in Pinocchio


@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("factory, name", TYPES, ids=IDS)
def test_calc_q_only_matches_pin(factory, name, shape, rng):
    """calc(q): M and S (and joint_q); v and c keep their createData values (NaN angular
    velocity for RevoluteUnaligned, as in Pinocchio)."""
    jm = placed(factory)
    q, _ = random_states(jm, shape, rng)
    jd = jm.createData()
    jm.calc(jd, q)
    got = ours(jd, shape, jm.nv)
    for idx in np.ndindex(*shape):
        ref = pin_calc(jm, q[idx])
        for key in ("R", "p", "S", "joint_q"):
            assert_close(got[key][idx], ref[key], what=f"{name} {key}{idx}")
        for key in ("v", "c", "joint_v"):
            assert np.array_equal(got[key][idx], ref[key], equal_nan=True), key


@pytest.mark.parametrize("factory, name", TYPES, ids=IDS)
def test_create_data_matches_pin(factory, name):
    """A fresh JointData holds Pinocchio's initial values, field by field: identity M, zero U,
    Dinv, UDinv (identity UDinv for the free-flyer), neutral joint_q, the constant S (the
    helical ones without pitch/axis until calc), v = (0; axis * NaN) for RevoluteUnaligned."""
    jm = placed(factory)
    pd = pin_joint(jm).createData()
    jd = jm.createData()
    nv = jm.nv
    pairs = [("R", jd.M.rotation, pd.M.rotation), ("p", jd.M.translation, pd.M.translation),
             ("S", jd.S, np.array(pd.S).reshape(6, nv)), ("v", jd.v.vector, pd.v.vector),
             ("c", jd.c.vector, pd.c.vector), ("U", jd.U, np.array(pd.U).reshape(6, nv)),
             ("Dinv", jd.Dinv, pd.Dinv), ("UDinv", jd.UDinv, np.array(pd.UDinv).reshape(6, nv)),
             ("joint_q", jd.joint_q, pd.joint_q), ("joint_v", jd.joint_v, pd.joint_v)]
    for key, a, b in pairs:
        assert np.array_equal(a, b, equal_nan=True), f"{name} {key}: {a} != {b}"
    assert not jd.StU.any()


@pytest.mark.parametrize("factory, name", TYPES, ids=IDS)
def test_calc_at_large_angles_and_model_offsets(factory, name, rng):
    """Angles far from [-pi, pi] and a joint placed at idx_q, idx_v > 0 in a longer q."""
    jm = factory()
    jm.setIndexes(4, 3, 2)
    pj = pin_joint(placed(factory))
    q_joint, v_joint = random_states(placed(factory), (), rng)
    if type(jm.lie_group).__name__ not in UNIT_PART:
        q_joint = q_joint * 40.0
    q = np.concatenate((rng.normal(size=3), q_joint, rng.normal(size=2)))
    v = np.concatenate((rng.normal(size=2), v_joint, rng.normal(size=3)))
    jd = jm.createData()
    jm.calc(jd, q, v)
    pd = pj.createData()
    pj.calc(pd, q_joint, v_joint)
    assert_close(jd.M.rotation, pd.M.rotation, what="R")
    assert_close(jd.v.vector, pd.v.vector, what="v")
    assert_close(jd.c.vector, pd.c.vector, what="c")
    assert_close(jd.joint_q, q_joint, what="joint_q")


@pytest.mark.parametrize("factory, name", TYPES, ids=IDS)
def test_fields_are_owned_and_constants_read_only(factory, name, rng):
    jm = placed(factory)
    q, v = random_states(jm, (3,), rng)
    jd = jm.createData()
    jm.calc(jd, q, v)
    for field in (jd.joint_q, jd.joint_v, jd.M.rotation, jd.M.translation, jd.v.vector):
        assert not np.shares_memory(field, q) and not np.shares_memory(field, v)
    if name in Q_DEPENDENT_S:
        assert jd.S.shape == (3, 6, jm.nv)
    else:
        assert jd.S.shape == (6, jm.nv) and not jd.S.flags.writeable
    q_before = q.copy()
    q[...] = 0.0
    assert np.array_equal(jd.joint_q, q_before)


# --- calc_aba against the dense formula ------------------------------------------------------

@pytest.mark.parametrize("update_I", [True, False], ids=["update", "no-update"])
@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("factory, name", TYPES, ids=IDS)
def test_calc_aba_matches_dense_formula(factory, name, shape, update_I, rng):
    jm = placed(factory)
    q, v = random_states(jm, shape, rng)
    I0 = random_spd(shape, rng)
    armature = rng.uniform(0.0, 0.5, jm.nv)

    jd = jm.createData()
    jm.calc(jd, q, v)
    I = I0.copy()
    jm.calc_aba(jd, armature, I, update_I)

    ref = jm.createData()
    jm.calc(ref, q, v)
    I_ref = I0.copy()
    JointModel.calc_aba(jm, ref, armature, I_ref, update_I)

    nv = jm.nv
    for field, tail in (("U", (6, nv)), ("StU", (nv, nv)), ("Dinv", (nv, nv)),
                        ("UDinv", (6, nv))):
        assert getattr(jd, field).shape == shape + tail, field
    for idx in np.ndindex(*shape):
        for field in ("U", "StU", "Dinv", "UDinv"):
            assert_close(getattr(jd, field)[idx], getattr(ref, field)[idx],
                         what=f"{name} {field}{idx}")
        assert_close(I[idx], I_ref[idx], what=f"{name} I{idx}")
        # Dinv inverts D = S^T I S + armature, and the updated I maps S to UDinv armature
        # (I S - U Dinv S^T I S = U Dinv (D - S^T I S); zero without armature).
        S = np.broadcast_to(jd.S, shape + (6, nv))[idx]
        D = S.T @ I0[idx] @ S + np.diag(armature)
        assert_close(jd.Dinv[idx] @ D, np.eye(nv), tol=1e-10, what="Dinv D")
        if update_I:
            assert_close(I[idx] @ S, jd.UDinv[idx] * armature, tol=1e-10, what="I S")
    if not update_I:
        assert np.array_equal(I, I0)


@pytest.mark.parametrize("shape", [(5,), (2, 3)], ids=str)
@pytest.mark.parametrize("factory, name", TYPES, ids=IDS)
def test_batched_equals_per_state_bit_for_bit(factory, name, shape, rng):
    """A state gives the same bits alone or inside a batch (calc and calc_aba), so that the
    algorithms' batched results equal a loop of single calls exactly."""
    jm = placed(factory)
    q, v = random_states(jm, shape, rng, unnormalised=True)
    I0 = random_spd(shape, rng)
    armature = rng.uniform(0.0, 0.5, jm.nv)
    jd = jm.createData()
    jm.calc(jd, q, v)
    I = I0.copy()
    jm.calc_aba(jd, armature, I, True)
    got = ours(jd, shape, jm.nv)
    for idx in np.ndindex(*shape):
        one = jm.createData()
        jm.calc(one, q[idx], v[idx])
        I1 = I0[idx].copy()
        jm.calc_aba(one, armature, I1, True)
        single = ours(one, (), jm.nv)
        for key in got:
            assert np.array_equal(got[key][idx], single[key]), f"{key}{idx}"
        for field in ("U", "StU", "Dinv", "UDinv"):
            assert np.array_equal(getattr(jd, field)[idx], getattr(one, field)), f"{field}{idx}"
        assert np.array_equal(I[idx], I1), f"I{idx}"


@pytest.mark.parametrize("factory, name", TYPES, ids=IDS)
def test_stu_is_written_for_every_type(factory, name, rng):
    """pinref holds S^T U + armature in StU for every type, the 1-dof revolute and prismatic
    ones included (Pinocchio 3.8.0 leaves those at zero; docs/joints.md)."""
    jm = placed(factory)
    q, v = random_states(jm, (), rng)
    jd = jm.createData()
    jm.calc(jd, q, v)
    I = random_spd((), rng)
    armature = np.full(jm.nv, 0.25)
    jm.calc_aba(jd, armature, I.copy(), False)
    S = np.broadcast_to(jd.S, (6, jm.nv))
    assert_close(jd.StU, S.T @ I @ S + np.diag(armature))
