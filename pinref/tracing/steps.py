"""The names of the stops a trace records, as Pinocchio 3.8.0's code names them.

Step structs (algorithm/aba.hxx, rnea.hxx, crba.hxx) and, for code that the drivers run inline
between or after their loops, ``"<driver>: <statement>"``. ``pinref.compare`` keys its
reference values by these names; the decorators in pinref/algorithms spell them out in full so
that each step function shows the struct it mirrors.
"""

ABA_INIT = "abaLocalConvention: f[0].setZero()"
ABA_FORWARD1 = "AbaLocalConventionForwardStep1"
ABA_FEXT = "abaLocalConvention: f[i] -= fext[i]"
ABA_BACKWARD = "AbaLocalConventionBackwardStep"
ABA_FORWARD2 = "AbaLocalConventionForwardStep2"
ABA_FINAL_LOOP = "abaLocalConvention: f[parent] += liMi[i].act(f[i])"

RNEA_FORWARD = "RneaForwardStep"
RNEA_FEXT = "rnea: f[i] -= fext[i]"
RNEA_BACKWARD = "RneaBackwardStep"
RNEA_ARMATURE = "rnea: tau += armature * a"

CRBA_FORWARD = "CrbaLocalConventionForwardStep"
CRBA_BACKWARD = "CrbaLocalConventionBackwardStep"
CRBA_ARMATURE = "crbaLocalConvention: M.diagonal() += armature"
CRBA_SYMMETRIC = "crba (Python binding): make_symmetric(M)"

# Every stop of each algorithm, in the order its passes run them.
STEPS = {
    "aba": (ABA_INIT, ABA_FORWARD1, ABA_FEXT, ABA_BACKWARD, ABA_FORWARD2, ABA_FINAL_LOOP),
    "rnea": (RNEA_FORWARD, RNEA_FEXT, RNEA_BACKWARD, RNEA_ARMATURE),
    "crba": (CRBA_FORWARD, CRBA_BACKWARD, CRBA_ARMATURE, CRBA_SYMMETRIC),
}
