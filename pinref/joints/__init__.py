"""Joint models: kinematics (calc), ABA step (calc_aba) and configuration space of each type.

``JOINT_TYPES`` lists one factory per joint type (Pinocchio's joint collection without the
composite joint, ``JointModelComposite``, which is built from these, and the mimic joint,
``JointModelMimic``, which follows one of them),
with representative constructor arguments: ``factory()`` returns a fresh joint model, not yet
placed in a model (``setIndexes``).
"""

from functools import partial

import numpy as np

from .base import JointData, JointModel
from .composite import JointDataComposite, JointModelComposite
from .free_flyer import JointModelFreeFlyer
from .helical import JointModelHelicalUnaligned, JointModelHX, JointModelHY, JointModelHZ
from .mimic import JointDataMimic, JointModelMimic
from .planar import JointModelPlanar
from .prismatic import JointModelPrismaticUnaligned, JointModelPX, JointModelPY, JointModelPZ
from .revolute import JointModelRX, JointModelRY, JointModelRZ
from .revolute_unaligned import JointModelRevoluteUnaligned
from .revolute_unbounded import (JointModelRevoluteUnboundedUnaligned, JointModelRUBX,
                                 JointModelRUBY, JointModelRUBZ)
from .spherical import JointModelSpherical
from .spherical_zyx import JointModelSphericalZYX
from .translation import JointModelTranslation
from .universal import JointModelUniversal

# Representative axes: unit, not aligned with a frame axis; the universal pair is orthogonal.
_AXIS = np.array([1.0, -2.0, 3.0]) / np.sqrt(14.0)
_AXIS1 = np.array([0.36, 0.48, 0.8])
_AXIS2 = np.array([0.8, -0.6, 0.0])

JOINT_TYPES = (
    JointModelFreeFlyer,
    JointModelRX, JointModelRY, JointModelRZ,
    partial(JointModelRevoluteUnaligned, _AXIS),
    JointModelRUBX, JointModelRUBY, JointModelRUBZ,
    partial(JointModelRevoluteUnboundedUnaligned, _AXIS),
    JointModelPX, JointModelPY, JointModelPZ,
    partial(JointModelPrismaticUnaligned, _AXIS),
    partial(JointModelHX, 0.3), partial(JointModelHY, -0.2), partial(JointModelHZ, 0.45),
    partial(JointModelHelicalUnaligned, _AXIS, 0.25),
    JointModelSpherical,
    JointModelSphericalZYX,
    JointModelPlanar,
    JointModelTranslation,
    partial(JointModelUniversal, _AXIS1, _AXIS2),
)

__all__ = [
    "JointData", "JointModel", "JOINT_TYPES",
    "JointModelFreeFlyer",
    "JointModelRX", "JointModelRY", "JointModelRZ", "JointModelRevoluteUnaligned",
    "JointModelRUBX", "JointModelRUBY", "JointModelRUBZ", "JointModelRevoluteUnboundedUnaligned",
    "JointModelPX", "JointModelPY", "JointModelPZ", "JointModelPrismaticUnaligned",
    "JointModelHX", "JointModelHY", "JointModelHZ", "JointModelHelicalUnaligned",
    "JointModelSpherical", "JointModelSphericalZYX", "JointModelPlanar", "JointModelTranslation",
    "JointModelUniversal", "JointModelComposite", "JointDataComposite", "JointModelMimic",
    "JointDataMimic",
]
