"""The request of a view that only a signed-in user reaches, in types.

django-stubs types `request.user` as a user or AnonymousUser, which is right for any view. Behind
`login_required`, or in the admin (signed-in staff only), it is always a `User`: such a view annotates
`request: SignedInRequest` and may pass `request.user` where a service asks for a User, without an
ignore. The object is still the HttpRequest Django made; only its type says more.
"""

from __future__ import annotations

from django.http import HttpRequest

from apps.accounts.models import User


class SignedInRequest(HttpRequest):
    user: User
