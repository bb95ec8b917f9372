"""Garbage in: any sequence of actions (wrong phase, wrong seat, unknown cards and codes) is
reported, never raised, and every push is undone exactly by pop."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tarock_logs.cards import PACKS
from tarock_logs.rules.base import Action

from .randomgame import random_hand

CARDS = list(PACKS["slovenian"]) + ["XX", "HG"]
CODES = [
    "pass",
    "klop",
    "three",
    "two",
    "one",
    "solo_three",
    "berac",
    "solo_brez",
    "valat",
    "barvni_valat",
    "odprti_berac",
    "nonsense",
]
BONUSES = ["trula", "kralji", "pagat_ultimo", "kralj_ultimo", "valat", "barvni_valat", "x"]

actions = st.one_of(
    st.builds(lambda s, c: Action("bid", s, contract=c), st.integers(0, 4), st.sampled_from(CODES)),
    st.builds(lambda s: Action("pass", s), st.integers(0, 4)),
    st.builds(lambda s, c: Action("call", s, card=c), st.integers(0, 4), st.sampled_from(CARDS)),
    st.builds(lambda s, g: Action("talon", s, group=g), st.integers(0, 4), st.integers(-1, 6)),
    st.builds(
        lambda s, cs: Action("discard", s, cards=tuple(cs)),
        st.integers(0, 4),
        st.lists(st.sampled_from(CARDS), max_size=4),
    ),
    st.builds(
        lambda s, b: Action("announce", s, bonus=b), st.integers(0, 4), st.sampled_from(BONUSES)
    ),
    st.builds(
        lambda s, t, lv: Action("kontra", s, target=t, level=lv),
        st.integers(0, 4),
        st.sampled_from(["game", *BONUSES]),
        st.sampled_from([None, 1, 2]),
    ),
    st.builds(lambda s: Action("lezim", s), st.integers(0, 4)),
    st.builds(lambda s, c: Action("play", s, card=c), st.integers(0, 4), st.sampled_from(CARDS)),
    st.builds(lambda s: Action("claim", s, claim="rest"), st.integers(0, 4)),
    st.builds(lambda s: Action("meld", s, meld="x"), st.integers(0, 4)),
)


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(0, 2**16),
    n=st.sampled_from([3, 4, 5]),
    ruleset=st.sampled_from(["tournament", "openspiel"]),
    acts=st.lists(actions, max_size=60),
)
def test_garbage_is_reported_not_raised_and_pop_undoes(seed, n, ruleset, acts):
    h = random_hand(seed, n, ruleset)
    views = [h.view()]
    for a in acts:
        found = h.push(a)
        assert all(v.code and v.message and v.rule for v in found)
        views.append(h.view())
    h.hand_findings()
    h.score()
    for _ in acts:
        views.pop()
        h.pop()
        assert h.view() == views[-1]


@settings(max_examples=100, deadline=None)
@given(
    seed=st.integers(0, 2**16),
    n=st.sampled_from([3, 4, 5]),
    ruleset=st.sampled_from(["tournament", "openspiel"]),
    acts=st.lists(actions, max_size=60),
)
def test_every_code_is_registered_with_its_section(seed, n, ruleset, acts):
    from tarock_logs.rules.slovenian.codes import CODES

    h = random_hand(seed, n, ruleset)
    found = [v for a in acts for v in h.push(a)] + h.hand_findings()
    rid = h.rules.ruleset.id
    for v in found:
        assert v.code in CODES, v.code
        assert v.rule.startswith(rid + " §"), v.rule
