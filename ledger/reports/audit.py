"""The audit appendix: how to check the report against the ledger, and the corrections.

The event count and the last event's hash come from ``verify_chain`` over the stored log,
the same numbers ``ledger audit verify`` prints, so a reader with the ledger can confirm
that the report was made from this exact history. Corrections listed are those recorded
during the season and those, recorded later, of an event of the season. The latest signed
checkpoint is printed whole, so that whoever keeps the report can check the ledger against
it later with the league's published key (docs/audit.md).
"""

from __future__ import annotations

from ledger.application.audit import ChainReport
from ledger.application.checkpoints import Published
from ledger.domain.state import EventLine
from ledger.reports.model import AuditAppendix, Correction, PublishedCheckpoint
from ledger.reports.sources import Sources


def correction(line: EventLine, events: dict[int, EventLine]) -> Correction:
    corrected = events.get(line.target) if line.target is not None else None
    return Correction(
        event=line.seq,
        recorded_by=line.who,
        recorded_at=line.recorded_at,
        reason=line.reason,
        summary=line.summary,
        target=line.target,
        target_summary=corrected.summary if corrected else "",
    )


def corrections(sources: Sources) -> list[Correction]:
    events = {line.seq: line for line in sources.events}
    chosen = [
        line
        for line in sources.events
        if line.event_type == "EventCorrected"
        and (line.seq in sources.window or line.target in sources.window)
    ]
    return [correction(line, events) for line in chosen]


def published(latest: Published, slug: str) -> PublishedCheckpoint:
    signed = latest.checkpoint
    return PublishedCheckpoint(
        events=signed.events,
        head_hash=signed.head_hash,
        made_at=signed.made_at,
        key_id=signed.key_id,
        public_key=latest.public_key,
        signature=signed.signature,
        document=signed.document(),
        verify_command=(
            f"ledger --league {slug} audit verify --checkpoint CHECKPOINT.json --key LEAGUE.pub"
        ),
    )


def appendix(
    sources: Sources, chain: ChainReport, checkpoint: Published | None = None
) -> AuditAppendix:
    slug = sources.queries.league.slug
    return AuditAppendix(
        events=chain.events,
        last_hash=chain.last_hash,
        chain_ok=chain.ok,
        breaks=len(chain.breaks),
        verify_command=f"ledger --league {slug} audit verify",
        corrections=corrections(sources),
        checkpoint=published(checkpoint, slug) if checkpoint else None,
    )
