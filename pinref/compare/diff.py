"""``compare``: run rnea, crba or aba in pinref and in Pinocchio 3.8.0 on identically prepared
Data, compare every cache both hold at the end, and every field of every stop of the passes.

pinref runs once on the whole batch of states, traced (``pinref.trace``); Pinocchio runs state
by state, each on a fresh Data, and its end state is read cache by cache. The values of the
passes that Pinocchio overwrites before it returns are rebuilt from its end state
(``reference.py``). docs/tools.md describes what is compared at which stop.
"""

import os
import time

import numpy as np

from ..errors import ShapeError
from ..tracing import trace
from . import reference as R
from .bridge import import_pinocchio
from .caches import FIELDS, PinCaches, pinref_caches
from .models import is_pinocchio_model, load_model, with_free_flyer
from .report import AlgorithmDiff, CacheDiff, DiffReport, Divergence, Location

__all__ = ["ALGORITHMS", "TOLERANCE", "compare", "random_states"]

ALGORITHMS = ("rnea", "crba", "aba")
TOLERANCE = 1e-12
_VECTORS = ("tau", "nle", "g", "ddq", "u", "M")   # caches over nv: a row belongs to a joint


def compare(model, q=None, v=None, a=None, tau=None, *, fext=None, armature=None,
            algorithm="all", free_flyer=False, states=100, seed=0, tolerance=TOLERANCE,
            progress=None):
    """Compare pinref with Pinocchio 3.8.0, cache by cache and pass by pass.

    Parameters
    ----------
    model : pinref.Model, pinocchio.Model, str or os.PathLike
        A model, a sample model's name ('tutorial', 'manipulator', 'humanoid') or a ``.urdf``
        path. Neither the model nor pin's is modified (both sides work on copies).
    q : ndarray (..., nq), optional
        The states; without q, ``states`` random states are drawn with ``seed`` (q uniform in
        [-1, 1] per coordinate, rotations uniform; v, a normal; tau normal x 10).
    v, a, tau : ndarray (..., nv), optional
        rnea reads a, aba reads tau; when one is missing it is computed from the other with
        pinref (tau = rnea(q, v, a, fext) or a = aba(q, v, tau, fext)).
    fext : ndarray (..., njoints, 6), list of Force, or True, optional
        External wrenches (LOCAL frame of each joint, entry 0 ignored); True draws random ones.
    armature : float or ndarray (nv,), optional
        Replaces the model's armature on both sides.
    algorithm : 'rnea', 'crba', 'aba' or 'all'
    free_flyer : bool
        Put a free-flyer root joint under the model (``pinref.compare.models.load_model``).
    states, seed : int
        How many random states, and their seed (ignored when q is given).
    tolerance : float
        Per cache, joint and state: ``max|pinref - pin| <= tolerance * max(1, max|pin|)``.
    progress : callable(stage, done, total), optional
        Called while Pinocchio runs state by state.

    Returns
    -------
    DiffReport

    Raises
    ------
    ImportError (pinocchio missing: pip install 'pinref[pin]'), ModelError, URDFError,
    ShapeError (sizes or batch shapes of the states that do not fit the model or each other),
    NotNormalizedError, NotPositiveDefiniteError (pinref's ABA on a singular model).
    """
    started = time.perf_counter()
    pin = import_pinocchio()
    from .. import __version__
    from .bridge import from_pinocchio, to_pinocchio

    if is_pinocchio_model(model):
        rmodel = from_pinocchio(model)
        if free_flyer:
            rmodel = with_free_flyer(rmodel)
            pmodel = to_pinocchio(rmodel)
        else:
            pmodel = pin.Model(model)
    else:
        rmodel = load_model(model, free_flyer)
        pmodel = to_pinocchio(rmodel)
    if isinstance(model, (str, os.PathLike)):
        label = os.fspath(model)
    else:
        label = rmodel.name or type(model).__name__
    if armature is not None:
        arm = _armature(armature, rmodel.nv)
        rmodel.armature = arm.copy()
        pmodel.armature = arm.copy()
    algorithms = _algorithms(algorithm)
    inputs, batch, described = _states(rmodel, q, v, a, tau, fext, states, seed, algorithms)
    n = int(np.prod(batch)) if batch else 1
    flat = {k: x.reshape((n,) + x.shape[len(batch):]) for k, x in inputs.items()}
    results = [_compare_one(alg, rmodel, pmodel, pin, inputs, flat, batch, tolerance, progress)
               for alg in algorithms]
    described["armature"] = ("model's" if armature is None
                             else np.array2string(np.unique(rmodel.armature), precision=4))
    return DiffReport(
        model={"name": str(label), "nq": rmodel.nq, "nv": rmodel.nv, "njoints": rmodel.njoints,
               "joints": list(rmodel.names)},
        states=n, batch_shape=tuple(batch), tolerance=float(tolerance), inputs=described,
        versions={"pinref": __version__, "pin": pin.__version__}, algorithms=tuple(results),
        seconds={"total": time.perf_counter() - started})


def _algorithms(algorithm):
    if algorithm in (None, "all"):
        return ALGORITHMS
    names = [algorithm] if isinstance(algorithm, str) else list(algorithm)
    for name in names:
        if name not in ALGORITHMS:
            raise ValueError(f"unknown algorithm {name!r}: expected rnea, crba, aba or all")
    return tuple(names)


def _armature(armature, nv):
    arm = np.asarray(armature, dtype=float)
    try:
        arm = np.broadcast_to(arm, (nv,)).copy()
    except ValueError:
        raise ShapeError(f"armature: expected a number or {nv} numbers (model.nv), got shape "
                         f"{arm.shape}") from None
    if not np.all(np.isfinite(arm)):
        raise ShapeError("armature: expected finite numbers")
    return arm


def _fext_array(fext, njoints):
    if isinstance(fext, (list, tuple)):
        if len(fext) != njoints:
            raise ShapeError(f"fext: expected model.njoints = {njoints} wrenches (entry 0 is "
                             f"ignored), got {len(fext)}")
        fext = np.stack(np.broadcast_arrays(*[np.asarray(getattr(f, "vector", f), dtype=float)
                                              for f in fext]), -2)
    return np.asarray(fext, dtype=float)


def random_states(model, n, seed=0, fext=False):
    """``n`` random states of ``model``: q uniform in [-1, 1] per coordinate (rotations and
    (cos, sin) pairs uniform, normalised), v and a standard normal, tau normal x 10, and with
    ``fext`` standard normal wrenches (n, njoints, 6). Returns a dict of arrays (n, ...)."""
    import pinref

    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise ShapeError(f"states: expected a positive number of random states, got {n!r}")
    nq, nv = model.nq, model.nv
    rng = np.random.default_rng(seed)
    out = {"q": pinref.randomConfiguration(model, -np.ones((n, nq)), np.ones((n, nq)), rng=rng),
           "v": rng.normal(size=(n, nv)), "a": rng.normal(size=(n, nv)),
           "tau": rng.normal(size=(n, nv)) * 10.0}
    if fext:
        out["fext"] = rng.normal(size=(n, model.njoints, 6))
    return out


def _states(model, q, v, a, tau, fext, states, seed, algorithms):
    """The inputs as arrays broadcast to one batch shape: ({name: array}, batch, description)."""
    import pinref

    nq, nv, nj = model.nq, model.nv, model.njoints
    described = {}
    if q is None:
        drawn = random_states(model, states, seed, fext is True)
        q, v, a, tau = drawn["q"], drawn["v"], drawn["a"], drawn["tau"]
        fext = drawn.get("fext", None if fext is True else fext)
        described["states"] = f"{states} random, seed {seed}"
    else:
        described["states"] = "given"
        if fext is True:
            raise ShapeError("fext=True draws random wrenches for random states only; pass an "
                             "array (..., njoints, 6) with given states")
    arrays = {"q": (q, (nq,), "model.nq")}
    for name, x in (("v", v), ("a", a), ("tau", tau)):
        if x is not None:
            arrays[name] = (x, (nv,), "model.nv")
    if fext is not None and fext is not False:
        arrays["fext"] = (_fext_array(fext, nj), (nj, 6), "(model.njoints, 6)")
    out, shapes = {}, {}
    for name, (x, tail, what) in arrays.items():
        x = np.asarray(x, dtype=float)
        if x.shape[len(x.shape) - len(tail):] != tail or x.ndim < len(tail):
            raise ShapeError(f"{name}: expected shape (..., {', '.join(map(str, tail))}) "
                             f"({what} = {tail[-1] if len(tail) == 1 else tail}), got "
                             f"{x.shape}")
        if not np.all(np.isfinite(x)):
            raise ShapeError(f"{name}: holds NaN or infinity")
        out[name], shapes[name] = x, x.shape[:x.ndim - len(tail)]
    try:
        batch = np.broadcast_shapes(*shapes.values())
    except ValueError:
        raise ShapeError("inconsistent state sizes: the batch shapes "
                         + ", ".join(f"{k} {s}" for k, s in shapes.items())
                         + " do not broadcast") from None
    model.check_configuration(out["q"])
    needs_v = any(alg in ("rnea", "aba") for alg in algorithms)
    if needs_v and "v" not in out:
        raise ShapeError("v: rnea and aba need the joint velocities v (..., model.nv)")
    fx = out.get("fext")
    if "rnea" in algorithms and "a" not in out:
        if "tau" not in out:
            raise ShapeError("rnea needs a (or tau, from which a = aba(q, v, tau) is computed)")
        out["a"] = pinref.aba(model, model.createData(), out["q"], out["v"], out["tau"], fx)
    if "aba" in algorithms and "tau" not in out:
        if "a" not in out:
            raise ShapeError("aba needs tau (or a, from which tau = rnea(q, v, a) is computed)")
        out["tau"] = pinref.rnea(model, model.createData(), out["q"], out["v"], out["a"], fx)
    tails = {"q": (nq,), "v": (nv,), "a": (nv,), "tau": (nv,), "fext": (nj, 6)}
    for name, x in out.items():
        out[name] = np.broadcast_to(x, tuple(batch) + tails[name]).copy()
    described["fext"] = "yes" if "fext" in out else "no"
    return out, tuple(batch), described


def _call_args(alg, inputs):
    if alg == "crba":
        return (inputs["q"],), {}
    last = inputs["a"] if alg == "rnea" else inputs["tau"]
    return (inputs["q"], inputs["v"], last), ({"fext": inputs["fext"]} if "fext" in inputs
                                              else {})


def _compare_one(alg, rmodel, pmodel, pin, inputs, flat, batch, tolerance, progress):
    import pinref

    seconds = {}
    t0 = time.perf_counter()
    rdata = rmodel.createData()
    args, kwargs = _call_args(alg, inputs)
    with trace() as recorded:
        getattr(pinref, alg)(rmodel, rdata, *args, **kwargs)
    seconds["pinref"] = time.perf_counter() - t0

    t0 = time.perf_counter()
    n = flat["q"].shape[0]
    P = PinCaches(pmodel, n, ycrb_matrix=(alg == "crba"))
    fargs, fkw = _call_args(alg, flat)
    function = getattr(pin, alg)
    for k in range(n):
        pdata = pmodel.createData()
        call = [x[k] for x in fargs]
        if fkw:
            call.append([pin.Force(w) for w in fkw["fext"][k]])
        function(pmodel, pdata, *call)
        P.store(k, pdata)
        if progress is not None:
            progress(f"{alg}: pin", k + 1, n)
    seconds["pin"] = time.perf_counter() - t0

    t0 = time.perf_counter()
    info = R.ModelInfo(pmodel, rdata.nvSubtree)
    ref = R.Reference()
    fext = flat.get("fext")
    if alg == "aba":
        u = R.aba_reference(ref, info, P.arrays, flat["tau"], fext)
    elif alg == "rnea":
        R.rnea_reference(ref, info, P.arrays, flat["a"], fext)
    else:
        R.crba_reference(ref, info, P.arrays)
    got = pinref_caches(rmodel, rdata, batch, ycrb_matrix=(alg == "crba"))
    pairs = {key: (got[key], P.arrays[key], R.END) for key in P.arrays
             if key[0] != "Ycrb"}
    if alg == "aba":
        pairs["u", None] = (np.broadcast_to(rdata.u, batch + (rmodel.nv,)).reshape(n, -1), u,
                            ref.get("AbaLocalConventionBackwardStep", 1, "u", None)[1])
        for i in range(1, rmodel.njoints):
            StU, source = ref.get("AbaLocalConventionBackwardStep", i, "joints.StU", i)
            nvi = rmodel.nvs[i]
            mine = np.broadcast_to(rdata.joints[i].StU, batch + (nvi, nvi)).reshape(n, nvi, nvi)
            pairs["joints.StU", i] = (mine, StU, source)
    caches = _end_state(rmodel, batch, pairs, tolerance)
    divergence, stops, fields, failed = _stops(alg, rmodel, batch, recorded, ref, tolerance)
    if divergence is None:
        divergence = _end_divergence(alg, rmodel, batch, pairs, caches, tolerance)
    seconds["compare"] = time.perf_counter() - t0
    return AlgorithmDiff(alg, caches, divergence, stops, fields, failed, seconds)


def _errors(got, ref):
    """Per state (axis 0): max abs error, its flat position, and max(1, max|ref|)."""
    got = np.broadcast_to(got, ref.shape)
    n = ref.shape[0]
    diff = np.abs(got - ref)
    nan_ref, nan_got = np.isnan(ref), np.isnan(got)
    if nan_ref.any() or nan_got.any():
        diff = np.where(nan_ref & nan_got, 0.0, diff)
        diff = np.where(nan_ref ^ nan_got, np.inf, diff)
    diff = diff.reshape(n, -1)
    if diff.shape[1] == 0:
        zero = np.zeros(n)
        return zero, np.zeros(n, dtype=int), np.ones(n)
    scale = np.maximum(1.0, np.nanmax(np.abs(ref).reshape(n, -1), axis=1, initial=0.0))
    arg = np.argmax(diff, axis=1)
    return diff[np.arange(n), arg], arg, scale


def _owner(model):
    owner = np.zeros(model.nv, dtype=int)
    for i in range(1, model.njoints):
        owner[model.idx_vs[i]:model.idx_vs[i] + model.nvs[i]] = i
    return owner


def _location(model, batch, k, cache, index, tail, arg, owner, label=None):
    state = tuple(int(s) for s in np.unravel_index(k, batch)) if batch else ()
    pos = tuple(int(s) for s in np.unravel_index(arg, tail)) if tail else ()
    row = pos[0] if len(pos) >= 1 else None
    col = pos[1] if len(pos) >= 2 else None
    joint = index
    if joint is None and cache in _VECTORS and row is not None:
        joint = int(owner[row])
    label = _label(cache, index) if label is None else label
    entry = label + ("[" + ", ".join(map(str, pos)) + "]" if pos else "")
    if joint is None:
        return Location(state, None, None, None, row, col, entry)
    idx_v = ((model.idx_vs[joint], model.idx_vs[joint] + model.nvs[joint]) if joint > 0
             else None)
    return Location(state, model.names[joint], int(joint), idx_v, row, col, entry)


def _label(cache, index):
    """``Yaba[2]``, ``joints[2].U``, ``Ycrb[2].mass``, ``tau``."""
    if index is None:
        return cache
    if cache.startswith("joints."):
        return f"joints[{index}].{cache[7:]}"
    base, _, attr = cache.partition(".")
    return f"{base}[{index}]" + (f".{attr}" if attr else "")


def _end_state(model, batch, pairs, tolerance):
    owner = _owner(model)
    order = [name for name, _, _ in FIELDS] + ["u", "joints.StU"]
    out = []
    for name in order:
        keys = [key for key in pairs if key[0] == name]
        if not keys:
            continue
        worst_abs = worst_rel = (-1.0, None)
        compared = failed = 0
        source = pairs[keys[0]][2]
        for key in keys:
            got, ref, _ = pairs[key]
            err, arg, scale = _errors(got, ref)
            rel = err / scale
            compared += err.size
            failed += int(np.count_nonzero(~(rel <= tolerance)))
            ka, kr = int(np.argmax(err)), int(np.argmax(rel))
            tail = ref.shape[1:]
            if err[ka] > worst_abs[0]:
                worst_abs = (float(err[ka]), _location(model, batch, ka, name, key[1], tail,
                                                       arg[ka], owner))
            if rel[kr] > worst_rel[0]:
                worst_rel = (float(rel[kr]), _location(model, batch, kr, name, key[1], tail,
                                                       arg[kr], owner))
        if worst_abs[0] == 0.0:            # equal everywhere: no place to point at
            worst_abs = worst_rel = (0.0, None)
        out.append(CacheDiff(name, worst_abs[0], worst_rel[0], worst_abs[1], worst_rel[1],
                             compared, failed, source))
    return tuple(out)


def _stops(alg, model, batch, recorded, ref, tolerance):
    """Compare every write of every stop; return (first Divergence, stops, fields, failed)."""
    owner = _owner(model)
    first, stops, fields, failed = None, 0, 0, 0
    snapshots = recorded.call(-1).snapshots if recorded.calls else ()
    for snap in snapshots:
        compared_here = False
        for w in snap.writes:
            found = ref.get(snap.step, snap.joint, w.cache, w.index)
            if found is None:
                continue
            full, source = found
            expected = w.take(full)
            n, tail = expected.shape[0], expected.shape[1:]
            got = np.broadcast_to(w.value, tuple(batch) + tail).reshape((n,) + tail)
            err, arg, scale = _errors(got, expected)
            rel = err / scale
            bad = ~(rel <= tolerance)
            fields += 1
            compared_here = True
            if not bad.any():
                continue
            failed += 1
            if first is None:
                k = int(np.argmax(np.where(bad, rel, -1.0)))
                where = _location(model, batch, k, w.cache, w.index, tail, arg[k], owner,
                                  label=w.label)
                pos = np.unravel_index(arg[k], tail) if tail else ()
                first = Divergence(
                    alg, snap.step, snap.pass_number, snap.joint_name or None, snap.joint,
                    w.label, w.cache, where, float(err[k]), float(rel[k]), float(tolerance),
                    float(got[(k,) + tuple(pos)]), float(expected[(k,) + tuple(pos)]), source,
                    int(np.count_nonzero(bad)))
        stops += compared_here
    return first, stops, fields, failed


def _end_divergence(alg, model, batch, pairs, caches, tolerance):
    """When every stop agreed: the first cache of the end state beyond the tolerance."""
    for c in caches:
        if c.agree:
            continue
        for key, (got, ref, source) in pairs.items():
            if key[0] != c.cache:
                continue
            err, arg, scale = _errors(got, ref)
            rel = err / scale
            bad = ~(rel <= tolerance)
            if not bad.any():
                continue
            k = int(np.argmax(np.where(bad, rel, -1.0)))
            tail = ref.shape[1:]
            where = _location(model, batch, k, key[0], key[1], tail, arg[k], _owner(model))
            pos = np.unravel_index(arg[k], tail) if tail else ()
            g = np.broadcast_to(got, ref.shape)
            return Divergence(alg, "end state", None, where.joint, where.joint_id,
                              _label(key[0], key[1]), c.cache, where,
                              float(err[k]), float(rel[k]), float(tolerance),
                              float(g[(k,) + tuple(pos)]), float(ref[(k,) + tuple(pos)]),
                              source, int(np.count_nonzero(bad)))
    return None

