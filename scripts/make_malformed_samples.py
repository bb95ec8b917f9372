"""Build ``sample_logs/malformed/``: one file per reader error code, plus a mixed file.

Each file is a valid sample (Appendix B.1 of slovenian-tarok.md, FD1 of zwanzigerrufen.md) with
one planted defect; ``README.md`` lists every file with the codes it must produce, and
``tests/log/test_reader.py`` checks that table. Run:
``.venv/bin/python scripts/make_malformed_samples.py [OUT_DIR]`` (default: sample_logs/malformed).
"""
# ruff: noqa: E501

from __future__ import annotations

import copy
import gzip
import json
import sys
from pathlib import Path

SAMPLES = Path(__file__).resolve().parent.parent / "sample_logs"


def build(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    slo = json.loads((SAMPLES / "slovenian" / "appendix-b.json").read_text())
    zr = json.loads((SAMPLES / "zwanzigerrufen" / "fd-examples.json").read_text())
    B1 = slo[0]

    def sess(sid, base=B1, **kw):
        s = copy.deepcopy(base)
        s["id"] = sid
        s.pop("notes", None)
        for h in s.get("hands", []):
            h.pop("notes", None)
        s.update(kw)
        return s

    def line(o):
        return json.dumps(o, ensure_ascii=False, separators=(",", ":"))

    def jsonl(*objs):
        return "".join(line(o) + "\n" for o in objs)

    rows = []  # (file, codes, description)

    def put(name, data, codes, desc):
        p = out / name
        p.write_bytes(data if isinstance(data, bytes) else data.encode())
        rows.append((name, codes, desc))

    # ---- file level
    put("file.empty.jsonl", b"", ["file.empty"], "a file of zero bytes")
    put(
        "file.empty-whitespace.json",
        b"\n  \n",
        ["file.empty"],
        "a .json file holding only blank lines",
    )
    put(
        "file.not_a_log.json",
        "date,table,player,score\n2024-03-02,1,Ana,135\n",
        ["file.not_a_log"],
        "a non-JSON file (a CSV score sheet) named .json",
    )
    put(
        "file.not_a_log-not-gzip.json.gz",
        line(sess("s-notgz")),
        ["file.not_a_log"],
        "plain JSON text named .json.gz (not gzip data)",
    )
    full = line(sess("s-trunc"))
    put(
        "file.truncated.json",
        full[: len(full) * 2 // 3],
        ["file.truncated"],
        "a session cut off two thirds of the way through",
    )
    put(
        "file.truncated.jsonl",
        jsonl(sess("s-ok-before-cut")) + full[:500],
        ["file.truncated"],
        "a good session, then a last line cut off mid-record (line 2)",
    )
    gz = gzip.compress(jsonl(sess("s-gz-1"), sess("s-gz-2")).encode(), mtime=0)
    put(
        "file.truncated-gzip.jsonl.gz",
        gz[: len(gz) // 2],
        ["file.truncated"],
        "a gzip stream cut in half (the records before the cut are not readable either)",
    )
    big = (
        '{"format":"tarock-log","format_version":1,"id":"s-big","notes":"'
        + "x" * (33 * 1024 * 1024)
        + '"}\n'
    )
    put(
        "file.too_large.jsonl.gz",
        gzip.compress(big.encode(), mtime=0),
        ["file.too_large"],
        "one JSONL record of 33 MiB once decompressed (limit 32 MiB)",
    )
    # ---- JSON level
    put(
        "json.syntax.jsonl",
        jsonl(sess("s-syntax-ok"))
        + line(sess("s-syntax")).replace('"ruleset"', '"ruleset",,', 1)
        + "\n",
        ["json.syntax"],
        "line 2 has a doubled comma; line 1 is a good session",
    )
    put(
        "json.bom.json",
        b"\xef\xbb\xbf" + json.dumps(sess("s-bom"), indent=1).encode(),
        ["json.bom"],
        "a good session behind a UTF-8 byte-order mark (the session is still read)",
    )
    put(
        "json.not_utf8.jsonl",
        line(
            sess(
                "s-utf8",
                players=[{"id": "ana", "name": "Ana"}, {"id": "b"}, {"id": "c"}, {"id": "d"}],
            )
        )
        .encode()
        .replace(b'"Ana"', b'"An\xe9"')
        + b"\n",
        ["json.not_utf8"],
        "a Latin-1 byte (0xe9) in a player name",
    )
    d = line(sess("s-dupkey"))
    d = d.replace(
        '{"type":"play","seat":0,"card":"SK"}',
        '{"type":"play","seat":0,"card":"SK","card":"HK"}',
        1,
    )
    put(
        "json.duplicate_key.jsonl",
        d + "\n",
        ["json.duplicate_key"],
        'the first play of hand 1 names "card" twice (that hand is rejected)',
    )
    put(
        "json.depth.json",
        "[" * 10000 + "]" * 10000,
        ["json.depth"],
        "an array nested 10,000 levels deep",
    )
    put(
        "json.number.jsonl",
        line(sess("s-hugeint")).replace('"first_dealer":3', '"first_dealer":' + "9" * 5000, 1)
        + "\n",
        ["json.number"],
        "an integer of 5,000 digits",
    )
    put(
        "json.number-nan.jsonl",
        line(sess("s-nan")).replace('"scores":[135,135,0,-20]', '"scores":[135,NaN,0,-20]', 1)
        + "\n",
        ["json.number"],
        "NaN in a score",
    )
    # ---- schema
    s = sess("s-format")
    s["format_version"] = 2
    put("format.unsupported.jsonl", jsonl(s), ["format.unsupported"], "format_version 2")
    s = sess("s-missing")
    del s["hands"][0]["dealer"]
    put("schema.missing.jsonl", jsonl(s), ["schema.missing"], "hand 1 has no dealer")
    s = sess("s-extra")
    s["hands"][0]["actions"][4]["loud"] = True
    put(
        "schema.extra_forbidden.jsonl",
        jsonl(s),
        ["schema.extra_forbidden"],
        'action 4 of hand 1 has an unknown field "loud"',
    )
    s = sess("s-inttype")
    s["hands"][0]["actions"][20]["seat"] = "3"
    put(
        "schema.int_type.jsonl",
        jsonl(s),
        ["schema.int_type"],
        'action 20 of hand 1 gives the seat as the string "3"',
    )
    s = sess("s-tag")
    s["hands"][0]["actions"][8]["type"] = "hold"
    put(
        "schema.union_tag_invalid.jsonl",
        jsonl(s),
        ["schema.union_tag_invalid"],
        'action 8 of hand 1 has the unknown type "hold"',
    )
    s = sess("s-envelope")
    s["players"] = s["players"][:2]
    put(
        "schema.too_short.jsonl",
        jsonl(s),
        ["schema.too_short"],
        "a session with two players (its envelope is invalid, so the whole session is rejected)",
    )
    # ---- cards and deals
    s = sess("s-card")
    s["hands"][0]["actions"][23]["card"] = "HX"
    put("card.unknown.jsonl", jsonl(s), ["card.unknown"], "action 23 of hand 1 plays 'HX'")
    z = sess("zr-pack", base=zr[0])
    h = z["hands"][0]
    i = h["deal"]["hands"][3].index("T4")
    h["deal"]["hands"][3][i] = "T2"
    put(
        "card.not_in_pack.jsonl",
        jsonl(z),
        ["card.not_in_pack"],
        "a Zwanzigerrufen deal with T2 (II), which that pack does not have",
    )
    s = sess("s-dupcard")
    dh = s["hands"][0]["deal"]["hands"]
    dh[1][dh[1].index("C7")] = "HK"
    put(
        "deal.duplicate_card.jsonl",
        jsonl(s),
        ["deal.duplicate_card"],
        "HK dealt to seats 0 and 1 (in place of C7)",
    )
    s = sess("s-missing-card")
    s["hands"][0]["deal"]["hands"][2].remove("S8")
    put(
        "deal.missing_card.jsonl",
        jsonl(s),
        ["deal.missing_card"],
        "S8 is missing from the deal (seat 2 holds 11 cards)",
    )
    counted = json.loads((SAMPLES / "counted" / "counted.json").read_text())[0]
    s = sess("s-counted-missing", base=counted)
    s["hands"][0]["counted"]["defenders"].remove("T2")
    s["hands"][0]["counted"]["declarer"].remove("C8")
    put(
        "counted.missing_card.jsonl",
        jsonl(s),
        ["counted.missing_card"],
        "a counted hand (format 1.2) whose piles lack T2 and C8: both named",
    )
    s = sess("s-counted-twice", base=counted)
    piles = s["hands"][0]["counted"]
    piles["defenders"][piles["defenders"].index("T2")] = "SK"
    put(
        "counted.duplicate_card.jsonl",
        jsonl(s),
        ["counted.duplicate_card", "counted.missing_card"],
        "SK in both sides' piles (in place of T2): doubled, and T2 missing",
    )
    s = sess("s-count")
    dh = s["hands"][0]["deal"]["hands"]
    dh[0].append(dh[1].pop())
    put(
        "deal.count.jsonl",
        jsonl(s),
        ["deal.count", "deal.count"],
        "one card moved from seat 1 to seat 0 (13 and 11 cards): one error per wrong hand",
    )
    s = sess("s-seat", players=B1["players"][:3], first_dealer=None)
    h = s["hands"][0]
    h["dealer"] = 2
    h["result"] = None
    h.pop("radelci_before")
    h["deal"] = {
        "hands": [
            B1["hands"][0]["deal"]["hands"][0] + B1["hands"][0]["deal"]["hands"][3][:4],
            B1["hands"][0]["deal"]["hands"][1] + B1["hands"][0]["deal"]["hands"][3][4:8],
            B1["hands"][0]["deal"]["hands"][2] + B1["hands"][0]["deal"]["hands"][3][8:],
        ],
        "talon": B1["hands"][0]["deal"]["talon"],
    }
    h["actions"] = [{"type": "pass", "seat": 1}, {"type": "pass", "seat": 3}]
    put(
        "seat.range.jsonl",
        jsonl(s),
        ["seat.range"],
        "a table of 3 where action 1 of hand 1 is made by seat 3",
    )
    s = sess("s-five")
    s["players"] = B1["players"] + [{"id": "eva.zajc", "name": "Eva Zajc"}]
    s["first_dealer"] = 4
    h = s["hands"][0]
    h["dealer"] = 4
    h["deal"]["hands"].append([])
    h["result"] = {"scores": [135, 135, 0, -20, 0]}
    h.pop("radelci_before")
    h["actions"].insert(3, {"type": "pass", "seat": 4})
    put(
        "seat.inactive.jsonl",
        jsonl(s),
        ["seat.inactive"],
        "a table of 5 whose sitting-out dealer (seat 4) passes in the bidding (action 3)",
    )
    s = sess("s-rot")
    h2 = copy.deepcopy(s["hands"][0])
    h2["number"] = 2
    s["hands"].append(h2)
    put(
        "deal.dealer_rotation.jsonl",
        jsonl(s),
        ["deal.dealer_rotation"],
        "warning: hand 2 is dealt again by seat 3 (the rotation gives seat 0); both hands stay valid",
    )
    s = sess("s-result")
    s["hands"][0]["result"]["scores"] = [135, 135, -20]
    put(
        "result.size.jsonl",
        jsonl(s),
        ["result.size"],
        "hand 1 records 3 scores at a table of 4",
    )
    s = sess("s-handno", first_dealer=None)
    h2 = copy.deepcopy(s["hands"][0])
    s["hands"].append(h2)
    put(
        "hand.duplicate_number.jsonl",
        jsonl(s),
        ["hand.duplicate_number"],
        "two hands numbered 1 (the second is rejected)",
    )
    royal = json.loads((SAMPLES / "royal" / "worked-examples.json").read_text())
    r = sess("royal-pairs", base=royal)
    r["hands"] = r["hands"][:1]
    r.pop("recorded", None)
    r["players"][1]["role"] = "abfaenger"
    put(
        "table.royal_pairs.jsonl",
        jsonl(r),
        ["table.royal_pairs"],
        "a Royal Tarock session whose pair A has two Abfänger and no Eintreiber",
    )
    z = sess("zr-three", base=zr[0])
    z["players"] = z["players"][:3]
    z["hands"] = []
    z["first_dealer"] = 0
    put(
        "table.size.jsonl",
        jsonl(z),
        ["table.size"],
        "a Zwanzigerrufen session seating 3 players",
    )
    # ---- mixed
    good2 = sess("mixed-good-2", base=slo[1])
    bad_hand = sess("mixed-bad-hand")
    h2 = copy.deepcopy(bad_hand["hands"][0])
    h2["number"] = 2
    h2["dealer"] = 0
    h2["deal"]["hands"][0][0] = "XX1"
    bad_hand["hands"].append(h2)
    h3 = copy.deepcopy(bad_hand["hands"][0])
    h3["number"] = 3
    h3["dealer"] = 1
    bad_hand["hands"].append(h3)
    mixed = (
        jsonl(sess("mixed-good-1"))
        + "\n"
        + '{"format":"tarock-log", "id": "mixed-broken"\n'
        + jsonl(bad_hand, good2)
    )
    put(
        "mixed.jsonl",
        mixed,
        ["json.syntax", "card.unknown"],
        'line 1 a good session; line 2 blank; line 3 broken JSON; line 4 a session whose hand 2 deals "XX1" (hands 1 and 3 are good; hand 3 is dealt by seat 1 after hand 2 was rejected, so no rotation check applies); line 5 a good session',
    )

    readme = [
        "# Malformed sample logs",
        "",
        "Every file here plants known defects. `tarock validate sample_logs/malformed` must exit 1 and",
        "print exactly the listed codes for each file (one located line each), never a traceback.",
        "`tests/log/test_reader.py` reads this table and checks every row.",
        "",
        "Generated by `scripts/make_malformed_samples.py` from the valid samples (Appendix B.1 of",
        "slovenian-tarok.md, FD1 of zwanzigerrufen.md, the Royal Tarock match)",
        "with one change each.",
        "",
        "| file | codes | defect |",
        "|---|---|---|",
    ]
    for name, codes, desc in rows:
        readme.append(f"| `{name}` | {' '.join(codes)} | {desc} |")
    readme += [
        "",
        "Not planted here: `file.unreadable` (an unreadable or vanished file cannot be committed;",
        "`tests/log/test_reader.py` reads a missing file instead).",
        "",
    ]
    (out / "README.md").write_text("\n".join(readme))


if __name__ == "__main__":
    build(Path(sys.argv[1]) if len(sys.argv) > 1 else SAMPLES / "malformed")
