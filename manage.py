#!/usr/bin/env python
"""Django's command-line utility for administrative tasks.

Without SECRET_KEY in the environment it uses the local key ``script/server`` keeps in
``var/secret_key``, so the README's ``manage.py`` lines work in a fresh shell; with neither it
says so in one line instead of a traceback.
"""

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent


def _local_secret_key() -> None:
    if os.environ.get("SECRET_KEY") or os.environ.get("DEBUG", "").lower() in {"1", "true"}:
        return
    for folder in filter(None, [os.environ.get("VAR_DIR"), str(ROOT / "var")]):
        path = Path(folder) / "secret_key"
        if path.is_file() and path.read_text().strip():
            os.environ["SECRET_KEY"] = path.read_text().strip()
            return
    sys.exit(
        "manage.py: SECRET_KEY is not set and var/secret_key does not exist yet: run "
        "script/server once (it creates the local key) or export SECRET_KEY=<50 random characters>."
    )


def main() -> None:
    _local_secret_key()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fdeplatform.settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
