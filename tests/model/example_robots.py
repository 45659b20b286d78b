"""The URDF files of example-robot-data 4.3.0 and 6.0.0, the two releases the URDF tests run on.

4.3.0 is installed by the test extra (the other tests use its meshes and loaders). 6.0.0, the
current release, cannot be installed beside it (one distribution name, one ``share/`` tree), so
its wheel is fetched from PyPI by ``pip download --no-deps`` (pip's cache keeps it) and its
``.urdf`` files are unpacked once into ``$PINREF_TEST_CACHE`` (default
``~/.cache/pinref-tests``), under a directory renamed into place when complete. No download,
no test: a machine without PyPI fails here instead of skipping.
"""

import os
import subprocess
import sys
import tempfile
import zipfile
from importlib.metadata import distribution
from pathlib import Path

VERSIONS = ("4.3.0", "6.0.0")


def urdf_files(version):
    """The sorted paths (str) of the .urdf files of example-robot-data ``version``."""
    installed = distribution("example-robot-data")
    if installed.version == version:
        return sorted(str(f.locate()) for f in installed.files if f.suffix == ".urdf")
    return sorted(str(path) for path in _unpacked(version).rglob("*.urdf"))


def robot_id(path):
    """A file's name under ``robots/``, without ``.urdf`` (``ur_description/urdf/ur5_robot``)."""
    return path.split("/robots/")[-1][:-5]


def _unpacked(version):
    """The directory holding the .urdf files of the example-robot-data ``version`` wheel."""
    cache = Path(os.environ.get("PINREF_TEST_CACHE") or Path.home() / ".cache" / "pinref-tests")
    target = cache / f"example-robot-data-{version}"
    if target.is_dir():
        return target
    cache.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=cache) as tmp:
        subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--quiet",
                        "--dest", tmp, f"example-robot-data=={version}"], check=True)
        (wheel,) = Path(tmp).glob("*.whl")
        staging = Path(tmp) / "unpacked"
        with zipfile.ZipFile(wheel) as archive:
            for name in archive.namelist():
                if name.endswith(".urdf"):
                    archive.extract(name, staging)
        try:
            staging.rename(target)
        except OSError:  # another test process got there first
            if not target.is_dir():
                raise
    return target
