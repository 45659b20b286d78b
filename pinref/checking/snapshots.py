"""Failure snapshots: the failing state itself, and the record needed to trust a replay.

A seed is not a reproduction: the model's construction, NumPy's generators or one more random
call can change the arrays it yields. So a failing check writes the state it failed on, and
next to it what the tutorial asks to keep (its section on troubleshooting):

``NAME.npz``  the arrays of :data:`pinref.checking.states.STATE_FIELDS`, float64, no pickle:
              q (nq,), v, a, tau (nv,), fext (njoints, 6), fext_placement (4, 4),
              armature (nv,), gravity (6,)
``NAME.json`` the record: format, the check (id, oracle, tolerance, residual, verdict, detail,
              eps sweep table), the state (index, seed, number of states), the model (source,
              name, sizes, index table, checksum), the backend and its version, pinref, NumPy,
              Python and pin versions, the platform, the conventions and units, where the
              external wrench acts, the command line, the exit code, every check's verdict of
              the run, and the sha256 of the .npz

:func:`load_snapshot` reads both and refuses, with a message that says what is wrong, a record
that is missing, unreadable, larger than RECORD_BYTES_LIMIT, nested or numbered beyond reason,
of another format, or with a field of the wrong type (a residual that is not a number, a
``free_flyer`` that is not true or false, a negative state index); an .npz that is not a
regular file, is larger than one state of the model, lists another array in its zip directory,
declares in an npy header a shape or dtype it cannot hold, holds a pickled object (never
loaded), lacks an array, has a wrong dtype, a wrong shape, a non-finite number or a negative
armature, or whose bytes differ from the sha256 of the record; a model whose checksum differs
from the record's. Sizes are checked from the file system, the zip directory and the npy
headers before anything is read (``read_npz``). Version differences are reported, not refused:
replaying after an upgrade is how one tells "the algorithm changed" from "the old data means
something else now".
"""

import datetime
import hashlib
import json
import math
import os
import platform
import re
import stat
from pathlib import Path

import numpy as np

import pinref

from ..errors import PinrefError
from ..model.model import model_label
from ..npz import read_npz
from .backends import pin_version
from .states import STATE_FIELDS, States, field_shapes

FORMAT = "pinref-check-snapshot/1"

CONVENTIONS = {
    "units": "SI: m, rad, kg, s, N, N m",
    "q": "per joint, idx_q order; quaternions (x, y, z, w); unbounded revolute (cos, sin)",
    "v, a, tau": "per joint, idx_v order; free-flyer v: LOCAL [linear; angular]",
    "spatial vectors": "[linear; angular]",
    "fext": "one wrench per joint (row 0 ignored): [force; moment] in the joint's LOCAL frame, "
            "about the joint origin",
    "fext_placement": "jMc: the point c where the external wrench acts, in the joint frame "
                      "(homogeneous 4x4)",
    "gravity": "[linear; angular], world frame",
}


class SnapshotError(PinrefError, ValueError):
    """A snapshot that cannot be trusted (unreadable, tampered, or not of this model), or one
    that cannot be written where it was asked for."""


def _canonical(x):
    """Numbers as exact hex strings (float.hex), recursively: the serialisation is the bits."""
    if isinstance(x, np.ndarray):
        return [_canonical(v) for v in x.tolist()] if x.ndim else _canonical(x.item())
    if isinstance(x, (list, tuple)):
        return [_canonical(v) for v in x]
    if isinstance(x, (bool, np.bool_)):
        return bool(x)
    if isinstance(x, (int, np.integer)):
        return int(x)
    if isinstance(x, (float, np.floating)):
        return float(x).hex()
    return str(x)


def model_numbers(model):
    """Every number that defines the model, in a canonical order: joints (name, type, parent,
    axis / pitch, placement), inertias (mass, lever, rotational inertia), frames (name, type,
    parents, placement, inertia), the per-dof vectors (armature, friction, damping, rotor
    parameters, limits), gravity."""
    joints = []
    for i in range(1, model.njoints):
        j = model.joints[i]
        params = {k: np.asarray(getattr(j, k), dtype=float)
                  for k in ("axis", "axis1", "axis2", "pitch") if hasattr(j, k)}
        joints.append([model.names[i], j.shortname(), model.parents[i],
                       sorted((k, _canonical(v)) for k, v in params.items()),
                       _canonical(model.jointPlacements[i].homogeneous)])
    inertias = [[_canonical(np.asarray(Y.mass, dtype=float)), _canonical(Y.lever),
                 _canonical(Y.inertia)] for Y in model.inertias]
    frames = [[f.name, int(f.type), f.parentJoint, f.parentFrame,
               _canonical(f.placement.homogeneous),
               [_canonical(np.asarray(f.inertia.mass, dtype=float)), _canonical(f.inertia.lever),
                _canonical(f.inertia.inertia)]] for f in model.frames]
    vectors = {k: _canonical(np.asarray(getattr(model, k), dtype=float))
               for k in ("armature", "friction", "damping", "rotorInertia", "rotorGearRatio",
                         "effortLimit", "velocityLimit", "lowerPositionLimit",
                         "upperPositionLimit")}
    return {"joints": joints, "inertias": inertias, "frames": frames, "vectors": vectors,
            "gravity": _canonical(model.gravity.vector)}


def model_checksum(model):
    """sha256 of :func:`model_numbers` as compact, key-sorted JSON (hex digest)."""
    text = json.dumps(model_numbers(model), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def environment(backend_name=None, backend_version=None):
    """Versions and platform, for a report or a record (pin's read without importing it)."""
    env = {"pinref": pinref.__version__, "numpy": np.__version__,
           "python": platform.python_version(), "pin": pin_version(),
           "platform": platform.platform(), "machine": platform.machine(),
           "implementation": platform.python_implementation()}
    if backend_name is not None:
        env["backend"] = {"name": backend_name, "version": backend_version}
    return env


def _stem(result, seed, state):
    safe = re.sub(r"[^A-Za-z0-9_.-]", "_", result.id)
    return f"{safe}-seed{seed if seed is not None else 'none'}-state{state}"


def write_snapshot(directory, report, result, states):
    """Write the worst failing state of ``result`` (a CheckResult of ``report``) as
    ``DIR/<check>-seed<S>-state<k>.npz`` and its ``.json`` record; returns the .npz path."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    k = result.worst_state if result.worst_state is not None else 0
    stem = _stem(result, report.seed, k)
    npz = directory / f"{stem}.npz"
    arrays = states.arrays(k)
    np.savez(npz, allow_pickle=False, **arrays)
    model = report.model
    j = int(states.fext_joints()[k])
    record = {
        "format": FORMAT,
        "created": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "check": {key: getattr(result, key) for key in
                  ("id", "title", "oracle", "verdict", "residual", "tolerance", "detail",
                   "table", "known_issue")},
        "state": {"index": k, "seed": report.seed, "states": report.n_states,
                  "fields": {name: list(np.shape(a)) for name, a in arrays.items()}},
        "npz": {"file": npz.name, "sha256": _sha256(npz)},
        "model": model,
        "backend": report.backend,
        "versions": {key: report.environment[key] for key in ("pinref", "numpy", "python", "pin")},
        "platform": {key: report.environment[key]
                     for key in ("platform", "machine", "implementation")},
        "conventions": CONVENTIONS,
        "external_wrench": {"joint": report.index_table[j - 1]["name"] if report.index_table
                            else j, "joint_id": j,
                            "frame": "LOCAL of the joint, about its origin",
                            "point": np.asarray(arrays["fext_placement"])[:3, 3].tolist()},
        "command": report.command,
        "exit_code": report.exit_code,
        "run": {r.id: {"verdict": r.verdict, "residual": r.residual, "tolerance": r.tolerance}
                for r in report.checks},
    }
    npz.with_suffix(".json").write_text(json.dumps(record, indent=2, default=_json_default))
    return npz


def _json_default(x):
    if isinstance(x, np.ndarray):
        return x.tolist()
    if isinstance(x, (np.floating, np.integer, np.bool_)):
        return x.item()
    raise TypeError(f"not JSON-serialisable: {type(x).__name__}")


RECORD_BYTES_LIMIT = 4 << 20      # a record is a few kilobytes; more is not one


def read_record(path):
    """The JSON record next to the snapshot ``path`` (.npz), checked for size, format, keys
    and the type of every field a replay reads (:func:`check_record`)."""
    path = Path(path)
    if path.suffix != ".npz":
        raise SnapshotError(f"{path}: a snapshot is a .npz file (with its .json record beside it)")
    record_path = path.with_suffix(".json")
    try:
        st = os.stat(record_path)
        if not stat.S_ISREG(st.st_mode):
            raise SnapshotError(f"{record_path}: not a regular file")
        if st.st_size > RECORD_BYTES_LIMIT:
            raise SnapshotError(f"{record_path}: {st.st_size} bytes, more than a record's "
                                f"{RECORD_BYTES_LIMIT}; refusing to read it")
        with open(record_path, "rb") as f:
            text = f.read(RECORD_BYTES_LIMIT + 1).decode()
        record = json.loads(text, parse_int=_bounded_int, parse_constant=float)
    except FileNotFoundError:
        raise SnapshotError(f"{path}: its record {record_path.name} is missing; without it "
                            "the model and the check cannot be verified") from None
    except RecursionError:
        raise SnapshotError(f"{record_path}: unreadable record (nested too deeply)") from None
    except (OSError, UnicodeDecodeError, ValueError) as err:
        raise SnapshotError(f"{record_path}: unreadable record ({err})") from None
    if not isinstance(record, dict) or record.get("format") != FORMAT:
        found = record.get("format") if isinstance(record, dict) else type(record).__name__
        raise SnapshotError(f"{record_path}: not a pinref check snapshot record (format "
                            f"{found!r}, expected {FORMAT!r})")
    for key, sub in (("check", "id"), ("model", "checksum"), ("model", "source"),
                     ("npz", "sha256"), ("versions", "pinref"), ("state", "index")):
        if not isinstance(record.get(key), dict) or sub not in record[key]:
            raise SnapshotError(f"{record_path}: the record has no {key}.{sub}")
    check_record(record, record_path)
    return record


def _bounded_int(text):
    if len(text.lstrip("-")) > 20:
        raise ValueError(f"an integer of {len(text)} digits")
    return int(text)


def _is_number(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool)


# (field, test, what it must be) for every field of a record that a replay reads (the backend
# is checked by ``suite.recorded_backend``).
_RECORD_FIELDS = (
    ("check.id", lambda x: isinstance(x, str), "a string"),
    ("check.verdict", lambda x: x is None or isinstance(x, str), "a string"),
    ("check.residual", lambda x: x is None or _is_number(x), "a number or null"),
    ("check.tolerance", lambda x: x is None or _is_number(x), "a number or null"),
    ("model.checksum", lambda x: isinstance(x, str) and re.fullmatch("[0-9a-f]{64}", x),
     "64 hex digits"),
    ("model.source", lambda x: isinstance(x, dict) and (
        ("model" in x and isinstance(x["model"], str)
         and isinstance(x.get("free_flyer", False), bool))
        or ("model" not in x and isinstance(x.get("python"), (str, type(None))))),
     '{"model": NAME|PATH, "free_flyer": true|false} or {"python": NAME}'),
    ("npz.sha256", lambda x: isinstance(x, str) and re.fullmatch("[0-9a-f]{64}", x),
     "64 hex digits"),
    ("versions", lambda x: all(isinstance(v, (str, type(None))) for v in x.values()),
     "strings (or null)"),
    ("state.index", lambda x: isinstance(x, int) and not isinstance(x, bool) and x >= 0,
     "an integer >= 0"),
    ("state.seed", lambda x: x is None or (isinstance(x, int) and not isinstance(x, bool)
                                           and x >= 0), "an integer >= 0 or null"),
)


def check_record(record, record_path="record"):
    """SnapshotError unless every field a replay reads has its type (``_RECORD_FIELDS``)."""
    for name, test, expected in _RECORD_FIELDS:
        x, missing = record, False
        for part in name.split("."):
            if not isinstance(x, dict) or part not in x:
                missing = True
                break
            x = x[part]
        if missing:
            continue
        if not test(x):
            shown = repr(x) if len(repr(x)) < 60 else repr(x)[:57] + "..."
            raise SnapshotError(f"{record_path}: the record's {name} is {shown}; expected "
                                f"{expected}")


def _sha256(path):
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def read_arrays(path, record, model=None):
    """The arrays of the .npz, after checking its size (it holds one state: at most the bytes
    of :data:`STATE_FIELDS` for ``model``, or 1 MiB without one) and its sha256 against the
    record; read with :func:`read_npz` (no pickle; names, shapes and sizes checked from the zip
    directory and the npy headers before any array is read)."""
    path = Path(path)
    shapes = field_shapes(model) if model is not None else None
    limit = (8 * sum(math.prod(x) for x in shapes.values()) if shapes is not None
             else 1 << 20)
    try:
        st = os.stat(path)
    except OSError as err:
        raise SnapshotError(f"{path}: cannot read it ({err.strerror or err})") from None
    if not stat.S_ISREG(st.st_mode):
        raise SnapshotError(f"{path}: not a regular file; a snapshot is a .npz file")
    if st.st_size > limit + 4096 + 1024 * len(STATE_FIELDS):
        raise SnapshotError(f"{path}: {st.st_size} bytes, more than one state of this model "
                            f"can take ({limit} bytes of arrays); refusing to read it")
    digest = _sha256(path)
    if digest != record["npz"]["sha256"]:
        raise SnapshotError(f"{path}: its sha256 is {digest[:16]}..., the record says "
                            f"{str(record['npz']['sha256'])[:16]}...: the file was changed "
                            "after it was written; refusing it")
    return read_npz(path, STATE_FIELDS, limit, SnapshotError, what=str(path))


def check_arrays(arrays, model, path="snapshot"):
    """Refuse arrays that are missing, extra, not float64, of the wrong shape for ``model``,
    or not finite; also the wrench that is not one wrench on one joint, a placement that is
    not a rigid transform, and a q whose quaternions are not unit (pinref's tolerance)."""
    missing = [k for k in STATE_FIELDS if k not in arrays]
    extra = sorted(set(arrays) - set(STATE_FIELDS))
    if missing or extra:
        raise SnapshotError(f"{path}: expected the arrays {', '.join(STATE_FIELDS)}; "
                            + (f"missing {', '.join(missing)}" if missing else "")
                            + ("; " if missing and extra else "")
                            + (f"unexpected {', '.join(extra)}" if extra else ""))
    shapes = field_shapes(model)
    for name in STATE_FIELDS:
        a = arrays[name]
        if a.dtype != np.float64:
            raise SnapshotError(f"{path}: {name} has dtype {a.dtype}, expected float64")
        if a.shape != shapes[name]:
            raise SnapshotError(f"{path}: {name} has shape {a.shape}, expected {shapes[name]} "
                                f"for {model_label(model.name)} (nq {model.nq}, "
                                f"nv {model.nv}, njoints {model.njoints})")
        if not np.all(np.isfinite(a)):
            raise SnapshotError(f"{path}: {name} holds NaN or infinity")
    if np.any(arrays["armature"] < 0):
        raise SnapshotError(f"{path}: armature holds a negative entry "
                            f"({arrays['armature'].min():g}); a rotor inertia is >= 0")
    rows = np.flatnonzero(np.any(arrays["fext"][1:] != 0.0, axis=-1)) + 1
    if len(rows) != 1:
        raise SnapshotError(f"{path}: fext must hold one wrench on one joint, found non-zero "
                            f"rows {rows.tolist()}")
    H = arrays["fext_placement"]
    R = H[:3, :3]
    if (np.abs(R.T @ R - np.eye(3)).max() > 1e-9 or abs(np.linalg.det(R) - 1) > 1e-9
            or not np.array_equal(H[3], [0.0, 0.0, 0.0, 1.0])):
        raise SnapshotError(f"{path}: fext_placement is not a rigid transform")
    try:
        model.check_configuration(arrays["q"])
    except PinrefError as err:
        raise SnapshotError(f"{path}: {err}") from None


def version_differences(record):
    """Human-readable differences between the record's versions and this environment."""
    now = environment()
    return [f"{key}: snapshot {record['versions'].get(key)}, now {now[key]}"
            for key in ("pinref", "numpy", "python", "pin")
            if record["versions"].get(key) != now[key]]


def load_snapshot(path, model):
    """(record, States of one state) from the snapshot ``path`` for ``model``, every check of
    the module docstring passed; raises SnapshotError naming what failed."""
    record = read_record(path)
    checksum = model_checksum(model)
    if checksum != record["model"]["checksum"]:
        raise SnapshotError(
            f"{path}: the model's checksum is {checksum[:16]}..., the record says "
            f"{str(record['model']['checksum'])[:16]}...: the model (source "
            f"{record['model']['source']}) is not the one the snapshot was taken on, or the "
            "record was changed; refusing to replay")
    arrays = read_arrays(path, record, model)
    check_arrays(arrays, model, path)
    return record, States.from_arrays(arrays)


def default_directory():
    """Where ``pinref check`` writes snapshots unless told: ./pinref-snapshots."""
    return Path(os.getcwd()) / "pinref-snapshots"


__all__ = ["FORMAT", "SnapshotError", "model_checksum", "model_numbers", "environment",
           "write_snapshot", "load_snapshot", "read_record", "check_record", "read_arrays",
           "check_arrays", "version_differences", "default_directory", "CONVENTIONS"]
