"""The audit of counted hands (log format 1.2): the card points and every item the piles decide
are counted from the cards each side took (slovenian-tarok.md 9.2, 9.8, 9.9), the table's own
count is compared with them, and what the piles cannot show is said. The worked examples are
Appendix B.1 (tri, W1) and B.2 (klop) as their piles (``sample_logs/counted/``)."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from tarock_logs.log import models as m
from tarock_logs.log.reader import read_file
from tarock_logs.report.text import finding_sentence
from tarock_logs.verdict.audit import HandAudit, audit_session
from tarock_logs.verdict.replay import COUNT_NOT_SUPPORTED

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "sample_logs" / "counted" / "counted.json"


def _sessions() -> dict[str, m.Session]:
    return {r.session.id: r.session for r in read_file(SAMPLE) if r.session is not None}


def _audit(session: m.Session) -> HandAudit:
    return audit_session(session).hands[0]


def _doc(sid: str) -> dict[str, Any]:
    return _sessions()[sid].model_dump(mode="json", exclude_defaults=True)


def _edit(sid: str, **facts: Any) -> dict[str, Any]:
    doc = copy.deepcopy(_doc(sid))
    doc["hands"][0]["facts"].update(facts)
    return doc


def _hand_of(doc: dict[str, Any]) -> HandAudit:
    return _audit(m.SessionAdapter.validate_python(doc))


class TestTheSamples:
    def test_b1_counted_scores_as_the_worked_example_with_nothing_to_find(self) -> None:
        h = _audit(_sessions()["counted-b1"])
        assert h.findings == [] and h.discrepancies == [] and h.legal
        assert h.recomputed is not None and h.recomputed.totals == [135, 135, 0, -20]
        items = {(name, seat): v for name, seat, v in h.recomputed.items}
        assert items == {("contract", None): 10, ("difference", None): 15,
                         ("kralji", None): 10, ("pagat_ultimo", None): 100,
                         ("mondfang", 3): -20}  # fmt: skip
        assert h.replay is None and h.verification == "partial"

    def test_what_the_piles_cannot_show_is_said_plainly(self) -> None:
        h = _audit(_sessions()["counted-b1"])
        said = " | ".join(h.unverified)
        assert "trick order and legality of play not checked" in said
        assert "pagat ultimo taken as recorded" in said
        # the mond (Dušan's) and the škis (Cene's) both end in the defenders' pile
        assert "mondfang taken as recorded" in said

    def test_the_planted_miscount_is_reported_in_thirds_with_the_items_it_changes(self) -> None:
        h = _audit(_sessions()["counted-b1-miscount"])
        [count] = [f for f in h.findings if f.code == "count.card_points_differ"]
        p = count.params
        assert (p["recorded_points"], p["recorded_thirds"]) == (48, 144)
        assert (p["counted_thirds"], p["counted_points"], p["thirds"]) == (149, 50, 5)
        assert p["items"] == ["difference", "total"]
        assert count.players[0].name == "Ana Kos" and count.rule == "si-tournament-2021 §9.2"
        # the table wrote the score of its count (difference 13): 2 points short per seat
        assert [(d.item, d.seat, d.recorded, d.recomputed) for d in h.discrepancies] == [
            ("total", 0, 133, 135), ("total", 1, 133, 135),
        ]  # fmt: skip

    def test_b2_klop_counted_per_player_scores_as_the_worked_example(self) -> None:
        h = _audit(_sessions()["counted-b2-klop"])
        assert h.findings == [] and h.recomputed is not None
        assert h.recomputed.totals == [140, 0, 0, 0]
        assert h.recomputed.radelci_after == [1, 1, 3, 1]


class TestTheWording:
    @pytest.mark.parametrize(
        ("lang", "words"),
        [
            ("en", ["Ana Kos", "48 card points (144 thirds)", "149 thirds (50 points)", "+5",
                    "difference, total"]),
            ("sl", ["Ana Kos", "48 točk (144 tretjin)", "149 tretjin (50 točk)", "+5",
                    "razlika v tretjinah", "štetje spremeni"]),
            ("de", ["Ana Kos", "48 Punkte gezählt (144 Drittel)", "149 Drittel (50 Punkte)", "+5",
                    "Unterschied in Dritteln", "die Zählung ändert"]),
        ],
    )  # fmt: skip
    def test_the_miscount_is_worded_from_its_fields(self, lang: str, words: list[str]) -> None:
        h = _audit(_sessions()["counted-b1-miscount"])
        [count] = [f for f in h.findings if f.code == "count.card_points_differ"]
        said = finding_sentence(count, lang)
        for w in words:
            assert w.lower() in said.lower(), (w, said)


class TestWhatThePilesDecide:
    def test_a_klop_player_who_miscounted_is_named_with_his_difference(self) -> None:
        doc = _doc("counted-b2-klop")
        # the piles hold 0, 22, 89 and 99 thirds (0, 7, 30, 33 points); seat 3 counted 34
        doc["hands"][0]["facts"]["points_by_seat"] = [0, 7, 30, 34]
        h = _hand_of(doc)
        [count] = [f for f in h.findings if f.code == "count.card_points_differ"]
        assert count.players[0].seat == 3 and count.params["side"] == "seat"
        assert (count.params["recorded_thirds"], count.params["counted_thirds"]) == (102, 99)
        assert count.params["thirds"] == -3 and count.params["items"] == []
        assert "Dušan Horvat, the dealer, counted 34 card points" in finding_sentence(count, "en")

    def test_a_count_that_turns_the_game_changes_the_contract_and_the_difference(self) -> None:
        # the table counted 35 (lost); the piles hold 149 thirds: won by 15
        h = _hand_of(_edit("counted-b1", card_points=35, won=False))
        [count] = [f for f in h.findings if f.code == "count.card_points_differ"]
        assert count.params["thirds"] == 149 - 105
        assert {"contract", "difference", "total"} <= set(count.params["items"])

    def test_silent_kralji_come_from_the_piles_not_from_the_record(self) -> None:
        # the record claims silent kralji for the defenders: the kings are in Ana's pile
        doc = _edit("counted-b1", bonuses=[
            {"bonus": "pagat_ultimo", "side": "declarer", "announced": True},
            {"bonus": "kralji", "side": "defenders"},
        ])  # fmt: skip
        h = _hand_of(doc)
        assert h.recomputed is not None and ("kralji", None, 10) in h.recomputed.items

    def test_the_mond_and_the_skis_in_different_piles_mean_no_mondfang(self) -> None:
        doc = _doc("counted-b1")
        c = doc["hands"][0]["counted"]
        # swap the škis (defenders) with a tarok of the declarer's pile: the škis cannot have
        # captured the mond any more, so the recorded mondfang is not scored
        c["defenders"][c["defenders"].index("T22")] = "T19"
        c["declarer"][c["declarer"].index("T19")] = "T22"
        h = _hand_of(doc)
        assert h.recomputed is not None
        assert not any(name == "mondfang" for name, _, _ in h.recomputed.items)
        assert ("total", 3, -20, 0) in [
            (d.item, d.seat, d.recorded, d.recomputed) for d in h.discrepancies
        ]
        assert not any("mondfang taken as recorded" in u for u in h.unverified)

    def test_the_mond_left_in_the_talon_is_the_declarers_mondfang(self) -> None:
        # spec 9.9 (2): the mond in the talon remainder (not taken) costs the declarer 20
        doc = _doc("counted-b1")
        c = doc["hands"][0]["counted"]
        c["talon"][c["talon"].index("T3")] = "T21"
        c["defenders"][c["defenders"].index("T21")] = "T3"
        doc["hands"][0]["facts"]["mondfang"] = []
        h = _hand_of(doc)
        assert h.recomputed is not None and ("mondfang", 0, -20) in h.recomputed.items
        assert not any("mondfang taken as recorded" in u for u in h.unverified)

    def test_a_miscount_is_a_warning_not_an_illegal_action(self) -> None:
        h = _audit(_sessions()["counted-b1-miscount"])
        [count] = [f for f in h.findings if f.code == "count.card_points_differ"]
        assert count.severity == "warning" and h.legal and h.has_findings

    def test_a_berac_the_declarer_took_no_trick_in_is_won(self) -> None:
        doc = _doc("counted-b1")
        hand = doc["hands"][0]
        c = hand["counted"]
        everything = c["declarer"] + c["defenders"] + c["discards"] + c["talon"]
        everything = list(dict.fromkeys(everything))
        hand["facts"] = {"contract": "berac", "declarer": 2, "won": True}
        hand["counted"] = {
            "talon": c["talon"],
            "declarer": [],
            "defenders": [x for x in everything if x not in c["talon"]],
        }
        hand["result"] = {"scores": [0, 0, 70, 0]}
        h = _hand_of(doc)
        assert h.findings == [] and h.recomputed is not None
        assert h.recomputed.totals == [0, 0, 70, 0]
        hand["facts"]["won"] = False  # recorded lost: the piles show it won
        h = _hand_of(doc)
        assert [f.code for f in h.findings if f.code.startswith("count.")] == [
            "count.result_differs"
        ]


def test_a_game_whose_engine_cannot_count_piles_says_so_and_scores_the_facts() -> None:
    pack = [f"T{k}" for k in range(1, 23)] + [
        "HK", "HQ", "HN", "HJ", "DK", "DQ", "DN", "DJ",
        "SK", "SQ", "SN", "SJ", "S10", "CK", "CQ", "CN", "CJ", "C10",
    ]  # fmt: skip
    doc = {
        "format": "tarock-log", "format_version": "1.2", "id": "royal-counted",
        "game": "royal", "ruleset": "royal-seed",
        "players": [
            {"id": "a", "pair": "A", "role": "abfaenger"},
            {"id": "b", "pair": "A", "role": "eintreiber"},
            {"id": "c", "pair": "B", "role": "abfaenger"},
            {"id": "d", "pair": "B", "role": "eintreiber"},
        ],
        "hands": [{
            "number": 1, "dealer": 1, "extent": "counted",
            "facts": {"contract": "game", "declarer": 2},
            "counted": {"declarer": pack[:20], "defenders": pack[20:]},
        }],
    }  # fmt: skip
    h = _hand_of(doc)
    [warning] = [f for f in h.findings if f.code == COUNT_NOT_SUPPORTED]
    assert warning.severity == "warning" and h.legal
    assert "cannot count a hand from its piles" in finding_sentence(warning, "en")
    assert finding_sentence(warning, "sl") != finding_sentence(warning, "en")


class TestZwanzigerrufen:
    """FD1 of zwanzigerrufen.md §7.9 (a Normal game calling XIX: Absolut and Pagat announced
    dagegen, each with a Kontra) as the two sides' piles: 40 card points to 48."""

    @staticmethod
    def doc(card_points: int, scores: list[int]) -> dict[str, Any]:
        [fd1] = [r.session for r in read_file(ROOT / "sample_logs" / "zwanzigerrufen" /
                                              "fd-examples.json")][:1]  # fmt: skip
        from tarock_logs.verdict.replay import replay_session

        [rep] = replay_session(fd1)
        assert rep.state is not None
        side = {0, 2}
        tricks = rep.state.view()["tricks"]
        mine = [c for t in tricks if t["winner"] in side for _, c in t["cards"]]
        theirs = [c for t in tricks if t["winner"] not in side for _, c in t["cards"]]
        return {
            "format": "tarock-log", "format_version": "1.2", "id": "zr-fd1-counted",
            "game": "zwanzigerrufen", "ruleset": "ZR-STD",
            "players": [p.model_dump(exclude_none=True) for p in fd1.players],
            "hands": [{
                "number": 1, "dealer": 3, "extent": "counted",
                "facts": {
                    "contract": "normal", "declarer": 0, "partner": 2, "called": "T19",
                    "card_points": card_points,
                    "bonuses": [
                        {"bonus": "absolut", "side": "defenders", "announced": True},
                        {"bonus": "pagat", "side": "defenders", "announced": True},
                    ],
                    "kontras": [{"target": "game", "seat": 1},
                                {"target": "absolut", "seat": 2},
                                {"target": "pagat", "seat": 0}],
                },
                "counted": {"declarer": mine, "defenders": theirs},
                "result": {"scores": scores},
            }],
        }  # fmt: skip

    def test_fd1_counted_scores_as_played(self) -> None:
        h = _hand_of(self.doc(40, [-2, 2, -2, 2]))
        assert h.findings == [] and h.recomputed is not None
        assert h.recomputed.totals == [-2, 2, -2, 2]
        said = " | ".join(h.unverified)
        assert "pagat taken as recorded" in said and "trick order" in said

    def test_a_miscount_that_wins_the_game_is_reported_in_card_points(self) -> None:
        h = _hand_of(self.doc(45, [2, -2, 2, -2]))  # "we had 45": the pile holds 40
        [count] = [f for f in h.findings if f.code == "count.card_points_differ"]
        assert (count.params["recorded_points"], count.params["counted_points"]) == (45, 40)
        assert count.params["points"] == -5 and count.params["items"] == ["game", "total"]
        said = finding_sentence(count, "de")
        assert "40 Punkte; Unterschied in Kartenpunkten: -5" in said.replace("\u2212", "-"), said


def test_the_samples_are_exactly_what_their_script_builds(tmp_path: Path) -> None:
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "make_counted", ROOT / "scripts" / "make_counted_samples.py"
    )
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    mod.OUT = tmp_path / "counted.json"
    mod.main()
    assert mod.OUT.read_bytes() == SAMPLE.read_bytes()
