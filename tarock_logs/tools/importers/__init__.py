"""Importers: other programs' game records → the tarock log format (see ``docs/log-format.md``).

* :mod:`tarock_logs.tools.importers.openspiel`: OpenSpiel ``tarok`` games (deal seed + action ids).
"""
