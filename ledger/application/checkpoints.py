"""Signed checkpoints: the hash chain anchored outside the database (docs/audit.md).

The chain shows that no stored event was edited on its own; it cannot show that the log
was not cut short, rewritten and re-hashed to the end, or extended with forged events,
since anyone who can write the database can recompute every hash. A checkpoint says
"league L had N events and the N-th had hash H", made at a time and signed (ed25519) with
a key that is not in the database. Anyone holding the key's public half can then show
that the log still starts with exactly those N events and that what follows chains from H.

The key is kept outside the database (checkpoint_keys.py says where and how). Each
checkpoint made is also kept in the ``ledger_checkpoints`` table, not among the read
models (a rebuild drops those), so that the season report can print the latest.
"""

from __future__ import annotations

import base64
import binascii
from datetime import UTC, datetime
from pathlib import Path
from typing import Literal
from uuid import UUID

import orjson
import sqlalchemy as sa
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from eventsourcing.persistence import ApplicationRecorder
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from sqlalchemy.engine import Engine

from ledger.application.audit import ChainReport, verify_chain
from ledger.application.checkpoint_keys import TrustedKey, key_id, public_line, read_at_most
from ledger.domain.log import league_id
from ledger.domain.values import validation_problems
from ledger.errors import InvalidInput, LedgerError

FORMAT: Literal["bb-league-ledger/checkpoint/1"] = "bb-league-ledger/checkpoint/1"
LARGEST_FILE = 64 * 1024


class InvalidCheckpoint(InvalidInput):
    code = "invalid-checkpoint"


class NothingToSign(LedgerError):
    code = "nothing-to-sign"


# --- the checkpoint ------------------------------------------------------------------------


class Checkpoint(BaseModel):
    """A signed statement of a league's log: its first ``events`` events end in ``head_hash``."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)
    format: Literal["bb-league-ledger/checkpoint/1"]
    league: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$", max_length=64)
    league_id: str = Field(pattern=r"^[0-9a-f-]{36}$")
    events: int = Field(ge=1, le=2**53)
    head_hash: str = Field(pattern=r"^[0-9a-f]{64}$")
    made_at: str = Field(max_length=40)
    key_id: str = Field(pattern=r"^[0-9a-f]{16}$")
    signature: str = Field(default="", max_length=100)

    def message(self) -> bytes:
        """What is signed: every field but the signature, as canonical JSON."""
        content = self.model_dump(exclude={"signature"})
        return orjson.dumps(content, option=orjson.OPT_SORT_KEYS)

    def document(self) -> str:
        return self.model_dump_json(indent=2) + "\n"


def make_checkpoint(
    recorder: ApplicationRecorder, slug: str, key: Ed25519PrivateKey, now: datetime | None = None
) -> Checkpoint:
    """Sign the league's log as it is stored now; refused when the chain is broken."""
    chain = verify_chain(recorder, league_id(slug), slug)
    refuse_to_sign(chain)
    unsigned = Checkpoint(
        format=FORMAT,
        league=slug,
        league_id=str(league_id(slug)),
        events=chain.events,
        head_hash=chain.last_hash,
        made_at=(now or datetime.now(UTC)).isoformat(timespec="seconds"),
        key_id=key_id(key.public_key()),
    )
    signature = base64.b64encode(key.sign(unsigned.message())).decode()
    return unsigned.model_copy(update={"signature": signature})


def refuse_to_sign(chain: ChainReport) -> None:
    if not chain.events:
        raise NothingToSign(f"league '{chain.league}' has no event in this ledger: nothing to sign")
    if chain.breaks:
        first = chain.breaks[0]
        raise NothingToSign(
            f"the chain of league '{chain.league}' is broken at event {first.seq}"
            f" ({first.problem}): a checkpoint must not vouch for an altered log;"
            " see 'ledger audit verify'"
        )


def read_checkpoint(path: Path) -> Checkpoint:
    try:
        data = read_at_most(path, LARGEST_FILE + 1)
    except OSError as error:
        raise InvalidCheckpoint(
            f"cannot read the checkpoint {path}: {error.strerror or error}"
        ) from None
    if len(data) > LARGEST_FILE:
        raise InvalidCheckpoint(f"{path} is not a ledger checkpoint (it is far too large)")
    if not data.strip():
        raise InvalidCheckpoint(f"{path} is empty: not a ledger checkpoint")
    try:
        return Checkpoint.model_validate_json(data)
    except ValidationError as error:
        raise InvalidCheckpoint(
            f"{path} is not a ledger checkpoint ({validation_problems(error)})"
        ) from None


# --- checking a log against a checkpoint ---------------------------------------------------


class CheckpointCheck(BaseModel):
    """What a checkpoint says of the log now: a problem per way the log departs from it."""

    model_config = ConfigDict(frozen=True)
    league: str
    signed_events: int
    head_hash: str
    made_at: str
    key_id: str
    checked_with: str
    events: int
    uncovered: int
    """Events after the checkpoint: they chain from it, but no signature covers them."""
    problems: list[str]

    @property
    def ok(self) -> bool:
        return not self.problems


def check_checkpoint(
    recorder: ApplicationRecorder, checkpoint: Checkpoint, trusted: TrustedKey, chain: ChainReport
) -> CheckpointCheck:
    """``chain`` is ``verify_chain`` of the checkpoint's league, run by the caller."""
    problems = signature_problems(checkpoint, trusted) + identity_problems(checkpoint)
    if not problems:  # a checkpoint that does not verify vouches for nothing of the log:
        # compared with it, an intact log would be blamed for the checkpoint's altered count
        problems = log_problems(recorder, checkpoint, chain)
    return CheckpointCheck(
        league=checkpoint.league,
        signed_events=checkpoint.events,
        head_hash=checkpoint.head_hash,
        made_at=checkpoint.made_at,
        key_id=checkpoint.key_id,
        checked_with=f"{trusted.source} (key {key_id(trusted.key)})",
        events=chain.events,
        uncovered=max(0, chain.events - checkpoint.events),
        problems=problems,
    )


def signature_problems(checkpoint: Checkpoint, trusted: TrustedKey) -> list[str]:
    expected = key_id(trusted.key)
    if checkpoint.key_id != expected:
        return [
            f"the checkpoint names key {checkpoint.key_id}, not {expected}"
            f" ({trusted.source}): it was signed by another key"
        ]
    try:
        signature = base64.b64decode(checkpoint.signature, validate=True)
        trusted.key.verify(signature, checkpoint.message())
    except (InvalidSignature, binascii.Error, ValueError):
        return [
            "the signature does not match the checkpoint: the file was altered"
            " or was not signed by this key"
        ]
    return []


def identity_problems(checkpoint: Checkpoint) -> list[str]:
    if str(league_id(checkpoint.league)) == checkpoint.league_id:
        return []
    return [f"the checkpoint's league id is not that of league '{checkpoint.league}'"]


def log_problems(
    recorder: ApplicationRecorder, checkpoint: Checkpoint, chain: ChainReport
) -> list[str]:
    signed = checkpoint.events
    if chain.events < signed:
        return [
            f"the log holds {chain.events} events of league '{checkpoint.league}', fewer than"
            f" the {signed} the checkpoint signed: events were deleted (truncated)"
        ]
    head = hash_at(recorder, UUID(checkpoint.league_id), signed)
    if head != checkpoint.head_hash:
        return [
            f"event {signed} has hash {head[:16] or 'none'}…, not the signed head"
            f" {checkpoint.head_hash[:16]}…: the log up to event {signed} was rewritten"
        ]
    return chain_problems(chain, signed)


def chain_problems(chain: ChainReport, signed: int) -> list[str]:
    problems = []
    before = [b for b in chain.breaks if 0 < b.seq <= signed]
    after = [b for b in chain.breaks if b.seq > signed]
    if before:
        problems.append(
            f"the log up to event {signed} is not the one signed: event {before[0].seq}"
            f" {before[0].problem}"
        )
    if after:
        problems.append(
            f"the events after the checkpoint do not chain from its head: event {after[0].seq}"
            f" {after[0].problem}"
        )
    return problems


def hash_at(recorder: ApplicationRecorder, league: UUID, seq: int) -> str:
    """The hash event ``seq`` carries as stored ("" when it is missing or unreadable)."""
    found = recorder.select_events(league, gt=seq - 1 if seq > 1 else None, lte=seq, limit=1)
    try:
        state = orjson.loads(found[0].state) if found else None
    except orjson.JSONDecodeError:
        return ""
    return str(state.get("hash", "")) if isinstance(state, dict) else ""


# --- where checkpoints are kept --------------------------------------------------------------

METADATA = sa.MetaData()
CHECKPOINTS = sa.Table(
    "ledger_checkpoints",
    METADATA,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("league_id", sa.String(36), nullable=False),
    sa.Column("events", sa.BigInteger, nullable=False),
    sa.Column("made_at", sa.String(40), nullable=False),
    sa.Column("public_key", sa.String(80), nullable=False),
    sa.Column("document", sa.Text, nullable=False),
)


class Published(BaseModel):
    """A checkpoint as recorded, with the public half of the key that signed it."""

    model_config = ConfigDict(frozen=True)
    checkpoint: Checkpoint
    public_key: str


def record_checkpoint(engine: Engine, checkpoint: Checkpoint, public: Ed25519PublicKey) -> None:
    ensure_table(engine)
    row = {
        "league_id": checkpoint.league_id,
        "events": checkpoint.events,
        "made_at": checkpoint.made_at,
        "public_key": public_line(public),
        "document": checkpoint.document(),
    }
    with engine.begin() as conn:
        conn.execute(CHECKPOINTS.insert().values(**row))


def ensure_table(engine: Engine) -> None:
    """Create the table when it is missing; another process creating it at the same
    moment is not an error."""
    try:
        METADATA.create_all(engine, checkfirst=True)
    except sa.exc.DatabaseError:
        if not sa.inspect(engine).has_table(CHECKPOINTS.name):
            raise


def latest_checkpoint(engine: Engine, league: UUID) -> Published | None:
    """The league's newest recorded checkpoint (None when there is none, or it does not
    read as one: the report then prints none rather than a doubtful one)."""
    if not sa.inspect(engine).has_table(CHECKPOINTS.name):
        return None
    query = (
        sa.select(CHECKPOINTS.c.document, CHECKPOINTS.c.public_key)
        .where(CHECKPOINTS.c.league_id == str(league))
        .order_by(CHECKPOINTS.c.id.desc())
        .limit(1)
    )
    with engine.connect() as conn:
        row = conn.execute(query).first()
    if row is None:
        return None
    try:
        return Published(
            checkpoint=Checkpoint.model_validate_json(row.document), public_key=row.public_key
        )
    except ValidationError:
        return None
