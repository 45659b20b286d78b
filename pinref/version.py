"""The version of Pinocchio whose API pinref mirrors, as Pinocchio's module tells its own:
``pin.__raw_version__``, ``printVersion`` and ``checkVersionAtLeast`` (utils/version.hpp).

pinref's own version is ``pinref.__version__``; what scripts written for Pinocchio ask (is the
API at least 3.x?) is answered for Pinocchio 3.8.0.
"""

import operator
from importlib import metadata

from .errors import ArgumentTypeError

PINOCCHIO_VERSION = (3, 8, 0)
"""(major, minor, patch) of the Pinocchio whose API pinref mirrors."""

__raw_version__ = ".".join(map(str, PINOCCHIO_VERSION))


def printVersion(delimiter="."):
    """``"3.8.0"``: the mirrored Pinocchio version, its numbers joined by ``delimiter``."""
    return str(delimiter).join(map(str, PINOCCHIO_VERSION))


def checkVersionAtLeast(major, minor, patch):
    """Whether the mirrored Pinocchio version is at least ``major.minor.patch``."""
    try:
        wanted = tuple(operator.index(x) for x in (major, minor, patch))
    except TypeError:
        raise ArgumentTypeError(f"checkVersionAtLeast({major!r}, {minor!r}, {patch!r}): the "
                                "major, minor and patch numbers are ints") from None
    return PINOCCHIO_VERSION >= wanted


def pin_version():
    """The installed ``pin`` distribution's version, read without importing it (None if
    absent): the Pinocchio the tools compare with."""
    try:
        return metadata.version("pin")
    except metadata.PackageNotFoundError:
        return None
