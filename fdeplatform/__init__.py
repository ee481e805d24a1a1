"""The FDE practice platform's Django project package.

Named ``fdeplatform`` rather than ``platform``: a top-level package called ``platform`` would
shadow Python's standard-library module of that name, which celery, openai and others import.
"""

from fdeplatform.celery import app as celery_app

__all__ = ["celery_app"]
