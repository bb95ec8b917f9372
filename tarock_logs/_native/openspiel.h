/* OpenSpiel's returns() of one Slovenian tarok hand, in C over the card ids of cards.h.
 *
 * The twin of tarock_logs/rules/slovenian/openspiel_scoring.py: _play_out and its scoring
 * (the Python stays the readable reference and the fallback; the rules and their code defects
 * are ../shared/rules/openspiel-tarok.md 7-10 and Appendix A.7 of slovenian-tarok.md, and the
 * module docstring there). The piles are rebuilt from the hand's facts (the declarer's
 * discards, the tricks, klop's talon gifts to the first six trick winners, the talon
 * remainder the called king brings home) and scored: card points round(sum of values -
 * 0.666 x cards) of a whole pile (OpenSpiel's card values are cards.h's tk_points), the
 * contract's value, valat by a 48-card pile, the called king or the pagat among the last
 * trick winner's last n cards, the "kings" defect (a 4-card pile), and the mondfang's -20.
 *
 * tests/rules/slovenian/test_native_openspiel.py holds the two equal. Depends on cards.h only.
 */
#ifndef TAROCK_OPENSPIEL_H
#define TAROCK_OPENSPIEL_H

#include <math.h>

#include "cards.h"

/* what the contract asks (openspiel_scoring.CONTRACT_VALUES / TALON_CARDS) */
enum { TK_OS_KLOP = 0, TK_OS_TALON = 1, TK_OS_BERAC = 2, TK_OS_VALAT = 3, TK_OS_SOLO_BREZ = 4 };

typedef struct {
    int leader;
    int winner;
    int n;
    int cards[4];
} tk_os_trick;

/* a seat's pile: its cards and the last ones added, in order (for the last trick's ultimos) */
typedef struct {
    tk_set mask;
    int tail[16];
    int ntail;
} tk_os_pile;

static inline int tk_os_add(tk_os_pile *p, int card) {
    tk_set b = TK_BIT(card);
    if (p->mask & b) return -1;
    p->mask |= b;
    if (p->ntail == 16) {
        for (int i = 1; i < 16; i++) p->tail[i - 1] = p->tail[i];
        p->ntail = 15;
    }
    p->tail[p->ntail++] = card;
    return 0;
}

static inline int tk_os_values(tk_set m) {
    int v = 0;
    for (; m; m &= m - 1) v += tk_points(tk_lowest(m));
    return v;
}

static inline int tk_os_points(int value_sum, int cards) {
    return (int)nearbyint((double)value_sum - 0.666 * (double)cards);
}

/* Fill returns[0..n-1]; 0, or -1 to decline (a card twice, a seat outside the table: the
 * reference reports it). */
static int tk_openspiel_returns(int n, int kind, int value, int k, int declarer, int partner,
                                int called_king, const int *talon, int ntalon, int talon_group,
                                const int *discards, int ndiscards, const tk_os_trick *tricks,
                                int ntricks, int *returns) {
    if (n != 3 && n != 4) return -1;
    if (kind != TK_OS_KLOP && (declarer < 0 || declarer >= n)) return -1;
    if (partner >= n || ntalon > 6) return -1;
    tk_os_pile piles[4] = {{0}};
    tk_set seen = 0;
    int rem[6], nrem = 0;
    int group[3], ngroup = 0;
    int mond_loser = -1, king_from_talon = 0;
    for (int i = 0; i < ntalon; i++) rem[nrem++] = talon[i];
    if (kind == TK_OS_TALON) {
        if (k <= 0 || k > 3) return -1;
        if (talon_group >= 0 && talon_group < ntalon / k) {
            int start = talon_group * k;
            nrem = 0;
            for (int i = 0; i < ntalon; i++) {
                if (i >= start && i < start + k)
                    group[ngroup++] = talon[i];
                else
                    rem[nrem++] = talon[i];
            }
        }
        int mond_in_talon = 0, mond_taken = 0;
        for (int i = 0; i < ntalon; i++) mond_in_talon |= talon[i] == TK_MOND;
        for (int i = 0; i < ngroup; i++) {
            mond_taken |= group[i] == TK_MOND;
            king_from_talon |= called_king >= 0 && group[i] == called_king;
        }
        if (mond_in_talon && !mond_taken) mond_loser = declarer; /* the mond left in the talon */
        for (int i = 0; i < ndiscards; i++) {
            if (seen & TK_BIT(discards[i])) return -1;
            seen |= TK_BIT(discards[i]);
            if (tk_os_add(&piles[declarer], discards[i]) < 0) return -1;
        }
    }
    int klop = kind == TK_OS_KLOP;
    int mond_rule = kind == TK_OS_TALON || kind == TK_OS_SOLO_BREZ;
    for (int t = 0; t < ntricks; t++) {
        const tk_os_trick *tr = &tricks[t];
        int w = tr->winner, ld = tr->leader;
        if (w < 0 || w >= n || ld < 0 || ld >= n) return -1;
        tk_set tm = 0;
        for (int j = 0; j < tr->n; j++) {
            tk_set b = TK_BIT(tr->cards[j]);
            if (seen & b) return -1;
            seen |= b;
            tm |= b;
            if (tk_os_add(&piles[w], tr->cards[j]) < 0) return -1;
        }
        int i = ((w - ld) % n + n) % n; /* the winner's card: seats follow the leader */
        int wc = i < tr->n ? tr->cards[i] : -1;
        if (klop) {
            if (nrem) { /* each of the first six tricks takes the next talon card */
                if (tk_os_add(&piles[w], rem[0]) < 0) return -1;
                for (int r = 1; r < nrem; r++) rem[r - 1] = rem[r];
                nrem--;
            }
        } else if (king_from_talon && wc == called_king) {
            /* the called king came from the talon: its trick takes the talon remainder */
            for (int r = 0; r < nrem; r++) {
                if (rem[r] == TK_MOND) mond_loser = -1; /* the mondfang cancelled */
                if (tk_os_add(&piles[w], rem[r]) < 0) return -1;
            }
            nrem = 0;
        } else if (mond_rule && (tm & TK_BIT(TK_MOND))) {
            if (wc == TK_SKIS || wc == TK_PAGAT) {
                for (int j = 0; j < tr->n; j++)
                    if (tr->cards[j] == TK_MOND) mond_loser = (ld + j) % n;
            }
        }
    }
    for (int s = 0; s < n; s++) returns[s] = 0;
    if (klop) {
        int pts[4], full = 0, empty = 0;
        for (int s = 0; s < n; s++) {
            pts[s] = tk_os_points(tk_os_values(piles[s].mask), tk_popcount(piles[s].mask));
            full |= pts[s] > 35;
            empty |= pts[s] == 0;
        }
        for (int s = 0; s < n; s++)
            returns[s] = (full || empty) ? (pts[s] > 35 ? -70 : pts[s] == 0 ? 70 : 0) : -pts[s];
    } else if (kind == TK_OS_TALON) {
        int in_side[4] = {0};
        in_side[declarer] = 1;
        if (partner >= 0) in_side[partner] = 1;
        int n_t = 0, n_o = 0, v_t = 0;
        for (int s = 0; s < n; s++) {
            int c = tk_popcount(piles[s].mask);
            if (in_side[s]) {
                n_t += c;
                v_t += tk_os_values(piles[s].mask);
            } else {
                n_o += c;
            }
        }
        int score;
        if (n_t == 48) {
            score = 250;
        } else if (n_o == 48) {
            score = -250;
        } else {
            int pts = tk_os_points(v_t, n_t);
            score = (pts - 35) + (pts > 35 ? value : -value);
            if (ntricks) {
                int lw = tricks[ntricks - 1].winner;
                const tk_os_pile *p = &piles[lw];
                int from = p->ntail > n ? p->ntail - n : 0;
                int king = 0, pagat = 0;
                for (int j = from; j < p->ntail; j++) {
                    king |= called_king >= 0 && p->tail[j] == called_king;
                    pagat |= p->tail[j] == TK_PAGAT;
                }
                int sign = in_side[lw] ? 1 : -1;
                if (king)
                    score += 10 * sign;
                else if (pagat)
                    score += 25 * sign;
            }
            if (n_t == 4)
                score += 10;
            else if (n_o == 4)
                score -= 10;
        }
        for (int s = 0; s < n; s++) returns[s] = in_side[s] ? score : 0;
    } else {
        tk_set dp = piles[declarer].mask;
        int won;
        if (kind == TK_OS_BERAC)
            won = dp == 0;
        else if (kind == TK_OS_VALAT)
            won = tk_popcount(dp) == 48;
        else
            won = tk_os_points(tk_os_values(dp), tk_popcount(dp)) > 35;
        returns[declarer] = won ? value : -value;
    }
    if (mond_loser >= 0) returns[mond_loser] += -20;
    return 0;
}

#endif /* TAROCK_OPENSPIEL_H */
