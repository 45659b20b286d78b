"""Random MJCF trees against pin 3.8.0: bodies up to four deep with 0 to 3 joints (hinge and
slide about e_k, -e_z or a random axis, ball; ranges, armature, damping, joint positions),
every orientation form, <inertial> with diaginertia or fullinertia, and geoms of every shape
(size, fromto, mass, density), in degrees or radians and four euler sequences. Each model
equals pin's field by field, and the caches agree, with and without a free-flyer root. Every
joint has armature, so that a body's redundant joints (a hinge and a ball) keep ABA regular."""

import numpy as np
import pytest

from mjcf_check import PIN_PARSER_IS_3_8_0, assert_matches_pin, write

pytestmark = PIN_PARSER_IS_3_8_0
SEEDS = range(24)


def _numbers(rng, n, lo=-1.0, hi=1.0):
    return " ".join(f"{x:.6g}" for x in rng.uniform(lo, hi, n))


def _orientation(rng):
    kind = rng.integers(6)
    if kind == 1:
        return f' quat="{_numbers(rng, 4)}"'
    if kind == 2:
        axis = rng.normal(size=3)
        axis /= np.linalg.norm(axis)
        return f' axisangle="{" ".join(f"{x:.17g}" for x in axis)} {rng.uniform(-180, 180):.6g}"'
    if kind == 3:
        return f' euler="{_numbers(rng, 3, -90, 90)}"'
    if kind == 4:
        return f' xyaxes="{_numbers(rng, 6)}"'
    if kind == 5:
        return f' zaxis="{_numbers(rng, 3)}"'
    return ""


def _geom(rng):
    kind = str(rng.choice(["box", "sphere", "capsule", "cylinder", "ellipsoid"]))
    if kind != "sphere" and rng.random() < 0.3:
        return (f'<geom type="{kind}" size="{_numbers(rng, 1, 0.01, 0.1)}" '
                f'fromto="{_numbers(rng, 6, -0.3, 0.3)}"/>')
    size = _numbers(rng, {"sphere": 1, "capsule": 2, "cylinder": 2}.get(kind, 3), 0.01, 0.2)
    extra = f' mass="{rng.uniform(0.1, 3):.4g}"' if rng.random() < 0.3 else ""
    extra += f' density="{rng.uniform(100, 3000):.4g}"' if rng.random() < 0.2 else ""
    return (f'<geom type="{kind}" size="{size}" pos="{_numbers(rng, 3, -0.2, 0.2)}"'
            f'{_orientation(rng)}{extra}/>')


def _joint(rng, name):
    kind = str(rng.choice(["hinge", "hinge", "slide", "ball"]))
    text = f'<joint name="{name}" type="{kind}" armature="{rng.uniform(0.01, 0.5):.4g}"'
    if kind != "ball":
        axis = rng.choice(["1 0 0", "0 1 0", "0 0 1", "0 0 -1", _numbers(rng, 3)])
        text += f' axis="{axis}"'
        if rng.random() < 0.5:
            text += f' range="{-rng.uniform(0, 90):.4g} {rng.uniform(0, 90):.4g}"'
    if rng.random() < 0.5:
        text += f' damping="{rng.uniform(0, 1):.4g}"'
    if rng.random() < 0.3:
        text += f' pos="{_numbers(rng, 3, -0.1, 0.1)}"'
    return text + "/>"


def _inertial(rng):
    I = rng.uniform(0.01, 0.1, 3)
    head = (f'<inertial mass="{rng.uniform(0.5, 2):.4g}" pos="{_numbers(rng, 3, -0.1, 0.1)}"'
            f'{_orientation(rng)}')
    if rng.random() < 0.5:
        return head + f' diaginertia="{I[0]:.4g} {I[1]:.4g} {I[2]:.4g}"/>'
    return (head + f' fullinertia="{3 * I[0]:.4g} {3 * I[1]:.4g} {3 * I[2]:.4g} '
            f'{_numbers(rng, 3, -0.005, 0.005)}"/>')


def _body(rng, depth, count, lines):
    count[0] += 1
    name = f"b{count[0]}"
    lines.append(f'<body name="{name}" pos="{_numbers(rng, 3, -0.5, 0.5)}"{_orientation(rng)}>')
    for k in range(rng.choice([0, 1, 1, 1, 2, 3] if depth else [0, 1, 2])):
        lines.append(_joint(rng, f"{name}_j{k}"))
    if rng.random() < 0.4:
        lines.append(_inertial(rng))
    lines += [_geom(rng) for _ in range(rng.integers(1, 3))]
    if rng.random() < 0.4:
        lines.append(f'<site name="{name}_s" pos="{_numbers(rng, 3, -0.1, 0.1)}"'
                     f'{_orientation(rng)}/>')
    for _ in range(rng.integers(0, 3) if depth < 3 else 0):
        _body(rng, depth + 1, count, lines)
    lines.append("</body>")


def random_mjcf(seed):
    """The text of random MJCF model ``seed``."""
    rng = np.random.default_rng(seed)
    lines = [f'<mujoco model="random{seed}">',
             f'<compiler angle="{rng.choice(["degree", "radian"])}" '
             f'eulerseq="{rng.choice(["xyz", "zyx", "yxz", "xzx"])}"/>', "<worldbody>"]
    _body(rng, 0, [0], lines)
    return "\n".join(lines + ["</worldbody>", "</mujoco>"])


@pytest.mark.parametrize("seed", SEEDS)
def test_random_model_matches_pin(tmp_path, seed):
    assert_matches_pin(write(tmp_path, random_mjcf(seed)))
