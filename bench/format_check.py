"""Time the format check of 5 MB uploads that are too long or full of bad rows.

    python bench/format_check.py [--mb 5] [--repeat 3]

The format check runs inside the upload request (``evaluators.schema.format_check``), so an
oversized or broken file must cost little however big it is. For each case's submission
format this builds two files of ``--mb`` megabytes: one of valid-looking rows far past
``max_rows``, one of rows that each break the format. It prints the best of ``--repeat``
timings of the whole check (read, decode, parse) for both, side by side.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

from evaluators.schema import format_check, load_schema  # noqa: E402

_GOOD = {
    "integer": "7",
    "number": "0.5",
    "boolean": "true",
    "datetime": "2025-07-16T06:15",
    "string": "A000001",
}


def _rows(schema_path: Path, megabytes: float, bad: bool) -> bytes:
    columns = load_schema(schema_path)["columns"]
    header = ",".join(column["name"] for column in columns)
    cells = ["not a value" if bad else _GOOD[c.get("type", "string")] for c in columns]
    target = int(megabytes * 1_048_576)
    lines, size, number = [header], len(header), 0
    while size < target:
        number += 1
        # Distinct first cells, so a unique key is not the first problem found.
        row = ",".join([f"{cells[0]}{number}" if bad else cells[0], *cells[1:]])
        lines.append(row)
        size += len(row) + 1
    return ("\n".join(lines) + "\n").encode()


def _best(schema_path: Path, upload: Path, repeat: int) -> tuple[float, str]:
    best, outcome = float("inf"), ""
    for _ in range(repeat):
        started = time.perf_counter()
        check = format_check(schema_path, upload)
        best = min(best, time.perf_counter() - started)
        outcome = "ok" if check.ok else f"{check.total_errors} problems: {check.errors[-1][:50]}"
    return best, outcome


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mb", type=float, default=5.0)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"{'case':<22} {'too many rows':>14} {'bad rows':>10}")
    with tempfile.TemporaryDirectory() as tmp:
        for schema_path in sorted(REPO_ROOT.glob("cases/*/submission_schema.json")):
            if load_schema(schema_path)["format"] != "csv":
                continue
            times = []
            for bad in (False, True):
                upload = Path(tmp) / f"{schema_path.parent.name}-{bad}.csv"
                upload.write_bytes(_rows(schema_path, args.mb, bad))
                times.append(_best(schema_path, upload, args.repeat))
            (long_s, long_o), (bad_s, bad_o) = times
            print(f"{schema_path.parent.name:<22} {long_s:>13.3f}s {bad_s:>9.3f}s")
            print(f"{'':<22} {long_o[:60]} | {bad_o[:60]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
