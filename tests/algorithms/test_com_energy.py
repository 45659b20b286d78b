"""Centre of mass, its Jacobian, masses and energies against Pinocchio 3.8.0, call by call.

Each state of a batch gets its own pin Data running the same call sequence as the one pinref
Data. After every call, the result and the caches the centre-of-mass and energy functions write
(mass, com, vcom, acom, Jcom, J, kinetic/potential/mechanical energy) are compared per state at
``1e-12 * max(1, max|ref|)``, including the entries a call leaves alone (com[i] stays a
mass-weighted sum without compute_subtree_coms; vcom is not touched at POSITION level; com[i]
is in frame i after centerOfMass and in the world after jacobianCenterOfMass).
"""

import numpy as np
import pinocchio as pin
import pytest

import pinref
from conftest import assert_close
from models import MODEL_NAMES, build, cache_getter, compare_caches, random_states, sequence_setup

BATCHES = [(), (5,), (2, 3)]

# Call sequences: (function, arguments). "q", "v", "a" are the state; the rest is passed as is.
SEQUENCES = {
    "com_q_v_a": [("centerOfMass", ("q", "v", "a"))],
    "com_levels": [("centerOfMass", ("q",)), ("centerOfMass", ("q", "v")),
                   ("centerOfMass", ("q", "v", "a", False)), ("centerOfMass", ("q", False))],
    "com_from_data": [("forwardKinematics", ("q", "v", "a")),
                      ("centerOfMass", (pinref.KinematicLevel.VELOCITY, True)),
                      ("centerOfMass", (pinref.KinematicLevel.POSITION, False)),
                      ("centerOfMass", ()), ("centerOfMass", (False,))],
    "com_after_crba": [("crba", ("q",)), ("centerOfMass", (pinref.KinematicLevel.POSITION, True))],
    "jacobian_com": [("jacobianCenterOfMass", ("q",)), ("jacobianCenterOfMass", ("q", False)),
                     ("centerOfMass", ("q", "v"))],
    "jacobian_com_from_data": [("forwardKinematics", ("q",)), ("jacobianCenterOfMass", ()),
                               ("jacobianCenterOfMass", (False,))],
    "masses": [("computeSubtreeMasses", ()), ("computeTotalMass", ())],
    "energy": [("computeKineticEnergy", ("q", "v")), ("computePotentialEnergy", ("q",)),
               ("computeMechanicalEnergy", ("q", "v"))],
    "energy_from_data": [("forwardKinematics", ("q", "v")), ("computeKineticEnergy", ()),
                         ("computePotentialEnergy", ()), ("computeMechanicalEnergy", ())],
}


def _pin_arg(arg, state):
    if isinstance(arg, str):
        return state[arg]
    if isinstance(arg, pinref.KinematicLevel):
        return pin.KinematicLevel(int(arg))
    return arg


def _caches(model, data, lib, idx, batch):
    """The caches the centre-of-mass and energy functions write, for state ``idx``."""
    get = cache_getter(lib, idx, batch)
    out = {"Jcom": get(data.Jcom, (3, model.nv)), "J": get(data.J, (6, model.nv)),
           "mass": get(list(data.mass), (model.njoints,))}
    for name in ("kinetic_energy", "potential_energy", "mechanical_energy"):
        out[name] = get(getattr(data, name), ())
    for i in range(model.njoints):
        for name in ("com", "vcom", "acom"):
            out[f"{name}[{i}]"] = get(getattr(data, name)[i], (3,))
    return out


@pytest.mark.parametrize("armature", [False, True], ids=["no_armature", "armature"])
@pytest.mark.parametrize("batch", BATCHES, ids=str)
@pytest.mark.parametrize("sequence", list(SEQUENCES))
@pytest.mark.parametrize("model_name", MODEL_NAMES)
def test_call_sequence_matches_pin(model_name, sequence, batch, armature):
    _, rmodel, pmodel, q, v, a = sequence_setup(model_name, sequence, batch, armature)
    rdata = rmodel.createData()
    states = list(np.ndindex(*batch))
    pdatas = [pmodel.createData() for _ in states]
    for name, args in SEQUENCES[sequence]:
        rargs = [{"q": q, "v": v, "a": a}.get(x, x) if isinstance(x, str) else x for x in args]
        takes_data = name != "computeTotalMass"
        got = (getattr(pinref, name)(rmodel, rdata, *rargs) if takes_data
               else getattr(pinref, name)(rmodel, rdata))
        for k, idx in enumerate(states):
            state = {"q": q[idx], "v": v[idx], "a": a[idx]}
            pargs = [_pin_arg(x, state) for x in args]
            ref = getattr(pin, name)(pmodel, pdatas[k], *pargs)
            if ref is not None and name not in ("forwardKinematics", "crba"):
                ref = np.asarray(ref, dtype=float)
                g = np.asarray(got, dtype=float)
                if name != "computeTotalMass":
                    assert g.shape == batch + ref.shape, f"{name}: shape {g.shape}"
                    g = g[idx]
                assert_close(g, ref, what=f"{name}{args} result at state {idx}")
        compare_caches(_caches, rmodel, rdata, pdatas, pmodel, batch, f"after {name}{args}")


def test_level_without_compute_subtree_coms_is_honoured_unlike_pins_python_dispatch():
    """pin 3.8.0's Python ``centerOfMass(model, data, level)`` (three arguments) resolves to the
    ``(model, data, compute_subtree_coms)`` overload: the level becomes a bool and the
    ACCELERATION pass runs. pinref honours the level (docs/kinematics.md); the returned com[0]
    is the same in both."""
    rmodel, pmodel = build("manipulator")
    q, v, a = random_states(pmodel, (), np.random.default_rng(3))
    pdata, rdata = pmodel.createData(), rmodel.createData()
    pin.forwardKinematics(pmodel, pdata, q, v, a)
    pinref.forwardKinematics(rmodel, rdata, q, v, a)
    com = pin.centerOfMass(pmodel, pdata, pin.KinematicLevel.POSITION)
    assert np.abs(pdata.acom[0]).max() > 0.1  # pin ran the acceleration pass
    assert_close(pinref.centerOfMass(rmodel, rdata, pinref.KinematicLevel.POSITION), com)
    assert np.abs(rdata.acom[0]).max() == 0.0  # pinref did not
    reference = pmodel.createData()
    pin.forwardKinematics(pmodel, reference, q, v, a)
    pin.centerOfMass(pmodel, reference, False)
    assert_close(pdata.com[2], reference.com[2])  # pin: compute_subtree_coms = bool(POSITION)


@pytest.mark.parametrize("model_name", MODEL_NAMES)
def test_total_mass_without_data(model_name):
    rmodel, pmodel = build(model_name)
    assert_close(pinref.computeTotalMass(rmodel), pin.computeTotalMass(pmodel))


def test_energy_returns_a_float_for_one_state_and_an_array_for_a_batch():
    rmodel, pmodel = build("tutorial")
    q, v, _ = random_states(pmodel, (3,), np.random.default_rng(0))
    data = rmodel.createData()
    T = pinref.computeKineticEnergy(rmodel, data, q[0], v[0])
    assert isinstance(T, float)
    Ts = pinref.computeKineticEnergy(rmodel, data, q, v)
    assert Ts.shape == (3,) and not np.shares_memory(Ts, data.kinetic_energy)
    com = pinref.centerOfMass(rmodel, data, q)
    assert com.shape == (3, 3) and not np.shares_memory(com, data.com[0])
