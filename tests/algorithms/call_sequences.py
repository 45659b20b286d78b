"""The call-sequence checks of the algorithm tests (test_rnea.py, test_crba.py, test_aba.py,
test_kinematics.py, test_call_history.py, test_center_of_mass.py, test_energy.py): a sequence of
calls against Pinocchio 3.8.0, cache by cache, after every call, on one Data.

Each state of a batch gets its own pin Data running the same sequence; pinref runs the sequence
once on the whole batch. After every call, every cache of both Data objects is compared per
state at ``1e-12 * max(1, max|ref|)``: the ones the call writes, and the ones it must leave
alone (which is how the call-history quirks of docs/quirks.md are checked).
"""

import numpy as np
import pinocchio as pin

import pinref
from conftest import assert_close
from models import (MODEL_NAMES, cache_getter, check_hidden_caches, compare_caches, compare_data,
                    random_fext, sequence_setup)

BATCHES = [(), (1,), (5,), (2, 3)]

# A one-joint pendulum (nv == 1) at every batch shape but (1,): for nq == 1 the shape (1, 1) is
# one column, as Pinocchio reads it (docs/algorithms.md, "Column vectors and batches").
CASES = ([(m, b) for m in MODEL_NAMES for b in BATCHES]
         + [("pendulum", b) for b in BATCHES if b != (1,)])


def _pin_fext(fext):
    return [pin.Force(np.array(f)) for f in fext]


def _args(step, state, lib):
    """The positional arguments of one call for pinocchio (lib='pin') or pinref."""
    q, v, a, tau, fext = state
    out = []
    for key in step:
        if key == "f":
            out.append(_pin_fext(fext) if lib == "pin" else fext)
        else:
            out.append({"q": q, "v": v, "a": a, "t": tau}[key])
    return out


def check_call_sequence(steps, model_name, sequence, batch, armature):
    """Run ``steps`` (each a (function name, arguments it takes from the state: q, v, a, t for
    tau, f for fext)) in pinref and pin, comparing results and every cache after each call."""
    rng, rmodel, pmodel, q, v, a = sequence_setup(model_name, sequence, batch, armature)
    tau = rng.normal(size=batch + (rmodel.nv,)) * 10
    fext = random_fext(rmodel.njoints, batch, rng)
    rdata = pinref.Data(rmodel)
    states = list(np.ndindex(*batch))
    pdatas = [pmodel.createData() for _ in states]
    compare_data(rmodel, rdata, pdatas, pmodel, batch, "fresh Data")
    for name, keys in steps:
        got = getattr(pinref, name)(rmodel, rdata, *_args(keys, (q, v, a, tau, fext), "pinref"))
        for k, idx in enumerate(states):
            state = (q[idx], v[idx], a[idx], tau[idx], fext[idx])
            ref = getattr(pin, name)(pmodel, pdatas[k], *_args(keys, state, "pin"))
            if ref is not None:
                assert got.shape == batch + np.shape(ref)
                assert_close(got[idx], ref, what=f"{name} result at state {idx}")
        compare_data(rmodel, rdata, pdatas, pmodel, batch, f"after {name}")
        if name == "aba":
            for k, idx in enumerate(states):
                check_hidden_caches(rmodel, rdata, pmodel, pdatas[k], idx, batch)


# --- centre of mass and energies ---------------------------------------------------------------
# The result and the caches the centre-of-mass and energy functions write (mass, com, vcom, acom,
# Jcom, J, kinetic/potential/mechanical energy), including the entries a call leaves alone
# (com[i] stays a mass-weighted sum without compute_subtree_coms; vcom is not touched at POSITION
# level; com[i] is in frame i after centerOfMass and in the world after jacobianCenterOfMass).

COM_BATCHES = [(), (5,), (2, 3)]


def _pin_arg(arg, state):
    if isinstance(arg, str):
        return state[arg]
    if isinstance(arg, pinref.KinematicLevel):
        return pin.KinematicLevel(int(arg))
    return arg


def _com_caches(model, data, lib, idx, batch):
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


def check_com_energy_sequence(steps, model_name, sequence, batch, armature):
    """Run ``steps`` (each a (function, arguments): "q", "v", "a" are the state, the rest is
    passed as is) in pinref and pin, comparing results and the centre-of-mass and energy caches
    after each call."""
    _, rmodel, pmodel, q, v, a = sequence_setup(model_name, sequence, batch, armature)
    rdata = rmodel.createData()
    states = list(np.ndindex(*batch))
    pdatas = [pmodel.createData() for _ in states]
    for name, args in steps:
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
        compare_caches(_com_caches, rmodel, rdata, pdatas, pmodel, batch, f"after {name}{args}")
