"""The object types this simulator traces, by their ray-optics ``type`` name."""

from __future__ import annotations

from .base import SceneObj
from .scene_objs.blocker.aperture import Aperture
from .scene_objs.blocker.blocker import Blocker
from .scene_objs.blocker.circle_blocker import CircleBlocker
from .scene_objs.blocker.diffraction_grating import DiffractionGrating
from .scene_objs.glass.circle_glass import CircleGlass
from .scene_objs.glass.circle_grin_glass import CircleGrinGlass
from .scene_objs.glass.curve_glass import CurveGlass
from .scene_objs.glass.curve_grin_glass import CurveGrinGlass
from .scene_objs.glass.custom_glass import CustomGlass
from .scene_objs.glass.glass import Glass
from .scene_objs.glass.grin_glass import GrinGlass
from .scene_objs.glass.ideal_lens import IdealLens
from .scene_objs.glass.param_glass import ParamGlass
from .scene_objs.glass.param_grin_glass import ParamGrinGlass
from .scene_objs.glass.plane_glass import PlaneGlass
from .scene_objs.glass.spherical_lens import SphericalLens
from .scene_objs.light_source.angle_source import AngleSource
from .scene_objs.light_source.beam import Beam
from .scene_objs.light_source.point_source import PointSource
from .scene_objs.light_source.single_ray import SingleRay
from .scene_objs.mirror.arc_mirror import ArcMirror
from .scene_objs.mirror.beam_splitter import BeamSplitter
from .scene_objs.mirror.concave_diffraction_grating import ConcaveDiffractionGrating
from .scene_objs.mirror.custom_mirror import CustomMirror
from .scene_objs.mirror.ideal_mirror import IdealMirror
from .scene_objs.mirror.mirror import Mirror
from .scene_objs.mirror.parabolic_mirror import ParabolicMirror
from .scene_objs.mirror.param_mirror import ParamMirror
from .scene_objs.other.custom_arc_surface import CustomArcSurface
from .scene_objs.other.custom_param_surface import CustomParamSurface
from .scene_objs.other.custom_surface import CustomSurface
from .scene_objs.other.detector import Detector

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
