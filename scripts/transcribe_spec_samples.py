"""Transcribe the worked examples of the rules specifications into sample logs.

* ``sample_logs/slovenian/appendix-b.json``: Appendix B.1 (tri, W1) and B.2 (klop, W9) of
  slovenian-tarok.md, each a session of its own (B.2 starts mid-round with radelci);
* ``sample_logs/zwanzigerrufen/fd-examples.json``: the full deals FD1-FD4 of zwanzigerrufen.md
  §7.9, each a session of its own (P1 = seat 0, dealer P4 = seat 3).

The tables of the specifications are copied below verbatim (trick by trick); the output is read
back through the reader and written by the canonical writer. Run:
``.venv/bin/python scripts/transcribe_spec_samples.py``.
"""
# ruff: noqa: E501, E731

from __future__ import annotations

import json
import sys
from pathlib import Path

from tarock_logs.log.reader import read_bytes
from tarock_logs.log.writer import dumps_sessions

SAMPLES = Path(__file__).resolve().parent.parent / "sample_logs"


def slovenian(out_dir: Path) -> None:
    def tricks(rows):
        acts = []
        for r in rows:
            for tok in r.split(","):
                p, c = tok.strip().split()
                acts.append({"type": "play", "seat": int(p[1]) - 1, "card": c})
        return acts

    players = [
        {"id": "ana.kos", "name": "Ana Kos"},
        {"id": "bojan.zupan", "name": "Bojan Zupan"},
        {"id": "cene.novak", "name": "Cene Novak"},
        {"id": "dusan.horvat", "name": "Dušan Horvat"},
    ]
    b1_tricks = """P1 SK, P2 SJ, P3 S8, P4 SQ
    P1 T15, P2 T7, P3 T22, P4 T21
    P3 H2, P4 T9, P1 H1, P2 HN
    P4 CQ, P1 C10, P2 CJ, P3 T13
    P3 S10, P4 T17, P1 T6, P2 T2
    P4 D1, P1 T20, P2 D2, P3 D4
    P1 T19, P2 T4, P3 T8, P4 T11
    P1 HK, P2 T14, P3 HQ, P4 T5
    P2 CK, P3 H3, P4 CN, P1 T16
    P1 T10, P2 C7, P3 HJ, P4 C9
    P1 T18, P2 DK, P3 SN, P4 DQ
    P1 T1, P2 C8, P3 D3, P4 DN""".splitlines()
    b1 = {
        "number": 1,
        "dealer": 3,
        "deal": {
            "hands": [
                s.split()
                for s in [
                    "T19 T18 T16 T15 T6 T1 HK H4 DJ C10 SK S9",
                    "T14 T7 T4 T2 HN DK D2 CK CJ C8 C7 SJ",
                    "T22 T13 T8 HQ HJ H2 H3 D3 D4 SN S10 S8",
                    "T21 T17 T11 T9 T5 DQ DN D1 CQ CN C9 SQ",
                ]
            ],
            "talon": "T3 S7 T12 H1 T20 T10".split(),
        },
        "radelci_before": [0, 0, 0, 0],
        "actions": [
            {"type": "pass", "seat": 1},
            {"type": "pass", "seat": 2},
            {"type": "pass", "seat": 3},
            {"type": "bid", "seat": 0, "contract": "three"},
            {"type": "call", "seat": 0, "card": "DK"},
            {"type": "talon", "seat": 0, "group": 1},
            {"type": "discard", "seat": 0, "cards": ["DJ", "S9", "H4"]},
            {"type": "announce", "seat": 0, "bonus": "pagat_ultimo"},
            {"type": "lezim", "seat": 0},
            {"type": "pass", "seat": 1},
            {"type": "kontra", "seat": 2, "target": "pagat_ultimo"},
            {"type": "pass", "seat": 2},
            {"type": "pass", "seat": 3},
        ]
        + tricks(b1_tricks),
        "result": {
            "scores": [135, 135, 0, -20],
            "items": [
                {"item": "contract", "value": 10},
                {"item": "difference", "value": 15},
                {"item": "pagat_ultimo", "value": 100},
                {"item": "kralji", "value": 10},
                {"item": "mondfang", "value": -20, "seat": 3},
            ],
            "radelci_after": [0, 0, 0, 0],
        },
        "notes": "Appendix B.1 of slovenian-tarok.md (worked example W1): tri by P1 (seat 0) calling DK; P1 announces pagat ultimo, P3 (seat 2) gives kontra on it; P4's mond falls to P3's škis in trick 2 (mondfang); P1's pagat wins the last trick.",
    }
    b2_tricks = """P1 T18, P2 T19, P3 T21, P4 T11
    P3 T14, P4 T15, P1 T9, P2 T8
    P4 T12, P1 CJ, P2 T3, P3 T17
    P3 SN, P4 S8, P1 CK, P2 S9
    P3 SK, P4 T6, P1 HQ, P2 S10
    P4 CQ, P1 H4, P2 C7, P3 CN
    P4 C8, P1 H2, P2 C10, P3 T20
    P3 D3, P4 T4, P1 DN, P2 D2
    P4 T2, P1 DQ, P2 DK, P3 T13
    P3 SJ, P4 T1, P1 D1, P2 D4
    P4 C9, P1 DJ, P2 H1, P3 S7
    P4 H3, P1 HJ, P2 HN, P3 SQ""".splitlines()
    b2 = {
        "number": 2,
        "dealer": 3,
        "deal": {
            "hands": [
                s.split()
                for s in [
                    "T18 T9 HQ HJ H2 H4 DQ DN DJ D1 CK CJ",
                    "T19 T8 T3 HN H1 DK D2 D4 C10 C7 S10 S9",
                    "T21 T20 T17 T14 T13 D3 CN SK SQ SN SJ S7",
                    "T15 T12 T11 T6 T4 T2 T1 H3 CQ C9 C8 S8",
                ]
            ],
            "talon": "T16 HK T10 T22 T5 T7".split(),
        },
        "radelci_before": [1, 0, 2, 0],
        "actions": [
            {"type": "pass", "seat": 1},
            {"type": "pass", "seat": 2},
            {"type": "pass", "seat": 3},
            {"type": "bid", "seat": 0, "contract": "klop"},
        ]
        + tricks(b2_tricks),
        "result": {
            "scores": [140, 0, 0, 0],
            "items": [
                {"item": "klop", "value": 70, "seat": 0},
                {"item": "radelc", "value": 70, "seat": 0},
            ],
            "radelci_after": [1, 1, 3, 1],
        },
        "notes": "Appendix B.2 of slovenian-tarok.md (worked example W9): everybody passes, klop; P1 (seat 0) takes no trick and writes +70, doubled by his radelc (+140), which is then erased; every player gains a radelc.",
    }
    event = {"tournament": "spec-examples", "name": "Worked examples of slovenian-tarok.md"}

    def sess(sid, hands, first_dealer, notes):
        return {
            "format": "tarock-log",
            "format_version": 1,
            "id": sid,
            "game": "slovenian",
            "ruleset": "si-tournament-2021",
            "event": event,
            "players": players,
            "first_dealer": first_dealer,
            "hands": hands,
            "notes": notes,
        }

    s1 = sess(
        "si-appendix-b1",
        [b1],
        3,
        "Appendix B.1 as a session of its own: a fresh round (radelci all 0), dealer P4 = seat 3, so P1 (forehand) is seat 0.",
    )
    s2 = sess(
        "si-appendix-b2",
        [b2],
        2,
        "Appendix B.2 comes from the middle of a round (radelci before: P1 1, P2 0, P3 2, P4 0), so it is its own session, starting at hand 2 with the radelci of the score sheet in radelci_before; dealer P4 = seat 3.",
    )
    recs = read_bytes(json.dumps([s1, s2]).encode())
    for r in recs:
        for e in r.all_errors():
            print(e)
    out = dumps_sessions([r.session for r in recs], kind="json")
    (out_dir / "slovenian" / "appendix-b.json").write_text(out)


def zwanzigerrufen(out_dir: Path) -> None:
    players = [
        {"id": "anna.huber", "name": "Anna Huber"},
        {"id": "bert.gruber", "name": "Bert Gruber"},
        {"id": "cora.wagner", "name": "Cora Wagner"},
        {"id": "dora.bauer", "name": "Dora Bauer"},
    ]

    def seat(p):
        return int(p[1]) - 1

    def plays(rows):
        out = []
        for r in rows.strip().splitlines():
            for tok in r.split():
                p, c = tok.split(":")
                out.append({"type": "play", "seat": seat(p), "card": c})
        return out

    def auction(turns):
        """turns: list of (P, [decl...]) ; decl dicts without seat."""
        out = []
        for p, decls in turns:
            for d in decls:
                out.append({**d, "seat": seat(p)})
            out.append({"type": "pass", "seat": seat(p)})
        return out

    CALL = lambda c: {"type": "call", "card": c}
    BID = lambda c: {"type": "bid", "contract": c}
    ANN = lambda b, side: {"type": "announce", "bonus": b, "side": side}
    K = lambda t, level=1: {"type": "kontra", "target": t, "level": level}
    fds = []
    # FD1
    fds.append(
        {
            "name": "FD1",
            "title": "the seed example as a complete deal (Normal game, calling XIX)",
            "hands": [
                "T22 T20 T18 T15 T12 HJ DG SK SN SJ",
                "T21 T17 T10 T6 HQ HN HG DN DJ CQ",
                "T19 T16 T13 T9 T5 HK DQ CK CN CG",
                "T14 T11 T8 T7 T4 T1 DK SQ SG CJ",
            ],
            "auction": [
                ("P1", [CALL("T19")]),
                ("P2", [K("game"), ANN("absolut", "dagegen")]),
                ("P3", [K("absolut")]),
                ("P4", [ANN("pagat", "dagegen")]),
                ("P1", [K("pagat")]),
                ("P2", []),
                ("P3", []),
                ("P4", []),
                ("P1", []),
            ],
            "plays": """P1:T15 P2:T21 P3:T13 P4:T11
    P2:DN P3:DQ P4:DK P1:DG
    P4:CJ P1:T20 P2:CQ P3:CK
    P1:HJ P2:HQ P3:HK P4:T4
    P4:SG P1:SN P2:T10 P3:T19
    P3:T5 P4:T8 P1:T12 P2:T17
    P2:HN P3:T16 P4:T7 P1:T22
    P1:T18 P2:T6 P3:T9 P4:T14
    P1:SK P2:HG P3:CG P4:SQ
    P1:SJ P2:DJ P3:CN P4:T1""",
            "claims": [],
            "scores": [-2, 2, -2, 2],
        }
    )
    fds.append(
        {
            "name": "FD2",
            "title": "Normal game with a Mondfang and a silently lost Pagat",
            "hands": [
                "T22 T16 T10 T9 T4 DQ DJ SQ SJ CN",
                "T20 T19 T14 T11 T1 HQ HN DK SG CQ",
                "T21 T15 T7 T5 HJ DN SK SN CK CJ",
                "T18 T17 T13 T12 T8 T6 HK HG DG CG",
            ],
            "auction": [("P1", [CALL("T20")]), ("P2", []), ("P3", []), ("P4", []), ("P1", [])],
            "plays": """P1:DJ P2:DK P3:DN P4:DG
    P2:SG P3:SK P4:T17 P1:SQ
    P4:HG P1:T4 P2:HQ P3:HJ
    P1:T22 P2:T19 P3:T21 P4:T18
    P1:T16 P2:T20 P3:T5 P4:T6
    P2:CQ P3:CJ P4:CG P1:CN
    P2:T11 P3:T15 P4:T12 P1:T10
    P3:CK P4:T13 P1:T9 P2:T14
    P2:HN P3:T7 P4:HK P1:SJ
    P3:SN P4:T8 P1:DQ P2:T1""",
            "claims": [],
            "scores": [1, 1, -1, -1],
        }
    )
    fds.append(
        {
            "name": "FD3",
            "title": "Farbensolo by P3, ending with a Märchenstich",
            "hands": [
                "T10 T7 T6 T5 HN HJ DK DJ SQ CK",
                "T21 T15 T14 T9 T8 T4 HQ DN SG CJ",
                "T12 T1 HK HG DQ DG SK SN CN CG",
                "T22 T20 T19 T18 T17 T16 T13 T11 SJ CQ",
            ],
            "auction": [
                ("P1", [CALL("T20")]),
                ("P2", []),
                ("P3", [BID("farbensolo")]),
                ("P4", []),
                ("P1", []),
                ("P2", []),
                ("P3", []),
            ],
            "plays": """P1:DK P2:DN P3:DG P4:T16
    P1:SQ P2:SG P3:SN P4:SJ
    P1:HN P2:HQ P3:HG P4:T17
    P2:CJ P3:CN P4:CQ P1:CK
    P1:HJ P2:T14 P3:HK P4:T20
    P3:CG P4:T18 P1:T7 P2:T8
    P3:SK P4:T13 P1:T5 P2:T9
    P3:DQ P4:T19 P1:DJ P2:T15
    P3:T12 P4:T11 P1:T10 P2:T4
    P3:T1 P4:T22 P1:T6 P2:T21""",
            "claims": [],
            "scores": [-4, -4, 12, -4],
        }
    )
    fds.append(
        {
            "name": "FD4",
            "title": "Solo by P2 with Kontra; Märchenstich in the last trick; Four Kings for the defence",
            "hands": [
                "T22 T20 T11 T8 T7 T5 HN HG DG SQ",
                "T19 T18 T17 T15 T12 T6 T1 DN SN CJ",
                "T21 T16 T14 T13 T4 HJ DQ DJ SG CQ",
                "T10 T9 HK HQ DK SK SJ CK CN CG",
            ],
            "auction": [
                ("P1", [CALL("T19")]),
                ("P2", [BID("solo")]),
                ("P3", [K("game")]),
                ("P4", []),
                ("P1", []),
                ("P2", []),
                ("P3", []),
            ],
            "plays": """P1:DG P2:DN P3:DJ P4:DK
    P4:HK P1:HN P2:T18 P3:HJ
    P2:T12 P3:T4 P4:T10 P1:T20
    P1:T7 P2:T19 P3:T16 P4:T9
    P2:T6 P3:T13 P4:CG P1:T8
    P3:DQ P4:SJ P1:T5 P2:T17
    P2:CJ P3:CQ P4:CK P1:T11
    P1:SQ P2:SN P3:SG P4:SK
    P4:HQ P1:HG P2:T15 P3:T14
    P2:T1 P3:T21 P4:CN P1:T22""",
            "claims": [{"type": "claim", "seat": 3, "claim": "four_kings"}],
            "scores": [-6, 18, -6, -6],
        }
    )
    sessions = []
    for fd in fds:
        hand = {
            "number": 1,
            "dealer": 3,
            "deal": {"hands": [h.split() for h in fd["hands"]]},
            "actions": auction(fd["auction"]) + plays(fd["plays"]) + fd["claims"],
            "result": {"scores": fd["scores"]},
            "notes": f"{fd['name']} of zwanzigerrufen.md §7.9: {fd['title']}. P1 (forehand) = seat 0, P4 (dealer) = seat 3.",
        }
        sessions.append(
            {
                "format": "tarock-log",
                "format_version": 1,
                "id": f"zr-{fd['name'].lower()}",
                "game": "zwanzigerrufen",
                "ruleset": "ZR-STD",
                "event": {"name": "Full-deal replays of zwanzigerrufen.md §7.9"},
                "players": players,
                "first_dealer": 3,
                "hands": [hand],
                "notes": "Each full deal of §7.9 is a session of its own: all four are dealt by P4 with no open double round (r = 1).",
            }
        )
    recs = read_bytes(json.dumps(sessions).encode())
    for r in recs:
        for e in r.all_errors():
            print(e)
        assert r.session and len(r.session.hands) == 1 and len(r.session.hands[0].actions) >= 45
    (out_dir / "zwanzigerrufen" / "fd-examples.json").write_text(
        dumps_sessions([r.session for r in recs], kind="json")
    )


if __name__ == "__main__":
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else SAMPLES
    for sub in ("slovenian", "zwanzigerrufen"):
        (out / sub).mkdir(parents=True, exist_ok=True)
    slovenian(out)
    zwanzigerrufen(out)
