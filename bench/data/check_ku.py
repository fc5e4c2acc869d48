#!/usr/bin/env python3
"""Check bench/data/ku-own.jsonl: format, coverage, and traps in the checks.

Standard library only (Python 3.11). Run from anywhere:

    python3 bench/data/check_ku.py [path/to/ku-own.jsonl]

What it verifies (errors make the exit status 1):
- every line is a JSON object with id, user_id, kind, sessions, checks (and optionally note), ids and
  user ids unique;
- sessions: 2-4 per scenario (an in-session correction keeps its slip and fix in one of them), times
  in RFC 3339 and strictly increasing, 2-8 events each, every session has both a user and an assistant turn;
- checks are exactly the visible set's types: search_top {query, expect[], reject[], k},
  history {query, expect[], k}, preference {object, polarity};
- coverage: at least 110 scenarios, every kind at least 6 scenarios, at least 25 no-change controls
  (kinds named control_*);
- the checks can be met by the text: each expect string occurs in a user turn, each preference object
  in a user turn, each history value in a user turn said before the current value.

What it reports as suspicious (warnings, for the author to fix or to declare in the scenario's note):
- a reject string inside the newest user statement holding the expected value (the "answer turn"):
  legal under the harness rule (only results ranked above the answer count), but it must be meant;
  a note containing "names the" declares it;
- an expect string inside an older user turn that also holds a reject string (the old statement
  would satisfy the check), an expect string inside an assistant turn (a ranking that puts chatter
  first would pass by accident), a reject string that no turn contains, short expect strings that
  also match inside longer words, expect and reject strings that contain one another;
- overlap with the visible set (../shared/datasets/knowledge-update/visible.jsonl, if present): any
  user sentence sharing a run of 5 words with a visible user sentence.
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from datetime import datetime
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT = HERE / "ku-own.jsonl"
VISIBLE = HERE.parents[1] / ".." / "shared" / "datasets" / "knowledge-update" / "visible.jsonl"

TOP_KEYS = {"id", "user_id", "kind", "note", "sessions", "checks"}
CHECK_KEYS = {
    "search_top": {"type", "query", "expect", "reject", "k"},
    "history": {"type", "query", "expect", "k"},
    "preference": {"type", "object", "polarity"},
}
MIN_SCENARIOS, MIN_PER_KIND, MIN_CONTROLS = 110, 6, 25


def parse_time(s: str) -> datetime | None:
    if not isinstance(s, str) or not re.fullmatch(
        r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})", s
    ):
        return None
    try:
        return datetime.fromisoformat(s.replace("Z", "+00:00"))
    except ValueError:
        return None


def contains_any(text: str, needles: list[str]) -> bool:
    t = text.lower()
    return any(n.lower() in t for n in needles)


def words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9']+", text.lower())


class Report:
    def __init__(self) -> None:
        self.errors: list[str] = []
        self.warnings: list[str] = []
        self.declared: list[str] = []

    def err(self, sid: str, msg: str) -> None:
        self.errors.append(f"{sid}: {msg}")

    def warn(self, sid: str, msg: str) -> None:
        self.warnings.append(f"{sid}: {msg}")


def check_format(sc: dict, rep: Report) -> bool:
    sid = sc.get("id", "?")
    ok = True
    extra = set(sc) - TOP_KEYS
    if extra:
        rep.err(sid, f"unknown fields {sorted(extra)}")
    for key in ("id", "user_id", "kind"):
        if not isinstance(sc.get(key), str) or not sc.get(key):
            rep.err(sid, f"missing or empty {key}")
            ok = False
    if "note" in sc and not isinstance(sc["note"], str):
        rep.err(sid, "note must be a string")
    sessions = sc.get("sessions")
    if not isinstance(sessions, list) or not sessions:
        rep.err(sid, "no sessions")
        return False
    if not 2 <= len(sessions) <= 4:
        rep.err(sid, f"{len(sessions)} sessions (want 2-4)")
    prev = None
    for i, se in enumerate(sessions):
        t = parse_time(se.get("at"))
        if t is None:
            rep.err(sid, f"session {i}: 'at' is not RFC 3339: {se.get('at')!r}")
            ok = False
        elif prev is not None and t <= prev:
            rep.err(sid, f"session {i}: time does not increase")
        prev = t or prev
        evs = se.get("events")
        if not isinstance(evs, list) or not 2 <= len(evs) <= 8:
            rep.err(sid, f"session {i}: needs 2-8 events")
            ok = False
            continue
        roles = set()
        for e in evs:
            if set(e) != {"role", "content"}:
                rep.err(sid, f"session {i}: event keys {sorted(e)}")
            if e.get("role") not in ("user", "assistant"):
                rep.err(sid, f"session {i}: role {e.get('role')!r}")
            if not isinstance(e.get("content"), str) or not e["content"].strip():
                rep.err(sid, f"session {i}: empty content")
                ok = False
            roles.add(e.get("role"))
        if roles != {"user", "assistant"}:
            rep.err(sid, f"session {i}: needs both user and assistant turns")
    checks = sc.get("checks")
    if not isinstance(checks, list) or not checks:
        rep.err(sid, "no checks")
        return False
    for j, c in enumerate(checks):
        typ = c.get("type")
        if typ not in CHECK_KEYS:
            rep.err(sid, f"check {j}: unknown type {typ!r}")
            ok = False
            continue
        if set(c) != CHECK_KEYS[typ]:
            rep.err(sid, f"check {j}: keys {sorted(c)}, want {sorted(CHECK_KEYS[typ])}")
            ok = False
            continue
        if typ == "preference":
            if not isinstance(c["object"], str) or not c["object"].strip():
                rep.err(sid, f"check {j}: empty object")
            if c["polarity"] not in ("positive", "negative"):
                rep.err(sid, f"check {j}: polarity {c['polarity']!r}")
            continue
        if not isinstance(c["query"], str) or not c["query"].strip().endswith("?"):
            rep.err(sid, f"check {j}: query must be a question")
        if not isinstance(c["k"], int) or not 1 <= c["k"] <= 10:
            rep.err(sid, f"check {j}: k must be 1..10")
        lists = [("expect", c["expect"])] + ([("reject", c["reject"])] if typ == "search_top" else [])
        for name, lst in lists:
            if not isinstance(lst, list) or not all(isinstance(x, str) and x.strip() for x in lst):
                rep.err(sid, f"check {j}: {name} must be a list of non-empty strings")
                ok = False
        if not c["expect"]:
            rep.err(sid, f"check {j}: empty expect")
            ok = False
    return ok


def check_semantics(sc: dict, rep: Report) -> None:
    sid = sc["id"]
    turns = [(e["role"], e["content"]) for se in sc["sessions"] for e in se["events"]]
    user_idx = [i for i, (r, _) in enumerate(turns) if r == "user"]
    declared = "names the" in sc.get("note", "")
    answer_of_update = None
    for j, c in enumerate(sc["checks"]):
        typ = c["type"]
        if typ == "preference":
            if not any(c["object"].lower() in turns[i][1].lower() for i in user_idx):
                rep.err(sid, f"check {j}: preference object {c['object']!r} in no user turn")
            continue
        exp = c["expect"]
        holders = [i for i in user_idx if contains_any(turns[i][1], exp)]
        if not holders:
            rep.err(sid, f"check {j}: no user turn contains any of {exp}")
            continue
        for e in exp:
            for r in c.get("reject", []):
                if e.lower() in r.lower() or r.lower() in e.lower():
                    rep.warn(sid, f"check {j}: expect {e!r} and reject {r!r} contain one another")
            if len(e.strip()) <= 4:
                pat = re.compile(r"[a-z0-9]" + re.escape(e.lower().strip()) + r"|"
                                 + re.escape(e.lower().strip()) + r"[a-z0-9]")
                for _, text in turns:
                    if pat.search(text.lower()):
                        rep.warn(sid, f"check {j}: short expect {e!r} also matches inside a word: {text!r}")
                        break
        if typ == "history":
            continue
        for r, t in turns:
            if r == "assistant" and contains_any(t, exp):
                rep.warn(sid, f"check {j}: an assistant turn contains the expected value: {t!r}")
        answer = holders[-1]
        rej = c["reject"]
        if not rej:
            continue
        if answer_of_update is None:
            answer_of_update = answer
        if contains_any(turns[answer][1], rej):
            msg = f"check {j}: a reject string is in the answer turn: {turns[answer][1]!r}"
            if declared:
                rep.declared.append(f"{sid}: {msg}")
            else:
                rep.warn(sid, msg)
        if not any(contains_any(t, rej) for _, t in turns):
            rep.warn(sid, f"check {j}: no turn contains any reject string {rej}")
        for i in holders[:-1]:
            if contains_any(turns[i][1], rej):
                rep.warn(sid, f"check {j}: an older user turn holds both an expect and a reject string: {turns[i][1]!r}")
    for j, c in enumerate(sc["checks"]):
        if c["type"] != "history" or answer_of_update is None:
            continue
        if not any(contains_any(turns[i][1], c["expect"]) for i in user_idx if i < answer_of_update):
            rep.err(sid, f"check {j}: history value {c['expect']} is not said before the current value")


def ngrams(text: str, n: int) -> set[tuple[str, ...]]:
    w = words(text)
    return {tuple(w[i:i + n]) for i in range(len(w) - n + 1)}


def check_visible_overlap(scenarios: list[dict], rep: Report, path: Path) -> int:
    if not path.exists():
        print(f"visible set not found at {path}; overlap check skipped")
        return -1
    vis = set()
    for line in path.read_text().splitlines():
        if line.strip():
            for se in json.loads(line)["sessions"]:
                for e in se["events"]:
                    vis |= ngrams(e["content"], 5)
    hits = 0
    for sc in scenarios:
        for se in sc["sessions"]:
            for e in se["events"]:
                common = ngrams(e["content"], 5) & vis
                if common:
                    hits += 1
                    rep.warn(sc["id"], f"shares a 5-word run with the visible set: {' '.join(sorted(common)[0])!r}")
    return hits


def main() -> int:
    path = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT
    rep = Report()
    scenarios = []
    for n, line in enumerate(path.read_text().splitlines(), 1):
        if not line.strip():
            continue
        try:
            sc = json.loads(line)
        except json.JSONDecodeError as exc:
            rep.err(f"line {n}", f"invalid JSON: {exc}")
            continue
        if not isinstance(sc, dict):
            rep.err(f"line {n}", "not an object")
            continue
        scenarios.append(sc)
    ids = Counter(sc.get("id") for sc in scenarios)
    users = Counter(sc.get("user_id") for sc in scenarios)
    for k, v in ids.items():
        if v > 1:
            rep.err(str(k), "duplicate id")
    for k, v in users.items():
        if v > 1:
            rep.err(str(k), "duplicate user_id")
    for sc in scenarios:
        if check_format(sc, rep):
            check_semantics(sc, rep)
    overlap = check_visible_overlap(scenarios, rep, VISIBLE.resolve())

    kinds = Counter(sc.get("kind") for sc in scenarios)
    controls = sum(v for k, v in kinds.items() if str(k).startswith("control_"))
    ctypes = Counter(c.get("type") for sc in scenarios for c in sc.get("checks", []))
    if len(scenarios) < MIN_SCENARIOS:
        rep.err("file", f"{len(scenarios)} scenarios, want at least {MIN_SCENARIOS}")
    for k, v in kinds.items():
        if v < MIN_PER_KIND:
            rep.err("file", f"kind {k!r} has {v} scenarios, want at least {MIN_PER_KIND}")
    if controls < MIN_CONTROLS:
        rep.err("file", f"{controls} controls, want at least {MIN_CONTROLS}")

    print(f"{path.name}: {len(scenarios)} scenarios, {sum(ctypes.values())} checks "
          f"({', '.join(f'{t} {n}' for t, n in sorted(ctypes.items()))})")
    print(f"updates {len(scenarios) - controls}, no-change controls {controls}")
    for k, v in sorted(kinds.items(), key=lambda kv: (str(kv[0]).startswith("control_"), str(kv[0]))):
        print(f"  {k:28s} {v}")
    print(f"sessions per scenario: {dict(sorted(Counter(len(sc['sessions']) for sc in scenarios).items()))}")
    if overlap >= 0:
        print(f"turns sharing a 5-word run with the visible set: {overlap}")
    print(f"declared (note says the new statement names the old value): {len(rep.declared)}")
    for d in rep.declared:
        print("  " + d)
    print(f"warnings: {len(rep.warnings)}")
    for w in rep.warnings:
        print("  " + w)
    print(f"errors: {len(rep.errors)}")
    for e in rep.errors:
        print("  " + e)
    return 1 if rep.errors else 0


if __name__ == "__main__":
    sys.exit(main())
