"""Precision and recall of sanctions screening on a generated evaluation set (docs/screening.md).

Positives are drawn from the real lists (UN, OFAC, EU, UK fixtures): a listed name changed the way
names arrive in practice, in four kinds: `translit` (written in Cyrillic, or with other Latin
transliterations: Mohammed/Muhammad, Yusuf/Iousouf, -ov/-off), `word_order` (reversed, or "SURNAME,
Given"), `missing_part` (a middle token dropped), `typo` (one edit in one token of 5+ letters). A positive
is found when its entry scores at or above the threshold.

Negatives are near misses: a listed person's first name kept with another surname, or the surname kept
with another first name (names from Faker's European locales), or a listed organisation with its most
distinctive word replaced; any that equals a listed name is dropped. A negative is a false positive when
anything scores at or above the threshold.

    .venv/bin/python bench/eval_screening.py --seed 2 --per-kind 100

The weights were set by hand on seed 1 (development); seed 2 is the held-out set reported in the docs.
Writes the figures and the set itself (`cases`) to bench/results/screening_eval_seed<N>.json.
"""

from __future__ import annotations

import argparse
import json
import random
import time

from screening_lib import ROOT, real_entries, to_candidate

from regintel.domain.screening import ALGORITHM, DEFAULT_THRESHOLD, Subject, fold
from regintel.domain.screening_index import ScreeningIndex

RESULTS = ROOT / "bench" / "results"
_LAT2CYR = [
    ("shch", "щ"),
    ("sh", "ш"),
    ("ch", "ч"),
    ("kh", "х"),
    ("zh", "ж"),
    ("ts", "ц"),
    ("ya", "я"),
    ("yu", "ю"),
    ("yo", "ё"),
    ("a", "а"),
    ("b", "б"),
    ("v", "в"),
    ("g", "г"),
    ("d", "д"),
    ("e", "е"),
    ("z", "з"),
    ("i", "и"),
    ("y", "й"),
    ("k", "к"),
    ("l", "л"),
    ("m", "м"),
    ("n", "н"),
    ("o", "о"),
    ("p", "п"),
    ("r", "р"),
    ("s", "с"),
    ("t", "т"),
    ("u", "у"),
    ("f", "ф"),
    ("h", "х"),
    ("c", "к"),
    ("j", "дж"),
    ("q", "к"),
    ("w", "в"),
    ("x", "кс"),
]
_LATIN_VARIANTS = [
    ("mohammed", "muhammad"),
    ("muhammad", "mohamed"),
    ("mohammad", "muhammed"),
    ("ou", "u"),
    ("yusuf", "iousouf"),
    ("kh", "h"),
    ("ov ", "off "),
    ("ee", "i"),
    ("ei", "ey"),
    ("y", "i"),
    ("abdul", "abd al"),
    ("j", "dj"),
    ("sh", "sch"),
    ("q", "k"),
    ("ck", "k"),
    ("ph", "f"),
]


def to_cyrillic(name: str) -> str:
    text, out, i = fold(name), [], 0
    while i < len(text):
        for lat, cyr in _LAT2CYR:
            if text.startswith(lat, i):
                out.append(cyr)
                i += len(lat)
                break
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def translit(name: str, rng: random.Random) -> str | None:
    if rng.random() < 0.5:
        return to_cyrillic(name)
    low = fold(name) + " "
    options = [(a, b) for a, b in _LATIN_VARIANTS if a in low]
    if not options:
        return to_cyrillic(name)
    a, b = rng.choice(options)
    return low.replace(a, b, 1).strip()


def typo(name: str, rng: random.Random) -> str | None:
    words = name.split()
    long_ = [i for i, w in enumerate(words) if len(w) >= 5 and w.isalpha()]
    if not long_:
        return None
    i = rng.choice(long_)
    w = words[i]
    p = rng.randrange(1, len(w) - 1)
    kind = rng.choice(["sub", "del", "swap", "ins"])
    letter = rng.choice("aeioulnrst")
    w = {
        "sub": w[:p] + letter + w[p + 1 :],
        "del": w[:p] + w[p + 1 :],
        "swap": w[:p] + w[p + 1] + w[p] + w[p + 2 :],
        "ins": w[:p] + letter + w[p:],
    }[kind]
    words[i] = w
    return " ".join(words)


def word_order(name: str, rng: random.Random) -> str | None:
    words = name.replace(",", "").split()
    if len(words) < 2:
        return None
    if rng.random() < 0.5:
        return " ".join(reversed(words))
    return f"{words[-1].upper()}, {' '.join(words[:-1])}"


def missing_part(name: str, rng: random.Random) -> str | None:
    words = name.replace(",", "").split()
    if len(words) < 3:
        return None
    drop = rng.randrange(1, len(words) - 1)
    return " ".join(w for i, w in enumerate(words) if i != drop)


KINDS = {"translit": translit, "word_order": word_order, "missing_part": missing_part, "typo": typo}


def build_set(seed: int, per_kind: int) -> tuple[list[dict], list[dict]]:
    from faker import Faker

    rng = random.Random(seed)
    entries = real_entries()
    listed_names = {" ".join(fold(n.name).replace(",", " ").split()) for _, e in entries for n in e.names}
    pool = [
        (i, lid, e)
        for i, (lid, e) in enumerate(entries)
        if e.schema in ("person", "organization") and len(e.caption.replace(",", " ").split()) >= 2
    ]
    positives = []
    for kind, make in KINDS.items():
        tries = 0
        while sum(1 for p in positives if p["kind"] == kind) < per_kind and tries < per_kind * 50:
            tries += 1
            i, lid, e = rng.choice(pool)
            query = make(e.caption, rng)
            if query and fold(query) != fold(e.caption):
                positives.append(
                    {
                        "kind": kind,
                        "query": query,
                        "schema": e.schema,
                        "expect": i,
                        "listed": e.caption,
                        "list": lid,
                    }
                )
    fakers = [Faker(loc) for loc in ("de_DE", "cs_CZ", "pl_PL", "fr_FR", "it_IT", "en_GB", "sk_SK", "hu_HU")]
    for n, f in enumerate(fakers):
        f.seed_instance(seed * 100 + n)
    negatives = []
    people = [(i, e) for i, _, e in pool if e.schema == "person"]
    orgs = [(i, e) for i, _, e in pool if e.schema == "organization"]
    while len(negatives) < 3 * per_kind:
        f = rng.choice(fakers)
        if rng.random() < 0.7:
            _, e = rng.choice(people)
            words = e.caption.replace(",", "").split()
            if rng.random() < 0.5:
                query, kind = f"{words[0]} {f.last_name()}", "other_surname"
            else:
                query, kind = f"{f.first_name()} {words[-1]}", "other_first_name"
            schema = "person"
        else:
            _, e = rng.choice(orgs)
            words = e.caption.split()
            longest = max(range(len(words)), key=lambda k: len(words[k]))
            words[longest] = f.city().upper()
            query, kind, schema = " ".join(words), "other_org_word", "organization"
        if " ".join(fold(query).replace(",", " ").split()) not in listed_names:
            negatives.append(
                {"kind": kind, "query": query, "schema": schema, "expect": None, "listed": e.caption}
            )
    return positives, negatives


def evaluate(index: ScreeningIndex, cases: list[dict], threshold: float) -> dict:
    tp = fp = fn = tn = 0
    by_kind: dict[str, list[int]] = {}
    for case in cases:
        found = [m.entry_id for m in index.screen(Subject.build(case["query"]), threshold, limit=10)]
        if case["expect"] is not None:
            ok = case["expect"] in found
            tp += ok
            fn += not ok
            fp += bool(found) and not ok
        else:
            ok = not found
            fp += not ok
            tn += ok
        by_kind.setdefault(case["kind"], []).append(ok)
    positives = sum(1 for c in cases if c["expect"] is not None)
    return {
        "threshold": threshold,
        "precision": round(tp / max(1, tp + fp), 4),
        "recall": round(tp / max(1, positives), 4),
        "tp": tp,
        "fp": fp,
        "fn": fn,
        "tn": tn,
        "by_kind": {k: round(sum(v) / len(v), 4) for k, v in sorted(by_kind.items())},
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=2)
    ap.add_argument("--per-kind", type=int, default=100)
    ap.add_argument("--show-misses", action="store_true")
    args = ap.parse_args()
    positives, negatives = build_set(args.seed, args.per_kind)
    entries = real_entries()
    started = time.perf_counter()
    index = ScreeningIndex(to_candidate(i, e) for i, (_, e) in enumerate(entries))
    build_s = time.perf_counter() - started
    cases = positives + negatives
    RESULTS.mkdir(parents=True, exist_ok=True)
    rows = [evaluate(index, cases, t) for t in (0.6, 0.65, DEFAULT_THRESHOLD, 0.75, 0.8, 0.85)]
    print(
        f"{ALGORITHM}: {len(positives)} positives, {len(negatives)} negatives, {len(index)} entries "
        f"(index built in {build_s:.1f} s)"
    )
    print(f"{'threshold':>9} {'precision':>9} {'recall':>7}  tp   fp   fn   tn  by kind (share right)")
    for r in rows:
        kinds = " ".join(f"{k}={v}" for k, v in r["by_kind"].items())
        print(
            f"{r['threshold']:>9} {r['precision']:>9} {r['recall']:>7} {r['tp']:>4} {r['fp']:>4} "
            f"{r['fn']:>4} {r['tn']:>4}  {kinds}"
        )
    if args.show_misses:
        for case in cases:
            found = index.screen(Subject.build(case["query"]), DEFAULT_THRESHOLD, limit=3)
            ids = [m.entry_id for m in found]
            if (case["expect"] is not None and case["expect"] not in ids) or (case["expect"] is None and ids):
                best = [(entries[m.entry_id][1].caption, m.score) for m in found]
                print(case["kind"], "|", case["query"], "|", case["listed"], "|", best)
    out = {
        "algorithm": ALGORITHM,
        "seed": args.seed,
        "positives": len(positives),
        "negatives": len(negatives),
        "entries": len(index),
        "default_threshold": DEFAULT_THRESHOLD,
        "rows": rows,
        "cases": cases,
    }
    (RESULTS / f"screening_eval_seed{args.seed}.json").write_text(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
