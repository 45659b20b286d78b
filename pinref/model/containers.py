"""Pinocchio's Python container types: ``StdVec_*`` (a typed ``std::vector``) and
``StdMap_String_VectorXd`` (the ``std::map`` of ``Model.referenceConfigurations``).

Each ``StdVec_X`` is a Python list that accepts only its item type, as Pinocchio's does
(``append``, ``extend``, indexing, ``len``, iteration, ``copy``, ``tolist``): a wrong item
raises ArgumentTypeError "Attempting to append an invalid type", an index past the end
ContainerIndexError "Index out of range", a non-integer index ArgumentTypeError "Invalid index
type". The algorithms take them wherever they take a list (``fext``); ``data.com``, ``vcom`` and
``acom`` are ``StdVec_Vector3``.
"""

import numbers

import numpy as np

from ..errors import ArgumentTypeError, ContainerIndexError, ShapeError
from ..spatial import SE3, Force, Inertia, Motion
from ._values import real_array
from .frame import Frame


class _StdVec(list):
    """A list whose items are ``item_types`` (set by each subclass)."""

    item_types = ()

    def __init__(self, items=()):
        super().__init__()
        self.extend(items)

    def _checked(self, item):
        if not isinstance(item, self.item_types) or (
                bool not in self.item_types and isinstance(item, (bool, np.bool_))):
            names = " or ".join(t.__name__ for t in self.item_types)
            raise ArgumentTypeError(f"Attempting to append an invalid type: {type(self).__name__}"
                                    f" holds {names}, got {type(item).__name__}")
        return item

    def append(self, item):
        super().append(self._checked(item))

    def extend(self, items):
        super().extend([self._checked(item) for item in items])

    def insert(self, index, item):
        super().insert(index, self._checked(item))

    def _index(self, index):
        if isinstance(index, slice):
            return index
        if not isinstance(index, numbers.Integral) or isinstance(index, bool):
            raise ArgumentTypeError(f"Invalid index type: {type(self).__name__} indices are "
                                    f"integers, got {type(index).__name__} {index!r}")
        if not -len(self) <= index < len(self):
            raise ContainerIndexError(f"Index out of range: index {index} of a "
                                      f"{type(self).__name__} of {len(self)} entries")
        return int(index)

    def __getitem__(self, index):
        if type(index) is int:  # the algorithms' reads: no checks unless out of range
            try:
                return list.__getitem__(self, index)
            except IndexError:
                pass
        item = super().__getitem__(self._index(index))
        return type(self)(item) if isinstance(index, slice) else item

    def __setitem__(self, index, item):
        if type(index) is int:
            try:
                list.__setitem__(self, index, self._checked(item))
                return
            except IndexError:
                pass
        index = self._index(index)
        if isinstance(index, slice):
            item = [self._checked(x) for x in item]
        else:
            item = self._checked(item)
        super().__setitem__(index, item)

    def copy(self):
        return type(self)(self)

    def tolist(self):
        return list(self)


def _std_vec(name, item_types, doc):
    return type(name, (_StdVec,), {"item_types": item_types, "__doc__": doc,
                                   "__module__": __name__})


StdVec_Force = _std_vec("StdVec_Force", (Force,), "``std::vector<Force>`` (fext, data.f).")
StdVec_Motion = _std_vec("StdVec_Motion", (Motion,), "``std::vector<Motion>`` (data.v, ...).")
StdVec_SE3 = _std_vec("StdVec_SE3", (SE3,), "``std::vector<SE3>`` (data.oMi, placements).")
StdVec_Inertia = _std_vec("StdVec_Inertia", (Inertia,), "``std::vector<Inertia>``.")
StdVec_Frame = _std_vec("StdVec_Frame", (Frame,), "``std::vector<Frame>`` (model.frames).")
StdVec_Index = _std_vec("StdVec_Index", (numbers.Integral,),
                        "``std::vector<JointIndex>`` (model.parents).")
StdVec_int = _std_vec("StdVec_int", (numbers.Integral,), "``std::vector<int>`` (model.nqs).")
StdVec_StdString = _std_vec("StdVec_StdString", (str,),
                            "``std::vector<std::string>`` (model.names).")
StdVec_Bool = _std_vec("StdVec_Bool", (bool, np.bool_), "``std::vector<bool>``.")
StdVec_Double = _std_vec("StdVec_Double", (numbers.Real,), "``std::vector<double>``.")


class StdVec_Vector3(_StdVec):
    """``std::vector<Vector3>`` (``data.com``, ``vcom``, ``acom``): NumPy arrays of trailing
    shape ``(3,)`` (pinref's may carry batch axes; a ``(3, 1)`` column is stored as ``(3,)``).
    An item is stored as a float copy, as Pinocchio copies it into the vector; reading returns
    the stored array, so changing it in place changes the container, as in Pinocchio. Lists and
    other shapes are refused ("Attempting to append an invalid type"), as Pinocchio's."""

    def _checked(self, item):
        shape = getattr(item, "shape", None)
        if type(item) is np.ndarray and item.dtype == np.float64 and shape[-1:] == (3,):
            return item.copy()
        if isinstance(item, np.ndarray) and shape == (3, 1):
            item = item[:, 0]
        elif (not isinstance(item, np.ndarray) or shape[-1:] != (3,)
              or item.dtype.kind not in "biuf"):
            raise ArgumentTypeError(
                "Attempting to append an invalid type: StdVec_Vector3 holds real NumPy arrays of "
                f"shape (..., 3) or (3, 1), got {type(item).__name__}"
                f"{'' if shape is None else f' of shape {shape}'}")
        return np.array(item, dtype=float)


class StdMap_String_VectorXd(dict):
    """``std::map<std::string, VectorXd>`` (``Model.referenceConfigurations``): name -> q.

    A value is stored as a float64 copy of shape ``(n,)`` (a column ``(n, 1)`` is accepted);
    reading returns the stored array, so changing it in place changes the map, as in Pinocchio.
    In a Model's map every value must have ``model.nq`` entries (Pinocchio stores any size).
    Iteration gives the keys, as a dict (Pinocchio's iterates over (key, value) pairs).
    """

    size = None

    def __init__(self, items=(), size=None):
        super().__init__()
        self.size = size
        for key, value in dict(items).items():
            self[key] = value

    def __setitem__(self, key, value):
        if not isinstance(key, str):
            raise ArgumentTypeError(f"StdMap_String_VectorXd: keys are names (str), got "
                                    f"{type(key).__name__} {key!r}")
        a = real_array(value, f"referenceConfigurations[{key!r}]")
        if a.ndim == 2 and a.shape[1] == 1:
            a = a[:, 0]
        if a.ndim != 1 or (self.size is not None and a.shape != (self.size,)):
            want = f"({self.size},) (model.nq)" if self.size is not None else "(n,)"
            raise ShapeError(f"referenceConfigurations[{key!r}]: expected shape {want}, got "
                             f"shape {a.shape}")
        super().__setitem__(key, a.copy())

    def __missing__(self, key):
        raise KeyError(f"Invalid key {key!r}: referenceConfigurations holds {sorted(self)}")

    def copy(self):
        return type(self)(self, self.size)


__all__ = ["StdVec_Force", "StdVec_Motion", "StdVec_SE3", "StdVec_Inertia", "StdVec_Frame",
           "StdVec_Index", "StdVec_int", "StdVec_StdString", "StdVec_Bool", "StdVec_Double",
           "StdVec_Vector3", "StdMap_String_VectorXd"]
