"""Build ``sample_logs/royal/worked-examples.json``: one Royal Tarock match of 8 games.

royal-tarock.md's worked examples (§7.3) give no full hands, so this script constructs a
consistent match instead (seeded, deterministic):

* fixed pairs, seats in playing order Abf(A), Ein(A), Abf(B), Ein(B) (§3.1); Ein(A) deals game 1,
  the Eintreibers alternate as dealer and the dealer's pair defends (§3.2);
* XIX goes to the attackers' Abfänger, XX to the attackers' Eintreiber, the other 38 cards are
  dealt so that everyone holds 10; a deal giving somebody fewer than 3 tarocks is redealt (§3.3,
  §3.4);
* bidding opened by the dealer (``bidding_opener = dealer``), each turn being zero or more
  ``meld`` / ``announce`` / ``kontra`` actions closed by one ``pass`` ("Weiter!"); true Meldungen
  only; raises (Honneur → Köpfe) by the partner, voiding a contra on the raised-from Schlemm
  (§4.3-§4.5); the bidding ends after three empty turns following the last non-empty one (four
  if nobody spoke);
* legal play (§6.1: follow suit, tarock when void, otherwise any card), trick 1 led by the
  attackers' Eintreiber;
* scores per §7.1 with the consolation taken as 0 (its formula is unknown, §1.4), recorded per
  seat (both partners write their party's score) and itemised per seat.

Run: ``.venv/bin/python scripts/make_royal_sample.py`` (rewrites the file).
"""

from __future__ import annotations

import random
from pathlib import Path

from tarock_logs.cards import PACKS, sort_cards
from tarock_logs.log.models import SessionAdapter
from tarock_logs.log.writer import write_sessions

SEED = 20240302
OUT = Path(__file__).resolve().parent.parent / "sample_logs" / "royal" / "worked-examples.json"
ABF_A, EIN_A, ABF_B, EIN_B = 0, 1, 2, 3
PAIR = {0: "A", 1: "A", 2: "B", 3: "B"}
PARTNER = {0: 1, 1: 0, 2: 3, 3: 2}
VALUES = {"S_VISI": 1, "S_LAMOUR": 1, "S_ENGEL": 1, "S_HONNEUR": 1, "S_KOEPFE": 2, "F_SPIEL": 10}
MELD_VALUES = {"M_FLUSH": 10, "M_WONOK": 20}


def suit(c: str) -> str:
    return c[0]


def strength(c: str) -> int:
    if c[0] == "T":
        return 100 + int(c[1:])
    return {"K": 5, "Q": 4, "N": 3, "J": 2, "10": 1}[c[1:]]


def deal(rng: random.Random, attackers: tuple[int, int], dealer: int) -> list[list[str]]:
    abf_att, ein_att = attackers
    rest = [c for c in PACKS["royal"] if c not in ("T19", "T20")]
    while True:
        rng.shuffle(rest)
        hands: list[list[str]] = [[], [], [], []]
        hands[abf_att].append("T19")
        hands[ein_att].append("T20")
        k = 0
        for s in range(4):
            need = 10 - len(hands[s])
            hands[s] += rest[k : k + need]
            k += need
        if all(sum(c[0] == "T" for c in h) >= 3 for h in hands):
            return [sort_cards(h, "royal") for h in hands]


def meldungen(hand: list[str]) -> list[dict]:
    out: list[dict] = []
    taroks = sum(c[0] == "T" for c in hand)
    if taroks >= 8:
        out.append({"type": "meld", "meld": "M_TAROCKCOUNT", "params": {"count": taroks}})
    if any(c in hand for c in ("T1", "T2", "T3", "T4")):
        out.append({"type": "meld", "meld": "M_VOGERL"})
    for s in "HDSC":
        suit_cards = [c for c in PACKS["royal"] if c[0] == s]
        if all(c in hand for c in suit_cards):
            out.append({"type": "meld", "meld": "M_FLUSH"})
    for r in "KQNJ":
        if all(s + r in hand for s in "HDSC"):
            out.append({"type": "meld", "meld": "M_WONOK"})
    return out


def bidding(
    hands: list[list[str]], opener: int, attackers: tuple[int, int]
) -> tuple[list[dict], dict]:
    """The bidding actions and the final state: announced Schlemme per pair and contras."""
    actions: list[dict] = []
    active: dict[str, dict[str, dict]] = {"A": {}, "B": {}}  # pair -> id -> instance
    melds: dict[int, list[str]] = {s: [] for s in range(4)}
    turns: list[bool] = []  # True = something was said
    order = [(opener + k) % 4 for k in range(4)]
    rnd = 0
    while True:
        for seat in order:
            said: list[dict] = []
            hand = hands[seat]
            pair, opp = PAIR[seat], "B" if PAIR[seat] == "A" else "A"
            taroks = sum(c[0] == "T" for c in hand)
            if rnd == 0:
                for m in meldungen(hand):
                    said.append(m)
                    melds[seat].append(m["meld"])
                wish = []
                if "T20" in hand and seat in attackers and taroks >= 5:
                    wish.append("S_ENGEL")
                if "T19" in hand and seat in attackers and taroks >= 6:
                    wish.append("S_LAMOUR")
                if "T18" in hand and taroks >= 6:
                    wish.append("S_VISI")
                if "T22" in hand:
                    wish.append("S_HONNEUR")
                if taroks >= 7:
                    wish.append("F_SPIEL")
                for w in wish:
                    if w not in active[pair] and not (
                        w == "S_HONNEUR" and "S_KOEPFE" in active[pair]
                    ):
                        active[pair][w] = {"announcer": seat, "contra": None}
                        said.append({"type": "announce", "bonus": w})
            elif rnd == 1:
                hon = active[pair].get("S_HONNEUR")
                if hon and hon["announcer"] == PARTNER[seat] and "T21" in hand:
                    del active[pair]["S_HONNEUR"]  # raised: a contra on Honneur becomes void
                    active[pair]["S_KOEPFE"] = {"announcer": seat, "contra": None}
                    said.append({"type": "announce", "bonus": "S_KOEPFE", "raises": "S_HONNEUR"})
                for sid, inst in active[opp].items():
                    if inst["contra"] is not None:
                        continue
                    strong = sum(c in hand for c in ("T22", "T21", "T20", "T19", "T18"))
                    if (sid == "F_SPIEL" and taroks >= 5) or (
                        sid in ("S_ENGEL", "S_LAMOUR", "S_VISI") and strong >= 2
                    ):
                        inst["contra"] = seat
                        said.append({"type": "kontra", "target": sid})
            for a in said:
                actions.append({**a, "seat": seat})
            actions.append({"type": "pass", "seat": seat})
            turns.append(bool(said))
            if any(turns):
                last = max(i for i, t in enumerate(turns) if t)
                if len(turns) - 1 - last >= 3:
                    return actions, {"active": active, "melds": melds}
            elif len(turns) >= 4:
                return actions, {"active": active, "melds": melds}
        rnd += 1


def play(
    hands: list[list[str]], leader: int, rng: random.Random
) -> tuple[list[dict], list[tuple[int, list[tuple[int, str]]]]]:
    held = [list(h) for h in hands]
    actions: list[dict] = []
    tricks: list[tuple[int, list[tuple[int, str]]]] = []
    for _ in range(10):
        trick: list[tuple[int, str]] = []
        for k in range(4):
            seat = (leader + k) % 4
            h = held[seat]
            if trick:
                led = suit(trick[0][1])
                legal = [c for c in h if suit(c) == led] or [c for c in h if c[0] == "T"] or h
            else:
                legal = h
            best = max(trick, key=lambda sc: _rank(sc[1], suit(trick[0][1])))[1] if trick else None
            winners = [
                c
                for c in legal
                if best is None or _rank(c, suit(trick[0][1])) > _rank(best, suit(trick[0][1]))
            ]
            if winners and rng.random() < 0.6:
                card = min(winners, key=lambda c: _rank(c, suit(trick[0][1]) if trick else suit(c)))
            else:
                card = rng.choice(legal)
            h.remove(card)
            trick.append((seat, card))
            actions.append({"type": "play", "seat": seat, "card": card})
        led = suit(trick[0][1])
        winner = max(trick, key=lambda sc: _rank(sc[1], led))[0]
        tricks.append((winner, trick))
        leader = winner
    return actions, tricks


def _rank(card: str, led: str) -> int:
    if card[0] == "T":
        return 1000 + int(card[1:])
    return strength(card) if suit(card) == led else 0


def score(
    state: dict, tricks: list, hands: list[list[str]]
) -> tuple[dict[str, int], dict[str, list[tuple[str, int]]]]:
    home = {"A": set(), "B": set()}
    count = {"A": 0, "B": 0}
    first5 = None
    lauer = {"A": False, "B": False}
    mondfang = {"A": False, "B": False}
    for winner, trick in tricks:
        p = PAIR[winner]
        count[p] += 1
        if count[p] == 5 and first5 is None:
            first5 = p
        for seat, c in trick:
            home[p].add(c)
            if PAIR[seat] != p and c == "T1":
                lauer[p] = True
            if PAIR[seat] != p and c == "T21":
                mondfang[p] = True
    cond = {
        "S_VISI": lambda p: "T18" in home[p],
        "S_LAMOUR": lambda p: "T19" in home[p],
        "S_ENGEL": lambda p: "T20" in home[p],
        "S_HONNEUR": lambda p: "T22" in home[p] or "T21" in home[p],
        "S_KOEPFE": lambda p: {"T22", "T21"} <= home[p],
        "F_SPIEL": lambda p: count[p] >= 5,
    }
    obscur = not any("F_SPIEL" in state["active"][p] for p in "AB")
    scores: dict[str, int] = {}
    items: dict[str, list[tuple[str, int]]] = {}
    for p, q in (("A", "B"), ("B", "A")):
        its: list[tuple[str, int]] = [("consolation", 0)]
        for seat in (s for s in range(4) if PAIR[s] == p):
            for m in state["melds"][seat]:
                if MELD_VALUES.get(m):
                    its.append((m, MELD_VALUES[m]))
        for sid in state["active"][p]:
            its.append((sid, VALUES[sid] if cond[sid](p) else -VALUES[sid]))
        if obscur and first5 == p:
            its.append(("Q_OBSCUR", 5))
        if lauer[p]:
            its.append(("Q_LAUER", 15))
        if {"HK", "DK", "SK", "CK"} <= home[p]:
            its.append(("Q_4KOENIGE", 20))
        if mondfang[p]:
            its.append(("Q_MONDFANG_STILL", 50))
        k = 0
        for sid, inst in state["active"][q].items():
            if inst["contra"] is not None:
                k += -VALUES[sid] if cond[sid](q) else VALUES[sid]
        if any(inst["contra"] is not None for inst in state["active"][q].values()):
            its.append(("kontra", max(-20, min(20, k))))
        n = sum(v for _, v in its)
        total = max(0, min(100, n))
        if total != n:
            its.append(("cap", total - n))
        scores[p] = total
        items[p] = its
    return scores, items


def build() -> dict:
    rng = random.Random(SEED)
    players = [
        {"id": "kati.nagy", "name": "Kati Nagy", "pair": "A", "role": "abfaenger"},
        {"id": "laszlo.toth", "name": "László Tóth", "pair": "A", "role": "eintreiber"},
        {"id": "marta.szabo", "name": "Márta Szabó", "pair": "B", "role": "abfaenger"},
        {"id": "peter.kovacs", "name": "Péter Kovács", "pair": "B", "role": "eintreiber"},
    ]
    hands_out = []
    totals = {"A": 0, "B": 0}
    for g in range(1, 9):
        dealer = EIN_A if g % 2 else EIN_B
        attackers = (ABF_B, EIN_B) if g % 2 else (ABF_A, EIN_A)
        dealt = deal(rng, attackers, dealer)
        bid_actions, state = bidding(dealt, dealer, attackers)
        play_actions, tricks = play(dealt, attackers[1], rng)
        scores, items = score(state, tricks, dealt)
        totals["A"] += scores["A"]
        totals["B"] += scores["B"]
        hands_out.append({
            "number": g,
            "dealer": dealer,
            "deal": {"hands": dealt, "cut_by": attackers[1]},
            "actions": bid_actions + play_actions,
            "result": {
                "scores": [scores[PAIR[s]] for s in range(4)],
                "items": [{"item": it, "value": v, "seat": s}
                          for s in range(4) for it, v in items[PAIR[s]]],
            },
        })  # fmt: skip
    final = {p: totals[p] // 8 for p in "AB"}
    session = {
        "format": "tarock-log",
        "format_version": 1,
        "id": "royal-match-example",
        "game": "royal",
        "ruleset": "royal-seed",
        "options": {"bidding_opener": "dealer", "consolation": 0},
        "event": {"name": "Constructed Royal Tarock match (scripts/make_royal_sample.py)"},
        "players": players,
        "first_dealer": EIN_A,
        "hands": hands_out,
        "recorded": {"totals": [final[PAIR[s]] for s in range(4)]},
        "source": {"software": "scripts/make_royal_sample.py", "seed": SEED},
        "notes": "A constructed match of 8 games (royal-tarock.md gives no full deals): legal "
        "play per §6.1, true Meldungen, raises by the partner, scores per §7.1 with the "
        "consolation taken as 0 because its formula is unknown. Each partner writes the "
        "party's score; recorded totals are the match result floor(sum / 8) per §7.2 (party A "
        f"{totals['A']} → {final['A']}, party B {totals['B']} → {final['B']}).",
    }
    return session


def main() -> None:
    session = SessionAdapter.validate_python(build())
    OUT.parent.mkdir(parents=True, exist_ok=True)
    write_sessions(OUT, [session])
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
