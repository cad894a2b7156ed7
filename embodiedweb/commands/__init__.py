"""The world tools of the ``ewa`` command (``alfred-replay``, ``city``); :mod:`embodiedweb.cli` lists them."""
