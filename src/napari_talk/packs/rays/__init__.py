"""The rays pack: 2-D ray-optics scenes, a vectorized tracer, its analysis and agent tools."""

from ...pack import Pack

PACK = Pack(name="rays", commands=())
