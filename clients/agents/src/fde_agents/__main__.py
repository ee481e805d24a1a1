"""``python -m fde_agents floor|generic-asker|llm [options]``, run inside a run's workspace."""

from __future__ import annotations

import sys
from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] not in AGENTS:
        print(f"usage: python -m fde_agents {{{','.join(AGENTS)}}} [options]", file=sys.stderr)
        return 2
    module = __import__(f"fde_agents.{AGENTS[args[0]]}", fromlist=["main"])
    return int(module.main(args[1:]))


AGENTS = {"floor": "floor", "generic-asker": "generic_asker", "llm": "llm"}

if __name__ == "__main__":
    sys.exit(main())
