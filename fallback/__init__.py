"""numpy paths for what the host GL lacks.

Modules mirror the pipe method or stage they back.  Every fallback is
registered in ``fallback.registry.FALLBACKS`` (feature -> host requirement ->
implementation), which ``python -m glpipe info`` prints.
"""
