"""pinref: a pure-NumPy reference reimplementation of Pinocchio 3.8.0's rigid-body dynamics.

Names mirror Pinocchio's Python API (``import pinref as pin`` runs scripts written for the
covered subset). Spatial vectors are [linear; angular]; every array may carry leading batch axes.
"""

from . import errors
from .algorithms import *  # noqa: F401,F403
from .algorithms import __all__ as _algorithms_all
from .algorithms.aba import aba
from .algorithms.crba import crba
from .algorithms.rnea import rnea
from .checking import check
from .compare import from_pinocchio, to_pinocchio
from .joints import *  # noqa: F401,F403
from .joints import __all__ as _joints_all
from .model import *  # noqa: F401,F403
from .model import __all__ as _model_all
from .robot_wrapper import RobotWrapper
from .spatial import *  # noqa: F401,F403
from .spatial import __all__ as _spatial_all
from .tracing import trace
from .version import __raw_version__  # noqa: F401  (pin.__raw_version__)
from .version import checkVersionAtLeast, printVersion

# pin's Python modules (``pin.utils``, ``pin.explog``, ``pin.rpy``, ``pin.liegroups``,
# ``pin.cholesky``), after the core they build on.
from . import cholesky, explog, liegroups, rpy, utils  # noqa: E402
from .explog import exp, log  # noqa: E402
from .liegroups import LieGroup  # noqa: E402

__version__ = "0.1.0"

__all__ = ["errors", "aba", "crba", "rnea", "check", "from_pinocchio", "to_pinocchio", "trace",
           "cholesky", "explog", "liegroups", "rpy", "utils", "exp", "log", "LieGroup",
           "RobotWrapper", "printVersion", "checkVersionAtLeast",
           *_spatial_all, *_joints_all, *_model_all, *_algorithms_all]
