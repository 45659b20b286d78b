"""data.com, vcom and acom as pin 3.8.0's StdVec_Vector3 (conformance bindings_data::
test_std_vector_field): what is accepted, copies and references, index errors, copies of Data."""

import copy
import pickle

import numpy as np
import pinocchio as pin
import pytest

import pinref
from pinref.compare.versions import is_pin4
from pinref.errors import ArgumentTypeError, ContainerIndexError

CANDIDATES = [np.zeros(3), np.arange(3), np.zeros((3, 1)), [1.0, 2.0, 3.0], np.zeros(4), "x", 1.0,
              np.zeros((1, 3)), np.zeros(3, dtype=complex)]


def _accepts(container, item):
    try:
        container.append(item)
    except TypeError as error:
        assert "Attempting to append an invalid type" in str(error)
        return False
    return True


def test_the_data_fields_are_std_vec_vector3():
    """pin 3.8.0's type name; pin 4.x's containers are coal's StdVec_Vec3s."""
    rdata = pinref.buildSampleModelHumanoid().createData()
    pdata = pin.buildSampleModelHumanoid().createData()
    pin_name = "StdVec_Vec3s" if is_pin4(pin) else "StdVec_Vector3"
    for name in ("com", "vcom", "acom"):
        assert type(getattr(rdata, name)).__name__ == "StdVec_Vector3"
        assert type(getattr(pdata, name)).__name__ == pin_name
        assert len(getattr(rdata, name)) == len(getattr(pdata, name))


def test_append_accepts_what_pin_accepts():
    """Unbatched items: pin's rule exactly, except (1, 3), which pinref reads as a batch of one."""
    for item in CANDIDATES:
        ours, theirs = _accepts(pinref.StdVec_Vector3(), item), _accepts(pin.StdVec_Vector3(), item)
        if np.shape(item) == (1, 3):
            assert ours and not theirs
        else:
            assert ours == theirs, f"{item!r}: pinref {ours}, pin {theirs}"
    ours = pinref.StdVec_Vector3()
    ours.append(np.zeros((3, 1)))
    assert ours[0].shape == (3,) and ours[0].dtype == float
    with pytest.raises(ArgumentTypeError, match="shape \\(4,\\)"):
        ours.append(np.zeros(4))


def test_items_are_copied_in_and_referenced_out_as_pin():
    for lib in (pin, pinref):
        data = lib.buildSampleModelHumanoid().createData()
        v = np.ones(3)
        data.com[0] = v
        v[0] = 5.0
        assert list(data.com[0]) == [1.0, 1.0, 1.0], lib.__name__
        data.com[0][1] = 7.0
        assert list(data.com[0]) == [1.0, 7.0, 1.0], lib.__name__


def test_index_errors_and_tolist_as_pin():
    for lib in (pin, pinref):
        model = lib.buildSampleModelHumanoid()
        data = model.createData()
        lib.centerOfMass(model, data, lib.neutral(model))
        assert isinstance(data.com.tolist(), list) and isinstance(data.com[0], np.ndarray)
        with pytest.raises(IndexError, match="Index out of range"):
            data.com[len(data.com) + 10]
        with pytest.raises(TypeError, match="Invalid index type"):
            data.com["1"]
        assert np.array_equal(data.com[-1], data.com[len(data.com) - 1])
    with pytest.raises(ContainerIndexError):
        pinref.buildSampleModelHumanoid().createData().com[-100]


def test_centre_of_mass_equals_pin_and_data_copies_keep_the_type():
    rmodel, pmodel = pinref.buildSampleModelHumanoid(), pin.buildSampleModelHumanoid()
    rdata, pdata = rmodel.createData(), pmodel.createData()
    q = pin.randomConfiguration(pmodel, -np.ones(pmodel.nq), np.ones(pmodel.nq))
    pinref.centerOfMass(rmodel, rdata, q)
    pin.centerOfMass(pmodel, pdata, q)
    for i in range(rmodel.njoints):
        ref = pdata.com[i]
        assert np.max(np.abs(rdata.com[i] - ref)) <= 1e-12 * max(1.0, np.max(np.abs(ref)))
    batch = pinref.centerOfMass(rmodel, rdata, np.stack([q, q]))
    assert batch.shape == (2, 3) and rdata.com[0].shape == (2, 3)
    for clone in (rdata.copy(), copy.copy(rdata), pickle.loads(pickle.dumps(rdata))):
        assert type(clone.com) is pinref.StdVec_Vector3 and clone == rdata
        assert not np.shares_memory(clone.com[0], rdata.com[0])
