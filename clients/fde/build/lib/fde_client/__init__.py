"""Client for the FDE practice platform: play cases from a shell (``fde --help``)."""

__version__ = "0.1.0"
