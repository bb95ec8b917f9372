"""The findings model: players by name and role, the rule's own words, the consequence for
the score, and the verification states (verdict/findings.py)."""

from __future__ import annotations

import copy

import orjson
import pytest

from tarock_logs.log.reader import read_paths
from tarock_logs.rules.base import Violation
from tarock_logs.verdict.audit import audit_session
from tarock_logs.verdict.findings import (
    HandPeople,
    quotation,
    reword,
    violation_finding,
    worst_state,
)
from tests.support.d1_helpers import ROOT, b1_doc, session

DISPUTED = ROOT / "sample_logs" / "disputed" / "round-1.jsonl"


def _people(**kw: object) -> HandPeople:
    doc = b1_doc()  # Ana Kos declares, Bojan Zupan holds the called ♦K
    s = session(doc)
    args = {"declarer": 0, "partner": 1, **kw}
    return HandPeople.of(s, s.hands[0], **args)  # type: ignore[arg-type]


class TestPlayersInTheirRoles:
    def test_roles_from_the_engines_declarer_and_partner(self) -> None:
        people = _people()
        assert people.roles == ["declarer", "partner", "defender", "defender"]
        ref = people.ref(1)
        assert ref is not None and (ref.name, ref.role, ref.seat) == ("Bojan Zupan", "partner", 1)
        assert people.describe(1) == "Bojan Zupan, the declarer's partner (who holds the called ♦K)"
        assert people.describe(2) == "Cene Novak, a defender"

    def test_without_a_declarer_everybody_is_a_player_and_fixed_pairs_attack_or_defend(
        self,
    ) -> None:
        assert set(_people(declarer=None, partner=None).roles) == {"player"}
        pairs = {"attackers": [2, 3], "defenders": [0, 1]}
        people = _people(declarer=None, partner=None, pairs=pairs)
        assert people.roles == ["defender", "defender", "attacker", "attacker"]

    def test_the_dealer_sits_out_at_a_table_of_five(self) -> None:
        doc = b1_doc()
        doc["players"].append({"id": "p5", "name": "Eva"})
        s = session(doc)
        people = HandPeople.of(
            s, s.hands[0].model_copy(update={"dealer": 4}), declarer=0, partner=1
        )
        assert people.roles[4] == "sitting_out"
        assert people.ref(4) is not None and people.ref(4).dealer  # type: ignore[union-attr]


class TestEngineMessagesInThePlayersWords:
    def test_seats_become_names_the_offender_gets_the_role_and_cards_read_as_cards(self) -> None:
        said = reword("seat 2 gave kontra on game; only a defender may (seat 0 declared)",
                      _people(), 2)  # fmt: skip
        assert said == (
            "Cene Novak, a defender, gave kontra on the game; only a defender may "
            "(Ana Kos declared)"
        )
        said = reword(
            "seat 1 played C7 while holding T2 T21: taroks must be followed", _people(), 1
        )
        assert said.startswith("Bojan Zupan, the declarer's partner (who holds the called ♦K),")
        assert said.endswith("played ♣7 while holding II mond: taroks must be followed")

    def test_the_other_engines_seat_labels_are_replaced_too(self) -> None:
        assert reword("seat 3 (P4) revoked", _people(), None) == "Dušan Horvat revoked"
        assert reword("seat 2 (Abfänger, attackers) may not", _people(), None) == (
            "Cene Novak may not"
        )

    def test_a_finding_cites_the_rule_with_its_own_words_and_says_the_consequence(self) -> None:
        v = Violation(
            "kontra.not_eligible", "seat 1 gave kontra on game; only a defender may",
            "si-tournament-2021 §7.6", seat=1, action_index=9,
        )  # fmt: skip
        f = violation_finding(v, _people(), file="f.jsonl", session="s", hand=1, hand_id="h",
                              ruleset="si-tournament-2021")  # fmt: skip
        assert f.level == "action" and f.action_index == 9 and f.severity == "error"
        assert f.message == (
            "Bojan Zupan, the declarer's partner (who holds the called ♦K), gave kontra on the "
            "game; only a defender may (si-tournament-2021 §7.6). The kontra is disregarded in "
            "the recomputed score."
        )
        assert set(f.rule_text) == {"sl", "en"} and "porufan" in f.rule_text["sl"]
        assert [p.role for p in f.players] == ["partner"]
        d = f.to_dict()
        assert d["players"][0] == {
            "id": "bojan.zupan", "name": "Bojan Zupan", "seat": 1, "role": "partner",
            "dealer": False,
        }  # fmt: skip


class TestTheRulesOwnWords:
    def test_quotations_are_in_the_rulesets_language_and_in_english(self) -> None:
        q = quotation("slovenian", "si-tournament-2021 §6.2")
        assert q["sl"].startswith("Zalaganje kraljev ni dovoljeno")
        assert q["en"].startswith("Discarding kings is not allowed")
        assert quotation("slovenian", "si-tournament-2021 §99.9") == {}
        assert quotation("slovenian", None) == {}

    def test_every_quotation_is_of_a_section_the_engine_cites(self) -> None:
        from tarock_logs.rules.slovenian.codes import CODES

        doc = orjson.loads(
            (ROOT / "tarock_logs" / "rules" / "slovenian" / "quotations.json").read_bytes()
        )
        cited = {c.section for c in CODES.values()}
        for rs in doc["rulesets"].values():
            assert set(rs["sections"]) <= cited
            assert set(rs["consequences"]) <= set(CODES)
            for quote in rs["sections"].values():
                assert set(quote) == {rs["language"], "en"} or set(quote) == {"en"}

    def test_the_disregarded_kontra_is_really_left_out_of_the_recomputed_score(self) -> None:
        """Dispute 4: the partner's kontra on the game. The recomputed score is the same with
        and without that action, as the consequence says."""
        (rec,) = [r for r in read_paths([DISPUTED]) if r.session and r.session.id.endswith("-D")]
        assert rec.session is not None
        doc = rec.session.model_dump(mode="json", exclude_defaults=True)
        sa = audit_session(rec.session)
        (h,) = [h for h in sa.hands if not h.legal]
        (f,) = [f for f in h.findings if f.code == "kontra.not_eligible"]
        assert f.consequence == "The kontra is disregarded in the recomputed score."
        without = copy.deepcopy(doc)
        hand = next(x for x in without["hands"] if x["number"] == h.hand)
        del hand["actions"][f.action_index]
        sb = audit_session(session(without))
        (h2,) = [x for x in sb.hands if x.hand == h.hand]
        assert h2.legal and h2.recomputed == h.recomputed


class TestVerificationStates:
    def test_a_whole_is_verified_only_when_every_part_is(self) -> None:
        assert worst_state(["verified", "verified"]) == "verified"
        assert worst_state(["verified", "partial"]) == "partial"
        assert worst_state(["verified", "unverified"]) == "partial"
        assert worst_state(["unverified", "unverified"]) == "unverified"
        assert worst_state([]) == "unverified"

    def test_hand_and_session_states(self, monkeypatch: pytest.MonkeyPatch) -> None:
        doc = b1_doc()
        assert audit_session(session(doc)).hands[0].verification == "verified"
        no_result = b1_doc()
        del no_result["hands"][0]["result"]
        sa = audit_session(session(no_result))
        assert sa.hands[0].verification == "partial"
        assert any("no recorded result" in u for u in sa.hands[0].unverified)
        assert sa.verification == "partial"
        from tarock_logs import rules as rules_registry

        monkeypatch.delitem(rules_registry._ENGINES, "royal")  # a game without an engine
        other = b1_doc()
        other["game"] = "royal"
        sa = audit_session(session(other))
        assert sa.hands[0].verification == "unverified" and sa.verification == "unverified"
