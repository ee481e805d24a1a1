"""Celery finds tasks in each app's ``tasks`` module (``autodiscover_tasks``); the warm-up task
lives in ``warming.py`` beside the code it calls, and is registered from here so a worker knows
it instead of discarding every warm-up message as an unknown task."""

from fdeplatform.leaderboards.warming import warm_boards

__all__ = ["warm_boards"]
