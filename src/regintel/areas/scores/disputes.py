"""`POST /companies/{ico}/score-dispute`: a dispute is stored with the score it disputes, as filed."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy.engine import Connection

from regintel.areas.scores import queries, service
from regintel.areas.scores.schemas import DisputeIn
from regintel.domain.scores.credit import WEIGHTS
from regintel.domain.scores.risk import POINTS
from regintel.errors import ValidationFailed


def file_dispute(conn: Connection, key_id: int, company: service.Row, body: DisputeIn) -> dict[str, Any]:
    known = WEIGHTS if body.score == "credit" else POINTS
    if body.factor is not None and body.factor not in known:
        raise ValidationFailed(
            f"Unknown {body.score} factor {body.factor!r}",
            details=[
                {
                    "field": "factor",
                    "in": "body",
                    "message": "not a factor of this score",
                    "allowed": sorted(known),
                }
            ],
        )
    if body.score == "credit":
        r = service.credit(conn, company)
        score, grade, version = r.score, r.grade, r.model_version
    else:
        k = service.risk(conn, company)
        score, grade, version = float(k.score), None, k.model_version
    row = queries.insert_dispute(
        conn,
        {
            "api_key_id": key_id,
            "company_id": company["id"],
            "score_type": body.score,
            "model_version": version,
            "disputed_score": score,
            "disputed_grade": grade,
            "factor": body.factor,
            "reason": body.reason,
            "evidence_url": body.evidence_url,
            "contact_email": body.contact_email,
            "status": "received",
            "created_at": datetime.now(UTC),
        },
    )
    return {
        "id": row["id"],
        "status": row["status"],
        "country": company["country"],
        "national_id": company["national_id"],
        "score_type": row["score_type"],
        "model_version": row["model_version"],
        "disputed_score": row["disputed_score"],
        "disputed_grade": row["disputed_grade"],
        "factor": row["factor"],
        "reason": row["reason"],
        "evidence_url": row["evidence_url"],
        "contact_email": row["contact_email"],
        "created_at": row["created_at"],
    }
