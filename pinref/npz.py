"""Reading a .npz archive of plain number arrays that may come from anyone: nothing is read
before it is checked, nothing is unpickled, and never more than a given number of bytes
(``pinref check``'s snapshots, ``pinref diff --states-file``).
"""

import math
import os
import stat
import zipfile

import numpy as np


def read_npz(path, names, limit, error, shapes=None, what=None):
    """The arrays of the .npz ``path`` (dict name -> ndarray), reading nothing it has not
    checked first, and never more than ``limit`` bytes of array data:

    1. ``path`` is a regular file (not a directory, FIFO or device) of at most ``limit`` bytes
       plus the archive's overhead;
    2. the zip directory lists only members ``NAME.npy`` with NAME in ``names``, once each,
       whose uncompressed sizes add up to at most ``limit`` + their headers;
    3. each member's npy header (at most 10,000 bytes) gives a plain numeric dtype (an object
       array is refused, never unpickled), C order, and a shape, equal to ``shapes[NAME]`` when
       given, whose bytes are what the member holds;

    then each member is read (as many bytes as its header says). Refusals raise ``error`` (an
    exception class) with a message starting with ``what`` (default the path).
    """
    what = str(path) if what is None else what
    overhead = 4096 + 1024 * len(names)
    try:
        st = os.stat(path)
    except OSError as err:
        raise error(f"{what}: cannot read it ({err.strerror or err})") from None
    if not stat.S_ISREG(st.st_mode):
        raise error(f"{what}: not a regular file (a directory, a pipe or a device); expected a "
                    ".npz archive")
    if st.st_size > limit + overhead:
        raise error(f"{what}: {st.st_size} bytes, more than the {limit + overhead} bytes it may "
                    "hold; refusing to read it")
    try:
        with zipfile.ZipFile(path) as archive:
            infos = archive.infolist()
            members = [info.filename for info in infos]
            stems = [m[:-4] if m.endswith(".npy") else m for m in members]
            unknown = sorted({m for m, stem in zip(members, stems)
                              if not m.endswith(".npy") or stem not in names})
            if unknown or len(set(stems)) != len(stems):
                raise error(f"{what}: expected the arrays {', '.join(names)}; found "
                            f"{', '.join(members) or 'none'}" + (
                                f" (unexpected {', '.join(unknown)})" if unknown else
                                " (a name twice)"))
            total = sum(info.file_size for info in infos)
            if total > limit + overhead:
                raise error(f"{what}: its arrays unpack to {total} bytes, more than the {limit} "
                            "bytes they may hold; refusing to read them")
            arrays = {}
            for info, stem in zip(infos, stems):
                with archive.open(info) as f:
                    arrays[stem] = _read_member(f, info, stem, shapes, error, what)
            return arrays
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, OSError, ValueError) as err:
        raise error(f"{what}: not a readable .npz ({err})") from None


def _read_member(f, info, name, shapes, error, what):
    fmt = np.lib.format
    version = fmt.read_magic(f)
    if version == (1, 0):
        shape, fortran, dtype = fmt.read_array_header_1_0(f)
    elif version == (2, 0):
        shape, fortran, dtype = fmt.read_array_header_2_0(f)
    else:
        raise error(f"{what}: {name} is an npy of format {version}, expected 1.0 or 2.0")
    if dtype.hasobject:
        raise error(f"{what}: {name} holds a pickled Python object; plain number arrays belong "
                    "there, and pickles are never loaded (they can run code)")
    if dtype.kind not in "biufc" or fortran:
        raise error(f"{what}: {name} holds {'a Fortran-order array' if fortran else dtype}; an "
                    "array of plain numbers in C order belongs there")
    if shapes is not None and tuple(shape) != tuple(shapes[name]):
        raise error(f"{what}: {name} has shape {tuple(shape)}, expected {tuple(shapes[name])}")
    size = math.prod(shape) * dtype.itemsize
    if size > info.file_size - f.tell():
        raise error(f"{what}: {name}'s header claims shape {tuple(shape)} ({size} bytes), more "
                    f"than the {info.file_size} bytes of the member")
    data = f.read(size)
    if len(data) != size:
        raise error(f"{what}: {name} is truncated")
    return np.frombuffer(data, dtype=dtype).reshape(shape).copy()
