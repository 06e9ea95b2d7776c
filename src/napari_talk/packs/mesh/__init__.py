"""The mesh pack: 3-D modelling by conversation on napari Surface layers."""

from ...pack import Pack

PACK = Pack(name="mesh", commands=())
