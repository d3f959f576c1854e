"""Runs the script under Debian's python3 when the current one cannot find torch (pyenv and friends shadow it, and
python3-torch lives in Debian's). Looked up, not imported: a trainer checks its input before it pays torch's import."""
from __future__ import annotations

import os
import sys
from importlib.util import find_spec


def use_debian_python() -> None:
    """Re-executes this process as /usr/bin/python3 with the same arguments when torch is not importable here."""
    if find_spec("torch") is None and os.path.exists("/usr/bin/python3") and os.path.realpath(sys.executable) != os.path.realpath("/usr/bin/python3"):
        os.execv("/usr/bin/python3", ["/usr/bin/python3", *sys.argv])
