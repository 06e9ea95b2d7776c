"""The types every folder of the core and every pack speaks in, on the floor just above ``safety/``:
``Command`` (``commands.py``), ``Result`` (``result.py``), ``Changes`` (``changes.py``), ``Job``,
``Progress`` and ``Jobs`` (``jobs.py``), the viewer's and the window's protocols
(``viewer_protocols.py``, ``window.py``), and a chart's PNG (``chart.py``, ``png.py``). Nothing here
imports a folder above ``safety/``, so the contract, the grammar, the viewer helpers and the session
can all name these types without an import running back up.
"""
