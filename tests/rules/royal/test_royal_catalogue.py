"""The Royal Tarock catalogue as data (royal-tarock.md §5.7): the built-in file, validation,
extension by a user, and the predicate language."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tarock_logs.rules.royal import (
    ENGINE,
    builtin_catalogue,
    builtin_catalogue_dict,
    parse_catalogue,
    read_catalogue_file,
)
from tarock_logs.rules.royal.predicates import Context, compiled, evaluate, validate


def test_builtin_catalogue_holds_what_the_seed_knows() -> None:
    cat = builtin_catalogue()
    assert cat.id == "royal-gerots-2023" and len(cat.items) == 29
    full = [
        i.id
        for i in cat.items.values()
        if i.value is not None and i.condition is not None and i.status == "confirmed"
    ]
    assert len(full) == 16  # §5.6: 5 Meldungen, 6 material premiums, 4 silent, Spiel
    assert {i.id for i in cat.items.values() if i.group == "trophy"} >= {
        "TR_VALAT",
        "TR_LEGION",
        "TR_GOLGOTA",
        "TR_SPADILLE",
    }
    assert all(cat.items[t].value is None for t in ("TR_VALAT", "TR_LEGION", "S_MONDFANG"))
    assert cat.raises("S_TRULL", "S_HONNEUR") and cat.raises("S_KOEPFE", "S_HONNEUR")
    assert not cat.raises("S_HONNEUR", "S_KOEPFE")
    assert "Q_4KOENIGE" in cat.items["TR_VALAT"].suppresses
    assert cat.items["F_SPIEL"].disables_obscur and cat.items["TR_VALAT"].disables_obscur


def test_every_item_has_a_status_and_a_source() -> None:
    for item in builtin_catalogue().items.values():
        assert item.status in ("confirmed", "reconstructed", "unknown"), item.id
        assert item.source, item.id


def test_extending_updates_adds_and_removes_items() -> None:
    cat = parse_catalogue(
        {
            "extends": "royal-gerots-2023",
            "catalogue": "club",
            "items": [
                {"id": "TR_VALAT", "value": 40, "status": "confirmed", "source": "club rulebook"},
                {
                    "id": "F_6",
                    "group": "free_tricks",
                    "value": 15,
                    "raises": ["F_SPIEL"],
                    "disables_obscur": True,
                    "condition": {"tricks_at_least": 6},
                },
                {"id": "TR_SZFINX", "remove": True},
            ],
        }
    )
    assert cat.id == "club"
    assert cat.items["TR_VALAT"].value == 40
    assert cat.items["TR_VALAT"].condition == {"tricks_at_least": 10}  # kept from the base
    assert cat.raises("F_6", "F_SPIEL") and "TR_SZFINX" not in cat.items


@pytest.mark.parametrize(
    ("item", "message"),
    [
        ({"id": "X", "group": "nonsense"}, "group"),
        ({"id": "X", "group": "trophy", "colour": "red"}, "unknown field"),
        ({"id": "X", "group": "trophy", "value": "ten"}, "value"),
        ({"id": "X", "group": "trophy", "raises": ["NOPE"]}, "unknown item"),
        ({"id": "X", "group": "trophy", "condition": {"hom": "T1"}}, "unknown operator"),
        ({"id": "X", "group": "trophy", "condition": {"home": "H1"}}, "not a card"),
        ({"id": "X", "group": "trophy", "condition": {"tricks_at_least": 11}}, "1..10"),
        ({"id": "X", "group": "bound", "bindings": [{"card": "T1", "trick": 0}]}, "1..10"),
        ({"id": "X", "group": "meldung", "params": {"n": "float"}}, "params"),
        ({"id": "X", "group": "trophy", "status": "rumour"}, "status"),
    ],
)
def test_catalogue_faults_are_named(item: dict, message: str) -> None:  # type: ignore[type-arg]
    with pytest.raises(ValueError, match=message):
        parse_catalogue({"extends": "royal-gerots-2023", "items": [item]})


def test_group_defaults_free_tricks_switch_obscur_off_silent_items_are_not_announced() -> None:
    cat = parse_catalogue(
        {
            "items": [
                {
                    "id": "F_7",
                    "group": "free_tricks",
                    "value": 20,
                    "condition": {"tricks_at_least": 7},
                },
                {"id": "Q_X", "group": "silent", "value": 5, "condition": {"home": "T2"}},
                {"id": "M_X", "group": "meldung", "value": 0, "condition": {"hand_has": "T2"}},
            ]
        }
    )
    assert cat.items["F_7"].disables_obscur
    assert cat.items["Q_X"].silent and not cat.items["Q_X"].announceable
    assert not cat.items["M_X"].announceable and not cat.items["M_X"].contra_allowed


def test_a_raising_cycle_is_refused() -> None:
    with pytest.raises(ValueError, match="cycle"):
        parse_catalogue(
            {
                "items": [
                    {"id": "X", "group": "schlemm", "raises": ["Y"]},
                    {"id": "Y", "group": "schlemm", "raises": ["X"]},
                ]
            }
        )


def test_only_the_builtin_catalogue_can_be_extended() -> None:
    with pytest.raises(ValueError, match="extends"):
        parse_catalogue({"extends": "somebody-else", "items": []})


def test_builtin_document_is_a_fresh_copy() -> None:
    doc = builtin_catalogue_dict()
    doc["items"].clear()
    assert len(builtin_catalogue_dict()["items"]) == 29


def test_catalogue_file_loader(tmp_path: Path) -> None:
    good = tmp_path / "c.json"
    good.write_text(json.dumps({"extends": "royal-gerots-2023", "items": []}))
    assert read_catalogue_file(good)["extends"] == "royal-gerots-2023"
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    with pytest.raises(ValueError, match="not valid JSON"):
        read_catalogue_file(bad)
    with pytest.raises(ValueError, match="catalogue file"):
        read_catalogue_file(tmp_path / "missing.json")
    rs = ENGINE.ruleset("royal", {"catalogue_path": str(good)})
    assert rs.options["catalogue"] == {"extends": "royal-gerots-2023", "items": []}


def test_score_items_name_the_items_of_known_value() -> None:
    names = ENGINE.score_items
    assert {"consolation", "kontra", "cap", "F_SPIEL", "Q_OBSCUR", "M_FLUSH"} <= names
    assert "TR_VALAT" not in names  # value unknown: a recorded line is "not checked"
    rs = ENGINE.ruleset(
        "royal",
        {"catalogue": {"extends": "royal-gerots-2023", "items": [{"id": "TR_VALAT", "value": 40}]}},
    )
    assert "TR_VALAT" in ENGINE.score_items_for(rs)


# --------------------------------------------------------------------------- predicates

DEALT = [
    ["HK", "HQ", "HN", "HJ", "DK", "SK", "CK", "T1", "T2", "T3"],
    ["T21", "T20"],
    ["T22"],
    ["T18"],
]
TRICKS = [
    ([(0, "T1"), (1, "T20"), (2, "T22"), (3, "T18")], 2),
    ([(0, "T2"), (1, "T21"), (2, "HK"), (3, "DK")], 1),
]


@pytest.mark.parametrize(
    ("expr", "party", "value"),
    [
        ({"home": "T22"}, {2, 3}, True),
        ({"all_home": ["T22", "T21"]}, {2, 3}, False),
        ({"any_home": ["T22", "T21"]}, {0, 1}, True),
        ({"home_from_opponents": "T1"}, {2, 3}, True),  # A's Pagat in B's trick
        ({"home_from_opponents": "T21"}, {0, 1}, False),  # A's own XXI
        ({"tricks_at_least": 1}, {0, 1}, True),
        ({"first_n_tricks": 1}, {2, 3}, True),
        ({"trick_won_with": {"trick": 2, "card": "T21"}}, {0, 1}, True),
        ({"trick_won_with": {"trick": 2, "card": "T2"}}, {0, 1}, False),
        ({"not": {"home": "T22"}}, {0, 1}, True),
        ({"or": [{"home": "T18"}, {"home": "T2"}]}, {0, 1}, True),
    ],
)
def test_trick_predicates(expr: object, party: set[int], value: bool) -> None:
    validate(expr)
    assert evaluate(expr, Context(party=frozenset(party), dealt=DEALT, tricks=TRICKS)) is value


def test_hand_predicates_and_params() -> None:
    ctx = Context(party=frozenset(), dealt=DEALT, player=0, params={"suit": "H", "count": 4})
    assert evaluate({"hand_has_all_of_suit": None}, ctx)
    assert evaluate({"hand_has_four_of_rank": "K"}, ctx)  # HK DK SK CK
    assert evaluate({"hand_has_four_of_rank": "Q"}, ctx) is False
    assert evaluate({"eq": [{"hand_count": {"param": "suit"}}, {"param": "count"}]}, ctx)
    assert evaluate({"eq": [{"hand_count": "T"}, 3]}, ctx)
    assert evaluate({"lt": [{"param": "count"}, {"suit_size": {"param": "suit"}}]}, ctx) is False


#: every hand operator and value, nested logic, and values compared where no number can be
#: given (a parameter missing, a text, no suit), with their truth for seat 0 and seat 1 of
#: DEALT under the parameters {"suit": "S", "count": 3}
_HAND_CASES: list[tuple[object, bool, bool]] = [
    (None, True, True),
    (True, True, True),
    (False, False, False),
    ({"hand_has": "T1"}, True, False),
    ({"hand_has_any": ["T21", "T22", "HK"]}, True, True),
    ({"hand_has_all_of_suit": "H"}, True, False),  # HK HQ HN HJ: the four hearts
    ({"hand_has_all_of_suit": None}, True, False),
    ({"hand_has_four_of_rank": None}, True, False),  # HK DK SK CK
    ({"hand_has_four_of_rank": "J"}, False, False),
    ({"not": {"or": [{"hand_has": "T22"}, {"and": [{"hand_has": "SK"}, {"hand_has": "CK"}]}]}},
     False, True),
    ({"ge": [{"hand_count": "T"}, {"param": "count"}]}, True, False),  # T1 T2 T3; T21 T20
    ({"eq": [{"hand_count": {"param": "suit"}}, {"suit_size": {"param": "suit"}}]}, False, False),
    ({"lt": [{"param": "missing"}, 3]}, False, False),
    ({"gt": [{"param": "suit"}, 3]}, False, False),  # a text against a number
    ({"ne": [{"hand_count": {"param": "count"}}, 0]}, False, False),  # no suit: no count
]  # fmt: skip


@pytest.mark.parametrize("expr, seat0, seat1", _HAND_CASES)
def test_hand_conditions_read_the_players_dealt_hand(
    expr: object, seat0: bool, seat1: bool
) -> None:
    params = {"suit": "S", "count": 3}
    for seat, want in ((0, seat0), (1, seat1)):
        ctx = Context(frozenset({0, 2}), DEALT, TRICKS, seat, params)
        assert evaluate(expr, ctx) is want, (expr, seat)


def test_a_condition_is_made_once_and_a_value_in_its_place_fails_only_when_asked() -> None:
    """The bidding asks :func:`compiled` for the same expression again and again: it is made
    once. A value where a condition belongs is an error when the condition is asked, not
    when an ``or`` settles before it (as the conditions are read)."""
    expr = {"or": [{"hand_has": "T1"}, {"param": "count"}]}
    assert compiled(expr) is compiled(expr)
    assert evaluate(expr, Context(frozenset({0}), DEALT, (), 0, {})) is True
    with pytest.raises(ValueError, match="'param' is a value, not a condition"):
        evaluate(expr, Context(frozenset({0}), DEALT, (), 1, {}))
