"""Model, Data and Frame as Pinocchio 3.8.0's Python scripts use them (issue 12 items 2 and 4):
every behaviour is run on a pinref object and on Pinocchio's, and compared.

Oracle: Pinocchio itself (its stored shapes, printed strings, container errors, enum names),
except where pinref refuses on purpose what Pinocchio stores silently (a wrong-size vector
field); those cases assert Pinocchio's behaviour too, so the difference stays visible.
"""

import copy
import pickle
import warnings

import numpy as np
import pinocchio as pin
import pytest

import pinref
from models import build
from pinref import errors
from pinref.compare.versions import deprecation_warning, pin_only_fields
from test_bridge import assert_fields_equal, model_fields

NQ_FIELDS = ["lowerPositionLimit", "upperPositionLimit"]
NV_FIELDS = ["effortLimit", "velocityLimit", "friction", "damping", "armature", "rotorInertia",
             "rotorGearRatio"]


def test_every_vector_field_of_pins_model_is_covered():
    pm = pin.buildSampleModelManipulator()
    fields = {k for k in dir(pm) if isinstance(getattr(pm, k), np.ndarray)}
    # gravity981: a constant; pin 4.x's lower and upper bounds: see pinref.compare.versions
    assert fields - {"gravity981", *pin_only_fields(pin)} == set(NQ_FIELDS + NV_FIELDS)


@pytest.mark.parametrize("field", NQ_FIELDS + NV_FIELDS)
def test_vector_fields_store_a_column_as_pin_does(field):
    model, pm = pinref.buildSampleModelHumanoid(), pin.buildSampleModelHumanoid()
    n = model.nq if field in NQ_FIELDS else model.nv
    value = np.linspace(0.1, 2.0, n).reshape(n, 1)
    setattr(model, field, value)
    setattr(pm, field, value)
    got, ref = getattr(model, field), getattr(pm, field)
    assert got.shape == ref.shape == (n,) and got.dtype == ref.dtype
    np.testing.assert_array_equal(got, ref)
    value[0] = 9.0  # both stored a copy
    assert getattr(model, field)[0] == getattr(pm, field)[0] == 0.1
    getattr(model, field)[1] = 7.0  # reading gives the stored array, as in pin
    getattr(pm, field)[1] = 7.0
    assert getattr(model, field)[1] == getattr(pm, field)[1] == 7.0


@pytest.mark.parametrize("field", NQ_FIELDS + NV_FIELDS)
def test_vector_fields_refuse_a_wrong_size_and_complex_numbers_at_the_assignment(field):
    model, pm = pinref.buildSampleModelManipulator(), pin.buildSampleModelManipulator()
    with pytest.raises(errors.ShapeError, match=rf"model.{field}: expected 6 numbers"):
        setattr(model, field, np.ones(3))
    setattr(pm, field, np.ones(3))  # pin stores it, to fail (or read past it) later
    assert getattr(pm, field).shape == (3,)
    with pytest.raises(errors.ShapeError, match=rf"model.{field}"):
        setattr(model, field, np.ones((6, 2)))
    with pytest.raises(errors.ArgumentTypeError, match=rf"model.{field}: expected real"):
        setattr(model, field, np.ones(6) * (1 + 1j))
    with pytest.raises(errors.ShapeError, match=rf"model.{field}: .*ragged"):
        setattr(model, field, [[0.0] * 3, [0.0] * 2])
    assert getattr(model, field).shape == (6,)  # unchanged


def test_gravity_takes_a_motion_as_in_pin():
    model, pm = pinref.buildSampleModelManipulator(), pin.buildSampleModelManipulator()
    g = np.array([0.0, 0.0, -9.81, 0.0, 0.0, 0.0])
    with pytest.raises(TypeError):
        pm.gravity = g
    with pytest.raises(errors.ArgumentTypeError, match=r"model.gravity: .*pinref.Motion\("):
        model.gravity = g
    M = pinref.Motion(np.array([1.0, 2.0, 3.0]), np.zeros(3))
    model.gravity = M
    pm.gravity = pin.Motion(np.array([1.0, 2.0, 3.0]), np.zeros(3))
    M.linear = np.zeros(3)  # a copy was stored, as in pin
    np.testing.assert_array_equal(model.gravity.vector, pm.gravity.vector)
    with pytest.raises(errors.ArgumentTypeError, match="batch shape"):
        model.gravity = pinref.Motion.Zero((2,))


def test_reference_configurations_as_in_pin():
    model, pm = pinref.buildSampleModelManipulator(), pin.buildSampleModelManipulator()
    for m, lib in ((model, pinref), (pm, pin)):
        m.referenceConfigurations["neutral"] = lib.neutral(m)
        q = m.referenceConfigurations["neutral"]
        q.fill(1.0)  # the stored array, changed in place (bindings_model.test_std_map_fields)
        np.testing.assert_array_equal(m.referenceConfigurations["neutral"], np.ones(6))
        m.referenceConfigurations["column"] = np.zeros((6, 1))
        assert m.referenceConfigurations["column"].shape == (6,)
        assert len(m.referenceConfigurations) == 2 and "neutral" in m.referenceConfigurations
        with pytest.raises(KeyError, match="Invalid key"):
            m.referenceConfigurations["missing"]
        del m.referenceConfigurations["column"]
        assert len(m.referenceConfigurations) == 1
    assert type(model.referenceConfigurations).__name__ == type(pm.referenceConfigurations).__name__
    pm.referenceConfigurations["short"] = np.zeros(3)  # pin stores any size
    with pytest.raises(errors.ShapeError, match=r"referenceConfigurations\['short'\]: .*\(6,\)"):
        model.referenceConfigurations["short"] = np.zeros(3)


@pytest.mark.parametrize("name", ["manipulator", "humanoid", "tutorial", "tree0"])
def test_model_equality_copy_and_pickle_as_in_pin(name, tmp_path):
    model, pm = build(name)
    for m in (model, pm):
        path = tmp_path / "model.pickle"
        path.write_bytes(pickle.dumps(m))
        again = pickle.loads(path.read_bytes())
        assert again == m and not (again != m)
        for clone in (m.copy(), copy.copy(m), copy.deepcopy(m)):
            assert clone == m
            clone.names[1] = "renamed"  # every copy is deep, in pin too
            assert m.names[1] != "renamed" and clone != m
    assert_fields_equal(model_fields(pickle.loads(pickle.dumps(model))), model_fields(pm),
                        tol=1e-15)
    changed = model.copy()
    changed.inertias[1] = pinref.Inertia.Random()
    assert changed != model


def test_data_copy_equality_and_pickle_as_in_pin():
    """bindings_data.test_copy and test_pickle, on the humanoid and on the random humanoid
    with its mimic joint (theirs)."""
    for lib, mimic in ((pinref, False), (pin, False), (pinref, True), (pin, True)):
        model = lib.buildSampleModelHumanoidRandom(True, True) if mimic else \
            lib.buildSampleModelHumanoid()
        data = model.createData()
        data2 = data.copy()
        lib.forwardKinematics(model, data2, lib.randomConfiguration(model, -np.ones(model.nq),
                                                                    np.ones(model.nq)))
        j = model.njoints - 1
        assert data.oMi[j] != data2.oMi[j]
        data3 = data2.copy()
        assert data2.oMi[j] == data3.oMi[j] and data3 == data2
        shallow = copy.copy(data3)  # deep, as pin's
        shallow.oMi[j].translation[0] += 1.0
        assert data3.oMi[j] != shallow.oMi[j]
        assert pickle.loads(pickle.dumps(data2)) == data2
        assert data != data2


@pytest.mark.parametrize("name", ["manipulator", "humanoid", "tutorial", "tree0", "tree1"])
def test_print_model_and_frames_as_pin(name):
    model, pm = build(name)
    assert str(model) == str(pm) and repr(model) == repr(pm)
    if name in ("manipulator", "humanoid"):  # placements with exactly printed numbers
        for frame, pframe in zip(model.frames, pm.frames):
            assert str(frame) == str(pframe) and repr(frame) == repr(pframe)
    assert str(pinref.Model()) == str(pin.Model())


def test_frame_parent_and_previous_frame_are_deprecated_aliases_as_in_pin():
    """pinref warns as pin 3.8.0 does (UserWarning); pin 4.x uses DeprecationWarning."""
    for lib, category in ((pinref, UserWarning), (pin, deprecation_warning(pin))):
        frame = lib.Frame("f", 2, 1, lib.SE3.Identity(), lib.OP_FRAME)
        with pytest.warns(category, match=r"Deprecated member. Use Frame.parentJoint instead"):
            assert frame.parent == 2
        with pytest.warns(category, match=r"Use Frame.parentFrame instead"):
            assert frame.previousFrame == 1
        with pytest.warns(category):
            frame.parent = 3
        assert frame.parentJoint == 3


def test_frame_equality_and_pickle_as_in_pin():
    M = pinref.SE3.Random()
    a = pinref.Frame("name", 1, 2, M, pinref.OP_FRAME)
    assert a == pinref.Frame("name", 1, 2, M, pinref.OP_FRAME)
    assert a != pinref.Frame("name", 1, 2, M, pinref.BODY)
    assert a != pinref.Frame("othername", 1, 2, M, pinref.OP_FRAME)
    assert pickle.loads(pickle.dumps(a)) == a and a.copy() == a
    pa = pin.Frame("name", 1, 2, pin.SE3.Identity(), pin.OP_FRAME)
    assert pa == pin.Frame("name", 1, 2, pin.SE3.Identity(), pin.OP_FRAME)
    assert pa != pin.Frame("name", 1, 2, pin.SE3.Identity(), pin.BODY)


ENUMS = ["OP_FRAME", "JOINT", "FIXED_JOINT", "BODY", "SENSOR", "WORLD", "LOCAL",
         "LOCAL_WORLD_ALIGNED", "POSITION", "VELOCITY", "ACCELERATION"]


@pytest.mark.parametrize("name", ENUMS)
def test_enum_values_at_module_level_print_as_pin(name):
    ours, theirs = getattr(pinref, name), getattr(pin, name)
    assert int(ours) == int(theirs) and ours == theirs
    assert str(ours) == str(theirs) == name
    # pin's repr is module.Enum.NAME; pinref's has the same Enum.NAME under module pinref
    assert repr(ours) == "pinref." + ".".join(repr(theirs).split(".")[-2:])
    assert type(ours).__name__ == type(theirs).__name__
    assert getattr(type(ours), name) is ours


def test_combined_frame_types_print_as_pin():
    assert str(pinref.OP_FRAME | pinref.BODY) == str(pin.OP_FRAME | pin.BODY) == "9"
    assert str(pinref.FrameType.JOINT) == str(pin.FrameType.JOINT)


CONTAINERS = [
    ("StdVec_Force", lambda lib: lib.Force.Random(), lambda lib: lib.Motion.Zero()),
    ("StdVec_Motion", lambda lib: lib.Motion.Random(), lambda lib: lib.Force.Zero()),
    ("StdVec_SE3", lambda lib: lib.SE3.Random(), lambda lib: lib.Motion.Zero()),
    ("StdVec_Inertia", lambda lib: lib.Inertia.Random(), lambda lib: lib.SE3.Identity()),
    ("StdVec_Frame", lambda lib: lib.Frame("f", 0, 0, lib.SE3.Identity(), lib.OP_FRAME),
     lambda lib: lib.SE3.Identity()),
    ("StdVec_Index", lambda lib: 3, lambda lib: "3"),
    ("StdVec_int", lambda lib: 3, lambda lib: "3"),
    ("StdVec_StdString", lambda lib: "joint", lambda lib: 3),
    ("StdVec_Bool", lambda lib: True, lambda lib: "yes"),
    ("StdVec_Double", lambda lib: 0.5, lambda lib: "0.5"),
]


@pytest.mark.parametrize("name, item, wrong", CONTAINERS, ids=[c[0] for c in CONTAINERS])
def test_std_vec_containers_behave_as_pins(name, item, wrong):
    for lib in (pinref, pin):
        vec = getattr(lib, name)()
        vec.append(item(lib))
        vec.extend([item(lib), item(lib)])
        assert len(vec) == 3 and len(vec.tolist()) == 3 and len(list(vec)) == 3
        vec[1] = item(lib)
        assert vec[-1] is vec[-1] or name in ("StdVec_Index", "StdVec_int", "StdVec_Double",
                                              "StdVec_Bool", "StdVec_StdString")
        with pytest.raises(TypeError, match="Attempting to append an invalid type"):
            vec.append(wrong(lib))
        with pytest.raises(IndexError, match="Index out of range"):
            vec[len(vec) + 10]
        with pytest.raises(TypeError, match="Invalid index type"):
            vec["1"]
        assert len(vec) == 3 and len(getattr(lib, name)([item(lib)] * 2)) == 2
    with pytest.raises(errors.ContainerIndexError):
        getattr(pinref, name)()[0]


def test_rnea_and_aba_take_a_std_vec_force():
    """bindings_rnea / bindings_aba: fext as a StdVec_Force or a plain list gives the same."""
    for lib in (pinref, pin):
        model = lib.buildSampleModelHumanoid()
        data = model.createData()
        q = lib.neutral(model)
        v = np.linspace(-1, 1, model.nv)
        forces = lib.StdVec_Force()
        for k in range(model.njoints):
            forces.append(lib.Force(np.full(6, 0.1 * k)))
        for call in (lib.rnea, lib.aba):
            with_vec = call(model, data, q, v, v, forces)
            np.testing.assert_array_equal(with_vec, call(model, data, q, v, v, list(forces)))


def test_manipulator_mimic_option_builds_pins_model():
    assert_fields_equal(model_fields(pinref.buildSampleModelManipulator(True)),
                        model_fields(pin.buildSampleModelManipulator(True)), tol=1e-15)
    assert pinref.buildSampleModelManipulator(mimic=False) == pinref.buildSampleModelManipulator()


def test_no_warning_on_ordinary_use():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        model = pinref.buildSampleModelHumanoidRandom()
        str(model), model == model.copy()
