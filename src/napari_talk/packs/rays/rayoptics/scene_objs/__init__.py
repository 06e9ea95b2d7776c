"""The scene objects the simulator traces, grouped as ray-optics groups them (its
``src/core/sceneObjs/``): one object type per module in a folder per family (``glass/``,
``mirror/``, ``blocker/``, ``light_source/``, ``other/``, ``special/``), and beside the folders the
bases and mixins those types share (``base_glass``, ``base_grin_glass``, ``base_filter``,
``base_custom_surface``, ``curve_obj_mixin``, ``param_curve_obj_mixin``). ray-optics'
``BaseSceneObj`` is :class:`..base.SceneObj`. Folder and module names are ray-optics' names in
Python's snake_case (``lightSource/PointSource.js`` is ``light_source/point_source.py``).
:mod:`..registry` maps each ray-optics ``type`` name to its class.
"""
