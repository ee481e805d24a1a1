"""Live tests drive the platform as agents do: the ``fde`` client's HTTP code and websockets."""

from __future__ import annotations

import sys
from pathlib import Path

CLIENT_SRC = Path(__file__).resolve().parents[2] / "clients" / "fde" / "src"
if str(CLIENT_SRC) not in sys.path:
    sys.path.insert(0, str(CLIENT_SRC))
