"""``compare``: run rnea, crba or aba in pinref and in Pinocchio 3.8.0 on identically prepared
Data, compare every cache both hold at the end, and every field of every stop of the passes.

The states are cut into chunks of a bounded size (``chunk_size``). For each chunk pinref runs
once on the whole chunk, traced (``pinref.trace``); Pinocchio runs state by state, each on a
fresh Data, and its end state is read cache by cache. The values of the passes that Pinocchio
overwrites before it returns are rebuilt from its end state (``reference.py``). Each chunk
yields a small summary (``_Chunk``: worst errors and where, first failing field, counts) and
the summaries merge into exactly the report one chunk holding every state would give. Chunks
run in worker processes (forked, one per core by default) when there are enough states.
docs/tools.md describes what is compared at which stop.
"""

import math
import multiprocessing
import os
import time
from dataclasses import dataclass, field

import numpy as np

from ..errors import (
    ArgumentTypeError,
    ArgumentValueError,
    ModelError,
    NonFiniteError,
    ShapeError,
)
from ..model.loading import load_model, with_free_flyer
from ..model.model import model_label
from ..tracing.states import is_int, random_states
from ..tracing import steps, trace
from . import reference as R
from .bridge import import_pinocchio, is_pinocchio_model
from .caches import FIELDS, WORLD_FIELDS, PinCaches, keys, pinref_caches
from .report import AlgorithmDiff, CacheDiff, Conditioning, DiffReport, Divergence, Location

__all__ = ["ALGORITHMS", "CONDITIONING_FACTOR", "MEMORY_LIMIT", "PROPAGATED_FACTOR",
           "STATES_BYTES_LIMIT", "TOLERANCE", "compare", "memory_estimate"]

ALGORITHMS = ("rnea", "crba", "aba")
TOLERANCE = 1e-12
_VECTORS = ("tau", "nle", "g", "ddq", "u", "M")   # caches over nv: a row belongs to a joint

# A state of ABA agrees "within conditioning" when rel <= max(tolerance, c eps amplification):
# c = CONDITIONING_FACTOR, eps the float64 machine epsilon, amplification the state's
# (``aba_amplification``). These caches of ABA are computed through the inverse D^-1 of a
# joint-space block (or from what is): their rounding is amplified, the others' is not.
CONDITIONING_FACTOR = 8.0
# An acceleration also agrees within PROPAGATED_FACTOR eps times the disagreement the local
# differences of the two sides leave once carried through the passes (``_propagated``): one
# rounding of each sum on each side.
PROPAGATED_FACTOR = 2.0
_CONDITIONED = {"aba": ("Yaba", "joints.U", "joints.Dinv", "joints.UDinv", "joints.StU", "u",
                        "f", "a", "a_gf", "ddq"),
                "aba WORLD": ("oYaba", "joints.U", "joints.Dinv", "joints.UDinv", "joints.StU",
                              "u", "of", "oa", "oa_gf", "ddq")}
_EPS = float(np.finfo(float).eps)
# Judged against the backward amplification of their joint wherever they are compared
# (``Amplification.of``); so is every value written at a stop of the backward pass.
_BACKWARD_CACHES = ("Yaba", "oYaba", "joints.U", "joints.Dinv", "joints.UDinv", "joints.StU")
_BACKWARD_STEPS = (steps.ABA_BACKWARD, steps.ABA_WORLD_BACKWARD)
# Judged against ``Amplification.propagated`` too, after pass 1 (which writes c_i alone).
_ACCELERATIONS = ("a", "a_gf", "oa", "oa_gf")
_FIRST_STEPS = (steps.ABA_FORWARD1, steps.ABA_WORLD_FORWARD1)

# The states of a run (q, v, a, tau, fext as float64 over the whole batch) are held at once:
# at most this many bytes. The per-chunk work is bounded by CHUNK_BYTES per process.
STATES_BYTES_LIMIT = 1 << 30
CHUNK_BYTES = 256 << 20
# A run's estimated peak memory per process (``memory_estimate``) is at most MEMORY_LIMIT, or
# it is refused before anything is allocated: the interpreter with NumPy, pin and pinref loaded
# (BASE_BYTES: about 90 MB measured, the rest a margin for the heap), the states, one chunk's
# work and one pin Data, which grows as 32 nv^3 bytes (four nv x nv x nv second-order
# derivative tensors: 2 GB at nv 400).
MEMORY_LIMIT = 1_500_000_000
BASE_BYTES = 256 << 20
# The arrays of ABA's propagated bound (``aba_amplification``): its chunks of states are
# sized to hold at most this many bytes (one state's, when more)
PROPAGATED_BYTES = 16 << 20
# Below this many states per algorithm the chunks run in this process (a worker costs a fork).
PARALLEL_MIN_STATES = 2000


def compare(model, q=None, v=None, a=None, tau=None, *, fext=None, armature=None,
            algorithm="all", free_flyer=False, states=100, seed=0, tolerance=TOLERANCE,
            progress=None, workers=None, chunk_size=None, convention="LOCAL"):
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
        Replaces the model's armature on both sides (finite, >= 0: the Model refuses less).
    algorithm : 'rnea', 'crba', 'aba', 'all', or a list of them
    free_flyer : bool
        Put a free-flyer root joint under the model (``pinref.model.loading.load_model``).
    states, seed : int
        How many random states (>= 1), and their seed (>= 0; ignored when q is given).
    tolerance : float
        Per cache, joint and state: ``max|pinref - pin| <= tolerance * max(1, max|pin|)``;
        finite and > 0. ABA's states whose rounding is amplified agree within
        ``max(tolerance, CONDITIONING_FACTOR * eps * amplification)`` (docs/tools.md).
    progress : callable(stage, done, total), optional
        Called after each chunk of states.
    workers : int, optional
        Processes for the chunks (default: one per core when there are at least
        PARALLEL_MIN_STATES states, else 1, this process).
    chunk_size : int, optional
        States per chunk (default: what fits CHUNK_BYTES). The report does not depend on it.
    convention : 'LOCAL', 'WORLD' or a pinref.Convention
        The frame crba and aba run in on both sides; in the WORLD convention (their
        crbaWorldConvention / abaWorldConvention passes) they are reported as 'crba WORLD' and
        'aba WORLD', with the WORLD caches (ov, oa, oa_gf, oh, of, oYcrb, oYaba, J, Ag) too.

    Returns
    -------
    DiffReport

    Raises
    ------
    ImportError (pinocchio missing: pip install 'pinref[pin]'), ModelError, URDFError,
    ShapeError (sizes or batch shapes of the states that do not fit the model or each other, or
    more states than STATES_BYTES_LIMIT holds), ArgumentTypeError and ArgumentValueError for
    arguments of the wrong type or value (each names the argument), NotNormalizedError,
    NotPositiveDefiniteError (pinref's ABA on a singular model).
    """
    started = time.perf_counter()
    pin = import_pinocchio()
    from .. import __version__

    _check_arguments(q, states, seed, tolerance, free_flyer, progress, workers, chunk_size)
    world = _world(convention)
    tolerance = float(tolerance)
    rmodel, pmodel, label = _models(model, free_flyer, pin)
    if armature is not None:
        arm = _armature(armature, rmodel.nv)
        rmodel.armature = arm.copy()
        pmodel.armature = arm.copy()
    algorithms = _algorithms(algorithm)
    size = chunk_size or chunk_states(rmodel)
    inputs, batch, described = _states(rmodel, q, v, a, tau, fext, states, seed, algorithms,
                                       size)
    n = int(np.prod(batch)) if batch else 1
    jobs = [(alg, start, min(start + size, n)) for alg in algorithms for start in range(0, n, size)]
    if workers is None:
        workers = _cores() if n >= PARALLEL_MIN_STATES else 1
    context = _JobContext(rmodel, pmodel, inputs, tuple(batch), tolerance, world)
    chunks = _run(context, jobs, workers, progress, n)
    results = tuple(_merge(_name(alg, world), rmodel,
                           [c for (a_, _, _), c in zip(jobs, chunks) if a_ == alg], tolerance)
                    for alg in algorithms)
    described["armature"] = ("model's" if armature is None
                             else np.array2string(np.unique(rmodel.armature), precision=4))
    if world:
        described["convention"] = "WORLD (crba, aba)"
    return DiffReport(
        model={"name": str(label), "nq": rmodel.nq, "nv": rmodel.nv, "njoints": rmodel.njoints,
               "joints": list(rmodel.names)},
        states=n, batch_shape=tuple(batch), tolerance=tolerance, inputs=described,
        versions={"pinref": __version__, "pin": pin.__version__}, algorithms=results,
        seconds={"total": time.perf_counter() - started})


def _world(convention):
    """Whether ``convention`` ('LOCAL', 'WORLD', any case, or a pinref.Convention) is WORLD."""
    from ..algorithms._args import Convention

    if isinstance(convention, str) and convention.upper() in ("LOCAL", "WORLD"):
        return convention.upper() == "WORLD"
    if isinstance(convention, Convention):
        return convention == Convention.WORLD
    raise ArgumentValueError(f"convention: expected 'LOCAL', 'WORLD' or a pinref.Convention, "
                             f"got {convention!r}")


def _name(alg, world):
    """The algorithm's name in the report: 'aba WORLD' and 'crba WORLD' in that convention."""
    return f"{alg} WORLD" if world and alg != "rnea" else alg


def _check_arguments(q, states, seed, tolerance, free_flyer, progress, workers, chunk_size):
    if q is None:
        if not is_int(states):
            raise ArgumentTypeError(f"states: expected a positive integer (how many random "
                                    f"states), got {type(states).__name__} {states!r}")
        if states < 1:
            raise ShapeError(f"states: expected a positive number of random states, got "
                             f"{states!r}")
        if not is_int(seed):
            raise ArgumentTypeError(f"seed: expected an integer >= 0, got "
                                    f"{type(seed).__name__} {seed!r}")
        if seed < 0:
            raise ArgumentValueError(f"seed: expected an integer >= 0 (NumPy's seeds are), got "
                                     f"{seed}")
    if isinstance(tolerance, (bool, np.bool_)) or not isinstance(
            tolerance, (int, float, np.floating, np.integer)):
        raise ArgumentTypeError(f"tolerance: expected a positive number, got "
                                f"{type(tolerance).__name__} {tolerance!r}")
    if not (math.isfinite(tolerance) and tolerance > 0):
        raise ArgumentValueError(f"tolerance: expected a finite number > 0, got {tolerance!r}")
    if not isinstance(free_flyer, (bool, np.bool_)):
        raise ArgumentTypeError(f"free_flyer: expected True or False, got "
                                f"{type(free_flyer).__name__} {free_flyer!r}")
    if progress is not None and not callable(progress):
        raise ArgumentTypeError(f"progress: expected a callable(stage, done, total) or None, "
                                f"got {type(progress).__name__}")
    for name, x in (("workers", workers), ("chunk_size", chunk_size)):
        if x is not None and (not is_int(x) or x < 1):
            raise ArgumentValueError(f"{name}: expected a positive integer or None, got {x!r}")


def _models(model, free_flyer, pin):
    """(pinref Model, pin Model, label), both copies of ``model``."""
    from .bridge import from_pinocchio, to_pinocchio

    if is_pinocchio_model(model):
        rmodel = from_pinocchio(model)
        if free_flyer:
            rmodel = with_free_flyer(rmodel)
            pmodel = to_pinocchio(rmodel)
        else:
            pmodel = pin.Model(model)
    else:
        rmodel = load_model(model, bool(free_flyer))
        pmodel = to_pinocchio(rmodel)
    path = os.fspath(model) if isinstance(model, (str, os.PathLike)) else None
    if rmodel.nv == 0:
        raise ModelError(f"{model_label(rmodel.name or path)} has no joint with a degree of "
                         "freedom (nv = 0): there is nothing to compare; give a model with "
                         "joints, or --free-flyer for a single body")
    return rmodel, pmodel, path or rmodel.name or type(model).__name__


def _algorithms(algorithm):
    if algorithm is None or (isinstance(algorithm, str) and algorithm == "all"):
        return ALGORITHMS
    if isinstance(algorithm, str):
        names = [algorithm]
    elif isinstance(algorithm, (list, tuple)):
        names = list(algorithm)
    else:
        raise ArgumentTypeError(f"algorithm: expected 'rnea', 'crba', 'aba', 'all' or a list of "
                                f"them, got {type(algorithm).__name__} {algorithm!r}")
    if not names:
        raise ArgumentValueError("algorithm: the list is empty; expected some of rnea, crba, aba")
    for name in names:
        if not isinstance(name, str) or name not in ALGORITHMS:
            raise ArgumentValueError(f"algorithm: unknown algorithm {name!r}: expected rnea, "
                                     "crba, aba or all")
    return tuple(dict.fromkeys(names))


def _real(x, name):
    """``x`` as a float array; ShapeError for a ragged list, TypeError for complex, strings,
    objects."""
    try:
        arr = np.asarray(x)
    except ValueError as err:
        raise ShapeError(f"{name}: not an array of numbers ({err})") from None
    if arr.dtype.kind not in "fiub":
        raise ArgumentTypeError(f"{name}: expected real numbers, got an array of dtype "
                                f"{arr.dtype}" + ("; the imaginary part would be lost: pass "
                                                  "the real part" if arr.dtype.kind == "c"
                                                  else ""))
    return arr.astype(float, copy=False)


def _armature(armature, nv):
    arm = _real(armature, "armature")
    try:
        arm = np.broadcast_to(arm, (nv,)).copy()
    except ValueError:
        raise ShapeError(f"armature: expected a number or {nv} numbers (model.nv), got shape "
                         f"{arm.shape}") from None
    if not np.all(np.isfinite(arm)):
        raise NonFiniteError("armature: expected finite numbers")
    return arm


def _fext_array(fext, njoints):
    if isinstance(fext, (list, tuple)):
        if len(fext) != njoints:
            raise ShapeError(f"fext: expected model.njoints = {njoints} wrenches (entry 0 is "
                             f"ignored), got {len(fext)}")
        fext = np.stack(np.broadcast_arrays(*[_real(getattr(f, "vector", f), "fext")
                                              for f in fext]), -2)
    return _real(fext, "fext")


def _state_bytes(model, fext):
    """The bytes of one state's q, v, a, tau (and fext)."""
    return 8 * (model.nq + 3 * model.nv + (6 * model.njoints if fext else 0))


def pin_data_bytes(nv, njoints):
    """The bytes of one ``pinocchio.Data`` of a model of that size: its four nv x nv x nv tensors
    (kinematic_hessians is 6 nv^2, d2tau_dqdq, d2tau_dvdv, d2tau_dqdv, d2tau_dadq nv^3 each),
    its nv x nv matrices, its 6 x nv matrix per joint (Fcrb) and per-joint fields, rounded up
    (measured: 36 MB at nv 100, 260 MB at nv 200)."""
    return 8 * (4 * nv ** 3 + 24 * nv ** 2 + 24 * nv * njoints) + 8192 * njoints


def memory_estimate(model, n, fext=False, chunk_size=None):
    """Estimated peak bytes of one process comparing ``n`` states of ``model``, by part:
    {"base", "states", "chunk", "pin Data", "total"} (see MEMORY_LIMIT)."""
    size = min(n, chunk_size or chunk_states(model))
    parts = {"base": BASE_BYTES, "states": n * _state_bytes(model, fext),
             "chunk": size * _state_work(model),
             "pin Data": pin_data_bytes(model.nv, model.njoints),
             "ABA bound": _propagated_bytes(model) * max(1, PROPAGATED_BYTES
                                                        // _propagated_bytes(model))}
    parts["total"] = sum(parts.values())
    return parts


def _check_memory(model, n, fext, chunk_size):
    """Refuse a run that cannot fit: more than STATES_BYTES_LIMIT of states, or an estimated
    peak beyond MEMORY_LIMIT per process."""
    per_state = _state_bytes(model, fext)
    if n * per_state > STATES_BYTES_LIMIT:
        most = STATES_BYTES_LIMIT // per_state
        raise ShapeError(f"states: {n} states of this model (nq {model.nq}, nv {model.nv}) "
                         f"take {n * per_state / 2**30:.3g} GiB, more than the "
                         f"{STATES_BYTES_LIMIT / 2**30:g} GiB a comparison holds; compare at "
                         f"most {most} states per run (several runs with other seeds cover "
                         "more)")
    parts = memory_estimate(model, n, fext, chunk_size)
    if parts["total"] <= MEMORY_LIMIT:
        return
    room = MEMORY_LIMIT - (parts["total"] - parts["states"])
    if room < per_state:
        fix = (f"pin's Data alone grows as 32 nv^3 bytes: compare a model with fewer degrees "
               f"of freedom (nv <= {_largest_nv(model, parts['chunk'] + parts['ABA bound'])} at "
               "this many joints), "
               "or its subtrees one at a time (pinref.buildReducedModel)")
    else:
        fix = f"compare at most {room // per_state} states per run (several runs with other seeds)"
    used = ", ".join(f"{k} {x / 1e9:.3f} GB" for k, x in parts.items() if k != "total")
    raise ShapeError(f"states: {n} state(s) of a model with nv {model.nv} and {model.njoints} "
                     f"joints need an estimated {parts['total'] / 1e9:.2f} GB per process "
                     f"({used}), more than the {MEMORY_LIMIT / 1e9:g} GB a comparison may use; "
                     f"{fix}")


def _largest_nv(model, chunk):
    """The largest nv whose pin Data fits MEMORY_LIMIT with the base and ``chunk`` bytes of
    work (the chunk's and ABA's bound), at model's njoints."""
    nv = model.nv
    while nv > 1 and BASE_BYTES + chunk + pin_data_bytes(nv, model.njoints) > MEMORY_LIMIT:
        nv -= 1
    return nv


def _states(model, q, v, a, tau, fext, states, seed, algorithms, chunk_size):
    """The inputs as arrays of one flat batch (n, ...): ({name: array}, batch, description).
    a or tau, when missing, is computed per chunk (``_chunk_inputs``)."""
    nq, nv, nj = model.nq, model.nv, model.njoints
    described = {}
    if q is None:
        _check_memory(model, states, fext is True, chunk_size)
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
        x = _real(x, name)
        if x.shape[len(x.shape) - len(tail):] != tail or x.ndim < len(tail):
            raise ShapeError(f"{name}: expected shape (..., {', '.join(map(str, tail))}) "
                             f"({what} = {tail[-1] if len(tail) == 1 else tail}), got "
                             f"{x.shape}")
        out[name], shapes[name] = x, x.shape[:x.ndim - len(tail)]
    try:
        batch = tuple(np.broadcast_shapes(*shapes.values()))
    except ValueError:
        raise ShapeError("inconsistent state sizes: the batch shapes "
                         + ", ".join(f"{k} {s}" for k, s in shapes.items())
                         + " do not broadcast") from None
    n = int(np.prod(batch)) if batch else 1
    if n == 0:
        raise ShapeError(f"states: the batch shape {batch} holds no state; give at least one")
    _check_memory(model, n, "fext" in out, chunk_size)
    for name, x in out.items():
        if not np.all(np.isfinite(x)):
            raise NonFiniteError(f"{name}: holds NaN or infinity")
    model.check_configuration(out["q"])
    needs_v = any(alg in ("rnea", "aba") for alg in algorithms)
    if needs_v and "v" not in out:
        raise ShapeError("v: rnea and aba need the joint velocities v (..., model.nv)")
    if "rnea" in algorithms and "a" not in out and "tau" not in out:
        raise ShapeError("rnea needs a (or tau, from which a = aba(q, v, tau) is computed)")
    if "aba" in algorithms and "tau" not in out and "a" not in out:
        raise ShapeError("aba needs tau (or a, from which tau = rnea(q, v, a) is computed)")
    tails = {"q": (nq,), "v": (nv,), "a": (nv,), "tau": (nv,), "fext": (nj, 6)}
    for name, x in out.items():
        out[name] = np.broadcast_to(x, batch + tails[name]).reshape((n,) + tails[name])
    described["fext"] = "yes" if "fext" in out else "no"
    return out, batch, described


def _state_work(model):
    """An estimate of one state's working set in a chunk: the cache tables of pinref and pin,
    the trace and the rebuilt reference, four cache tables."""
    return 4 * 8 * sum(int(np.prod(tail)) for _, _, tail in keys(model, ycrb_matrix=True))


def chunk_states(model):
    """States per chunk: CHUNK_BYTES over an estimate of one state's working set."""
    return max(1, CHUNK_BYTES // _state_work(model))


def _cores():
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:
        return max(1, os.cpu_count() or 1)


# --- running the chunks ------------------------------------------------------------------------


@dataclass
class _JobContext:
    """What every chunk reads: the models, the flat inputs (n, ...), the batch shape."""

    rmodel: object
    pmodel: object
    inputs: dict
    batch: tuple
    tolerance: float
    world: bool = False


_CONTEXT = None     # the _JobContext of the run, inherited by forked workers


def _run_job(job):
    alg, start, stop = job
    return _compare_chunk(alg, _CONTEXT, start, stop)


def _run(context, jobs, workers, progress, n):
    """The _Chunk of every job, in order; in ``workers`` forked processes when > 1."""
    global _CONTEXT
    done = {}

    def report(job):
        if progress is not None:
            alg, start, stop = job
            done[alg] = done.get(alg, 0) + stop - start
            progress(f"{alg}: states", done[alg], n)

    workers = min(workers, len(jobs))
    if workers > 1 and "fork" not in multiprocessing.get_all_start_methods():
        workers = 1
    _CONTEXT = context
    try:
        if workers == 1:
            out = []
            for job in jobs:
                out.append(_run_job(job))
                report(job)
            return out
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            out = []
            for job, result in zip(jobs, pool.imap(_run_job, jobs)):
                out.append(result)
                report(job)
            return out
    finally:
        _CONTEXT = None


def _chunk_inputs(model, inputs, alg, start, stop):
    """The chunk's inputs; a (rnea) or tau (aba) computed with pinref where not given."""
    import pinref

    out = {k: x[start:stop] for k, x in inputs.items()}
    fx = out.get("fext")
    if alg == "rnea" and "a" not in out:
        out["a"] = pinref.aba(model, model.createData(), out["q"], out["v"], out["tau"], fx)
    if alg == "aba" and "tau" not in out:
        out["tau"] = pinref.rnea(model, model.createData(), out["q"], out["v"], out["a"], fx)
    return out


def _call_args(alg, inputs):
    if alg == "crba":
        return (inputs["q"],), {}
    last = inputs["a"] if alg == "rnea" else inputs["tau"]
    return (inputs["q"], inputs["v"], last), ({"fext": inputs["fext"]} if "fext" in inputs
                                              else {})


def aba_amplification(model, P, u, fext=None, world=False):
    """How much ABA's rounding can grow in each state and joint, from pin's end state and the
    rebuilt u (B, nv) (``Amplification``).

    A first-order bound of the disagreement of the backward pass that counts only the
    rounding in which pinref and pin differ (docs/tools.md). ``E_i`` (6, 6), in eps, bounds
    entry by entry the difference of the two sides' IA_i, the articulated inertia before
    joint i's own update (Yaba_i, or oYaba_i in the WORLD convention, plus U_i D_i^-1 U_i^T
    under a parent). D_i = S_i^T IA_i S_i (+ armature) then differs by |S_i|^T E_i |S_i| and
    by its own rounding, a relative error of D_i^-1 of

        e_i = max_j (D_i^-1)_jj (|S_i|^T E_i |S_i| + dD_i)_jj  (+ w_i for a k x k inverse),

    large where D_i comes out of cancellation (a light body far from heavy ones; in the WORLD
    convention S_i = J_i's columns, whose entries carry the world lever arms). Own rounding:
    U_i = IA_i S_i rounds by ``dU_i = |IA_i| S'_i``, S'_i the entries of |S_i| whose products
    the two sides may round differently (LOCAL: all but each column's largest, none for a
    unit axis, whose U_i is a column of IA_i and D_i an entry of it on both sides; WORLD: all
    of |J_i|, the two sides multiply in other orders), D_i by ``dD_i = |S_i|^T dU_i + S'_i^T
    |U_i|``, and a k > 1 inverse by ``w_i = max_j (D_i^-1)_jj (|S_i|^T |IA_i| |S_i|)_jj``.

    LOCAL: the update Ia_i = IA_i - U_i D_i^-1 U_i^T moves a difference dIA to Q dIA Q^T,
    Q = I - UDinv_i S_i^T (its derivative), and the parent receives

        E_p += |X_i| (|Q| E_i |Q|^T + dU_i |UDinv_i|^T + |UDinv_i| dU_i^T
                      + |UDinv_i| (dD_i + w_i |D_i|) |UDinv_i|^T + |Ia_i|) |X_i|^T,

    |Ia_i| the rounding of the transport X_i Ia_i X_i^T (X_i the force action of liMi_i),
    which pinref and pin write differently. WORLD: |Q| compounds with the lever arms (3e9 on
    the sample humanoid), so the parent receives only ``|oYaba_i|`` (the rounding of the sum
    oYaba_p += Ia_i), and the child's disagreement reaches it through its D_i^-1, the child's
    share of D_p: e_p gains ``e_i max_j (D_p^-1)_jj (|S_p^T U_i| |D_i^-1| |U_i^T S_p|)_jj``.
    E_i is never above ``T_i``, the entry-wise magnitudes of everything summed into IA_i (|Y_i|,
    or |oYcrb_i|, plus per child |X| (T_c + |U_c D_c^-1 U_c^T|) |X|^T), each side's own
    rounding bound, nor e_i (before the WORLD children's share) above ``max_j (D_i^-1)_jj
    (|S_i|^T T_i |S_i|)_jj``, the bound that T_i gives alone. The rounding both sides share is
    not counted: iCub's degenerate head inertia gives neck_roll's D a cancellation of 4e6 in
    some states, yet the two sides' Dinv there agree to the bit, and the bound from T_i alone
    came out 682 times the disagreement.

    Errors add along a branch, and each value is judged against the errors it is computed
    from (``Amplification``): a value of joint i that the backward pass leaves (Yaba_i, U_i,
    Dinv_i, UDinv_i, StU_i, and pa_i and pA at its stops) against the largest sum of e_j from
    i down to a joint of its subtree; a value of the forward passes (a_i, a_gf_i, f_i)
    against that of the root of i's tree (the joint under the universe), since the root's
    ddq carries the bias forces of the whole tree; a cache over nv (u, ddq) against the
    largest of the state. All are at least 1. docs/tools.md gives its calibration against the
    errors seen on the tests' robots. The accelerations are also judged against
    ``_propagated``: the local differences of the two sides carried through the passes.
    """
    B = P["joints.Dinv", 1].shape[0]
    E, terms, e, inherited = {}, {}, {}, {}
    blocks = {i: _aba_block(model, P, i, world) for i in range(1, model.njoints)}
    for i in reversed(range(1, model.njoints)):
        p = model.parents[i]
        S, U, Dinv = blocks[i]
        UDinv = P["joints.UDinv", i].reshape(U.shape)
        Ia = P["oYaba" if world else "Yaba", i]
        IA = Ia + UDinv @ U.mT if p > 0 else Ia
        aS, aIA, aU = np.abs(S), np.abs(IA), np.abs(U)
        rounded = aS if world else _off_axis(aS)
        dU = aIA @ rounded                                 # U_i = IA_i S_i's own rounding
        dD = aS.mT @ dU + rounded.mT @ aU                  # D_i = S_i^T U_i's
        inverse = _cancellation(Dinv, aS.mT @ aIA @ aS) if U.shape[-1] > 1 else 0.0
        Ti = terms.pop(i, 0.0) + np.abs(P["oYcrb", i] if world else model.Ymatrix[i])
        Ei = np.minimum(E.pop(i), Ti) if i in E else np.zeros((B, 6, 6))
        e[i] = np.minimum(_cancellation(Dinv, aS.mT @ Ei @ aS + dD) + inverse,
                          _cancellation(Dinv, aS.mT @ Ti @ aS)) + inherited.pop(i, 0.0)
        if p == 0:
            continue
        Ti = Ti + np.abs(UDinv @ U.mT)
        if world:
            terms[p] = terms.get(p, 0.0) + Ti
            E[p] = E[p] + np.abs(Ia) if p in E else np.abs(Ia)     # oYaba[p] += Ia_i
            Sp, _, Dinv_p = blocks[p]
            coupling = np.abs(Sp.mT @ U)
            inherited[p] = inherited.get(p, 0.0) + e[i] * _cancellation(
                Dinv_p, coupling @ np.abs(Dinv) @ coupling.mT)
            continue
        Q, aUDinv = np.abs(np.eye(6) - UDinv @ S.mT), np.abs(UDinv)
        dD = dD + (inverse[:, None, None] * np.abs(S.mT @ U) if U.shape[-1] > 1 else 0.0)
        moved = (Q @ Ei @ Q.mT + dU @ aUDinv.mT + aUDinv @ dU.mT + aUDinv @ dD @ aUDinv.mT
                 + np.abs(Ia))
        X = np.abs(R.dual_action(P["liMi", i]))
        E[p] = E[p] + X @ moved @ X.mT if p in E else X @ moved @ X.mT
        terms[p] = terms.get(p, 0.0) + X @ Ti @ X.mT
    amplification = Amplification.from_errors(model.parents, e, B)
    step = max(1, PROPAGATED_BYTES // _propagated_bytes(model))
    amplification.propagated = np.concatenate([
        _propagated(model, {k: x[b:b + step] for k, x in P.items()}, u[b:b + step],
                    None if fext is None else fext[b:b + step],
                    {i: x[b:b + step] for i, x in e.items()}, world)
        for b in range(0, B, step)])
    return amplification


def _aba_block(model, P, i, world):
    """(S_i (B, 6, k), or J_i's columns in the WORLD convention; U_i (B, 6, k); Dinv_i
    (B, k, k)) of pin's end state."""
    U, k = P["joints.U", i], model.nvs[i]
    B = U.shape[0]
    S = P["J", None][..., model.v_slices[i]] if world else P["joints.S", i]
    return S.reshape(B, 6, k), U.reshape(B, 6, k), P["joints.Dinv", i].reshape(B, k, k)


def _cancellation(Dinv, A):
    """(B,) max_j (Dinv)_jj A_jj: how much larger than D the magnitudes A are, on its
    diagonal (A (B, k, k) in D's units)."""
    return (np.diagonal(Dinv, axis1=-2, axis2=-1) * np.diagonal(A, axis1=-2, axis2=-1)).max(-1)


def _off_axis(aS):
    """|S| without each column's largest entry: the entries whose products pinref and pin may
    round differently in U = IA S (none where S's columns are unit axes: U is then columns of
    IA, and D entries of them, on both sides)."""
    largest = aS == aS.max(axis=-2, keepdims=True)
    return np.where(largest & (np.cumsum(largest, axis=-2) == 1), 0.0, aS)


def _propagated_bytes(model):
    """The bytes ``_propagated`` holds per state: (nv_i, K) per joint, (6, K) per pending joint
    (``_pending``) and a few more (6, K) at a time, K = 4 nv + 6 njoints columns."""
    K = 4 * model.nv + 6 * model.njoints
    return 8 * K * (model.nv + 6 * (_pending(model.parents) + 8))


def _pending(parents):
    """The most (6, K) arrays ``_propagated`` keeps for joints at once: the bias forces carried
    to a parent not yet reached (backward: from its last child's step to its own), plus the
    accelerations of a joint whose last child is not reached yet (forward)."""
    last = {p: i for i, p in enumerate(parents) if i > 0}     # each parent's last child
    most = held = 0
    for i in reversed(range(1, len(parents))):
        held += (parents[i] > 0 and last[parents[i]] == i) - (i in last)
        most = max(most, held)
    held = 1                                                   # the universe's
    for i in range(1, len(parents)):
        held += (i in last) - (parents[i] > 0 and last[parents[i]] == i)
        most = max(most, held)
    return most


def _propagated(model, P, u, fext, e, world):
    """(B, njoints): a first-order bound, in eps, of the absolute disagreement of a_gf_i
    (oa_gf_i, and a_i, oa_i with it) that the local differences of the two sides leave once
    the passes have carried them, each with its sign, through their linear steps.

    The differences, one per degree of freedom j (a column of the arrays below): the rounding
    of u_j = tau_j - S_j^T pA_j, one eps times its terms ``|tau_j| + |S_j|^T |pA_j|`` (the two
    sides sum in different orders; u_j may be far smaller than its terms), and D_j^-1's, e_j
    eps relative (``aba_amplification``), which moves pa_j = pA_j + Yaba_j c_j + UDinv_j u_j
    by ``e_j UDinv_j u_j`` and, through Yaba_j = Ia_j - U_j D_j^-1 U_j^T, by ``e_j UDinv_j
    U_j^T c_j`` (two columns: the two sides need not form Yaba_j with the same D_j^-1), and
    ddq_j = D_j^-1 (u_j - U_j^T a'_j) by ``e_j |D_j^-1| |u_j - U_j^T a'_j|`` (a column of its
    own; a free flyer's D^-1 u, a sum of large terms on kinova's base); per
    joint, the rounding of each entry of U_j = Ia_j S_j, eps ``(|Yaba_j| + |UDinv_j U_j^T|)
    |S_j|``, which D_j^-1 amplifies in UDinv_j: it moves pa_j by that times |D_j^-1 u_j| and
    ddq_j by |D_j^-1| times it times |a'_j| (six columns; a light wheel on tiago's casters,
    whose U_j is a difference of world lever arms). Carried: a change dpA_j of the bias force
    moves u_j by -S_j^T dpA_j, pa_j by dpA_j + UDinv_j du_j, pA_p by X_j dpa_j (the force
    action of liMi_j; the identity in the WORLD convention); forward, ddq_j by Dinv_j du_j -
    UDinv_j^T da'_j and a_gf_j by da'_j + S_j dddq_j, da'_j = X_j^T da_p (a'_j the acceleration
    before joint j's own: X_j^T a_gf_p + c_j, or oa_gf_p + c_j). The bound sums the magnitudes
    of the columns, so that a difference of large terms (u_j; ddq_j = Dinv_j u_j - UDinv_j^T
    a'_j) is judged by what made it, and the rounding both sides share is not counted."""
    B, n = u.shape[0], model.njoints
    K = 4 * model.nv + 6 * n
    vel, mom = ("ov", "oh") if world else ("v", "h")
    dpA, pA, da = {}, {}, {0: np.zeros((B, 6, K))}
    last = {model.parents[i]: i for i in range(1, n)}            # the last child of each joint
    for i in range(1, n):
        pA[i] = R.mv(R.force_cross(P[vel, i]), P[mom, i])
        if fext is not None:
            pA[i] = pA[i] - (R.mv(R.dual_action(P["oMi", i]), fext[:, i]) if world
                             else fext[:, i])
    blocks = {}
    for i in reversed(range(1, n)):
        p, iv = model.parents[i], model.v_slices[i]
        S, U, Dinv = _aba_block(model, P, i, world)
        UDinv = P["joints.UDinv", i].reshape(U.shape)
        St = S.mT
        rows = np.arange(model.nvs[i])
        carried = dpA.pop(i) if i in dpA else np.zeros((B, 6, K))
        du = -(St @ carried)
        du[:, rows, model.idx_vs[i] + rows] += np.abs(u[:, iv] + R.mv(St, pA[i])) + R.mag(St, pA[i])
        # U_i = Ia_i S_i, rounded to eps |Ia_i| |S_i| entry by entry, goes through D_i^-1 into
        # UDinv_i: into pa_i (times u_i) and ddq_i (times a'_i); one column per entry
        Y = P["oYaba" if world else "Yaba", i]
        dU = (np.abs(Y) + np.abs(UDinv @ U.mT)) @ np.abs(S)
        entries = 3 * model.nv + 6 * i + np.arange(6)
        c = _bias(model, P, i, world)
        blocks[i] = (S, U, UDinv, Dinv, du, dU, entries, c)
        if p == 0:
            continue
        dpa = carried + UDinv @ du
        dpa[:, np.arange(6), entries] += R.mv(dU, np.abs(R.mv(Dinv, u[:, iv])))
        for first, x in ((model.nv, u[:, iv]), (2 * model.nv, R.mv(U.mT, c))):
            dpa[..., first + model.idx_vs[i] + rows] += UDinv * (e[i][:, None] * x)[:, None, :]
        pa = pA[i] + R.mv(Y, c) + R.mv(UDinv, u[:, iv])
        if not world:
            X = R.dual_action(P["liMi", i])
            pa, dpa = R.mv(X, pa), X @ dpa
        pA[p] = pA[p] + pa
        dpA[p] = dpA[p] + dpa if p in dpA else dpa
    out = np.zeros((B, n))
    for i in range(1, n):
        p = model.parents[i]
        S, U, UDinv, Dinv, du, dU, entries, c = blocks.pop(i)
        before = da[p] if world else R.dual_action(P["liMi", i]).mT @ da[p]
        if last.get(p) == i and p > 0:
            del da[p]
        ddq = Dinv @ du - UDinv.mT @ before
        before_i = (P["oa_gf", p] + c if world
                    else P["a_gf", i] - R.mv(S, P["ddq", None][:, model.v_slices[i]]))
        ddq[..., entries] += np.abs(Dinv) @ (dU * np.abs(before_i)[..., None]).mT
        rows, iv = np.arange(model.nvs[i]), model.v_slices[i]
        ddq[:, rows, 3 * model.nv + 6 * n + model.idx_vs[i] + rows] += e[i][:, None] * R.mv(
            np.abs(Dinv), np.abs(u[:, iv] - R.mv(U.mT, before_i)))
        da[i] = before + S @ ddq
        out[:, i] = np.abs(da[i]).sum(axis=-1).max(axis=-1)
        if i not in last:
            del da[i]
    return out


def _bias(model, P, i, world):
    """c_i, the velocity product pass 1 puts in a_gf_i (LOCAL: c_J + v_i x v_J) or oa_gf_i
    (WORLD: oMi c_J + ov_parent x ov_i), (B, 6)."""
    if not world:
        return P["joints.c", i] + R.mv(R.motion_cross(P["v", i]), P["joints.v", i])
    H, c = P["oMi", i], P["joints.c", i]
    angular = R.mv(H[..., :3, :3], c[..., R.ANGULAR])
    moved = np.concatenate([R.mv(H[..., :3, :3], c[..., R.LINEAR])
                            + np.cross(H[..., :3, 3], angular), angular], -1)
    return moved + R.mv(R.motion_cross(P["ov", model.parents[i]]), P["ov", i])


@dataclass
class Amplification:
    """ABA's amplification per state and joint (``aba_amplification``), each (B, njoints):
    ``backward[:, i]`` the largest sum of e_j from i down to a joint of its subtree,
    ``forward[:, i]`` that of the first joint under the universe on i's branch (the root of
    its tree), ``propagated[:, i]`` the bound of ``_propagated`` (absolute, in eps); ``state``
    (B,) the largest of the sums. All but ``propagated`` are at least 1."""

    backward: np.ndarray
    forward: np.ndarray
    state: np.ndarray
    propagated: np.ndarray = None

    @classmethod
    def from_errors(cls, parents, e, B):
        n = len(parents)
        down = np.zeros((B, n))
        for i in reversed(range(1, n)):
            down[:, i] = down[:, i] + e[i]
            p = parents[i]
            down[:, p] = np.maximum(down[:, p], down[:, i])
        tree = down.copy()
        for i in range(1, n):
            if parents[i] > 0:
                tree[:, i] = tree[:, parents[i]]
        state = np.maximum(1.0, down[:, 0])
        down, tree = np.maximum(1.0, down), np.maximum(1.0, tree)
        return cls(down, tree, state)

    def of(self, cache, index, step, scale):
        """(B,) the amplification a value of ``cache[index]`` is judged against, written at
        ``step`` (None: the end state), ``scale`` the divisor of its relative error. An
        acceleration after pass 1 takes the larger of its tree's and ``PROPAGATED_FACTOR eps
        propagated / scale``, expressed in units of CONDITIONING_FACTOR eps."""
        if index is None:
            return self.state
        if step in _BACKWARD_STEPS or cache in _BACKWARD_CACHES:
            return self.backward[:, index]
        if cache in _ACCELERATIONS and step not in _FIRST_STEPS:
            return np.maximum(self.forward[:, index], PROPAGATED_FACTOR / CONDITIONING_FACTOR
                              * self.propagated[:, index] / scale)
        return self.forward[:, index]


def _compare_chunk(alg, ctx, start, stop):
    """Compare states [start, stop) of the flat batch for ``alg``; returns a _Chunk."""
    import pinref

    pin = import_pinocchio()
    rmodel, pmodel, tolerance = ctx.rmodel, ctx.pmodel, ctx.tolerance
    world = ctx.world and alg != "rnea"
    seconds = {}
    t0 = time.perf_counter()
    flat = _chunk_inputs(rmodel, ctx.inputs, alg, start, stop)
    n = stop - start
    rdata = rmodel.createData()
    args, kwargs = _call_args(alg, flat)
    if world:
        kwargs["convention"] = pinref.Convention.WORLD
    with trace() as recorded:
        getattr(pinref, alg)(rmodel, rdata, *args, **kwargs)
    seconds["pinref"] = time.perf_counter() - t0

    t0 = time.perf_counter()
    P = PinCaches(pmodel, n, ycrb_matrix=(alg == "crba" and not world), world=world)
    fargs, fkw = _call_args(alg, flat)
    function = getattr(pin, alg)
    for k in range(n):
        # built in place (createData returns a copy: twice the peak), one at a time: a pin Data
        # holds 32 nv^3 bytes (MEMORY_LIMIT)
        pdata = pin.Data(pmodel)
        call = [x[k] for x in fargs]
        if fkw:
            call.append([pin.Force(w) for w in fkw["fext"][k]])
        if world:
            call.append(pin.Convention.WORLD)
        function(pmodel, pdata, *call)
        P.store(k, pdata)
        del pdata
    seconds["pin"] = time.perf_counter() - t0

    t0 = time.perf_counter()
    info = R.ModelInfo(pmodel, rdata.nvSubtree)
    ref = R.Reference()
    fext = flat.get("fext")
    backward = "AbaWorldConventionBackwardStep" if world else "AbaLocalConventionBackwardStep"
    if alg == "aba":
        build = R.aba_world_reference if world else R.aba_reference
        u = build(ref, info, P.arrays, flat["tau"], fext)
    elif alg == "rnea":
        R.rnea_reference(ref, info, P.arrays, flat["a"], fext)
    else:
        (R.crba_world_reference if world else R.crba_reference)(ref, info, P.arrays)
    got = pinref_caches(rmodel, rdata, (n,), ycrb_matrix=(alg == "crba" and not world),
                        world=world)
    pairs = {key: (got[key], P.arrays[key], R.END, ref.end_terms(*key)) for key in P.arrays
             if key[0] != "Ycrb"}
    if alg == "aba":
        pairs["u", None] = (np.broadcast_to(rdata.u, (n, rmodel.nv)), u,
                            ref.get(backward, 1, "u", None)[1], ref.end_terms("u", None))
        for i in range(1, rmodel.njoints):
            StU, source = ref.get(backward, i, "joints.StU", i)
            nvi = rmodel.nvs[i]
            mine = np.broadcast_to(rdata.joints[i].StU, (n, nvi, nvi))
            pairs["joints.StU", i] = (mine, StU, source, None)
    amplification = (aba_amplification(info, P.arrays, u, fext, world)
                     if alg == "aba" else None)
    chunk = _Chunk(_name(alg, world), start, ctx.batch, rmodel, tolerance, amplification)
    chunk.end_state(pairs)
    chunk.stops(recorded, ref)
    seconds["compare"] = time.perf_counter() - t0
    chunk.seconds = seconds
    chunk.model = None          # not sent back from a worker
    return chunk


# --- one chunk's summary, and the merge --------------------------------------------------------


def _errors(got, ref, whole=None, terms=None):
    """Per state (axis 0): max abs error, its flat position, and max(1, max|ref|), the maximum
    taken over ``whole`` instead when given (the field a write covers part of), and over
    ``terms`` too when given (the magnitudes of the terms a rebuilt sum adds: its own rounding
    is eps times those, ``Reference``). Every step is one NumPy pass over the whole chunk of
    states."""
    n = ref.shape[0]
    diff = np.subtract(got, ref).reshape(n, -1)
    np.abs(diff, out=diff)
    if diff.shape[1] == 0:
        return np.zeros(n), np.zeros(n, dtype=int), np.ones(n)
    flat_ref = ref.reshape(n, -1)
    finite = bool(np.isfinite(diff).all())
    if not finite:                      # NaN is equal to NaN only; one NaN is infinitely off
        got = np.broadcast_to(got, ref.shape)
        nan_ref, nan_got = np.isnan(flat_ref), np.isnan(got.reshape(n, -1))
        diff = np.where(nan_ref & nan_got, 0.0, diff)
        diff = np.where(nan_ref ^ nan_got, np.inf, diff)
    if whole is not None:
        finite, flat_ref = False, whole.reshape(n, -1)
    top = (np.abs(flat_ref).max(axis=1, initial=0.0) if finite     # no NaN in ref: plain max
           else np.nanmax(np.abs(flat_ref), axis=1, initial=0.0))
    if terms is not None:
        top = np.fmax(top, terms.reshape(n, -1).max(axis=1))     # a NaN term: not a scale
    arg = np.argmax(diff, axis=1)
    return diff[np.arange(n), arg], arg, np.maximum(1.0, top)


def _owner(model):
    owner = np.zeros(model.nv, dtype=int)
    for i in range(1, model.njoints):
        owner[model.idx_vs[i]:model.idx_vs[i] + model.nvs[i]] = i
    return owner


def _location(model, batch, k, cache, index, tail, arg, owner, label=None, row0=0):
    """Where entry ``arg`` of state ``k`` sits; ``row0`` is the first row of a write that
    covers rows ``row0:...`` of a vector over nv (its rows belong to the joints there)."""
    state = tuple(int(s) for s in np.unravel_index(k, batch)) if batch else ()
    pos = tuple(int(s) for s in np.unravel_index(arg, tail)) if tail else ()
    row = pos[0] if len(pos) >= 1 else None
    col = pos[1] if len(pos) >= 2 else None
    joint = index
    if joint is None and cache in _VECTORS and row is not None:
        joint = int(owner[row0 + row])
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


def _better(value, order, best):
    """True when (value, order) beats ``best`` = (value, order, ...) or None: a larger value,
    or an equal one earlier in (cache, joint, state) order, the order one pass over every
    state at once would pick."""
    if best is None:
        return value > -1.0
    return value > best[0] or (value == best[0] and order < best[1])


@dataclass
class _Chunk:
    """What one chunk of states contributes to an AlgorithmDiff (see ``_merge``). Candidates
    are (value, order, payload) with order = (cache rank, key rank, global state)."""

    algorithm: str
    start: int
    batch: tuple
    model: object
    tolerance: float
    amplification: object
    caches: dict = field(default_factory=dict)
    first: tuple = None
    failed_writes: set = field(default_factory=set)
    stops_compared: int = 0
    fields_compared: int = 0
    end_first: dict = field(default_factory=dict)
    within: object = None
    worst_within: tuple = None
    seconds: dict = field(default_factory=dict)

    def _judge(self, cache, index, rel, scale, rank, step=None):
        """(bad, within) per state; notes the states that agree only within conditioning."""
        ok = rel <= self.tolerance
        if self.amplification is None or cache not in _CONDITIONED.get(self.algorithm, ()):
            return ~ok, None
        amplification = self.amplification.of(cache, index, step, scale)
        bound = np.maximum(self.tolerance, CONDITIONING_FACTOR * _EPS * amplification)
        bad = ~ok & ~(rel <= bound)            # (a NaN bound fails only what the tolerance fails)
        within = ~ok & ~bad
        if within.any():
            if self.within is None:
                self.within = np.zeros(rel.shape[0], dtype=bool)
            self.within |= within
            k = int(np.argmax(np.where(within, rel, -1.0)))
            cand = (float(rel[k]), rank + (self.start + k,), cache,
                    float(amplification[k]), float(bound[k]))
            if _better(cand[0], cand[1], self.worst_within):
                self.worst_within = cand
        return bad, within

    def end_state(self, pairs):
        model, owner = self.model, _owner(self.model)
        order = [name for name, _, _ in FIELDS + WORLD_FIELDS] + ["u", "joints.StU"]
        for rank, name in enumerate(order):
            names = [key for key in pairs if key[0] == name]
            if not names:
                continue
            acc = {"abs": None, "rel": None, "compared": 0, "failed": 0, "within": 0,
                   "source": pairs[names[0]][2]}
            for j, key in enumerate(names):
                got, ref, source, terms = pairs[key]
                err, arg, scale = _errors(got, ref, terms=terms)
                rel = err / scale
                bad, within = self._judge(name, key[1], rel, scale, (rank, j))
                n, tail = err.shape[0], ref.shape[1:]
                acc["compared"] += n
                acc["failed"] += int(np.count_nonzero(bad))
                acc["within"] += 0 if within is None else int(np.count_nonzero(within))
                for which, values in (("abs", err), ("rel", rel)):
                    k = int(np.argmax(values))
                    if _better(float(values[k]), (j, self.start + k), acc[which]):
                        acc[which] = (float(values[k]), (j, self.start + k),
                                      _location(model, self.batch, self.start + k, name,
                                                key[1], tail, arg[k], owner))
                if bad.any() and name not in self.end_first:
                    self.end_first[name] = self._divergence(
                        "end state", None, None, None, _label(name, key[1]), name, key[1],
                        got, ref, source, err, arg, rel, bad, (j,), owner)
            self.caches[name] = acc

    def _divergence(self, step, pass_number, joint_name, joint, label, cache, index, got,
                    expected, source, err, arg, rel, bad, rank, owner, where_label=None,
                    row0=0):
        """(rank, rel, global state, Divergence) for the worst failing state."""
        k = int(np.argmax(np.where(bad, rel, -1.0)))
        tail = expected.shape[1:]
        where = _location(self.model, self.batch, self.start + k, cache, index, tail, arg[k],
                          owner, label=where_label, row0=row0)
        if step == "end state":
            joint_name, joint = where.joint, where.joint_id
        pos = tuple(np.unravel_index(arg[k], tail)) if tail else ()
        g = np.broadcast_to(got, expected.shape)
        d = Divergence(self.algorithm, step, pass_number, joint_name, joint, label, cache, where,
                       float(err[k]), float(rel[k]), float(self.tolerance),
                       float(g[(k,) + pos]), float(expected[(k,) + pos]), source,
                       int(np.count_nonzero(bad)))
        return (rank, float(rel[k]), self.start + k, d)

    def stops(self, recorded, ref):
        """Compare every write of every stop."""
        owner = _owner(self.model)
        snapshots = recorded.call(-1).snapshots if recorded.calls else ()
        stops = set()
        for s, snap in enumerate(snapshots):
            for w_index, w in enumerate(snap.writes):
                found = ref.get(snap.step, snap.joint, w.cache, w.index)
                if found is None:
                    continue
                full, source = found
                expected = w.take(full)
                got = np.broadcast_to(w.value, expected.shape)
                # a write of some rows of tau, ddq or M is judged as the whole field is at
                # the end: relative to max(1, max|field|), not to the entries it covers
                partial = w.rows is not None or w.cols is not None
                terms = ref.terms(snap.step, snap.joint, w.cache, w.index)
                err, arg, scale = _errors(got, expected, full if partial else None, terms)
                rel = err / scale
                bad, _ = self._judge(w.cache, w.index, rel, scale, (-1, s, w_index), snap.step)
                self.fields_compared += 1
                stops.add(s)
                if not bad.any():
                    continue
                self.failed_writes.add((s, w_index))
                if self.first is None:
                    self.first = self._divergence(
                        snap.step, snap.pass_number, snap.joint_name or None, snap.joint,
                        w.label, w.cache, w.index, got, expected, source, err, arg, rel, bad,
                        (s, w_index), owner, where_label=w.label,
                        row0=w.rows[0] if w.rows else 0)
        self.stops_compared += len(stops)


def _merge_first(candidates):
    """The earliest candidate (rank), the worst state among equal ranks (rel, then the earlier
    state); its Divergence carries the failing states of every chunk at that rank."""
    candidates = [c for c in candidates if c is not None]
    if not candidates:
        return None
    rank = min(c[0] for c in candidates)
    same = [c for c in candidates if c[0] == rank]
    best = min(same, key=lambda c: (-c[1], c[2]))
    count = sum(c[3].states_failing for c in same)
    return _replace(best[3], states_failing=count)


def _replace(d, **changes):
    from dataclasses import replace

    return replace(d, **changes)


def _merge(alg, model, chunks, tolerance):
    """One AlgorithmDiff from the chunks of ``alg`` (in state order)."""
    names = list(chunks[0].caches)
    caches = []
    for name in names:
        accs = [c.caches[name] for c in chunks]
        best = {}
        for which in ("abs", "rel"):
            for acc in accs:
                cand = acc[which]
                if cand is not None and _better(cand[0], cand[1], best.get(which)):
                    best[which] = cand
        worst_abs, worst_rel = best.get("abs", (-1.0, None, None)), best.get("rel",
                                                                             (-1.0, None, None))
        where_abs, where_rel = worst_abs[2], worst_rel[2]
        if worst_abs[0] == 0.0:            # equal everywhere: no place to point at
            worst_rel, where_abs, where_rel = (0.0, None, None), None, None
        caches.append(CacheDiff(name, worst_abs[0], worst_rel[0], where_abs, where_rel,
                                sum(a["compared"] for a in accs),
                                sum(a["failed"] for a in accs), accs[0]["source"],
                                sum(a["within"] for a in accs)))
    first = _merge_first([c.first for c in chunks])
    if first is None:
        for c in caches:
            if not c.agree:
                first = _merge_first([ch.end_first.get(c.cache) for ch in chunks])
                break
    failed = set().union(*(c.failed_writes for c in chunks))
    within = [c for c in chunks if c.worst_within is not None]
    conditioning = None
    if within:
        worst = None
        for c in within:
            if _better(c.worst_within[0], c.worst_within[1], worst):
                worst = c.worst_within
        state = worst[1][-1]
        where = tuple(int(s) for s in np.unravel_index(state, chunks[0].batch)) \
            if chunks[0].batch else ()
        conditioning = Conditioning(
            states=sum(int(np.count_nonzero(c.within)) for c in within), state=where,
            cache=worst[2], rel_error=worst[0], amplification=worst[3], bound=worst[4],
            factor=CONDITIONING_FACTOR)
    seconds = {}
    for c in chunks:
        for k, t in c.seconds.items():
            seconds[k] = seconds.get(k, 0.0) + t
    return AlgorithmDiff(alg, tuple(caches), first, chunks[0].stops_compared,
                         chunks[0].fields_compared, len(failed), seconds, conditioning)
