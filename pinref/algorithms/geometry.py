"""Geometry placements (algorithm/geometry.hxx, 3.8.0) and ``createDatas``
(pinocchio/shortcuts.py). No collision engine: only where each object is.

    updateGeometryPlacements(model, data, geom_model, geom_data[, q]):
        [forwardKinematics(model, data, q)]
        geom_data.oMg[k] = data.oMi[parentJoint_k] * placement_k      (k = 0 .. ngeoms-1)
"""

from ..errors import ModelError
from ._args import check_data
from .frames import _FIX_OMI
from .kinematics import forwardKinematics


def updateGeometryPlacements(model, data, geometry_model, geometry_data, q=None):
    """``geometry_data.oMg[k] = data.oMi[parentJoint] * placement`` for every object k.

    With ``q``, ``forwardKinematics(model, data, q)`` runs first; without, ``data.oMi`` is read
    as the last call left it. Mirrors ``pinocchio::updateGeometryPlacements`` (geometry.hxx).
    """
    from ..model import GeometryData, GeometryModel

    where = "updateGeometryPlacements"
    if q is not None:
        forwardKinematics(model, data, q)
    check_data(model, data)
    if not isinstance(geometry_model, GeometryModel) or not isinstance(geometry_data,
                                                                       GeometryData):
        raise ModelError(f"{where}: expected a GeometryModel and its GeometryData "
                         "(geometry_model.createData())")
    if len(geometry_data.oMg) != geometry_model.ngeoms:
        raise ModelError(f"{where}: geometry_data has {len(geometry_data.oMg)} placements for "
                         f"{geometry_model.ngeoms} objects; create it with "
                         "geometry_model.createData()")
    data.require(where, "oMi", _FIX_OMI)
    for k, geometry in enumerate(geometry_model.geometryObjects):
        if not 0 <= geometry.parentJoint < model.njoints:
            raise ModelError(f"{where}: object {geometry.name!r} has parent joint "
                             f"{geometry.parentJoint}, not a joint of the model")
        geometry_data.oMg[k] = data.oMi[geometry.parentJoint] * geometry.placement


def createDatas(*models):
    """``tuple(None if m is None else m.createData() for m in models)``, for a Model and its
    GeometryModels (``pinocchio.shortcuts.createDatas``)."""
    return tuple(None if m is None else m.createData() for m in models)


__all__ = ["createDatas", "updateGeometryPlacements"]
