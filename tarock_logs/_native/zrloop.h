/* The card loop of Zwanzigerrufen, in C over the card sets of cards.h.
 *
 * The twin of the reference engine's play (tarock_logs/rules/zwanzigerrufen/tricks.py and
 * ZRHand._play, which stay the readable reference; tests/rules/zwanzigerrufen/
 * test_native_cards.py holds the two equal). Card ids are those of cards.h (the Slovenian
 * pack) with the Glatze of each suit (HG DG SG CG) on the weakest pip's id (suit base + 7):
 * below the jack in its suit, as in the reference, and worth 0 card points.
 *
 * The rules of the play (spec §6):
 * - Farbzwang: follow the suit led; void in it, Tarockzwang: play a tarock if one is held,
 *   else discard anything. A tarock lead is followed by a tarock while one is held.
 * - Farbensolo: a leader holding a suit card must lead one; a suit-led trick is won by the
 *   highest card of the led suit (tarocks are no trumps then); the option
 *   farbensolo_tarock_compulsion (O30) is "true" (Tarockzwang as ever), "false" (no
 *   compulsion when void) or "suit_first" (other suits before tarocks).
 * - Märchenstich (O29): Sküs, Mond and Pagat in one trick (any order, or Mond before Sküs
 *   before Pagat under fixed_order; never under off): the Pagat wins it.
 * - Mondfang: the Sküs wins a trick holding the Mond (the Mond's owner loses it).
 * - §6.6, the Pagat's hold obligation: the Pagat's holder on the side that announced Pagat
 *   Ultimo may not play it before the tenth trick while he has another legal card; the
 *   reference reports that (play.pagat_released), so the loop declines.
 * Four seats, ten tricks; the trick's seats go round from its leader. Anything unusual (a card
 * out of turn, not held, illegal, a Pagat released, not exactly forty card actions) and the
 * loop declines: the caller replays the hand through the reference engine, which reports it.
 *
 * Depends on cards.h only (no Python): the binding in module.c reads the log's actions.
 */
#ifndef TAROCK_ZRLOOP_H
#define TAROCK_ZRLOOP_H

#include "cards.h"

#define ZR_TRICKS 10
#define ZR_CARDS 40
#define ZR_GLATZEN ((TK_KINGS << 7)) /* HG DG SG CG: the weakest pip's id of each suit */

/* The play rules of one Zwanzigerrufen hand. */
typedef struct {
    int farbensolo; /* the contract is a Farbensolo */
    int compulsion; /* O30 in a Farbensolo, void in the led suit: 1 tarock, 0 none, 2 suits first */
    int maerchen;   /* O29: 0 off, 1 any_order, 2 fixed_order */
    int keep_pagat; /* §6.6: bit s set when seat s must keep the Pagat (announced Pagat Ultimo) */
} zr_rules;

/* card points (§2.4): Trull cards and kings 5, queens 4, knights 3, jacks 2, other tarocks 1,
 * the Glatzen 0 */
static inline int zr_points(int id) {
    tk_set b = TK_BIT(id);
    if (b & ZR_GLATZEN) return 0;
    return tk_points(id);
}

static inline int zr_pile_points(tk_set m) {
    int p = 0;
    for (; m; m &= m - 1) p += zr_points(tk_lowest(m));
    return p;
}

/* The legal cards of `hand` for the trick so far `trick[0..k-1]` (§6.2, §6.3), exactly as
 * tricks.legal_cards decides them. */
static inline tk_set zr_legal(tk_set hand, const int *trick, int k, const zr_rules *r) {
    tk_set taroks = hand & TK_TAROKS, suits = hand & ~TK_TAROKS;
    if (k == 0) {
        if (r->farbensolo && suits) return suits; /* a suit card must be led in a Farbensolo */
        return hand;
    }
    int led = tk_suit_of(trick[0]);
    if (led == 0) return taroks ? taroks : hand;
    tk_set same = hand & tk_suit_mask(led);
    if (same) return same; /* Farbzwang */
    if (r->farbensolo) {
        if (r->compulsion == 0) return hand;
        if (r->compulsion == 2) return suits ? suits : (taroks ? taroks : hand);
    }
    return taroks ? taroks : hand; /* Tarockzwang, else a free discard */
}

/* Whether the trick `cards[0..k-1]` is a Märchenstich under the rule (not yet who wins it). */
static inline int zr_is_maerchen(const int *cards, int k, int rule) {
    if (rule == 0) return 0;
    int ip = -1, im = -1, is = -1;
    for (int i = 0; i < k; i++) {
        if (cards[i] == TK_PAGAT) ip = i;
        else if (cards[i] == TK_MOND) im = i;
        else if (cards[i] == TK_SKIS) is = i;
    }
    if (ip < 0 || im < 0 || is < 0) return 0;
    if (rule == 2) return im < is && is < ip;
    return 1;
}

static inline int zr_highest_of_suit(const int *cards, int k, int suit) {
    int best = 0, bstr = -1;
    for (int i = 0; i < k; i++) {
        if (tk_suit_of(cards[i]) == suit && suit != 0 && tk_strength(cards[i]) > bstr) {
            bstr = tk_strength(cards[i]);
            best = i;
        }
    }
    return best;
}

/* Index of the card that wins the trick (§6.4), as tricks.winner_index. */
static inline int zr_winner(const int *cards, int k, const zr_rules *r) {
    int led = tk_suit_of(cards[0]);
    if (r->farbensolo && led != 0) return zr_highest_of_suit(cards, k, led);
    if (zr_is_maerchen(cards, k, r->maerchen)) {
        for (int i = 0; i < k; i++)
            if (cards[i] == TK_PAGAT) return i;
    }
    int best = -1, bi = -1;
    for (int i = 0; i < k; i++)
        if (cards[i] < 22 && cards[i] + 1 > best) {
            best = cards[i] + 1;
            bi = i;
        }
    if (bi >= 0) return bi;
    return zr_highest_of_suit(cards, k, led);
}

/* One completed trick of Zwanzigerrufen. */
typedef struct {
    int leader;
    int seats[4];
    int cards[4];
    int winner;     /* the winner's seat */
    int points;     /* card points of the trick (§2.4) */
    int maerchen;   /* won by the Pagat in a Märchenstich */
    int mond_owner; /* Mondfang: the seat whose Mond the Sküs captured, else -1 */
} zr_trick;

/* Play the forty card actions (`seat[i]` plays card id `card[i]`) from `leader` on, updating
 * `hands`. Returns the ten tricks written to `out` (ZR_TRICKS), or -1 to decline. */
static int zr_play_cards(const zr_rules *r, tk_set *hands, int leader, const int *seat,
                         const int *card, int n, zr_trick *out) {
    if (n != ZR_CARDS || leader < 0 || leader > 3) return -1;
    int i = 0;
    for (int done = 0; done < ZR_TRICKS; done++) {
        zr_trick *t = &out[done];
        t->leader = leader;
        tk_set mask = 0;
        for (int j = 0; j < 4; j++, i++) {
            int s = (leader + j) & 3, c = card[i];
            if (seat[i] != s) return -1; /* out of turn */
            tk_set bit = TK_BIT(c), hm = hands[s];
            if (!(hm & bit)) return -1; /* not held */
            tk_set legal = zr_legal(hm, t->cards, j, r);
            if (!(legal & bit)) return -1; /* illegal */
            if (c == TK_PAGAT && (r->keep_pagat >> s & 1) && done < 9 && legal != bit)
                return -1; /* §6.6: the announced Pagat released early */
            hands[s] = hm ^ bit;
            t->seats[j] = s;
            t->cards[j] = c;
            mask |= bit;
        }
        int wi = zr_winner(t->cards, 4, r);
        t->winner = t->seats[wi];
        t->points = zr_pile_points(mask);
        t->maerchen = zr_is_maerchen(t->cards, 4, r->maerchen) && t->cards[wi] == TK_PAGAT;
        t->mond_owner = -1;
        if (t->cards[wi] == TK_SKIS && (mask & TK_BIT(TK_MOND))) {
            for (int j = 0; j < 4; j++)
                if (t->cards[j] == TK_MOND) t->mond_owner = t->seats[j];
        }
        leader = t->winner;
    }
    return ZR_TRICKS;
}

#endif /* TAROCK_ZRLOOP_H */
