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
that is missing, unreadable or of another format; an .npz that cannot be read, holds a pickled
object (it is opened with ``allow_pickle=False``, never otherwise), lacks or adds an array,
has a wrong dtype, a wrong shape or a non-finite number, or whose bytes differ from the sha256
of the record; a model whose checksum differs from the record's. Version differences are
reported, not refused: replaying after an upgrade is how one tells "the algorithm changed" from
"the old data means something else now".
"""

import datetime
import hashlib
import json
import os
import platform
import re
import zipfile
from pathlib import Path

import numpy as np

import pinref

from ..errors import PinrefError
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


def _sha256(path):
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


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


def read_record(path):
    """The JSON record next to the snapshot ``path`` (.npz), checked for format and keys."""
    path = Path(path)
    if path.suffix != ".npz":
        raise SnapshotError(f"{path}: a snapshot is a .npz file (with its .json record beside it)")
    record_path = path.with_suffix(".json")
    try:
        record = json.loads(record_path.read_text())
    except FileNotFoundError:
        raise SnapshotError(f"{path}: its record {record_path.name} is missing; without it "
                            "the model and the check cannot be verified") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
        raise SnapshotError(f"{record_path}: unreadable record ({err})") from None
    if not isinstance(record, dict) or record.get("format") != FORMAT:
        found = record.get("format") if isinstance(record, dict) else type(record).__name__
        raise SnapshotError(f"{record_path}: not a pinref check snapshot record (format "
                            f"{found!r}, expected {FORMAT!r})")
    for key, sub in (("check", "id"), ("model", "checksum"), ("model", "source"),
                     ("npz", "sha256"), ("versions", "pinref"), ("state", "index")):
        if not isinstance(record.get(key), dict) or sub not in record[key]:
            raise SnapshotError(f"{record_path}: the record has no {key}.{sub}")
    return record


def read_arrays(path, record):
    """The arrays of the .npz, after checking its sha256 against the record; opened with
    ``allow_pickle=False``, so a pickled object is refused, never loaded."""
    path = Path(path)
    try:
        digest = _sha256(path)
    except OSError as err:
        raise SnapshotError(f"{path}: cannot read it ({err.strerror or err})") from None
    if digest != record["npz"]["sha256"]:
        raise SnapshotError(f"{path}: its sha256 is {digest[:16]}..., the record says "
                            f"{str(record['npz']['sha256'])[:16]}...: the file was changed "
                            "after it was written; refusing it")
    try:
        with np.load(path, allow_pickle=False) as npz:
            names = list(npz.files)
            arrays = {name: npz[name] for name in names}
    except ValueError as err:
        if "allow_pickle" in str(err) or "pickle" in str(err).lower():
            raise SnapshotError(f"{path}: holds a pickled Python object; a snapshot holds "
                                "plain float arrays only, and pickles are never loaded "
                                "(they can run code)") from None
        raise SnapshotError(f"{path}: not a readable .npz ({err})") from None
    except (OSError, EOFError, zipfile.BadZipFile) as err:
        raise SnapshotError(f"{path}: not a readable .npz ({err})") from None
    return arrays


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
                                f"for model {model.name or '(unnamed)'!r} (nq {model.nq}, "
                                f"nv {model.nv}, njoints {model.njoints})")
        if not np.all(np.isfinite(a)):
            raise SnapshotError(f"{path}: {name} holds NaN or infinity")
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
    arrays = read_arrays(path, record)
    check_arrays(arrays, model, path)
    return record, States.from_arrays(arrays)


def default_directory():
    """Where ``pinref check`` writes snapshots unless told: ./pinref-snapshots."""
    return Path(os.getcwd()) / "pinref-snapshots"


__all__ = ["FORMAT", "SnapshotError", "model_checksum", "model_numbers", "environment",
           "write_snapshot", "load_snapshot", "read_record", "read_arrays", "check_arrays",
           "version_differences", "default_directory", "CONVENTIONS"]
