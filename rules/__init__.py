"""The rule files, installed as the package data of ``engine.rules``.

This file only makes the folder a package, so that ``importlib.resources`` finds the ``*.dl``
files wherever the engine is installed (wheel, sdist or editable).  The knowledge is in the
``*.dl`` files; nothing here is code.
"""
