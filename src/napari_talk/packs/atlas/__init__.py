"""The atlas pack: a catalogue of images and entities with embedding search."""

from ...pack import Pack

PACK = Pack(name="atlas", commands=())
