"""The files pack: a sandboxed workspace folder (read, write, edit, list, search, delegate)."""

from ...pack import Pack

PACK = Pack(name="files", commands=())
