"""`manage.py vapid_keys`: a new VAPID key pair for Web Push, printed as the two settings to put in the
site's environment (never in the repository). Changing the keys makes every browser subscribe again."""

from __future__ import annotations

import base64
from typing import Any

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.core.management.base import BaseCommand


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def new_pair() -> tuple[str, str]:
    """(public, private): the public key as the browser's applicationServerKey (65 bytes, uncompressed),
    the private one as its 32-byte number; both base64url without padding."""
    key = ec.generate_private_key(ec.SECP256R1())
    private = key.private_numbers().private_value.to_bytes(32, "big")
    public = key.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    return b64url(public), b64url(private)


class Command(BaseCommand):
    help = "Print a new VAPID key pair for Web Push, as environment settings."

    def handle(self, *args: Any, **options: Any) -> None:
        public, private = new_pair()
        self.stdout.write(f"WEBPUSH_VAPID_PUBLIC_KEY={public}\nWEBPUSH_VAPID_PRIVATE_KEY={private}\n")
