"""The checkpoint key: where it lives, how it is made, and the public halves trusted.

The private key is a file of its own: ``$LEDGER_CHECKPOINT_KEY``, else
``${XDG_CONFIG_HOME:-~/.config}/bb-league-ledger/checkpoint-key.pem`` (PEM, PKCS#8,
unencrypted), created on first use readable by its owner only (0600; a folder it creates,
0700) and refused when others can read it. It is never printed, logged or stored in the
database, and an error about it never quotes it. A checkpoint is checked against a public
key the caller trusts (a file given, ``$LEDGER_CHECKPOINT_PUBLIC_KEY``, or this machine's
own key), never against one the checkpoint itself could name.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from cryptography.exceptions import UnsupportedAlgorithm
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from ledger.errors import LedgerError

KEY_ENV = "LEDGER_CHECKPOINT_KEY"
PUBLIC_KEY_ENV = "LEDGER_CHECKPOINT_PUBLIC_KEY"
LARGEST_KEY_FILE = 64 * 1024


class CheckpointKeyError(LedgerError):
    code = "checkpoint-key"


def read_at_most(path: Path, limit: int) -> bytes:
    """The first ``limit`` bytes of ``path``: a key or checkpoint is small, and a name
    given by mistake (``/dev/zero``, a database) must not be read whole."""
    with path.open("rb") as stream:
        return stream.read(limit)


def key_path(environ: Mapping[str, str] | None = None) -> Path:
    """Where this machine's private checkpoint key is (or will be created)."""
    environ = os.environ if environ is None else environ
    if environ.get(KEY_ENV):
        return Path(environ[KEY_ENV]).expanduser()
    config = environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return Path(config) / "bb-league-ledger" / "checkpoint-key.pem"


def signing_key(path: Path) -> Ed25519PrivateKey:
    """The private key at ``path``, created there on first use."""
    if not path.exists():
        create_key(path)
    return read_private_key(path)


def create_key(path: Path) -> None:
    pem = Ed25519PrivateKey.generate().private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    try:
        if not path.parent.exists():
            path.parent.mkdir(mode=0o700, parents=True)
            path.parent.chmod(0o700)  # whatever the umask
        # O_EXCL: two first uses at once must not each write a key and sign with both.
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return
    except OSError as error:
        raise CheckpointKeyError(
            f"cannot create the checkpoint key {path}: {error.strerror or error}"
        ) from None
    try:
        with os.fdopen(descriptor, "wb") as stream:
            stream.write(pem)
    except OSError as error:
        path.unlink(missing_ok=True)  # half a key would be refused on every later use
        raise CheckpointKeyError(
            f"cannot write the checkpoint key {path}: {error.strerror or error}"
        ) from None


def read_private_key(path: Path) -> Ed25519PrivateKey:
    try:
        data = read_at_most(path, LARGEST_KEY_FILE)
        exposed = os.name == "posix" and path.stat().st_mode & 0o077
    except OSError as error:
        raise CheckpointKeyError(
            f"cannot read the checkpoint key {path}: {error.strerror or error}"
        ) from None
    if exposed:
        raise CheckpointKeyError(
            f"the checkpoint key {path} can be read by other users: run 'chmod 600 {path}'"
        )
    try:
        key = serialization.load_pem_private_key(data, password=None)
    except (ValueError, TypeError, UnsupportedAlgorithm):
        key = None  # the error text is not shown: it could quote the file
    if not isinstance(key, Ed25519PrivateKey):
        raise CheckpointKeyError(f"{path} is not an unencrypted ed25519 private key (PEM)")
    return key


def raw_bytes(public: Ed25519PublicKey) -> bytes:
    return public.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def key_id(public: Ed25519PublicKey) -> str:
    """The key's short name: the first 16 hex digits of SHA-256 of its 32 raw bytes."""
    return hashlib.sha256(raw_bytes(public)).hexdigest()[:16]


def public_line(public: Ed25519PublicKey) -> str:
    """The public key on one line: ``ed25519:`` and its 32 raw bytes in base64."""
    return "ed25519:" + base64.b64encode(raw_bytes(public)).decode()


def public_pem(public: Ed25519PublicKey) -> str:
    return public.public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    ).decode()


def parse_public_key(text: str, origin: str) -> Ed25519PublicKey:
    """A public key as ``ledger audit key`` prints it: PEM, or ``ed25519:BASE64``."""
    text = text.strip()
    try:
        if text.startswith("-----BEGIN"):
            key = serialization.load_pem_public_key(text.encode())
        else:
            raw = base64.b64decode(text.removeprefix("ed25519:"), validate=True)
            key = Ed25519PublicKey.from_public_bytes(raw)
    except (ValueError, binascii.Error, UnsupportedAlgorithm):
        key = None
    if not isinstance(key, Ed25519PublicKey):
        raise CheckpointKeyError(
            f"{origin} is not an ed25519 public key (PEM, or ed25519:BASE64 on one line,"
            " as 'ledger audit key' prints it)"
        )
    return key


def read_public_key(path: Path) -> Ed25519PublicKey:
    try:
        text = read_at_most(path, LARGEST_KEY_FILE).decode("utf-8")
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) else "not text"
        raise CheckpointKeyError(f"cannot read the public key {path}: {reason}") from None
    return parse_public_key(text, str(path))


@dataclass(frozen=True)
class TrustedKey:
    """The public key a checkpoint is checked against, and where it came from (said in
    the output, so a reader knows what the check is worth)."""

    key: Ed25519PublicKey
    source: str


def trusted_key(given: Path | None, environ: Mapping[str, str] | None = None) -> TrustedKey:
    """The key given, else the configured published key, else this machine's own."""
    environ = os.environ if environ is None else environ
    if given is not None:
        return TrustedKey(read_public_key(given), f"the public key in {given}")
    if environ.get(PUBLIC_KEY_ENV):
        published = Path(environ[PUBLIC_KEY_ENV])
        return TrustedKey(read_public_key(published), f"the published key ${PUBLIC_KEY_ENV}")
    own = key_path(environ)
    if own.exists():
        return TrustedKey(read_private_key(own).public_key(), f"this machine's own key {own}")
    raise CheckpointKeyError(
        "no public key to check the checkpoint with: give the league's published key with"
        f" --key FILE or set ${PUBLIC_KEY_ENV}"
    )
