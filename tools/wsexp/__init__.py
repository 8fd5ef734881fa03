"""wsexp - warpsim's experiment workflow (sweeps, reports, figures, paper reproductions), Python 3
standard library only. Run as `python3 -m wsexp COMMAND` with tools/ on PYTHONPATH (the warpsim
binary does this for `warpsim sweep|report|reproduce`); the modules import each other relatively.
"""
