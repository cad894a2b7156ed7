"""What the tests that signal a child ``ewa eval`` share."""

from __future__ import annotations

#: start Python with Ctrl-C at its default, whatever the test process inherited: a background job (a CI script's
#: ``&``) ignores SIGINT, and a child would inherit that and run on through a Ctrl-C
SIGINT_DEFAULT = ("import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); "
                  "os.execv(sys.executable, [sys.executable, *sys.argv[1:]])")
