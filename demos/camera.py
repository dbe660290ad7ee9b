"""Camera and transform matrices shared by the 3-D demos (cube, shadow,
gears, deferred, occlusion, the particle demos).

All matrices are 4x4 float64 numpy arrays acting on column vectors
(``clip = P @ V @ M @ position``), GL's conventions: a right-handed eye
space looking down -z and clip z in -1..1.  The demos hand them to a
vertex shader as four rows in CONST[0..3] (one DP4 per output component),
so ``mvp.astype(np.float32)`` is what the constant buffer holds.  Gallium's
viewport then maps clip space to the window (docs/coordinates.md).
"""

from __future__ import annotations

import numpy as np


def perspective(fovy_deg: float, aspect: float, near: float, far: float) -> np.ndarray:
    """GL's perspective matrix (gluPerspective; clip z -1..1)."""
    f = 1.0 / np.tan(np.radians(fovy_deg) / 2)
    return np.array(
        [
            [f / aspect, 0, 0, 0],
            [0, f, 0, 0],
            [0, 0, (far + near) / (near - far), 2 * far * near / (near - far)],
            [0, 0, -1, 0],
        ]
    )


def frustum(left: float, right: float, bottom: float, top: float, near: float, far: float) -> np.ndarray:
    """GL's glFrustum matrix (clip z -1..1)."""
    return np.array(
        [
            [2 * near / (right - left), 0, (right + left) / (right - left), 0],
            [0, 2 * near / (top - bottom), (top + bottom) / (top - bottom), 0],
            [0, 0, -(far + near) / (far - near), -2 * far * near / (far - near)],
            [0, 0, -1, 0],
        ]
    )


def ortho(half: float, near: float, far: float) -> np.ndarray:
    """GL's orthographic matrix of a box of half-width ``half`` (clip z -1..1)."""
    return np.array(
        [
            [1 / half, 0, 0, 0],
            [0, 1 / half, 0, 0],
            [0, 0, -2 / (far - near), -(far + near) / (far - near)],
            [0, 0, 0, 1],
        ]
    )


def rotation(axis: int, angle: float) -> np.ndarray:
    """4x4 rotation by ``angle`` radians about x (0), y (1) or z (2),
    counter-clockwise looking down the axis towards the origin (glRotate)."""
    c, s = np.cos(angle), np.sin(angle)
    i, j = [(1, 2), (2, 0), (0, 1)][axis]
    m = np.eye(4)
    m[i, i], m[i, j], m[j, i], m[j, j] = c, -s, s, c
    return m


def translation(x: float, y: float, z: float) -> np.ndarray:
    """4x4 translation."""
    m = np.eye(4)
    m[:3, 3] = (x, y, z)
    return m


def scaling(x: float, y: float, z: float) -> np.ndarray:
    """4x4 scale."""
    return np.diag([x, y, z, 1.0])


# Clip (-1..1) -> texture / depth (0..1) on x, y and z.
BIAS = np.array([[0.5, 0, 0, 0.5], [0, 0.5, 0, 0.5], [0, 0, 0.5, 0.5], [0, 0, 0, 1]])


def rows(*matrices: np.ndarray) -> np.ndarray:
    """The matrices stacked as float32 rows: what CONST[0..4k-1] hold for
    the DP4s of a vertex shader (one matrix per four registers)."""
    return np.vstack(matrices).astype(np.float32)


__all__ = ["BIAS", "frustum", "ortho", "perspective", "rotation", "rows", "scaling", "translation"]
