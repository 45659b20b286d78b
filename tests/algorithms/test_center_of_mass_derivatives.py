"""jacobianSubtreeCenterOfMass, getJacobianSubtreeCenterOfMass and
getCenterOfMassVelocityDerivatives (pinref/algorithms/center_of_mass_derivatives.py).

Oracles: Pinocchio 3.8.0 call by call on one Data for every subtree root (centroidal_cases.
check_sequence: results and every cache, per state, including the parent joint's mass and com
that jacobianSubtreeCenterOfMass adds into); central finite differences of pin's own subtree
centre of mass and CoM velocity along the tangent space.
"""

import numpy as np
import pinocchio as pin
import pytest
from centroidal_cases import BATCHES, check_sequence
from conftest import assert_close, slow_cases
from models import MODEL_NAMES, build, random_states
from test_rnea_derivatives import constant_subspace_columns

import pinref
from pinref.checking.finite_differences import eps_sweep
from pinref.errors import ArgumentTypeError, ArgumentValueError, NotComputedError


def _subtree_steps(root):
    return [("centerOfMass", ("q",)), ("jacobianSubtreeCenterOfMass", ("q", root)),
            ("jacobianSubtreeCenterOfMass", (root,)), ("getJacobianSubtreeCenterOfMass", (root,)),
            ("jacobianCenterOfMass", ("q",)), ("getJacobianSubtreeCenterOfMass", (root,))]


@pytest.mark.parametrize("model_name", slow_cases(MODEL_NAMES, ("tree0", "tree1")))
def test_subtree_jacobians_match_pin_for_every_root(model_name):
    for root in range(build(model_name)[0].njoints):
        check_sequence(_subtree_steps(root), model_name, f"subtree {root}", ())


@pytest.mark.parametrize("batch", BATCHES[1:], ids=str)
@pytest.mark.parametrize("model_name", MODEL_NAMES)
def test_subtree_jacobians_match_pin_on_batches(model_name, batch):
    """The universe, a root joint and the last joint (a leaf)."""
    njoints = build(model_name)[0].njoints
    for root in (0, 1, njoints - 1):
        check_sequence(_subtree_steps(root), model_name, f"subtree {root}", batch)


@pytest.mark.parametrize("batch", BATCHES, ids=str)
@pytest.mark.parametrize("model_name", MODEL_NAMES)
def test_com_velocity_derivatives_match_pin(model_name, batch):
    check_sequence([("centerOfMass", ("q", "v")), ("getCenterOfMassVelocityDerivatives", ()),
                    ("centerOfMass", ("q", "a", "v")), ("getCenterOfMassVelocityDerivatives", ())],
                   model_name, "vcom derivatives", batch)


@pytest.mark.parametrize("model_name", ["tutorial", "manipulator", "humanoid"])
def test_against_finite_differences_of_pin(model_name):
    """d com_r / dq = the subtree Jacobian (pin's world subtree CoM, data.com[r] after its
    jacobianSubtreeCenterOfMass) and d vcom / dq (pin.centerOfMass(q, v)), eps 1e-3 .. 1e-8,
    a valley below 1e-6, or rounding only where the function is linear along every column (a
    subtree moved by prismatic joints only). The sample models (the random trees take minutes
    here; their columns are checked against pin above)."""
    rmodel, pmodel = build(model_name)
    q, v, a = random_states(pmodel, (), np.random.default_rng(6))
    cols = constant_subspace_columns(rmodel)
    for root in sorted({1, rmodel.njoints // 2, rmodel.njoints - 1}):
        J = pinref.jacobianSubtreeCenterOfMass(rmodel, rmodel.createData(), q, root)

        def com(q, v, a, root=root):
            pdata = pmodel.createData()
            pin.jacobianSubtreeCenterOfMass(pmodel, pdata, q, root)
            return pdata.com[root].copy()

        sweep = eps_sweep(rmodel, com, q, v, a, J, batched=False, label="com", columns=cols)
        assert sweep.best.relative_error < 1e-6, str(sweep)
        assert sweep.is_valley or sweep.shape == "rounding", str(sweep)
    data = rmodel.createData()
    pinref.centerOfMass(rmodel, data, q, v)
    dvcom = pinref.getCenterOfMassVelocityDerivatives(rmodel, data)

    def vcom(q, v, a):
        pdata = pmodel.createData()
        pin.centerOfMass(pmodel, pdata, q, v)
        return pdata.vcom[0].copy()

    sweep = eps_sweep(rmodel, vcom, q, v, a, dvcom, batched=False, label="vcom", columns=cols)
    assert sweep.best.relative_error < 1e-6 and sweep.is_valley, str(sweep)


def test_the_subtree_root_by_keyword_as_pin_takes_it():
    rmodel, pmodel = build("humanoid")
    q, _, _ = random_states(pmodel, (), np.random.default_rng(3))
    pdata = pmodel.createData()
    pin.forwardKinematics(pmodel, pdata, q)
    for args, kwargs in (((q,), {"subtree_root_joint_id": 5}),
                         ((), {"q": q, "subtree_root_joint_id": 5}),
                         ((), {"subtree_root_joint_id": 5})):
        ref = pin.jacobianSubtreeCenterOfMass(pmodel, pdata, *args, **kwargs)
        data = rmodel.createData()
        pinref.forwardKinematics(rmodel, data, q)
        assert_close(pinref.jacobianSubtreeCenterOfMass(rmodel, data, *args, **kwargs), ref,
                     what="Jcom of subtree 5")


def test_bad_input_raises_typed_errors():
    rmodel, pmodel = build("humanoid")
    q, _, _ = random_states(pmodel, (), np.random.default_rng(2))
    data = rmodel.createData()
    with pytest.raises(ArgumentValueError, match="0 .. 29"):
        pinref.jacobianSubtreeCenterOfMass(rmodel, data, q, rmodel.njoints)
    with pytest.raises(ArgumentTypeError, match="joint index"):
        pinref.jacobianSubtreeCenterOfMass(rmodel, data, q, 1.5)
    with pytest.raises(ArgumentTypeError, match="1 or 2"):
        pinref.jacobianSubtreeCenterOfMass(rmodel, data)
    with pytest.raises(ArgumentTypeError, match="1 or 2"):
        pinref.jacobianSubtreeCenterOfMass(rmodel, data, q, root=3)
    with pytest.raises(ArgumentTypeError, match="multiple values"):
        pinref.jacobianSubtreeCenterOfMass(rmodel, data, q, q=q)
    data = rmodel.createData()            # (the calls above ran forwardKinematics, as pin does)
    with pytest.raises(NotComputedError, match="forwardKinematics"):
        pinref.jacobianSubtreeCenterOfMass(rmodel, data, 3)
    with pytest.raises(NotComputedError, match="jacobianCenterOfMass"):
        pinref.getJacobianSubtreeCenterOfMass(rmodel, data, 3)
    with pytest.raises(NotComputedError, match="centerOfMass"):
        pinref.getCenterOfMassVelocityDerivatives(rmodel, data)
    pinref.centerOfMass(rmodel, data, q)                  # position only: no vcom yet
    with pytest.raises(NotComputedError, match=r"centerOfMass\(model, data, q, v\)"):
        pinref.getCenterOfMassVelocityDerivatives(rmodel, data)


def test_massless_subtree_raises():
    rmodel, pmodel = build("manipulator")
    q, _, _ = random_states(pmodel, (), np.random.default_rng(2))
    last = rmodel.njoints - 1
    rmodel.inertias[last] = pinref.Inertia.Zero()
    with pytest.raises(pinref.errors.ModelError, match="mass"):
        pinref.jacobianSubtreeCenterOfMass(rmodel, rmodel.createData(), q, last)


def test_the_universe_subtree_is_the_whole_robot():
    rmodel, pmodel = build("tree1")
    q, _, _ = random_states(pmodel, (4,), np.random.default_rng(3))
    data = rmodel.createData()
    got = pinref.jacobianSubtreeCenterOfMass(rmodel, data, q, 0)
    ref = pinref.jacobianCenterOfMass(rmodel, rmodel.createData(), q)
    for k in range(4):
        assert_close(got[k], ref[k], what="subtree 0 == jacobianCenterOfMass")
