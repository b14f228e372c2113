"""The optional language model: an OpenAI-compatible chat completions endpoint configured by the operator
(`REGINTEL_LLM_BASE_URL`, `REGINTEL_LLM_MODEL`) rewrites the rule-based findings into prose. It is given
the findings only (no natural person is named in them) and told to keep every `[n]` citation; when it is
not configured, or fails, the rule-based narrative is served as it is and the answer says which."""

from __future__ import annotations

from typing import Any

import httpx
import orjson

from regintel.config import Settings

TIMEOUT = httpx.Timeout(60.0, connect=5.0)
SYSTEM = (
    "You are a due-diligence analyst. Rewrite the numbered findings you are given into a concise, neutral "
    "report in English prose of at most 300 words. Use only the facts given, add nothing, and cite each "
    "finding you use by its number in square brackets, e.g. [3]. End with the conclusion given."
)


def configured(settings: Settings) -> bool:
    return bool(settings.llm_base_url and settings.llm_model)


def rule_based_note() -> dict[str, Any]:
    return {
        "kind": "rule-based",
        "model": None,
        "note": "Written by regintel's deterministic rules (no language model is configured on this server): "
        "every finding states a fact of the cited source or the outcome of a documented rule.",
    }


def _prompt(narrative: dict[str, Any], company: str) -> str:
    lines = [f"Company: {company}"]
    for section in narrative["sections"]:
        lines.append(f"\n## {section['title']}")
        lines += [
            f"[{f['ref']}] ({f['severity']}) {f['statement']} (source: {f['source'] or 'n/a'})"
            for f in section["findings"]
        ]
    lines.append(f"\nConclusion: {narrative['conclusion']['text']}")
    return "\n".join(lines)


def rewrite(settings: Settings, narrative: dict[str, Any], company: str) -> tuple[str | None, dict[str, Any]]:
    """(prose or None, the writer's description)."""
    if not configured(settings):
        return None, rule_based_note()
    url = str(settings.llm_base_url).rstrip("/") + "/chat/completions"
    body = {
        "model": settings.llm_model,
        "temperature": 0,
        "messages": [
            {"role": "system", "content": SYSTEM},
            {"role": "user", "content": _prompt(narrative, company)},
        ],
    }
    try:
        resp = httpx.post(
            url, content=orjson.dumps(body), headers={"Content-Type": "application/json"}, timeout=TIMEOUT
        )
        resp.raise_for_status()
        prose = resp.json()["choices"][0]["message"]["content"].strip()
    except (httpx.HTTPError, ValueError, KeyError, IndexError, TypeError, AttributeError) as exc:
        note = rule_based_note()
        note["note"] = (
            f"The configured language model ({settings.llm_model}) did not answer usably "
            f"({type(exc).__name__}); the rule-based findings are served as they are."
        )
        note["kind"] = "rule-based (model failed)"
        return None, note
    return prose, {
        "kind": "language-model",
        "model": settings.llm_model,
        "note": f"Summary written by the language model {settings.llm_model} from the numbered "
        "rule-based findings below, which remain the reference; check each citation.",
    }
