"""The call-sequence check of the centroidal tests (test_centroidal.py,
test_centroidal_derivatives.py, test_center_of_mass_derivatives.py): a sequence of calls against
Pinocchio 3.8.0 on one Data, the result and every cache the centroidal, centre-of-mass and
WORLD-derivative passes write compared per state after every call at ``1e-12 * max(1,
max|ref|)``, the entries a call leaves alone included (how the call-history quirks of
docs/quirks.md are checked).
"""

import numpy as np
import pinocchio as pin
from conftest import assert_close
from models import cache_getter, compare_caches, random_fext, sequence_setup

import pinref

BATCHES = [(), (5,), (2, 3)]

_MATRICES = ("Ag", "dAg", "J", "dJ", "dHdq", "dFda", "dFdq", "dFdv", "dAdq", "dAdv")
_MOTIONS = ("v", "a", "ov", "oa", "h", "f", "oh", "of")


def centroidal_caches(model, data, lib, idx, batch):
    """The caches the centroidal and centre-of-mass passes write, for state ``idx``."""
    get = cache_getter(lib, idx, batch)
    nv = model.nv
    out = {name: get(getattr(data, name), (6, nv)) for name in _MATRICES}
    out["Jcom"] = get(data.Jcom, (3, nv))
    out["Fcrb[0]"] = get(data.Fcrb[0], (6, nv))
    out["tau"] = get(data.tau, (nv,))
    for name in ("hg", "dhg"):
        out[name] = get(getattr(data, name).vector, (6,))
    out["Ig"] = get(data.Ig.matrix(), (6, 6))
    for i in range(model.njoints):
        out[f"liMi[{i}]"] = get(data.liMi[i].homogeneous, (4, 4))
        out[f"oMi[{i}]"] = get(data.oMi[i].homogeneous, (4, 4))
        out[f"oYcrb[{i}]"] = get(data.oYcrb[i].matrix(), (6, 6))
        out[f"mass[{i}]"] = get(data.mass[i], ())        # a batch of totals after some calls
        for name in ("com", "vcom"):
            out[f"{name}[{i}]"] = get(getattr(data, name)[i], (3,))
        for name in _MOTIONS:
            out[f"{name}[{i}]"] = get(getattr(data, name)[i].vector, (6,))
    return out


def _value(x):
    """A result as an array (a Force as its vector)."""
    return np.asarray(getattr(x, "vector", x), dtype=float)


def _arguments(args, state, lib):
    """The call's arguments: "q", "v", "a" from the state, "f" the fext, the rest as is."""
    out = []
    for x in args:
        if x == "f":
            out.append([pin.Force(np.array(f)) for f in state["f"]] if lib == "pin"
                       else state["f"])
        elif isinstance(x, str):
            out.append(state[x])
        else:
            out.append(x)
    return out


def check_sequence(steps, model_name, sequence, batch, armature=False):
    """Run ``steps`` (each a (function name, arguments)) in pinref on the whole batch and in pin
    state by state; compare the results and ``centroidal_caches`` after each call."""
    rng, rmodel, pmodel, q, v, a = sequence_setup(model_name, sequence, batch, armature)
    fext = random_fext(rmodel.njoints, batch, rng)
    rdata = rmodel.createData()
    states = list(np.ndindex(*batch))
    pdatas = [pmodel.createData() for _ in states]
    whole = {"q": q, "v": v, "a": a, "f": fext}
    for name, args in steps:
        got = getattr(pinref, name)(rmodel, rdata, *_arguments(args, whole, "pinref"))
        for k, idx in enumerate(states):
            state = {"q": q[idx], "v": v[idx], "a": a[idx], "f": fext[idx]}
            ref = getattr(pin, name)(pmodel, pdatas[k], *_arguments(args, state, "pin"))
            if ref is None or name == "computeRNEADerivatives":
                continue
            pairs = zip(got, ref) if isinstance(ref, tuple) else [(got, ref)]
            for j, (x, r) in enumerate(pairs):
                x, r = _value(x), _value(r)
                assert x.shape == batch + r.shape, f"{name} result {j}: shape {x.shape}"
                assert_close(x[idx], r, what=f"{name}{args} result {j} at state {idx}")
        compare_caches(centroidal_caches, rmodel, rdata, pdatas, pmodel, batch,
                       f"after {name}{args}")
