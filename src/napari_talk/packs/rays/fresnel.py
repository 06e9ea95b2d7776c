"""Fresnel power coefficients of a planar dielectric interface, for s and p polarization.

One vectorized function, :func:`fresnel_power` (any number of hits at once), and the scalar
:func:`fresnel_transmittances` the agents and the dock call.
"""

from __future__ import annotations

import math

import numpy as np


def fresnel_power(
    n1: np.ndarray | float, n2: np.ndarray | float, cos_i: np.ndarray | float
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Reflectances R_s, R_p, the cosine of the refraction angle and the TIR mask.

    Under total internal reflection R_s = R_p = 1 and cos_t = 0. T = 1 − R (no absorption).
    """
    n1, n2, cos_i = np.broadcast_arrays(*(np.asarray(v, dtype=float) for v in (n1, n2, cos_i)))
    eta = n1 / n2
    k = 1.0 - eta * eta * (1.0 - cos_i * cos_i)
    tir = k < 0
    cos_t = np.sqrt(np.where(tir, 0.0, k))
    with np.errstate(invalid="ignore", divide="ignore"):
        rs = (n1 * cos_i - n2 * cos_t) / (n1 * cos_i + n2 * cos_t)
        rp = (n2 * cos_i - n1 * cos_t) / (n2 * cos_i + n1 * cos_t)
    r_s = np.where(tir, 1.0, np.nan_to_num(rs * rs, nan=1.0))
    r_p = np.where(tir, 1.0, np.nan_to_num(rp * rp, nan=1.0))
    return r_s, r_p, cos_t, tir


def critical_angle(n1: float, n2: float) -> float | None:
    """The angle of incidence (degrees) beyond which light going from n1 into n2 is totally
    reflected; None when n1 <= n2 (there is none)."""
    _check_indices(n1, n2)
    return math.degrees(math.asin(n2 / n1)) if n1 > n2 else None


def brewster_angle(n1: float, n2: float) -> float:
    """The angle of incidence (degrees) where R_p = 0: the reflected light is purely s-polarized."""
    _check_indices(n1, n2)
    return math.degrees(math.atan2(n2, n1))


def fresnel_transmittances(n1: float, n2: float, theta_i_deg: float) -> dict:
    """Power reflectances and transmittances at one angle of incidence, JSON-serializable.

    Keys: R_s, R_p, T_s, T_p, ratio_Tp_Ts (None when T_s = 0), theta_t_deg (None under total
    internal reflection), tir, critical_angle_deg (None when n1 <= n2), brewster_angle_deg.
    """
    _check_indices(n1, n2)
    if not (math.isfinite(theta_i_deg) and 0 <= theta_i_deg <= 90):
        raise ValueError(f"the angle of incidence must be between 0 and 90 degrees, not {theta_i_deg}")
    r_s, r_p, cos_t, tir = (float(v) for v in fresnel_power(n1, n2, math.cos(math.radians(theta_i_deg))))
    t_s, t_p = 1.0 - r_s, 1.0 - r_p
    return {
        "n1": float(n1),
        "n2": float(n2),
        "theta_i_deg": float(theta_i_deg),
        "R_s": r_s,
        "R_p": r_p,
        "T_s": t_s,
        "T_p": t_p,
        "ratio_Tp_Ts": t_p / t_s if t_s > 0 else None,
        "theta_t_deg": None if tir else math.degrees(math.acos(min(1.0, cos_t))),
        "tir": bool(tir),
        "critical_angle_deg": critical_angle(n1, n2),
        "brewster_angle_deg": brewster_angle(n1, n2),
    }


def _check_indices(n1: float, n2: float) -> None:
    for name, n in (("n1", n1), ("n2", n2)):
        if not (math.isfinite(n) and n > 0):
            raise ValueError(f"{name} must be a refractive index > 0, not {n}")
