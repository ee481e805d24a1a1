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
    if os.environ.get("SECRET_KEY"):
        return
    for folder in filter(None, [os.environ.get("VAR_DIR"), str(ROOT / "var")]):
        path = Path(folder) / "secret_key"
        if path.is_file() and path.read_text().strip():
            os.environ["SECRET_KEY"] = path.read_text().strip()
            return


def main() -> None:
    _local_secret_key()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fdeplatform.settings")
    from django.core.exceptions import ImproperlyConfigured
    from django.core.management import execute_from_command_line

    try:
        execute_from_command_line(sys.argv)
    except ImproperlyConfigured as exc:  # a settings problem is one line, not a traceback
        sys.exit(f"manage.py: {exc}")


if __name__ == "__main__":
    main()
