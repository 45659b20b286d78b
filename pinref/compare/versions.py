"""What depends on the installed Pinocchio's version: the one place that decides, 3.8.0 or 4.x.

pinref mirrors Pinocchio 3.8.0 (the baseline, the ``pin`` extra); Pinocchio 4.1.0 (the ``pin4``
extra) is the second reference. The tools and the tests ask this module and never compare
``pin.__version__`` themselves. docs/quirks.md, "pin 4.1.0 differences", explains every entry
of ``PIN4_DIFFERENCES``.

- ``add_joint``: ``Model.addJoint`` with limits. 3.8.0 takes (max_effort, max_velocity,
  min_config, max_config, friction, damping); 4.x takes lower and upper bounds (min_effort,
  max_effort, min_velocity, max_velocity, min_config, max_config, min_friction, max_friction,
  damping). pinref's symmetric bounds become (-effort, effort, -velocity, velocity, ...,
  -friction, friction), which is what 4.x's URDF parser stores.
- ``pin_only_fields``: the Model vectors 4.x adds (lower and upper bounds, position-limit
  margin), which pinref's Model does not hold; 4.x keeps 3.8.0's ``effortLimit``,
  ``velocityLimit`` and ``friction`` as aliases of its upper bounds, and those are what the
  bridge copies.
- ``differs(pin, key)``: True when the installed pin computes ``key`` differently from 3.8.0;
  a test then compares pinref with 3.8.0's rule instead of pin's answer.
"""

REFERENCE_VERSIONS = ("3.8.0", "4.1.0")

# The Model vectors pin 4.x has and 3.8.0 has not: its lower bounds, the position-limit margin,
# and the upper bounds, of which 3.8.0's effortLimit, velocityLimit and friction are aliases.
PIN4_ONLY_FIELDS = ("lowerEffortLimit", "lowerVelocityLimit", "lowerDryFrictionLimit",
                    "positionLimitMargin", "upperEffortLimit", "upperVelocityLimit",
                    "upperDryFrictionLimit")

# What pin 4.x computes or builds differently from 3.8.0 (docs/quirks.md has one entry each).
PIN4_DIFFERENCES = {
    "motion_is_approx": "Motion.isApprox and Force.isApprox also accept a linear or angular "
                        "part that is isZero(prec) on both sides",
    "inertia_is_approx": "Inertia.isApprox compares the masses relatively, "
                         "|m1 - m2| <= prec max(|m1|, |m2|)",
    "dinv_inverse": "ABA's Dinv of a multi-dof joint is a closed-form or generated inverse, "
                    "not a Cholesky solve (last bits differ)",
    "sample_model_limits": "buildSampleModelHumanoidRandom draws random friction bounds and "
                           "more numbers from the generator",
    "deprecation_warning": "deprecated members (Frame.parent, Frame.previousFrame) warn with a "
                           "DeprecationWarning, not a UserWarning",
    "append_model_frame_inertia": "appendModel leaves the body of a joint carrying a placed "
                                  "frame inertia as it was (3.8.0 takes the inertia off unmoved "
                                  "and adds it back moved)",
    "mjcf_parser": "buildModelFromMJCF is a rewritten parser: other overloads, a free joint's "
                   "body placement in its reference configuration, a qpos0 configuration",
}


def pin_major(pin):
    """The major version of the ``pinocchio`` module ``pin`` (3 or 4)."""
    return int(pin.__version__.split(".")[0])


def is_pin4(pin):
    """True for Pinocchio 4.x."""
    return pin_major(pin) >= 4


def differs(pin, key):
    """True when the installed ``pin`` computes ``key`` (of PIN4_DIFFERENCES) differently from
    Pinocchio 3.8.0, the version pinref mirrors."""
    if key not in PIN4_DIFFERENCES:
        raise KeyError(f"{key!r} is not a documented pin 4.x difference: "
                       f"one of {sorted(PIN4_DIFFERENCES)}")
    return is_pin4(pin)


def add_joint(pin, pm, parent, joint, placement, name, effort, velocity, lower, upper, friction,
              damping):
    """``pm.addJoint`` of the installed version with pinref's symmetric limit vectors."""
    if is_pin4(pin):
        return pm.addJoint(parent, joint, placement, name, -effort, effort, -velocity, velocity,
                           lower, upper, -friction, friction, damping)
    return pm.addJoint(parent, joint, placement, name, effort, velocity, lower, upper, friction,
                       damping)


def pin_only_fields(pin):
    """The Model vectors of the installed pin that pinref's Model has no field for."""
    return PIN4_ONLY_FIELDS if is_pin4(pin) else ()


def deprecation_warning(pin):
    """The warning class the installed pin's deprecated members emit."""
    return DeprecationWarning if differs(pin, "deprecation_warning") else UserWarning
