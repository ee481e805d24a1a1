"""Reference agents for the FDE practice platform (``fde campaign --agent NAME``)."""

__version__ = "0.1.0"
