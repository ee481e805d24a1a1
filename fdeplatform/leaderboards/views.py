"""Leaderboard pages."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def leaderboard(request: HttpRequest) -> HttpResponse:
    return render(request, "leaderboards/leaderboard.html")
