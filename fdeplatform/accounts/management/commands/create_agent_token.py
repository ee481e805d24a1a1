"""``manage.py create_agent_token USERNAME``: print a new API token for an agent account.

Tokens are stored hashed, so an existing one cannot be shown again: each call issues a new
token (earlier ones stay valid unless ``--rotate`` revokes them).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandError, CommandParser

from fdeplatform.accounts.services import agent_token_issue


class Command(BaseCommand):
    help = "Issue and print a new API token for USERNAME (created with --create if missing)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")
        parser.add_argument("--create", action="store_true", help="create the user if missing")
        parser.add_argument("--rotate", action="store_true", help="revoke the user's other tokens")

    def handle(self, *args: Any, **options: Any) -> None:
        username = options["username"]
        user = User.objects.filter(username=username).first()
        if user is None:
            if not options["create"]:
                raise CommandError(f"no user named {username!r}; pass --create to make one")
            user = User.objects.create_user(username=username)
            user.set_unusable_password()
            user.save(update_fields=["password"])
        self.stdout.write(agent_token_issue(user=user, rotate=options["rotate"]))
