"""Card tokens, aliases and packs (tarock_logs.cards)."""

from __future__ import annotations

import pytest

from tarock_logs.cards import (
    PACKS,
    CardError,
    card_points,
    normalize_token,
    parse_card,
    sort_cards,
    thirds,
)


@pytest.mark.parametrize(
    ("token", "game", "canon"),
    [
        ("T22", "slovenian", "T22"),
        ("škis", "slovenian", "T22"),
        ("ŠKIS", "slovenian", "T22"),
        ("Sküs", "zwanzigerrufen", "T22"),
        ("mond", "slovenian", "T21"),
        ("Pagat", "royal", "T1"),
        ("XXI", "slovenian", "T21"),
        ("tXIX", "slovenian", "T19"),
        ("IIII", "royal", "T4"),
        (" h k ", "slovenian", "HK"),
        ("hki", "slovenian", "HK"),  # OpenSpiel's short king name
        ("SKN", "slovenian", "SN"),  # OpenSpiel's knight
        ("c10", "royal", "C10"),
        ("HD", "zwanzigerrufen", "HQ"),  # German Dame
        ("CB", "zwanzigerrufen", "CJ"),  # German Bube
    ],
)
def test_aliases_case_and_whitespace_map_to_the_canonical_token(token, game, canon):
    assert parse_card(token, game) == canon


@pytest.mark.parametrize(
    ("token", "game"),
    [("T2", "zwanzigerrufen"), ("T3", "zwanzigerrufen"), ("H1", "royal"), ("S7", "royal"),
     ("HG", "slovenian"), ("D4", "zwanzigerrufen")],
)  # fmt: skip
def test_real_cards_outside_the_games_pack_are_rejected(token, game):
    normalize_token(token, game)  # a real card...
    with pytest.raises(CardError, match="not in the"):
        parse_card(token, game)  # ...but not in this pack


@pytest.mark.parametrize(
    ("option", "token", "canon"),
    [
        ("red_ace_black_ten", "HA", "HG"),  # the default Glatze set: red aces, black tens
        ("red_ace_black_ten", "h1", "HG"),
        ("red_ace_black_ten", "S10", "SG"),
        ("red_four", "H4", "HG"),
        ("red_four", "c10", "CG"),
        ("red_four", "HA", None),  # a red ace is a pip card outside this set: not in the pack
        ("red_four", "D1", None),
        ("red_ace_black_ten", "D4", None),
    ],
)
def test_physical_glatzen_are_mapped_by_the_rulesets_card_names(option, token, canon):
    """Zwanzigerrufen's physical Glatzen are the engine's ``card_names`` of the ruleset (the
    one home of the ``glatzen`` sets); ``parse_card`` maps only those."""
    from tarock_logs.rules import get_engine

    eng = get_engine("zwanzigerrufen")
    assert eng is not None
    names = eng.card_names(eng.ruleset("zr-std", {"glatzen": option}))
    if canon is None:
        with pytest.raises(CardError, match="not in the"):
            parse_card(token, "zwanzigerrufen", names)
    else:
        assert parse_card(token, "zwanzigerrufen", names) == canon


@pytest.mark.parametrize("token", ["HX", "T23", "T0", "", "KING", "H11"])
def test_unknown_tokens_are_rejected(token):
    with pytest.raises(CardError):
        parse_card(token, "slovenian")


def test_pack_sizes_54_40_40():
    assert [len(PACKS[g]) for g in ("slovenian", "zwanzigerrufen", "royal")] == [54, 40, 40]
    for pack in PACKS.values():
        assert len(set(pack)) == len(pack)


def test_slovenian_pack_counts_70_points_as_210_thirds():
    assert thirds(PACKS["slovenian"]) == 210


def test_zwanzigerrufen_pack_holds_88_card_points():
    assert sum(card_points(c, "zwanzigerrufen") for c in PACKS["zwanzigerrufen"]) == 88


def test_sort_cards_puts_taroks_low_to_high_then_hearts_diamonds_spades_clubs():
    assert sort_cards(["CK", "T22", "H1", "T1", "SK", "DK", "HK"], "slovenian") == [
        "T1", "T22", "HK", "H1", "DK", "SK", "CK",
    ]  # fmt: skip
