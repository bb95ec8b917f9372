/* The card loop of Royal Tarock, in C over the card sets of cards.h.
 *
 * The twin of the reference engine's play (tarock_logs/rules/royal/tricks.py and
 * RoyalHand._play, which stay the readable reference; tests/rules/royal/test_native_cards.py
 * holds the two equal). Card ids are those of cards.h: the Royal pack is the Slovenian one's
 * taroks, kings, queens, knights and jacks and the black tens (ids of the strongest black pip).
 *
 * The rules of the play (royal-tarock.md §6): follow suit, else play a tarock, else anything;
 * no duty to overtake. Tarocks beat every suit card, the Sküs is the highest tarock and there
 * is no Pagat exception (no Märchenstich). On top come the bound cards of §6.2 (a Schlemm
 * announced behaltpflichtig binds a card to its trick): among the suit-legal cards, a card
 * bound to this trick must be played; else a card bound to a later trick may not be played
 * while a free one is legal; with only such bound cards, the one bound most recently (highest
 * bidding sequence) is played. Four seats, ten tricks, the seats go round from the leader.
 * Anything unusual (out of turn, not held, illegal, not exactly forty card actions) and the
 * loop declines: the caller replays the hand through the reference engine, which reports it.
 *
 * Depends on cards.h only (no Python): the binding in module.c reads the log's actions.
 */
#ifndef TAROCK_ROYALLOOP_H
#define TAROCK_ROYALLOOP_H

#include "cards.h"

#define RT_TRICKS 10
#define RT_CARDS 40
#define RT_MAX_BOUND 16 /* bindings per seat the loop takes (more: it declines) */

/* One binding on a card of a seat: due in trick `trick` (1..10), bound at sequence `seq`. */
typedef struct {
    int card;
    int trick;
    int seq;
} rt_bound;

/* The bound cards of the four seats (§6.2). */
typedef struct {
    int n[4];
    rt_bound b[4][RT_MAX_BOUND];
} rt_rules;

/* Follow suit, else a tarock, else anything (§6.1), as tricks.suit_legal. */
static inline tk_set rt_suit_legal(tk_set hand, const int *trick, int k) {
    if (k == 0) return hand;
    tk_set same = hand & tk_suit_mask(tk_suit_of(trick[0]));
    if (same) return same;
    tk_set tar = hand & TK_TAROKS;
    return tar ? tar : hand;
}

/* The legal cards of §6.3 for `seat` in trick `trick_no`, as tricks.judge decides them. */
static inline tk_set rt_legal(tk_set hand, const int *trick, int k, int trick_no, int seat,
                              const rt_rules *r) {
    tk_set sl = rt_suit_legal(hand, trick, k);
    int nb = r->n[seat];
    if (!nb) return sl;
    const rt_bound *b = r->b[seat];
    tk_set due = 0, pending = 0;
    for (int i = 0; i < nb; i++) {
        tk_set bit = TK_BIT(b[i].card);
        if (!(sl & bit)) continue;
        if (b[i].trick == trick_no) due |= bit;
        else if (b[i].trick > trick_no) pending |= bit;
    }
    if (due) return due; /* a bound card goes into its own trick when it can */
    tk_set free_ = sl & ~pending;
    if (free_) return free_; /* bound cards may not be played early */
    /* only bound cards: the most recently bound one(s) */
    int top = -1;
    for (int i = 0; i < nb; i++)
        if ((sl & TK_BIT(b[i].card)) && b[i].trick > trick_no && b[i].seq > top) top = b[i].seq;
    tk_set legal = 0;
    for (tk_set c = sl; c; c &= c - 1) {
        int id = tk_lowest(c), last = -1;
        for (int i = 0; i < nb; i++)
            if (b[i].card == id && b[i].trick > trick_no && b[i].seq > last) last = b[i].seq;
        if (last == top) legal |= c & -c;
    }
    return legal;
}

/* Index of the winning card (§6.3): the highest tarock, else the highest of the led suit. */
static inline int rt_winner(const int *cards, int k) {
    int bi = -1, best = -1;
    for (int i = 0; i < k; i++)
        if (cards[i] < 22 && cards[i] > best) {
            best = cards[i];
            bi = i;
        }
    if (bi >= 0) return bi;
    int led = tk_suit_of(cards[0]);
    bi = 0;
    best = -1;
    for (int i = 0; i < k; i++)
        if (tk_suit_of(cards[i]) == led && tk_strength(cards[i]) > best) {
            best = tk_strength(cards[i]);
            bi = i;
        }
    return bi;
}

/* One completed trick of Royal Tarock. */
typedef struct {
    int seats[4];
    int cards[4];
    int winner; /* the winner's seat */
} rt_trick;

/* Play the forty card actions (`seat[i]` plays card id `card[i]`) from `leader` on, updating
 * `hands`. Returns the ten tricks written to `out` (RT_TRICKS), or -1 to decline. */
static int rt_play_cards(const rt_rules *r, tk_set *hands, int leader, const int *seat,
                         const int *card, int n, rt_trick *out) {
    if (n != RT_CARDS || leader < 0 || leader > 3) return -1;
    int i = 0;
    for (int done = 0; done < RT_TRICKS; done++) {
        rt_trick *t = &out[done];
        for (int j = 0; j < 4; j++, i++) {
            int s = (leader + j) & 3, c = card[i];
            if (seat[i] != s) return -1; /* out of turn */
            tk_set bit = TK_BIT(c), hm = hands[s];
            if (!(hm & bit)) return -1; /* not held */
            if (!(rt_legal(hm, t->cards, j, done + 1, s, r) & bit)) return -1; /* illegal */
            hands[s] = hm ^ bit;
            t->seats[j] = s;
            t->cards[j] = c;
        }
        t->winner = t->seats[rt_winner(t->cards, 4)];
        leader = t->winner;
    }
    for (int s = 0; s < 4; s++)
        if (hands[s]) return -1; /* the reference ends the hand when every hand is empty */
    return RT_TRICKS;
}

#endif /* TAROCK_ROYALLOOP_H */
