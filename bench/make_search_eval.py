"""Write tests/fixtures/search_eval.jsonl: labelled queries over the deterministic corpus of
tests/search/corpus.py (20,000 companies, seed 42), 50 of each kind:

exact, legal_form (another spelling or none), no_diacritics, typo1, typo2, word_order, partial
(what one types into a search box) and identifier (IČO with spaces, VAT id, LEI, in odd formats).

Run by hand: `.venv/bin/python bench/make_search_eval.py`. Targets have a normalised name no other
company of the corpus shares, so the expected key is the one right answer.
"""

from __future__ import annotations

import json
import random
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from regintel.domain.names import fold, normalise_name, strip_legal_form, tokens  # noqa: E402
from tests.search.corpus import companies  # noqa: E402

CORPUS, SEED, PER_KIND = 20_000, 42, 50
# The first SLICE_PER_KIND targets of each kind come from the first SLICE companies, so a test can
# check a recall floor on a corpus small enough to load in a second (tests/search/test_quality.py).
SLICE, SLICE_PER_KIND = 1_000, 6
OUT = ROOT / "tests" / "fixtures" / "search_eval.jsonl"
FORM_SPELLINGS = {
    "s.r.o.": ["s. r. o.", "spol. s r.o.", "sro", ""], "spol. s r.o.": ["s.r.o.", "spol s r o", ""],
    "a.s.": ["a. s.", "AS", "akciová spoločnosť", ""], "k.s.": ["ks", ""], "v.o.s.": ["v. o. s.", ""],
    "sp. z o.o.": ["Sp. z o. o.", "spolka z o.o.", ""], "S.A.": ["SA", ""], "GmbH": ["gmbh", "G.m.b.H", ""],
    "AG": ["ag", ""], "Ltd": ["Limited", "ltd.", ""], "Limited": ["Ltd", "LTD", ""], "PLC": ["plc", ""],
    "SA": ["S.A.", ""], "SAS": ["S.A.S.", ""], "SARL": ["S.A.R.L.", "sàrl", ""], "AS": ["A/S", "as", ""],
    "ASA": ["asa", ""], "B.V.": ["BV", "bv", ""], "N.V.": ["NV", ""], "S.r.l.": ["SRL", "srl", ""],
    "S.p.A.": ["SpA", "SPA", ""],
}


def typo(word: str, rng: random.Random) -> str:
    i = rng.randrange(1, len(word) - 1)
    op = rng.choice("sdit")
    if op == "s":
        return word[:i] + rng.choice("aeiournstl".replace(word[i], "")) + word[i + 1:]
    if op == "d":
        return word[:i] + word[i + 1:]
    if op == "i":
        return word[:i] + rng.choice("aeiournstl") + word[i:]
    return word[:i - 1] + word[i] + word[i - 1] + word[i + 1:]


def core_and_form(name: str) -> tuple[list[str], str]:
    """The name's words before the legal form, and the form as written."""
    words = name.replace(",", " ").split()
    stripped = strip_legal_form(tokens(name))
    for n in (1, 2, 3, 4):
        if len(words) > n and tokens(" ".join(words[:-n])) == stripped:
            return words[:-n], " ".join(words[-n:])
    return words, ""


def variants(rec: object, kind: str, rng: random.Random) -> str | None:
    name = rec.name  # type: ignore[attr-defined]
    core, form = core_and_form(name)
    long_words = [i for i, w in enumerate(core) if len(w) >= 5 and w.isalpha()]
    if kind == "exact":
        return name
    if kind == "legal_form":
        options = FORM_SPELLINGS.get(form)
        return " ".join(core + [rng.choice(options)]).strip() if options else None
    if kind == "no_diacritics":
        plain = "".join(ch if fold(ch) == ch.lower() else fold(ch) for ch in name)
        return plain if plain != name else None
    if kind in ("typo1", "typo2"):
        if not long_words or (kind == "typo2" and len(long_words) < 2 and len(core[long_words[0]]) < 8):
            return None
        out = list(core)
        picks = rng.sample(long_words, 2) if kind == "typo2" and len(long_words) >= 2 else [long_words[0]] * (
            2 if kind == "typo2" else 1)
        for i in picks:
            out[i] = typo(out[i], rng)
        return " ".join(out + [form]).strip()
    if kind == "word_order":
        return " ".join(reversed(core)) + (f" {form}" if form else "") if len(core) >= 2 else None
    if kind == "partial":
        if len(core) >= 2:
            return f"{core[0]} {core[1][:rng.randint(2, 4)]}".lower()
        return core[0][:max(4, len(core[0]) - 3)].lower() if len(core[0]) >= 6 else None
    if kind == "identifier":
        return identifier(rec, rng)
    raise ValueError(kind)


def identifier(rec: object, rng: random.Random) -> str:
    nid, vat, lei = rec.national_id, rec.vat_id, rec.lei  # type: ignore[attr-defined]
    choices = [f"{nid[:3]} {nid[3:6]} {nid[6:]}", f" {nid} "]
    if vat:
        choices += [f"{vat[:2].lower()} {vat[2:6]} {vat[6:]}", f"{vat[:2]}-{vat[2:]}"]
    if lei:
        choices += [" ".join(lei[i:i + 4] for i in range(0, 20, 4)).lower()]
    return rng.choice(choices)


def main() -> None:
    recs = list(companies(CORPUS, SEED))
    counts = Counter(normalise_name(r.name or "") for r in recs)
    unique = [r for r in recs if counts[normalise_name(r.name or "")] == 1 and len(normalise_name(r.name or "")) >= 4]
    rng = random.Random(7)
    first = {id(r) for r in recs[:SLICE]}
    lines = []
    for kind in ("exact", "legal_form", "no_diacritics", "typo1", "typo2", "word_order", "partial", "identifier"):
        made = 0
        head = [r for r in unique if id(r) in first]
        tail = [r for r in unique if id(r) not in first]
        for n, rec in enumerate(rng.sample(head, len(head)) + rng.sample(tail, len(tail))):
            if n < len(head) and made >= SLICE_PER_KIND:
                continue
            if kind == "identifier" and rec.country not in ("SK", "CZ", "FR", "NO", "IT") and not rec.lei:
                continue
            query = variants(rec, kind, rng)
            if not query or not query.strip():
                continue
            lines.append({"id": f"{kind}-{made:03d}", "kind": kind, "query": query,
                          "expect": f"{rec.country}:{rec.national_id}", "name": rec.name})
            made += 1
            if made == PER_KIND:
                break
    OUT.write_text("".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines), encoding="utf-8")
    print(f"wrote {len(lines)} queries to {OUT}")


if __name__ == "__main__":
    main()
