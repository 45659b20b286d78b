"""``pinref check``: the tutorials' self-checks as a suite, with mutation drills and snapshots.

    report = pinref.check(model)                # CheckReport: one CheckResult per check
    print(report)                               # residual, tolerance, verdict of each
    report.passed, report.to_json()

The checks (``checks.py``, docs/check.md): sizes and the index table; the manifold (integrate
/ difference round trip, unit quaternions, the LOCAL linear velocity of a turned base); J v ==
frame velocity in LOCAL, WORLD and LOCAL_WORLD_ALIGNED; rnea == M a + h, the columns of M,
aba(rnea(a)) == a; T == 1/2 v^T M v; armature; one external wrench against J_c^T f and
through ABA; the unactuated floating base; the RNEA derivatives against the eps sweep of
central differences. Each runs on a batch of states through a backend (``backends.py``: pinref,
or Pinocchio 3.8.0 through ``pinref.to_pinocchio``).

``drills.py`` plants the tutorials' classic mistakes in a backend and shows which check catches
each; ``snapshots.py`` writes a failing state and its record, and refuses to replay one that
cannot be trusted. ``pinref.check`` is this package's ``check`` function.
"""

from .backends import Backend, PinBackend, PinrefBackend, make_backend
from .checks import CHECK_IDS, CHECKS, CheckResult
from .drills import DRILL_IDS, DRILLS, run_drills
from .snapshots import SnapshotError, load_snapshot, model_checksum
from .states import STATE_FIELDS, States, make_states
from .suite import CheckReport, check, replay

__all__ = ["check", "replay", "CheckReport", "CheckResult", "CHECKS", "CHECK_IDS", "States",
           "STATE_FIELDS", "make_states", "Backend", "PinrefBackend", "PinBackend",
           "make_backend", "DRILLS", "DRILL_IDS", "run_drills", "SnapshotError",
           "load_snapshot", "model_checksum"]
