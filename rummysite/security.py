"""Security headers Django does not set by itself: the Content Security Policy (django-csp, configured by
settings.CONTENT_SECURITY_POLICY) and a Permissions Policy. The other headers (nosniff, Referrer-Policy,
X-Frame-Options, Cross-Origin-Opener-Policy, HSTS) come from Django's own settings."""

from __future__ import annotations

from collections.abc import Callable

from csp.middleware import CSPMiddleware, PolicyParts
from django.conf import settings
from django.core.exceptions import DisallowedHost
from django.http import HttpRequest, HttpResponse, HttpResponseBase


class ContentSecurityPolicyMiddleware(CSPMiddleware):
    """django-csp's middleware, with the page's own WebSocket origin added to connect-src: 'self' covers
    same-origin WebSockets in CSP Level 3 browsers only; older ones need the ws(s) origin spelt out."""

    def get_policy_parts(
        self, request: HttpRequest, response: HttpResponseBase, report_only: bool = False
    ) -> PolicyParts:
        parts = super().get_policy_parts(request, response, report_only)
        try:
            host = request.get_host()
        except DisallowedHost:
            return parts
        scheme = "wss" if request.is_secure() else "ws"
        parts.update = {**(parts.update or {}), "connect-src": [f"{scheme}://{host}"]}
        return parts


class PermissionsPolicyMiddleware:
    """Adds settings.PERMISSIONS_POLICY to every response that has none."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        response.headers.setdefault("Permissions-Policy", settings.PERMISSIONS_POLICY)
        return response
