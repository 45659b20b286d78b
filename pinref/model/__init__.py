"""Model, Frame, Data and the sample models."""

from .containers import *  # noqa: F401,F403
from .containers import __all__ as _containers_all
from .data import Data
from .frame import BODY, FIXED_JOINT, JOINT, OP_FRAME, SENSOR, Frame, FrameType
from .geometry import (Box, Capsule, CollisionPair, Convex, Cylinder, Ellipsoid,
                       GeometryData, GeometryModel, GeometryObject, GeometryType, Mesh, Sphere)
from .mimic import transformJointIntoMimic
from .model import UNIT_NORM_TOLERANCE, Model
from .sample_models import (buildSampleModelHumanoid, buildSampleModelHumanoidRandom,
                            buildSampleModelManipulator, buildTutorialModel)
from .surgery import appendModel, buildReducedModel
from .urdf import buildGeomFromUrdf, buildModelFromUrdf, buildModelFromXML, buildModelsFromUrdf
from .mjcf import (RigidConstraintModel, buildGeomFromMJCF, buildModelFromMJCF,
                   buildModelsFromMJCF)

__all__ = ["Data", "Frame", "FrameType", "OP_FRAME", "JOINT", "FIXED_JOINT", "BODY", "SENSOR",
           *_containers_all, "Model", "UNIT_NORM_TOLERANCE",
           "buildSampleModelHumanoid", "buildSampleModelHumanoidRandom",
           "buildSampleModelManipulator", "buildTutorialModel",
           "buildModelFromUrdf", "buildModelFromXML", "buildModelsFromUrdf", "buildGeomFromUrdf",
           "appendModel", "buildReducedModel", "transformJointIntoMimic",
           "GeometryModel", "GeometryData", "GeometryObject", "GeometryType", "CollisionPair",
           "Box", "Capsule", "Convex", "Cylinder", "Sphere", "Mesh", "Ellipsoid",
           "buildModelFromMJCF", "buildModelsFromMJCF", "buildGeomFromMJCF", "RigidConstraintModel"]
