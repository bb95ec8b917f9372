/* Card sets of the Slovenian pack as 64-bit masks: the primitives every native card loop
 * shares (the perfect-information solver today; the bulk audit's card loops next).
 *
 * A card's id is its index in the Slovenian pack (tarock_logs.cards.PACKS, the ids of
 * tarock_logs/rules/slovenian/fast/cardbits.py and analysis/cardset.py): T1 ... T22 are
 * ids 0 ... 21 (strength = id + 1), then hearts, diamonds, spades and clubs, eight ids per suit
 * from the king down to the weakest pip (H4 / D4 / S7 / C7). A set of cards (a hand, a trick,
 * a pile) is a uint64_t with bit `id` set for each card. Within a suit the strongest card of a
 * set is its lowest bit; among taroks, its highest bit.
 *
 * Vocabulary: a tarok is a trump; the pagat is T1, the mond T21, the skis T22, the three
 * together the trula; the emperor's trick is a trick holding all three, which the pagat wins.
 * Card points are counted in thirds (spec 2.4): a card worth v points counts 3v - 2 thirds,
 * so a pile's thirds are 3 * (sum of values) - 2 * (number of cards).
 *
 * Everything here is `static inline` and depends on nothing but <stdint.h>: include it.
 */
#ifndef TAROCK_CARDS_H
#define TAROCK_CARDS_H

#include <stdint.h>

typedef uint64_t tk_set;

#define TK_NCARDS 54
#define TK_PAGAT 0
#define TK_MOND 20
#define TK_SKIS 21
#define TK_BIT(id) ((tk_set)1 << (id))
#define TK_TAROKS (TK_BIT(22) - 1)
#define TK_TRULA (TK_BIT(TK_PAGAT) | TK_BIT(TK_MOND) | TK_BIT(TK_SKIS))
#define TK_SUIT_BASE(s) (22 + 8 * ((s) - 1)) /* first id (the king) of suit s = 1..4 */
#define TK_KINGS (TK_BIT(22) | TK_BIT(30) | TK_BIT(38) | TK_BIT(46))
#define TK_QUEENS (TK_KINGS << 1)
#define TK_KNIGHTS (TK_KINGS << 2)
#define TK_JACKS (TK_KINGS << 3)
#define TK_PIPS ((TK_KINGS << 4) | (TK_KINGS << 5) | (TK_KINGS << 6) | (TK_KINGS << 7))
#define TK_FIVES (TK_TRULA | TK_KINGS)
#define TK_ALL ((TK_BIT(TK_NCARDS - 1) << 1) - 1)
/* the plain taroks T2 ... T20 (one point each, no bonus): interchangeable when adjacent */
#define TK_PLAIN_TAROKS (TK_TAROKS & ~TK_TRULA)

static inline int tk_popcount(tk_set m) { return __builtin_popcountll(m); }
static inline int tk_lowest(tk_set m) { return __builtin_ctzll(m); }
static inline int tk_highest(tk_set m) { return 63 - __builtin_clzll(m); }

/* 0 for taroks, 1..4 for hearts, diamonds, spades, clubs */
static inline int tk_suit_of(int id) { return id < 22 ? 0 : 1 + (id - 22) / 8; }

static inline tk_set tk_suit_mask(int s) {
    return s == 0 ? TK_TAROKS : ((tk_set)0xFF << TK_SUIT_BASE(s));
}

/* strength inside the suit (spec 8.2): taroks their number, suit cards K 8 ... weakest pip 1 */
static inline int tk_strength(int id) { return id < 22 ? id + 1 : 8 - (id - 22) % 8; }

/* nominal card points (spec 2.3) */
static inline int tk_points(int id) {
    tk_set b = TK_BIT(id);
    if (b & TK_FIVES) return 5;
    if (b & TK_QUEENS) return 4;
    if (b & TK_KNIGHTS) return 3;
    if (b & TK_JACKS) return 2;
    return 1;
}

/* card points of a pile in thirds: 3 * sum(v) - 2 * n (spec 2.4) */
static inline int tk_thirds(tk_set m) {
    return 13 * tk_popcount(m & TK_FIVES) + 10 * tk_popcount(m & TK_QUEENS) +
           7 * tk_popcount(m & TK_KNIGHTS) + 4 * tk_popcount(m & TK_JACKS) +
           tk_popcount(m & ~(TK_FIVES | TK_QUEENS | TK_KNIGHTS | TK_JACKS));
}

/* Index (in playing order) of the card that wins the trick `cards[0..k-1]` (spec 8.2). The
 * emperor's trick goes to the pagat, except in colour valat when a suit card was led; else the
 * strongest tarok, or the strongest card of the led suit; in colour valat taroks win only
 * when a tarok was led. */
static inline int tk_winner(const int *cards, int k, int colour_valat) {
    int led = tk_suit_of(cards[0]);
    int best = 0, bsuit = led, bstr = tk_strength(cards[0]);
    tk_set m = TK_BIT(cards[0]);
    for (int i = 1; i < k; i++) {
        m |= TK_BIT(cards[i]);
        int s = tk_suit_of(cards[i]);
        if (s == bsuit) {
            int st = tk_strength(cards[i]);
            if (st > bstr) {
                best = i;
                bstr = st;
            }
        } else if (s == 0 && !colour_valat) {
            best = i;
            bsuit = 0;
            bstr = tk_strength(cards[i]);
        }
    }
    /* the emperor's trick (all three trula cards) goes to the pagat */
    if ((m & TK_TRULA) == TK_TRULA && (!colour_valat || led == 0)) {
        for (int i = 0; i < k; i++)
            if (cards[i] == TK_PAGAT) return i;
    }
    return best;
}

/* The legal-card rules of one hand (contract and ruleset fixed), spec 8.3-8.4; the fields of
 * tarock_logs.rules.slovenian.tricks.PlayRules. */
typedef struct {
    int negative;         /* klop, berac, odprti berac: must overtake */
    int pagat_restricted; /* the pagat only when it is the only legal card */
    int pagat_last_tarok; /* ... or the last tarok (ruleset option) */
    int by_rank;          /* OpenSpiel's overtake rule: by rank within the suit played */
    int emperor_always;   /* skis and mond in the trick force the pagat whenever it is held */
    int colour_valat;     /* the colour-valat trick-winner rule */
    int protected_[2];    /* announced ultimo cards, in the engine's order (pagat first), or -1 */
    int protect_either;   /* only protected cards legal: either may be played (else the pagat
                             is kept, spec 8.4(c)); 0 in the solver's rules */
} tk_rules;

/* OpenSpiel's overtake rule (Appendix A.6): judged by rank within the suit played. */
static inline tk_set tk_overtake_rank(tk_set hand, const int *trick, int k, tk_set cands,
                                      int suit) {
    tk_set tm = 0;
    for (int i = 0; i < k; i++) tm |= TK_BIT(trick[i]);
    if ((hand & TK_BIT(TK_PAGAT)) && (tm & TK_BIT(TK_MOND)) && (tm & TK_BIT(TK_SKIS)))
        return TK_BIT(TK_PAGAT);
    int has_tarok = (tm & TK_TAROKS) != 0;
    if (suit != 0 && has_tarok) return cands;
    if (suit == 0 && !has_tarok) return cands;
    int beat = 0;
    for (int i = 0; i < k; i++)
        if (tk_suit_of(trick[i]) == suit && tk_strength(trick[i]) > beat)
            beat = tk_strength(trick[i]);
    tk_set higher = 0;
    for (tk_set c = cands; c; c &= c - 1) {
        int id = tk_lowest(c);
        if (tk_strength(id) > beat) higher |= TK_BIT(id);
    }
    return higher ? higher : cands;
}

/* The legal cards of `hand` given the trick so far `trick[0..k-1]` (spec 8.3-8.4), exactly as
 * PlayRules.legal decides them. */
static inline tk_set tk_legal(tk_set hand, const int *trick, int k, const tk_rules *r) {
    tk_set cands;
    int suit = -1; /* the suit the candidates were chosen from; -1 when leading or "any" */
    if (k == 0) {
        cands = hand;
    } else {
        int led = tk_suit_of(trick[0]);
        cands = hand & tk_suit_mask(led);
        if (cands) {
            suit = led;
        } else if (hand & TK_TAROKS) {
            cands = hand & TK_TAROKS;
            suit = 0;
        } else {
            cands = hand;
        }
        if (r->negative && suit >= 0) {
            if (r->by_rank) {
                cands = tk_overtake_rank(hand, trick, k, cands, suit);
            } else {
                tk_set tm = 0;
                for (int i = 0; i < k; i++) tm |= TK_BIT(trick[i]);
                if (r->emperor_always && (hand & TK_BIT(TK_PAGAT)) && (tm & TK_BIT(TK_MOND)) &&
                    (tm & TK_BIT(TK_SKIS))) {
                    cands = TK_BIT(TK_PAGAT);
                } else {
                    int probe[5];
                    for (int i = 0; i < k; i++) probe[i] = trick[i];
                    tk_set over = 0;
                    for (tk_set c = cands; c; c &= c - 1) {
                        probe[k] = tk_lowest(c);
                        if (tk_winner(probe, k + 1, r->colour_valat) == k) over |= c & -c;
                    }
                    if (over) cands = over;
                }
            }
        }
    }
    if (r->pagat_restricted && (cands & TK_BIT(TK_PAGAT)) && tk_popcount(cands) > 1) {
        if (!r->pagat_last_tarok || (hand & TK_TAROKS & ~TK_BIT(TK_PAGAT)))
            cands &= ~TK_BIT(TK_PAGAT);
    }
    /* spec 8.4(c): a protected card waits while another card is legal; when only protected
     * cards are legal, either may be played under protect_either */
    tk_set held = 0;
    for (int i = 0; i < 2; i++)
        if (r->protected_[i] >= 0) held |= cands & TK_BIT(r->protected_[i]);
    if (held && (cands & ~held || !r->protect_either)) {
        for (int i = 0; i < 2; i++) {
            int x = r->protected_[i];
            if (x >= 0 && tk_popcount(cands) > 1 && (cands & TK_BIT(x))) cands &= ~TK_BIT(x);
        }
    }
    return cands;
}

#endif /* TAROCK_CARDS_H */
