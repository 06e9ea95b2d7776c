"""The object types this simulator traces, by their ray-optics ``type`` name."""

from __future__ import annotations

from .base import SceneObj
from .curve_glasses import CurveGlass, CurveGrinGlass
from .curves import CustomGlass, CustomMirror, ParabolicMirror
from .custom_surfaces import CustomArcSurface, CustomSurface
from .glasses import CircleGlass, Glass, PlaneGlass, SphericalLens
from .grin import CircleGrinGlass, GrinGlass
from .param import CustomParamSurface, ParamGlass, ParamGrinGlass, ParamMirror
from .sources import AngleSource, Beam, PointSource, SingleRay
from .surfaces import (
    Aperture,
    ArcMirror,
    BeamSplitter,
    Blocker,
    CircleBlocker,
    ConcaveDiffractionGrating,
    Detector,
    DiffractionGrating,
    IdealLens,
    IdealMirror,
    Mirror,
)

TYPES: dict[str, type[SceneObj]] = {
    cls.type: cls
    for cls in (
        SingleRay,
        PointSource,
        AngleSource,
        Beam,
        Blocker,
        CircleBlocker,
        Mirror,
        BeamSplitter,
        IdealLens,
        IdealMirror,
        Detector,
        Aperture,
        DiffractionGrating,
        Glass,
        CircleGlass,
        PlaneGlass,
        SphericalLens,
        ArcMirror,
        CustomMirror,
        ParabolicMirror,
        GrinGlass,
        CircleGrinGlass,
        CustomSurface,
        CustomArcSurface,
        ParamGlass,
        ParamGrinGlass,
        ParamMirror,
        CustomParamSurface,
        CustomGlass,
        ConcaveDiffractionGrating,
        CurveGlass,
        CurveGrinGlass,
    )
}
ALL_RAY_OPTICS_TYPES = {
    "Aperture",
    "Blocker",
    "CircleBlocker",
    "DiffractionGrating",
    "CircleGlass",
    "CircleGrinGlass",
    "CurveGlass",
    "CurveGrinGlass",
    "CustomGlass",
    "Glass",
    "GrinGlass",
    "IdealLens",
    "ParamGlass",
    "ParamGrinGlass",
    "PlaneGlass",
    "SphericalLens",
    "AngleSource",
    "Beam",
    "PointSource",
    "SingleRay",
    "ArcMirror",
    "BeamSplitter",
    "ConcaveDiffractionGrating",
    "CurveMirror",
    "CustomMirror",
    "IdealMirror",
    "Mirror",
    "ParabolicMirror",
    "ParamMirror",
    "CustomArcSurface",
    "CustomCurveSurface",
    "CustomParamSurface",
    "CustomSurface",
    "Detector",
}
UNSUPPORTED = ALL_RAY_OPTICS_TYPES - set(TYPES)
