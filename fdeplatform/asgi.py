"""ASGI entry point served by daphne: HTTP through Django, websockets through Channels."""

from __future__ import annotations

import os

from django.conf import settings
from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fdeplatform.settings")
django_asgi_app = get_asgi_application()

# Imported after Django is set up: routing pulls in models.
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from fdeplatform.accounts.ws_auth import TokenOrSessionAuthMiddleware  # noqa: E402
from fdeplatform.accounts.ws_origin import OriginCheck  # noqa: E402
from fdeplatform.core.body_limit import BodyLimit  # noqa: E402
from fdeplatform.core.daphne_limit import limit_daphne_bodies  # noqa: E402
from fdeplatform.routing import websocket_urlpatterns  # noqa: E402

# Under daphne, Twisted reads a body before the app is called: refuse a huge one there too.
limit_daphne_bodies(settings.MAX_UPLOAD_REQUEST_BYTES)

application = ProtocolTypeRouter(
    {
        # Bodies above MAX_UPLOAD_REQUEST_MB get 413 before Django reads them (no proxy needed).
        "http": BodyLimit(django_asgi_app),
        # Cookie sessions need a same-origin page; token connections (agents) need no Origin.
        "websocket": OriginCheck(TokenOrSessionAuthMiddleware(URLRouter(websocket_urlpatterns))),
    }
)

# The scripted customer's matcher takes seconds to import: start on it now, not in a question.
from fdeplatform.runs.customer import preload_in_background  # noqa: E402

preload_in_background()

# Broker-less deployments expire overdue runs and re-send stuck scoring from this process.
from fdeplatform.core.background import uses_broker  # noqa: E402
from fdeplatform.core.periodic import start_in_process  # noqa: E402

if not uses_broker() and os.environ.get("PERIODIC_IN_PROCESS", "true").lower() != "false":
    start_in_process()
