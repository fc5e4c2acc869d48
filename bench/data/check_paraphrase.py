#!/usr/bin/env python3
"""Check bench/data/paraphrase.jsonl: every question shares no content word with its evidence.

Standard library only (Python 3.11). Run from anywhere:

    python3 bench/data/check_paraphrase.py [path/to/paraphrase.jsonl]

A "content word" is a token of letters or digits (text lower-cased, split on anything else, so
"user's" gives "user" and "s", and "don't" stays whole to meet the stop list) that is not in the stop list below (NLTK's English stop list, kept
as it is so the check is no looser than a BM25 baseline that uses it). Two words are "the same" when
their stems are equal under the Porter stemmer (M. F. Porter, "An algorithm for suffix stripping",
1980), implemented below from the paper: steps 1a-5b, with the paper's measure m, *v*, *d and *o
conditions. Porter's stemmer is older and slightly less aggressive than Snowball's English stemmer,
so the script also reports "near" pairs, words that share their first 5 letters or of which one is a
prefix of the other (at least 4 letters), and treats them as errors too: such pairs would match
under a more aggressive stemmer or a prefix-tolerant tokenizer.

It verifies (errors make the exit status 1): the file format; event ids unique across the file;
every evidence id exists and names a user turn of the same record; no query stem and no near pair in
any of its evidence turns; at least 70 questions over at least 20 users, 3-10 user statements per
user. It prints counts per question kind and per user.
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from datetime import datetime
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT = HERE / "paraphrase.jsonl"
MIN_QUESTIONS, MIN_USERS = 70, 20

STOPWORDS = set("""
i me my myself we our ours ourselves you you're you've you'll you'd your yours yourself yourselves he
him his himself she she's her hers herself it it's its itself they them their theirs themselves what
which who whom this that that'll these those am is are was were be been being have has had having do
does did doing a an the and but if or because as until while of at by for with about against between
into through during before after above below to from up down in out on off over under again further
then once here there when where why how all any both each few more most other some such no nor not
only own same so than too very s t can will just don don't should should've now d ll m o re ve y ain
aren aren't couldn couldn't didn didn't doesn doesn't hadn hadn't hasn hasn't haven haven't isn isn't
ma mightn mightn't mustn mustn't needn needn't shan shan't shouldn shouldn't wasn wasn't weren weren't
won won't wouldn wouldn't
""".split())


# ------------------------------------------------------------------ Porter stemmer (1980)
class Porter:
    """The original Porter algorithm on a lower-case ASCII word."""

    @staticmethod
    def _cons(w: str, i: int) -> bool:
        c = w[i]
        if c in "aeiou":
            return False
        if c == "y":
            return i == 0 or not Porter._cons(w, i - 1)
        return True

    @classmethod
    def _m(cls, stem: str) -> int:
        # number of VC sequences in [C](VC)^m[V]
        m, prev_vowel = 0, False
        for i in range(len(stem)):
            v = not cls._cons(stem, i)
            if prev_vowel and not v:
                m += 1
            prev_vowel = v
        return m

    @classmethod
    def _has_vowel(cls, stem: str) -> bool:
        return any(not cls._cons(stem, i) for i in range(len(stem)))

    @classmethod
    def _double_cons(cls, w: str) -> bool:
        return len(w) >= 2 and w[-1] == w[-2] and cls._cons(w, len(w) - 1)

    @classmethod
    def _cvc(cls, w: str) -> bool:
        # *o: stem ends consonant-vowel-consonant, the last not w, x or y
        return (len(w) >= 3 and cls._cons(w, len(w) - 3) and not cls._cons(w, len(w) - 2)
                and cls._cons(w, len(w) - 1) and w[-1] not in "wxy")

    @classmethod
    def _replace(cls, w: str, rules, min_m: int) -> str:
        for suf, rep in rules:
            if w.endswith(suf):
                stem = w[: len(w) - len(suf)]
                return stem + rep if cls._m(stem) > min_m else w
        return w

    STEP2 = [("ational", "ate"), ("tional", "tion"), ("enci", "ence"), ("anci", "ance"), ("izer", "ize"),
             ("abli", "able"), ("alli", "al"), ("entli", "ent"), ("eli", "e"), ("ousli", "ous"),
             ("ization", "ize"), ("ation", "ate"), ("ator", "ate"), ("alism", "al"), ("iveness", "ive"),
             ("fulness", "ful"), ("ousness", "ous"), ("aliti", "al"), ("iviti", "ive"), ("biliti", "ble")]
    STEP3 = [("icate", "ic"), ("ative", ""), ("alize", "al"), ("iciti", "ic"), ("ical", "ic"), ("ful", ""),
             ("ness", "")]
    STEP4 = ["al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent", "ion", "ou",
             "ism", "ate", "iti", "ous", "ive", "ize"]

    @classmethod
    def stem(cls, w: str) -> str:
        if len(w) <= 2 or not w.isalpha():
            return w
        # step 1a
        if w.endswith("sses"):
            w = w[:-2]
        elif w.endswith("ies"):
            w = w[:-2]
        elif w.endswith("ss"):
            pass
        elif w.endswith("s"):
            w = w[:-1]
        # step 1b
        if w.endswith("eed"):
            if cls._m(w[:-3]) > 0:
                w = w[:-1]
        else:
            for suf in ("ed", "ing"):
                if w.endswith(suf) and cls._has_vowel(w[: -len(suf)]):
                    w = w[: -len(suf)]
                    if w.endswith(("at", "bl", "iz")):
                        w += "e"
                    elif cls._double_cons(w) and w[-1] not in "lsz":
                        w = w[:-1]
                    elif cls._m(w) == 1 and cls._cvc(w):
                        w += "e"
                    break
        # step 1c
        if w.endswith("y") and cls._has_vowel(w[:-1]):
            w = w[:-1] + "i"
        # steps 2 and 3
        w = cls._replace(w, cls.STEP2, 0)
        w = cls._replace(w, cls.STEP3, 0)
        # step 4 (longest matching suffix; "ion" only after s or t)
        for suf in sorted(cls.STEP4, key=len, reverse=True):
            if w.endswith(suf):
                stem = w[: -len(suf)]
                if cls._m(stem) > 1 and (suf != "ion" or stem.endswith(("s", "t"))):
                    w = stem
                break
        # step 5a
        if w.endswith("e"):
            stem = w[:-1]
            m = cls._m(stem)
            if m > 1 or (m == 1 and not cls._cvc(stem)):
                w = stem
        # step 5b
        if cls._m(w) > 1 and cls._double_cons(w) and w.endswith("l"):
            w = w[:-1]
        return w


def tokens(text: str) -> list[str]:
    text = text.lower().replace("\u2019", "'")
    return re.findall(r"[^\W_]+(?:'[^\W_]+)?", text)


def content_words(text: str) -> list[str]:
    out = []
    for tok in tokens(text):
        if tok in STOPWORDS:
            continue
        for part in tok.split("'"):
            if part and part not in STOPWORDS and len(part) > 1:
                out.append(part)
    return out


def near(a: str, b: str) -> bool:
    if a == b:
        return True
    if len(a) >= 5 and len(b) >= 5 and a[:5] == b[:5]:
        return True
    short, long_ = sorted((a, b), key=len)
    return len(short) >= 4 and long_.startswith(short)


# ------------------------------------------------------------------ self-test of the stemmer
PORTER_CASES = {
    "caresses": "caress", "ponies": "poni", "ties": "ti", "caress": "caress", "cats": "cat",
    "feed": "feed", "agreed": "agre", "plastered": "plaster", "bled": "bled", "motoring": "motor",
    "sing": "sing", "conflated": "conflat", "troubled": "troubl", "sized": "size", "hopping": "hop",
    "tanned": "tan", "falling": "fall", "hissing": "hiss", "fizzed": "fizz", "failing": "fail",
    "filing": "file", "happy": "happi", "sky": "sky", "relational": "relat", "conditional": "condit",
    "rational": "ration", "valenci": "valenc", "digitizer": "digit", "conformabli": "conform",
    "radicalli": "radic", "differentli": "differ", "vileli": "vile", "analogousli": "analog",
    "vietnamization": "vietnam", "predication": "predic", "operator": "oper", "feudalism": "feudal",
    "decisiveness": "decis", "hopefulness": "hope", "callousness": "callous", "formaliti": "formal",
    "sensitiviti": "sensit", "sensibiliti": "sensibl", "triplicate": "triplic", "formative": "form",
    "formalize": "formal", "electriciti": "electr", "electrical": "electr", "hopeful": "hope",
    "goodness": "good", "revival": "reviv", "allowance": "allow", "inference": "infer",
    "airliner": "airlin", "gyroscopic": "gyroscop", "adjustable": "adjust", "defensible": "defens",
    "irritant": "irrit", "replacement": "replac", "adjustment": "adjust", "dependent": "depend",
    "adoption": "adopt", "homologou": "homolog", "communism": "commun", "activate": "activ",
    "angulariti": "angular", "homologous": "homolog", "effective": "effect", "bowdlerize": "bowdler",
    "probate": "probat", "rate": "rate", "cease": "ceas", "controll": "control", "roll": "roll",
    "generalizations": "gener", "oscillators": "oscil", "living": "live", "lives": "live",
    "studying": "studi", "studies": "studi", "employer": "employ", "employed": "emploi",
}


def self_test() -> list[str]:
    return [f"stem({w!r}) = {Porter.stem(w)!r}, want {want!r}"
            for w, want in PORTER_CASES.items() if Porter.stem(w) != want]


# ------------------------------------------------------------------ the file
def parse_time(s) -> bool:
    if not isinstance(s, str):
        return False
    try:
        datetime.fromisoformat(s.replace("Z", "+00:00"))
        return bool(re.fullmatch(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(Z|[+-]\d{2}:\d{2})", s))
    except ValueError:
        return False


def main() -> int:
    bad = self_test()
    if bad:
        print("stemmer self-test failed:\n  " + "\n  ".join(bad))
        return 1
    path = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT
    errors: list[str] = []
    records = [json.loads(l) for l in path.read_text().splitlines() if l.strip()]
    seen_events: set[str] = set()
    seen_ids: set[str] = set()
    kinds: Counter = Counter()
    per_user = []
    n_questions = 0
    evidence_multi = 0
    for rec in records:
        rid = rec.get("id", "?")
        if set(rec) != {"id", "user_id", "sessions", "questions"}:
            errors.append(f"{rid}: fields {sorted(rec)}")
            continue
        if rid in seen_ids:
            errors.append(f"{rid}: duplicate id")
        seen_ids.add(rid)
        events = {}
        prev = None
        for i, se in enumerate(rec["sessions"]):
            if not parse_time(se.get("at")):
                errors.append(f"{rid}: session {i} has a bad 'at' {se.get('at')!r}")
            elif prev is not None and se["at"] <= prev:
                errors.append(f"{rid}: session {i} is not after the previous one")
            prev = se.get("at", prev)
            for e in se.get("events", []):
                if set(e) != {"id", "role", "content"} or e["role"] not in ("user", "assistant"):
                    errors.append(f"{rid}: bad event {e}")
                    continue
                if e["id"] in seen_events:
                    errors.append(f"{rid}: duplicate event id {e['id']}")
                seen_events.add(e["id"])
                events[e["id"]] = e
        statements = {e["id"] for e in events.values() if e["role"] == "user"}
        evidence_used = set()
        for q in rec["questions"]:
            n_questions += 1
            if set(q) != {"query", "evidence", "kind"} or not q["evidence"]:
                errors.append(f"{rid}: bad question {q}")
                continue
            kinds[q["kind"]] += 1
            if len(q["evidence"]) > 1:
                evidence_multi += 1
            qwords = content_words(q["query"])
            qstems = {Porter.stem(w): w for w in qwords}
            for ev in q["evidence"]:
                e = events.get(ev)
                if e is None:
                    errors.append(f"{rid}: {q['query']!r}: evidence {ev} does not exist")
                    continue
                if e["role"] != "user":
                    errors.append(f"{rid}: {q['query']!r}: evidence {ev} is not a user turn")
                evidence_used.add(ev)
                ewords = content_words(e["content"])
                shared = sorted({qstems[s] for s in qstems if s in {Porter.stem(w) for w in ewords}})
                if shared:
                    errors.append(f"{rid}: {q['query']!r} shares {shared} with {ev}: {e['content']!r}")
                close = sorted({f"{a}~{b}" for a in qwords for b in ewords
                                if near(a, b) and Porter.stem(a) != Porter.stem(b)})
                if close:
                    errors.append(f"{rid}: {q['query']!r} is near {close} in {ev}: {e['content']!r}")
        n_user_turns = len(statements)
        if not 3 <= n_user_turns:
            errors.append(f"{rid}: {n_user_turns} user turns, want at least 3")
        per_user.append((rec["user_id"], n_user_turns, len(evidence_used), len(rec["questions"])))
    users = {u for u, *_ in per_user}
    if len(users) != len(records):
        errors.append("user ids are not unique")
    if n_questions < MIN_QUESTIONS:
        errors.append(f"{n_questions} questions, want at least {MIN_QUESTIONS}")
    if len(users) < MIN_USERS:
        errors.append(f"{len(users)} users, want at least {MIN_USERS}")
    for u, _, stmts, _ in per_user:
        if not 3 <= stmts <= 10:
            errors.append(f"{u}: {stmts} distinct evidence statements, want 3-10")

    print(f"stemmer self-test: {len(PORTER_CASES)} words ok")
    print(f"{path.name}: {len(records)} users, {len(seen_events)} events, {n_questions} questions "
          f"({evidence_multi} with more than one evidence turn)")
    print("questions per kind:")
    for k, v in sorted(kinds.items()):
        print(f"  {k:12s} {v}")
    print("per user (user turns / evidence statements / questions):")
    for u, t, st, nq in per_user:
        print(f"  {u:8s} {t:2d} / {st:2d} / {nq:2d}")
    print(f"errors: {len(errors)}")
    for e in errors:
        print("  " + e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
