/* The card loop of the native Slovenian engine (slohand.h), in C over the card sets of cards.h.
 *
 * The native home of the reference's trick play (SlovenianHand._play and _complete_trick,
 * with PlayRules.legal and winner_index; tests/rules/slovenian/test_native_hand.py holds the
 * two equal, position by position). Given each seat's hand, the card actions of the play phase (seat and
 * card id, in the order they were recorded) and the hand's play rules, it plays the tricks
 * out: every card must be held by the seat whose turn it is and be among its legal cards
 * (tk_legal, spec 8.3-8.4); each trick's winner is tk_winner's (spec 8.2, the emperor's trick
 * and colour valat included); berac ends at the declarer's first trick and (colour) valat at
 * his first lost one (spec 8.7). Anything else (a card out of turn, not held or illegal,
 * actions left after the end, a hand that does not end) and the loop declines: the caller
 * replays the hand through the reference engine, which reports it.
 *
 * Depends on cards.h only (no Python).
 */
#ifndef TAROCK_CARDLOOP_H
#define TAROCK_CARDLOOP_H

#include "cards.h"

#define TK_MAX_SEATS 5
#define TK_MAX_TRICKS 18 /* 54 cards at a table of three */

/* One completed trick: who led it, its cards in playing order, the index of the winning card
 * and the winner's seat, the set of its cards. */
typedef struct {
    int leader;
    int n;
    int cards[4];
    int wi;
    int winner;
    tk_set mask;
} tk_trick;

/* The hand being played: fixed for the hand, read by tk_play_cards. */
typedef struct {
    int nseats;                            /* seats 0 .. nseats-1 (the dealer may sit out) */
    int order[TK_MAX_SEATS][4];            /* order[leader]: the seats of a trick from him */
    int order_len[TK_MAX_SEATS];           /* 0 for a seat that does not play */
    tk_rules rules;
    int tricks_total;
    int declarer;
    int ends_on_win;  /* berac, odprti berac: the hand ends at the declarer's first trick */
    int ends_on_loss; /* (colour) valat: the hand ends at his first lost trick */
} tk_play;

/* Play `n` card actions (`seat[i]` plays card id `card[i]`) from `leader` on, updating
 * `hands[seat]`. Returns the number of completed tricks written to `out`, with `*early` set
 * when the hand ended before its last trick, or -1 to decline. */
static int tk_play_cards(const tk_play *p, tk_set *hands, int leader, const int *seat,
                         const int *card, int n, tk_trick *out, int *early) {
    int i = 0, done = 0;
    *early = 0;
    if (leader < 0 || leader >= p->nseats) return -1;
    for (;;) {
        const int *seats = p->order[leader];
        int len = p->order_len[leader];
        if (len < 2 || done >= TK_MAX_TRICKS) return -1;
        tk_trick *t = &out[done];
        t->leader = leader;
        t->n = 0;
        t->mask = 0;
        for (int j = 0; j < len; j++) {
            if (i >= n) return -1; /* the hand did not end */
            int s = seats[j], c = card[i];
            if (seat[i] != s) return -1; /* out of turn */
            tk_set bit = TK_BIT(c), hm = hands[s];
            if (!(hm & bit)) return -1; /* not held */
            if (!(tk_legal(hm, t->cards, j, &p->rules) & bit)) return -1; /* illegal */
            hands[s] = hm ^ bit;
            t->cards[j] = c;
            t->mask |= bit;
            t->n = j + 1;
            i++;
        }
        t->wi = tk_winner(t->cards, len, p->rules.colour_valat);
        t->winner = seats[t->wi];
        done++;
        if (done >= p->tricks_total) break;
        if ((p->ends_on_win && t->winner == p->declarer) ||
            (p->ends_on_loss && t->winner != p->declarer)) {
            *early = 1;
            break;
        }
        leader = t->winner;
    }
    if (i != n) return -1; /* actions after the end */
    return done;
}

#endif /* TAROCK_CARDLOOP_H */
