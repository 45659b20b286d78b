"""Model, Frame, Data and the sample models."""

from .data import Data
from .frame import Frame, FrameType
from .model import UNIT_NORM_TOLERANCE, Model
from .sample_models import (buildSampleModelHumanoid, buildSampleModelHumanoidRandom,
                            buildSampleModelManipulator, buildTutorialModel)
from .urdf import buildModelFromUrdf, buildModelFromXML

__all__ = ["Data", "Frame", "FrameType", "Model", "UNIT_NORM_TOLERANCE",
           "buildSampleModelHumanoid", "buildSampleModelHumanoidRandom",
           "buildSampleModelManipulator", "buildTutorialModel",
           "buildModelFromUrdf", "buildModelFromXML"]
