"""The floor agent: asks nothing and delivers the do-nothing deliverable (``visible``).

Built from the workspace's visible files only, never from a hidden baseline file: its score is
the case's do-nothing score, the floor every competent run is above.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from fde_agents.context import common_options, context, say
from fde_agents.visible import do_nothing


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(prog="fde_agents floor", description=__doc__)
    common_options(parser)
    args = parser.parse_args(list(argv))
    agent = context(args)
    _, content = do_nothing(agent.workspace)
    path = agent.write_deliverable(content)
    rows = max(content.count("\n") - 1, 0)
    say(f"floor: wrote the do-nothing deliverable to {path.name} ({rows} rows), asked nothing")
    if args.submit:
        say(f"floor: submitted: {agent.toolbox().submit(path.name)}")
    return 0
