"""Write tests/fixtures/search_eval.jsonl: labelled queries over the deterministic corpus of
tests/search/corpus.py (20,000 companies, seed 42), 50 of each kind:

exact, legal_form (another spelling or none), no_diacritics, typo1, typo2, word_order, partial
(what one types into a search box) and identifier (IČO with spaces, VAT id, LEI, in odd formats).

Run by hand: `.venv/bin/python bench/make_search_eval.py`. Targets have a normalised name no other
company of the corpus shares, so the expected key is the one right answer.

`--namesakes DATABASE_URL` writes tests/fixtures/search_eval_namesakes.jsonl instead: queries over a
`regintel synth` database (seed 42; targets among its first 100,000 companies, so the same file serves
a 100k and a 1M build) whose normalised name other companies share, 50 of each kind: exact, lowercase,
legal_form (another spelling of the form), country_word (the name and a word naming its country),
typo1, typo2, word_order (words or the legal form moved) and prefix (the first 60% of the name,
asked of autocomplete only). A hit is the company itself or, where the generator made namesakes, a
company of the same name (`accept`: the whole name; for legal_form the name and the same form in any
spelling; for country_word the name without its form) in the same country.
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
    "s.r.o.": ["s. r. o.", "spol. s r.o.", "sro", ""],
    "spol. s r.o.": ["s.r.o.", "spol s r o", ""],
    "a.s.": ["a. s.", "AS", "akciová spoločnosť", ""],
    "k.s.": ["ks", ""],
    "v.o.s.": ["v. o. s.", ""],
    "sp. z o.o.": ["Sp. z o. o.", "spolka z o.o.", ""],
    "S.A.": ["SA", ""],
    "GmbH": ["gmbh", "G.m.b.H", ""],
    "AG": ["ag", ""],
    "Ltd": ["Limited", "ltd.", ""],
    "Limited": ["Ltd", "LTD", ""],
    "PLC": ["plc", ""],
    "SA": ["S.A.", ""],
    "SAS": ["S.A.S.", ""],
    "SARL": ["S.A.R.L.", "sàrl", ""],
    "AS": ["A/S", "as", ""],
    "ASA": ["asa", ""],
    "B.V.": ["BV", "bv", ""],
    "N.V.": ["NV", ""],
    "S.r.l.": ["SRL", "srl", ""],
    "S.p.A.": ["SpA", "SPA", ""],
}


def typo(word: str, rng: random.Random) -> str:
    i = rng.randrange(1, len(word) - 1)
    op = rng.choice("sdit")
    if op == "s":
        return word[:i] + rng.choice("aeiournstl".replace(word[i], "")) + word[i + 1 :]
    if op == "d":
        return word[:i] + word[i + 1 :]
    if op == "i":
        return word[:i] + rng.choice("aeiournstl") + word[i:]
    return word[: i - 1] + word[i] + word[i - 1] + word[i + 1 :]


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
        picks = (
            rng.sample(long_words, 2)
            if kind == "typo2" and len(long_words) >= 2
            else [long_words[0]] * (2 if kind == "typo2" else 1)
        )
        for i in picks:
            out[i] = typo(out[i], rng)
        return " ".join(out + [form]).strip()
    if kind == "word_order":
        return " ".join(reversed(core)) + (f" {form}" if form else "") if len(core) >= 2 else None
    if kind == "partial":
        if len(core) >= 2:
            return f"{core[0]} {core[1][: rng.randint(2, 4)]}".lower()
        return core[0][: max(4, len(core[0]) - 3)].lower() if len(core[0]) >= 6 else None
    if kind == "identifier":
        return identifier(rec, rng)
    raise ValueError(kind)


def identifier(rec: object, rng: random.Random) -> str:
    nid, vat, lei = rec.national_id, rec.vat_id, rec.lei  # type: ignore[attr-defined]
    choices = [f"{nid[:3]} {nid[3:6]} {nid[6:]}", f" {nid} "]
    if vat:
        choices += [f"{vat[:2].lower()} {vat[2:6]} {vat[6:]}", f"{vat[:2]}-{vat[2:]}"]
    if lei:
        choices += [" ".join(lei[i : i + 4] for i in range(0, 20, 4)).lower()]
    return rng.choice(choices)


# Legal forms of the synthetic markets and other spellings of them a user types.
SYNTH_SPELLINGS = {
    "sp. z o.o.": ["Sp. z o. o.", "spółka z o.o.", "sp z oo", "SP. Z O.O."],
    "S.A.": ["SA", "S. A."],
    "LIMITED": ["Ltd", "LTD.", "limited"],
    "LTD": ["Limited", "Ltd."],
    "Limited": ["Ltd", "LTD"],
    "PLC": ["plc"],
    "s.r.o.": ["s. r. o.", "spol. s r.o.", "sro"],
    "s. r. o.": ["s.r.o.", "spol. s r. o.", "sro"],
    "a.s.": ["a. s.", "as"],
    "a. s.": ["a.s.", "AS"],
    "GmbH": ["G.m.b.H.", "gmbh", "Ges.m.b.H."],
    "AG": ["ag"],
    "KG": ["kg"],
    "S.r.l.": ["SRL", "s.r.l."],
    "S.p.A.": ["SpA", "SPA"],
    "S.L.": ["SL", "S. L."],
    "S.L.U.": ["SLU"],
    "B.V.": ["BV", "bv"],
    "N.V.": ["NV"],
    "BV": ["B.V."],
    "NV": ["N.V."],
    "SRL": ["S.R.L.", "srl"],
    "SAS": ["S.A.S.", "sas"],
    "SARL": ["S.A.R.L.", "sàrl"],
    "SA": ["S.A."],
    "AS": ["A/S", "as"],
    "ASA": ["asa"],
    "Oy": ["OY", "oy"],
    "Oyj": ["OYJ"],
    "d.o.o.": ["doo", "d. o. o."],
    "d.d.": ["dd"],
    "I.K.E.": ["IKE"],
    "E.P.E.": ["EPE"],
    "OÜ": ["OU", "oü"],
    "UAB": ["uab"],
    "SIA": ["sia"],
    "TOV": ["tov"],
    "Sàrl": ["SARL"],
}
# Words naming a country that a user adds to a name (local names, English names, adjectives).
COUNTRY_WORDS = {
    "PL": ["Polska", "Poland", "Polski"],
    "IT": ["Italia", "Italy", "Italiana"],
    "FR": ["France", "Française"],
    "GB": ["UK", "Britain", "British"],
    "ES": ["España", "Spain", "Española"],
    "SK": ["Slovensko", "Slovakia"],
    "CZ": ["Česko", "Czech", "CZ"],
    "AT": ["Österreich", "Austria"],
    "CH": ["Schweiz", "Suisse", "Switzerland"],
    "NO": ["Norge", "Norway", "Norsk"],
    "FI": ["Suomi", "Finland"],
    "IE": ["Ireland", "Éire", "Irish"],
    "NL": ["Nederland", "Netherlands", "Holland"],
    "BE": ["Belgium", "Belgique", "België"],
    "RO": ["România", "Romania"],
    "UA": ["Ukraine", "Ukraina"],
    "GR": ["Hellas", "Greece", "Ellada"],
    "HR": ["Hrvatska", "Croatia"],
    "SI": ["Slovenija", "Slovenia"],
    "LT": ["Lietuva", "Lithuania"],
    "LV": ["Latvija", "Latvia"],
    "EE": ["Eesti", "Estonia"],
    "CY": ["Cyprus", "Kypros"],
}
NAMESAKE_KINDS = (
    "exact",
    "lowercase",
    "legal_form",
    "country_word",
    "typo1",
    "typo2",
    "word_order",
    "prefix",
)
NAMESAKES_OUT = ROOT / "tests" / "fixtures" / "search_eval_namesakes.jsonl"


def split_form(name: str) -> tuple[list[str], str, bool]:
    """(core words, the legal form as written, whether it stands before the name)."""
    words = name.replace(",", " ").split()
    stripped = strip_legal_form(tokens(name))
    for n in (1, 2, 3, 4, 5, 6):
        if len(words) > n and tokens(" ".join(words[:-n])) == stripped:
            return words[:-n], " ".join(words[-n:]), False
        if len(words) > n and tokens(" ".join(words[n:])) == stripped:
            return words[n:], " ".join(words[:n]), True
    return words, "", False


def namesake_query(name: str, country: str, kind: str, rng: random.Random) -> tuple[str, str] | None:
    """(query, what a namesake must share: "name" or "stem") or None when the kind does not apply."""
    core, form, first = split_form(name)
    core_text = " ".join(core).strip('"')

    def join(c: str, f: str) -> str:
        return f"{f} {c}" if first else f"{c} {f}".strip()

    long_words = [i for i, w in enumerate(core) if len(w.strip('"')) >= 5 and w.strip('"').isalpha()]
    if kind == "exact":
        return name, "name"
    if kind == "lowercase":
        low = " ".join(tokens(name)) if rng.random() < 0.5 else name.lower()
        return (low, "name") if low != name else None
    if kind == "legal_form":
        options = SYNTH_SPELLINGS.get(form)
        return (join(core_text, rng.choice(options)), "form") if options else None
    if kind == "country_word":
        word = rng.choice(COUNTRY_WORDS[country])
        return (f"{core_text} {word}" if rng.random() < 0.8 else f"{word} {core_text}"), "stem"
    if kind in ("typo1", "typo2"):
        if not long_words or (kind == "typo2" and len(long_words) < 2 and len(core[long_words[0]]) < 8):
            return None
        out = [w.strip('"') for w in core]
        picks = (
            rng.sample(long_words, 2)
            if kind == "typo2" and len(long_words) >= 2
            else [long_words[0]] * (2 if kind == "typo2" else 1)
        )
        for i in picks:
            out[i] = typo(out[i], rng)
        return join(" ".join(out), form), "name"
    if kind == "word_order":
        if len(core) >= 2:
            return join(" ".join(reversed([w.strip('"') for w in core])), form), "name"
        if form:  # the legal form on the other side: "sp. z o.o. Alfachem", "Vilniaus UAB"
            return (f"{core_text} {form}" if first else f"{form} {core_text}"), "name"
        return None
    if kind == "prefix":
        cut = max(3, round(len(name) * 0.6))
        return (name[:cut].rstrip(), "name") if cut < len(name) else None
    raise ValueError(kind)


def namesakes(database_url: str, per_kind: int = 50, first: int = 100_000, min_namesakes: int = 5) -> None:
    """Namesake-heavy queries drawn from a `regintel synth` database (see the module note)."""
    from sqlalchemy import create_engine, text

    engine = create_engine(database_url)
    with engine.connect() as conn:
        shared = {
            r[0]: int(r[1])
            for r in conn.execute(
                text("SELECT name_norm, COUNT(*) FROM companies GROUP BY name_norm HAVING COUNT(*) >= :n"),
                {"n": min_namesakes},
            )
        }
        rows = [
            r
            for r in conn.execute(
                text(
                    "SELECT country, national_id, name, name_norm FROM companies WHERE id <= :first ORDER "
                    "BY id"
                ),
                {"first": first},
            )
            if r.name_norm in shared and len(r.name_norm) >= 4
        ]
        same = Counter((r.country, " ".join(tokens(r.name))) for r in rows)
    rng = random.Random(15)
    lines = []
    for kind in NAMESAKE_KINDS:
        made = 0
        for r in rng.sample(rows, len(rows)):
            made_query = namesake_query(r.name, r.country, kind, rng)
            if not made_query or not made_query[0].strip():
                continue
            query, accept = made_query
            lines.append(
                {
                    "id": f"ns-{kind}-{made:03d}",
                    "kind": kind,
                    "query": query,
                    "expect": f"{r.country}:{r.national_id}",
                    "name": r.name,
                    "country": r.country,
                    "accept": accept,
                    "namesakes": shared[r.name_norm],
                    "same_name_in_country": same[(r.country, " ".join(tokens(r.name)))],
                }
            )
            made += 1
            if made == per_kind:
                break
    NAMESAKES_OUT.write_text(
        "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines), encoding="utf-8"
    )
    print(f"wrote {len(lines)} queries to {NAMESAKES_OUT}")


def main() -> None:
    if len(sys.argv) == 3 and sys.argv[1] == "--namesakes":
        namesakes(sys.argv[2])
        return
    recs = list(companies(CORPUS, SEED))
    counts = Counter(normalise_name(r.name or "") for r in recs)
    unique = [
        r
        for r in recs
        if counts[normalise_name(r.name or "")] == 1 and len(normalise_name(r.name or "")) >= 4
    ]
    rng = random.Random(7)
    first = {id(r) for r in recs[:SLICE]}
    lines = []
    for kind in (
        "exact",
        "legal_form",
        "no_diacritics",
        "typo1",
        "typo2",
        "word_order",
        "partial",
        "identifier",
    ):
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
            lines.append(
                {
                    "id": f"{kind}-{made:03d}",
                    "kind": kind,
                    "query": query,
                    "expect": f"{rec.country}:{rec.national_id}",
                    "name": rec.name,
                }
            )
            made += 1
            if made == PER_KIND:
                break
    OUT.write_text("".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines), encoding="utf-8")
    print(f"wrote {len(lines)} queries to {OUT}")


if __name__ == "__main__":
    main()
