"""Security headers Django does not set by itself: a Content Security Policy and a Permissions Policy.

The site serves its own JavaScript and CSS only (ES modules and stylesheets under /static/), and puts
page data in inline `<script type="application/json">` blocks, which browsers never execute and CSP
does not block. So the policy allows scripts, styles, fonts and images from the site itself, WebSockets
to the site itself, and nothing inline: no inline scripts, no `on...=` handlers, no <style> blocks
(tests/security/test_headers.py checks the templates keep to that), except style attributes set by
the site's own scripts (`style-src-attr`). The other headers (nosniff,
Referrer-Policy, X-Frame-Options, Cross-Origin-Opener-Policy, HSTS) come from Django's own settings.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.core.exceptions import DisallowedHost
from django.http import HttpRequest, HttpResponse

#: Directives of the Content Security Policy; `connect-src` gets the page's own WebSocket origin added.
CSP_DIRECTIVES: dict[str, str] = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self'",
    # Style *attributes* set by the table's scripts (a progress bar's width, static/js/house.js via
    # dom.js's h(), which uses setAttribute) are allowed; <style> blocks and stylesheets from anywhere
    # else are not. Scripts setting element.style (CSSOM) would not need this.
    "style-src-attr": "'unsafe-inline'",
    "img-src": "'self' data:",
    "font-src": "'self'",
    "connect-src": "'self'",
    "manifest-src": "'self'",
    "worker-src": "'self'",
    "object-src": "'none'",
    "base-uri": "'none'",
    "form-action": "'self'",
    "frame-ancestors": "'none'",
}

PERMISSIONS_POLICY = (
    "accelerometer=(), camera=(), geolocation=(), gyroscope=(), magnetometer=(), microphone=(), "
    "payment=(), usb=()"
)


def content_security_policy(request: HttpRequest) -> str:
    directives = dict(getattr(settings, "CSP_DIRECTIVES", CSP_DIRECTIVES))
    try:
        host = request.get_host()
    except DisallowedHost:
        host = ""
    if host:
        # 'self' covers same-origin WebSockets in CSP Level 3 browsers; older ones need the ws(s) origin.
        scheme = "wss" if request.is_secure() else "ws"
        directives["connect-src"] = f"{directives.get('connect-src', '')} {scheme}://{host}".strip()
    return "; ".join(f"{name} {value}" for name, value in directives.items())


class SecurityHeadersMiddleware:
    """Adds the Content Security Policy and the Permissions Policy to every response that has none."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if "Content-Security-Policy" not in response.headers:
            response.headers["Content-Security-Policy"] = content_security_policy(request)
        response.headers.setdefault("Permissions-Policy", PERMISSIONS_POLICY)
        return response
