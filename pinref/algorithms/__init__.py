"""The algorithms, one module per Pinocchio header (rnea.hxx, crba.hxx, aba.hxx, kinematics.hxx).

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

from ._args import Convention
from .aba import aba
from .crba import crba
from .kinematics import forwardKinematics
from .rnea import computeGeneralizedGravity, computeStaticTorque, nonLinearEffects, rnea

__all__ = ["Convention", "aba", "crba", "forwardKinematics", "rnea", "nonLinearEffects",
           "computeGeneralizedGravity", "computeStaticTorque"]
