"""The hand entry's model (no browser): a deal clicked in card by card with the counts checked,
actions chosen among the engine's legal ones or recorded anyway and judged at once, the audit
of the result equal to the bundled Appendix B.1, partial entries with a precise statement,
and a log file saved into a folder (never the store)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from dashboard.entries import EntryBox
from dashboard.entry_model import Entry
from tarock_logs.log.reader import read_paths
from tarock_logs.report import text
from tarock_logs.verdict.audit import audit_session

ROOT = Path(__file__).resolve().parents[2]
NAMES = ["Ana Kos", "Bojan Zupan", "Cene Novak", "Dušan Horvat"]


def b1() -> Any:
    (s,) = [
        r.session
        for r in read_paths([ROOT / "sample_logs" / "slovenian" / "appendix-b.json"])
        if r.session is not None and r.session.id == "si-appendix-b1"
    ]
    return s


def dealt_b1() -> Entry:
    """B.1's deal clicked in: each seat's cards, then the talon in dealt order."""
    s = b1()
    e = Entry(players=list(NAMES))
    assert e.dealer == 3 and e.target == 0
    hand = s.hands[0]
    for seat in range(3):
        for c in hand.deal.hands[seat]:
            assert e.deal_card(c) is None
    assert e.target == 3
    e.target = 4  # the talon
    for c in hand.deal.talon:
        assert e.deal_card(c) is None
    assert e.fill_last() == 3
    e.deal_rest()
    assert e.deal_complete
    return e


def enter_actions(e: Entry, actions: list[Any]) -> None:
    """Enter every action by choosing it among the offered ones (a discard card by card)."""
    for a in actions:
        r = e.replay()
        assert e.to_move(r) == a.seat
        if a.type == "discard":
            seat, held, ok = e.discard_choices(r)
            assert seat == a.seat and set(a.cards) <= ok <= set(held)
            assert e.discard_count(seat, r) == len(a.cards)
            e.discard(seat, list(a.cards))
            continue
        want = a.model_dump(mode="json", exclude_defaults=True)
        offered = [c.action for c in e.choices(r) if c.legal]
        match = [c for c in offered if {**c, "type": c["type"]} == want or c == want]
        assert match, (want, offered)
        e.push(match[0])


class TestTheDeal:
    def test_counts_are_checked_as_the_cards_go_in(self) -> None:
        e = Entry(players=list(NAMES))
        assert [t[2] for t in e.targets()] == [12, 12, 12, 12, 6]
        for c in ("T1", "T6", "T15", "T16", "T18", "T19", "HK", "H4", "DJ", "SK", "S9", "C10"):
            e.deal_card(c)
        assert e.target == 1 and len(e.remaining()) == 42
        assert "dealt already" in (e.deal_card("T1") or "")
        assert "has all 12 cards" in (e.deal_card("T2", 0) or "")
        assert "not a card" in (e.deal_card("XX") or "")
        e.undeal(0, "HK")
        assert "HK" in e.remaining() and e.target == 0
        assert e.statement_text()[0].startswith("The deal is not complete (43 cards to place)")

    def test_tokens_can_be_pasted_with_aliases(self) -> None:
        e = Entry(players=list(NAMES))
        assert e.paste(0, "pagat, VI XV t16 xviii XIX ♥K H4 DJ SK S9 C10") == [
            "'♥K' is not a card of the slovenian pack"
        ]
        assert e.hands[0] == ["T1", "T6", "T15", "T16", "T18", "T19", "H4", "DJ", "SK", "S9", "C10"]

    def test_the_talon_is_never_filled_by_the_shortcut(self) -> None:
        e = dealt_b1()
        assert e.fill_last() is None
        e2 = Entry(players=list(NAMES))
        for seat in range(4):
            e2.paste(seat, " ".join(b1().hands[0].deal.hands[seat]))
        assert e2.target == 4 and e2.fill_last() is None  # only the talon is open


class TestAppendixB1:
    def test_entering_b1_gives_the_audit_of_the_bundled_hand(self, tmp_path: Path) -> None:
        s = b1()
        e = dealt_b1()
        enter_actions(e, s.hands[0].actions)
        e.scores = [135, 135, 0, -20]
        ours = e.audit()
        theirs = audit_session(s).hands[0]
        assert ours is not None
        for key in ("legal", "recomputed", "discrepancies", "verification", "contract",
                    "declarer", "partner", "won"):  # fmt: skip
            assert getattr(ours, key) == getattr(theirs, key), key
        assert [v.code for v in ours.violations] == [v.code for v in theirs.violations]
        assert ours.verification == "verified"
        pending = e.save(tmp_path)
        assert pending.parent == tmp_path / ".pending" and pending.name.startswith(e.session_id)
        again = e.save(tmp_path)  # a second save is another file: nothing is replaced
        assert again != pending and again.read_text() == pending.read_text()
        assert not list(tmp_path.glob("*.json"))  # nothing where `tarock ingest` reads
        saved = tmp_path / EntryBox(tmp_path).accept(pending.name)
        assert saved.parent == tmp_path and not pending.exists()
        (rec,) = read_paths([saved])
        assert rec.ok and rec.session is not None
        assert rec.session.hands[0].deal == s.hands[0].deal
        assert [a.model_dump() for a in rec.session.hands[0].actions] == [
            a.model_dump() for a in s.hands[0].actions
        ]
        assert json.loads(saved.read_text())["players"][0] == {"id": "ana.kos", "name": "Ana Kos"}
        assert "<html" in e.dossier_html()
        assert e.statement_text()[-1] == "Verification: verified."

    def test_an_illegal_card_is_recorded_and_judged_at_once(self) -> None:
        s = b1()
        e = dealt_b1()
        acts = s.hands[0].actions
        first_play = next(i for i, a in enumerate(acts) if a.type == "play")
        enter_actions(e, acts[: first_play + 1])  # SK led by Ana
        r = e.replay()
        bad = [c for c in e.choices(r) if not c.legal]
        assert bad and all(c.action["seat"] == 1 for c in bad)
        e.push(next(c.action for c in bad if c.action["card"] == "T2"))  # Bojan holds SJ
        last = e.verdicts()[-1]
        assert not last.legal
        assert [v.code for v in last.violations] == ["play.illegal_card"]
        assert "Bojan Zupan" in last.label
        # the banner's sentence: the one renderer of a finding, by name (not "seat 1")
        f = e.finding_of(last.violations[0])
        assert f is not None
        said = {lang: f.text(lang) for lang in ("en", "sl", "de")}
        assert said["en"].startswith("Bojan Zupan") and "played II while holding ♠J" in said["en"]
        assert "odigrana karta II, čeprav je v roki ♠J: treba je priznati pik" in said["sl"]
        assert "spielte II, obwohl ♠J in der Hand war: Pik muss bedient werden" in said["de"]
        assert all("seat" not in s and "Platz" not in s for s in said.values())
        e.undo()
        assert e.verdicts()[-1].legal

    def test_a_hand_entered_partly_says_what_can_and_cannot_be_concluded(self) -> None:
        s = b1()
        e = dealt_b1()
        acts = s.hands[0].actions
        plays = [i for i, a in enumerate(acts) if a.type == "play"]
        enter_actions(e, acts[: plays[4]])  # one trick complete: "1 trick", not "1 tricks"
        assert "(1 trick complete)" in " ".join(e.statement_text())
        e = dealt_b1()
        enter_actions(e, acts[: plays[8]])  # two tricks complete
        said = " ".join(e.statement_text())
        assert "the legality of 21 entered actions against it (0 illegal)" in said
        assert "entered only up to the play (2 tricks complete)" in said
        assert "the card points, the bonuses and the score are not known" in said
        a = e.audit()
        assert a is not None and a.recomputed is None
        assert a.verification == "partial"  # legality checked, the score not


def test_a_new_game_or_table_size_starts_the_deal_afresh() -> None:
    e = dealt_b1()
    e.set_table(game="slovenian", ruleset=e.ruleset, players=NAMES[::-1], dealer=3)
    assert e.deal_complete and e.players[0] == "Dušan Horvat"
    e.set_table(game="slovenian", ruleset=e.ruleset, players=NAMES[:3], dealer=2)
    assert not any(e.hands) and [t[2] for t in e.targets()] == [16, 16, 16, 6]
    z = Entry(game="zwanzigerrufen")
    assert z.n == 4 and [t[2] for t in z.targets()] == [10, 10, 10, 10]
    roy = Entry(game="royal")
    assert [p.get("pair") for p in roy.players_doc()] == ["A", "A", "B", "B"]


@pytest.mark.parametrize("game", ["zwanzigerrufen", "royal"])
def test_the_austrian_and_royal_deals_open_their_first_choices(game: str) -> None:
    from tarock_logs.tools.simulate import deal_pack  # noqa: F401 - the pack is the engine's

    e = Entry(game=game)
    pack = list(e.pack())
    sizes = [t[2] for t in e.targets()]
    k = 0
    for seat, size in enumerate(sizes):
        e.paste(seat, " ".join(pack[k : k + size]))
        k += size
    assert e.deal_complete or e.read()[1]


def test_a_partly_entered_hand_names_its_roles_in_the_dossier() -> None:
    """B.1 entered up to the first trick (tri bid, ♦K called): the dossier's seats say who
    is the declarer and who the partner, although the hand has no score yet."""
    from tarock_logs.verdict.audit import hand_people

    s = b1()
    e = dealt_b1()
    acts = s.hands[0].actions
    first_play = next(i for i, a in enumerate(acts) if a.type == "play")
    enter_actions(e, acts[:first_play])
    r = e.replay()
    read, _ = e.read()
    assert r is not None and read is not None and r.score is None
    roles = hand_people(read, read.hands[0], r).roles
    assert roles.count("declarer") == 1 and roles.count("partner") == 1
    html = e.dossier_html()
    for seat, role in enumerate(roles):  # the seats table: each player with their role
        player = f"{NAMES[seat]} ({read.players[seat].id})"
        said = text.role_name(role)
        assert re.search(rf"<td>{re.escape(player)}</td><td>{re.escape(said)}", html), seat


def test_the_default_names_are_in_the_pages_language_until_a_name_is_typed() -> None:
    """Issue 33: the entry page said "Player 1–4" on the Slovenian and German pages."""
    assert Entry(lang="sl").players == [f"Igralec {s}" for s in range(1, 5)]
    e = Entry(lang="de")
    assert e.players == [f"Spieler {s}" for s in range(1, 5)]
    e.set_table(game=e.game, ruleset=e.ruleset, players=["Ana Kos", "", "Spieler 3", ""],
                dealer=3)  # fmt: skip
    assert e.players == ["Ana Kos", "Spieler 2", "Spieler 3", "Spieler 4"]
    assert e.relabel("sl")  # the language switched: the unnamed seats follow, names stay
    assert e.players == ["Ana Kos", "Igralec 2", "Igralec 3", "Igralec 4"]
    assert not e.relabel("sl")
    e.set_table(game=e.game, ruleset=e.ruleset, players=["Ana Kos", "Player 2", "x", ""],
                dealer=3)  # fmt: skip
    assert e.players == ["Ana Kos", "Igralec 2", "x", "Igralec 4"]


def test_entering_a_zwanzigerrufen_hand_gives_its_audit() -> None:
    """Issue 37 (entry parity): a whole Zwanzigerrufen hand entered by pasting the deal and
    choosing every action among the offered ones gets the audit of the recorded hand."""
    from tarock_logs.log.models import SessionAdapter
    from tarock_logs.tools.simulate import simulate_hands

    doc = simulate_hands(8, 3, game="zwanzigerrufen", hands_per_session=1)[0]
    s = SessionAdapter.validate_python(doc)
    h = s.hands[0]
    e = Entry(game="zwanzigerrufen")
    e.set_table(game="zwanzigerrufen", ruleset=s.ruleset,
                players=[p.name or p.id for p in s.players], dealer=h.dealer)  # fmt: skip
    for seat, cards in enumerate(h.deal.hands):
        e.paste(seat, " ".join(cards))
    assert e.deal_complete
    enter_actions(e, h.actions)
    assert h.result is not None
    e.scores = list(h.result.scores)
    ours, theirs = e.audit(), audit_session(s).hands[0]
    assert ours is not None and ours.verification == "verified"
    for key in ("legal", "recomputed", "discrepancies", "verification", "contract",
                "declarer", "partner", "won"):  # fmt: skip
        assert getattr(ours, key) == getattr(theirs, key), key
