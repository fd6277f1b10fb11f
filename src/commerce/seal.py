"""Sealing the hidden section of an unfinished game's record with a key kept outside the file.

A saved game must hold every card to be resumed, and the program runs as you, so it can only
keep the cards out of plain sight: the record's ``hidden`` section of an unfinished game is
written sealed (encrypted and authenticated) with a key of 32 random bytes kept in a file of
its own, readable by you alone (mode 0600), outside the folder of saves:

- ``$COMMERCE_KEY_FILE`` where set, else
- ``$XDG_CONFIG_HOME/commerce/record.key`` (``~/.config/commerce/record.key``).

The key file is made the first time a game is saved. What this protects and what not is
said plainly in ``docs/records.md`` ("What a local save can and cannot protect"): the cards
are out of sight of anyone who opens, copies, greps or shares the file, and of an agent
process started in a fresh folder without the saves; not out of reach of a program that runs
as you and goes looking for the key.

The cipher is built from the standard library's BLAKE2b alone (no package to install):
BLAKE2b keyed with the encryption key as a pseudo-random function in counter mode gives the
key stream, and BLAKE2b keyed with a second key authenticates the nonce and the ciphertext
(encrypt, then MAC); the nonce is itself a keyed hash of the text (a synthetic nonce, as in
SIV), so that sealing the same record twice writes the same bytes. A file sealed with another
key, or altered, is refused.

>>> key = bytes(range(32))
>>> sealed = seal(b'{"seed": 7}', key)
>>> sealed.startswith("b2s1:") and b"seed" not in sealed.encode()
True
>>> unseal(sealed, key)
b'{"seed": 7}'
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import secrets
from pathlib import Path
from typing import Final

from commerce.errors import RecordError

__all__ = ["KEY_ENV", "PREFIX", "key_path", "local_key", "seal", "unseal"]

KEY_ENV: Final = "COMMERCE_KEY_FILE"
"""The environment variable that names the key file (tests and several installs)."""
PREFIX: Final = "b2s1:"
"""What a sealed text begins with: the scheme (BLAKE2b stream and MAC, version 1)."""
_KEY_BYTES: Final = 32
_NONCE_BYTES: Final = 16
_TAG_BYTES: Final = 32
_BLOCK: Final = 64


def key_path() -> Path:
    """Where this user's record key is kept (see the module's description)."""
    named = os.environ.get(KEY_ENV)
    if named:
        return Path(named)
    config = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(config) / "commerce" / "record.key"


def local_key(*, create: bool) -> bytes | None:
    """This user's record key; with *create*, made (0600, its folder 0700) if there is none.

    :raises RecordError: if the key file cannot be read or made, or is not a key.
    """
    path = key_path()
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        if not create:
            return None
        return _make_key(path)
    except OSError as exc:
        raise RecordError(f"the record key {path}: cannot read it "
                          f"({exc.strerror or exc})") from None
    if len(data) != _KEY_BYTES:
        raise RecordError(f"the record key {path} is not a key ({len(data)} bytes, not "
                          f"{_KEY_BYTES}); move it away and a new one is made, but games "
                          "saved with it will no longer resume")
    return data


def _make_key(path: Path) -> bytes:
    key = secrets.token_bytes(_KEY_BYTES)
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # another game made it meanwhile: use that one
        return local_key(create=False) or key
    except OSError as exc:
        raise RecordError(f"the record key {path}: cannot make it "
                          f"({exc.strerror or exc})") from None
    try:
        os.write(fd, key)
        os.fsync(fd)
    finally:
        os.close(fd)
    return key


def _keys(key: bytes) -> tuple[bytes, bytes]:
    def sub(name: bytes) -> bytes:
        return hashlib.blake2b(name, key=key, digest_size=32, person=b"commerce/seal").digest()

    return sub(b"encrypt"), sub(b"authenticate")


def _stream(key: bytes, nonce: bytes, data: bytes) -> bytes:
    """*data* xor the key stream of *key* and *nonce* (BLAKE2b in counter mode)."""
    blocks = (len(data) + _BLOCK - 1) // _BLOCK
    pad = b"".join(hashlib.blake2b(nonce + i.to_bytes(8, "big"), key=key,
                                   digest_size=_BLOCK).digest() for i in range(blocks))
    n = len(data)
    return (int.from_bytes(data, "big") ^ int.from_bytes(pad[:n], "big")).to_bytes(n, "big")


def _tag(key: bytes, nonce: bytes, body: bytes) -> bytes:
    return hashlib.blake2b(nonce + body, key=key, digest_size=_TAG_BYTES).digest()


def seal(plain: bytes, key: bytes) -> str:
    """*plain* encrypted and authenticated with *key*, as text (:data:`PREFIX`, base64)."""
    enc, auth = _keys(key)
    # the nonce from the text itself (a synthetic one, as in SIV): the same record sealed
    # twice gives the same bytes, and no two texts share a key stream
    nonce = hashlib.blake2b(plain, key=auth, digest_size=_NONCE_BYTES,
                            person=b"commerce/nonce").digest()
    body = _stream(enc, nonce, plain)
    return PREFIX + base64.b64encode(nonce + body + _tag(auth, nonce, body)).decode("ascii")


def unseal(text: str, key: bytes) -> bytes:
    """The bytes :func:`seal` sealed with *key*.

    :raises RecordError: if *text* is not sealed text, was sealed with another key, or was
        altered.
    """
    if not text.startswith(PREFIX):
        raise RecordError("the sealed hidden section is not sealed text")
    try:
        raw = base64.b64decode(text[len(PREFIX):], validate=True)
    except ValueError:
        raise RecordError("the sealed hidden section is damaged (not base64)") from None
    if len(raw) < _NONCE_BYTES + _TAG_BYTES:
        raise RecordError("the sealed hidden section is damaged (too short)")
    nonce, body, tag = raw[:_NONCE_BYTES], raw[_NONCE_BYTES:-_TAG_BYTES], raw[-_TAG_BYTES:]
    enc, auth = _keys(key)
    if not hmac.compare_digest(tag, _tag(auth, nonce, body)):
        raise RecordError("the hidden section was sealed with another record key, or altered: "
                          f"this game resumes only where it was saved (key {key_path()})")
    return _stream(enc, nonce, body)
