"""Write ``sample_logs/counted/``: Appendix B of slovenian-tarok.md as counted hands (format 1.2).

    python scripts/make_counted_samples.py    # rewrites sample_logs/counted/counted.json

Each hand's piles are what the worked example's replay leaves on the table: the cards each side
(in klop, each player) won in tricks, the talon, the talon cards the declarer took and his
discards, without the order of the tricks. Three sessions:

* ``counted-b1``: B.1 (tri, W1) counted and written as the example scores it: nothing to find;
* ``counted-b1-miscount``: the same piles, but the table counted 48 card points (the pile holds
  149 thirds, 49⅔ → 50): a planted miscount, difference 13 instead of 15, scores 133 for 135;
* ``counted-b2-klop``: B.2 (klop) counted per player and written as the example scores it.

``tests/verdict/test_counted.py`` holds the expected audit of each.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tarock_logs.log.models import SessionAdapter  # noqa: E402
from tarock_logs.log.reader import read_file  # noqa: E402
from tarock_logs.log.writer import dumps_sessions  # noqa: E402
from tarock_logs.verdict.replay import replay_session  # noqa: E402

OUT = ROOT / "sample_logs" / "counted" / "counted.json"


def _piles(session: Any) -> tuple[dict[str, Any], dict[str, Any], list[int]]:
    """The hand's facts, its piles and its recorded scores, from the replay of its deal."""
    [rep] = replay_session(session)
    hand = session.hands[0]
    score = rep.score
    view = rep.state.view()
    tricks = view["tricks"]
    n = len(session.players)
    taken_group: list[str] = []
    discards: list[str] = []
    for a in hand.actions:
        if a.type == "discard":
            discards = list(a.cards)
    group_action = next((a for a in hand.actions if a.type == "talon"), None)
    talon = list(hand.deal.talon)
    if group_action is not None:
        size = {"three": 3, "two": 2, "one": 1}.get(score.contract or "", 3)
        taken_group = talon[group_action.group * size : (group_action.group + 1) * size]
    facts: dict[str, Any] = {"contract": score.contract}
    if score.contract == "klop":
        by_seat: list[list[str]] = [[] for _ in range(n)]
        for t in tricks:
            by_seat[t["winner"]] += [c for _, c in t["cards"]]
            if t.get("gift"):
                by_seat[t["winner"]].append(t["gift"])
        counted = {"talon": talon, "by_seat": by_seat}
        facts["points_by_seat"] = [(th + 1) // 3 for th in score.card_points["thirds"]]
        return facts, counted, list(score.totals)
    side = {score.declarer, score.partner}
    mine = [c for t in tricks if t["winner"] in side for _, c in t["cards"]]
    theirs = [c for t in tricks if t["winner"] not in side for _, c in t["cards"]]
    counted = {
        "talon": talon,
        "talon_taken": taken_group,
        "discards": discards,
        "declarer": mine,
        "defenders": theirs,
    }
    facts.update({"declarer": score.declarer, "partner": score.partner})
    call = next((a for a in hand.actions if a.type == "call"), None)
    if call is not None:
        facts["called"] = call.card
    bonuses = []
    kontras = []
    for a in hand.actions:
        if a.type == "announce":
            who = "declarer" if a.seat in side else "defenders"
            bonuses.append({"bonus": a.bonus, "side": who, "announced": True})
        elif a.type == "kontra":
            kontras.append({"target": a.target, "level": a.level, "seat": a.seat})
    if bonuses:
        facts["bonuses"] = bonuses
    if kontras:
        facts["kontras"] = kontras
    mond = [it.seat for it in score.items if it.item == "mondfang"]
    if mond:  # the mond and the škis end in one pile: who lost it is the table's record
        facts["mondfang"] = [{"seat": s} for s in mond]
    thirds = score.card_points["declarer_side_thirds"]
    facts["card_points"] = (thirds + 1) // 3
    facts["won"] = bool(score.won)
    return facts, counted, list(score.totals)


def main() -> None:
    appendix_b = ROOT / "sample_logs" / "slovenian" / "appendix-b.json"
    [b1, b2] = [r.session for r in read_file(appendix_b)]
    sessions = []
    for sid, src, note in (
        ("counted-b1", b1, "Appendix B.1 (tri, W1) as a counted hand, scored as the example"),
        ("counted-b1-miscount", b1, "Appendix B.1 counted, with a planted miscount: the table "
         "counted 48 card points (the declarer's pile holds 149 thirds: 50)"),
        ("counted-b2-klop", b2, "Appendix B.2 (klop) counted per player, scored as the example"),
    ):  # fmt: skip
        facts, counted, scores = _piles(src)
        if sid.endswith("miscount"):
            facts["card_points"] = 48
            scores = [s - 2 if k in (facts["declarer"], facts["partner"]) else s
                      for k, s in enumerate(scores)]  # fmt: skip
        hand = src.hands[0]
        sessions.append(
            {
                "format": "tarock-log",
                "format_version": "1.2",
                "id": sid,
                "game": src.game,
                "ruleset": src.ruleset,
                "event": {"name": "Counted hands from slovenian-tarok.md Appendix B"},
                "players": [p.model_dump(exclude_none=True) for p in src.players],
                "first_dealer": hand.dealer,
                "hands": [
                    {
                        "number": 1,
                        "dealer": hand.dealer,
                        "extent": "counted",
                        "facts": facts,
                        "counted": counted,
                        "radelci_before": list(hand.radelci_before or [0] * len(src.players)),
                        "result": {"scores": scores},
                        "notes": note,
                    }
                ],
                "source": {"software": "scripts/make_counted_samples.py"},
            }
        )
    OUT.parent.mkdir(parents=True, exist_ok=True)
    models = [SessionAdapter.validate_python(s) for s in sessions]
    OUT.write_text(dumps_sessions(models, kind="json"), encoding="utf-8")
    print(f"wrote {OUT}: {len(sessions)} sessions")


if __name__ == "__main__":
    main()
