"""The algorithms, one module per Pinocchio header (rnea.hxx, crba.hxx, aba.hxx, kinematics.hxx,
frames.hxx, jacobian.hxx, center-of-mass.hxx, energy.hxx, joint-configuration.hxx, geometry.hxx,
regressor.hxx).

Naming crosswalk (pinref = Pinocchio LOCAL; Featherstone's spatial_v2 symbols):

=====================================  =========================  ===========================
meaning                                pinref / Pinocchio         spatial_v2
=====================================  =========================  ===========================
parent <- child placement              data.liMi[i]               Xup{i} (its action inverse)
body velocity, frame i                 data.v[i]                  v{i}
bias accel. / accel. minus gravity     data.a_gf[i]               c{i} / a{i} - Xup g
articulated inertia                    data.Yaba[i] (6x6)         IA{i}, projected Ia
articulated bias force                 data.f[i] during aba       pA{i}, pa
U, D^-1, U D^-1                        jdata.U, Dinv, UDinv       U{i}, 1/d{i}, U{i}/d{i}
apparent torque                        data.u[..., idx_v:]        u{i}
composite inertia                      data.Ycrb[i]               IC{i}
mass matrix / bias                     data.M, data.nle           H, C
=====================================  =========================  ===========================
"""

from . import (aba, center_of_mass, crba, energy, frames, geometry, jacobian, joint_configuration,
               mimic, regressor, rnea, steps)
from ._args import ArgumentPosition, Convention, KinematicLevel, ReferenceFrame
from .aba_derivatives import computeABADerivatives
from .center_of_mass import *  # noqa: F401,F403
from .center_of_mass_derivatives import *  # noqa: F401,F403
from .centroidal import *  # noqa: F401,F403
from .centroidal_derivatives import *  # noqa: F401,F403
from .compute_all_terms import computeAllTerms
from .contact_dynamics import *  # noqa: F401,F403
from .coriolis import computeCoriolisMatrix, getCoriolisMatrix
from .energy import *  # noqa: F401,F403
from .frames import *  # noqa: F401,F403
from .frames_derivatives import *  # noqa: F401,F403
from .geometry import *  # noqa: F401,F403
from .jacobian import *  # noqa: F401,F403
from .joint_configuration import *  # noqa: F401,F403
from .kinematics import forwardKinematics
from .kinematics_derivatives import *  # noqa: F401,F403
from .minverse import computeMinverse
from .regressor import *  # noqa: F401,F403
from .rnea import computeGeneralizedGravity, computeStaticTorque, nonLinearEffects
from .rnea_derivatives import (
    computeGeneralizedGravityDerivatives,
    computeRNEADerivatives,
    computeStaticTorqueDerivatives,
)

# Mimic joints: the public functions run on the extended model, or refuse (mimic.py).
mimic.install()

# Pinocchio also exposes the enum values at module level (pin.LOCAL, pin.ARG0, ...).
WORLD, LOCAL, LOCAL_WORLD_ALIGNED = (ReferenceFrame.WORLD, ReferenceFrame.LOCAL,
                                     ReferenceFrame.LOCAL_WORLD_ALIGNED)
POSITION, VELOCITY, ACCELERATION = (KinematicLevel.POSITION, KinematicLevel.VELOCITY,
                                    KinematicLevel.ACCELERATION)
ARG0, ARG1, ARG2, ARG3, ARG4 = ArgumentPosition

# pinref.algorithms.aba, .crba and .rnea are the modules; pinref exports their functions.
__all__ = ["Convention", "forwardKinematics", "nonLinearEffects", "computeMinverse",
           "computeGeneralizedGravity", "computeStaticTorque",
           "computeRNEADerivatives", "computeABADerivatives",
           "computeGeneralizedGravityDerivatives", "computeStaticTorqueDerivatives",
           "ReferenceFrame", "KinematicLevel", "ArgumentPosition", "WORLD", "LOCAL",
           "LOCAL_WORLD_ALIGNED", "POSITION", "VELOCITY", "ACCELERATION", "ARG0", "ARG1", "ARG2",
           "ARG3", "ARG4",
           *frames.__all__, *geometry.__all__, *jacobian.__all__,
           *center_of_mass.__all__, *energy.__all__, *joint_configuration.__all__,
           *center_of_mass_derivatives.__all__, *centroidal.__all__,
           *centroidal_derivatives.__all__,
           "computeCoriolisMatrix", "getCoriolisMatrix", "computeAllTerms",
           *regressor.__all__, *frames_derivatives.__all__, *kinematics_derivatives.__all__,
           *contact_dynamics.__all__]
