"""Content-Security-Policy for every page: scripts only from this site, nothing inline.

The site's own pages keep their JavaScript in static files (chart data travels in
``<script type="application/json">`` blocks, which are data, not code), so the policy allows no
inline or evaluated script at all; that is what turns a stored XSS into a harmless string.
Styles allow ``'unsafe-inline'`` because plotly positions chart elements with inline styles.
The API documentation page (Swagger UI from drf-spectacular) starts itself with an inline
script, so that one path gets the same policy plus ``'unsafe-inline'`` scripts.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data:",
        "font-src 'self' data:",
        "connect-src 'self' ws: wss:",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)
DOCS_POLICY = POLICY.replace("script-src 'self'", "script-src 'self' 'unsafe-inline'")
DOCS_PATHS = ("/api/docs/",)


class ContentSecurityPolicyMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if "Content-Security-Policy" not in response:
            docs = request.path.startswith(DOCS_PATHS)
            response["Content-Security-Policy"] = DOCS_POLICY if docs else POLICY
        return response
