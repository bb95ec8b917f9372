/* The itemised score of a clean Slovenian hand the native whole hand played (slohand.h), under
 * a ruleset not scored by OpenSpiel's returns: the native home of the reference's reading of
 * the scoring facts from the tricks (tarock_logs/rules/slovenian/scoring.py, hand_facts) and
 * of its items (score_facts with _declarer_game, _bonus, _klop and _award_radelci) for a hand
 * without irregularities.
 *
 * The items come in the reference's order with its values and seats (seat -1: written by
 * every member of the declarer's side); the totals per seat; whether the declarer's side won
 * (-1 in klop); the radelci after the hand. Whatever the reference would leave unverified (a
 * hand that stops early, piles that do not hold the pack) declines (-1): the caller then
 * scores the hand in Python. The ingest lane (store/lane.py) uses this;
 * tests/store/test_lane.py holds its rows to the careful path's, whose score is the
 * reference's, on simulated sessions under many ruleset options.
 *
 * Vocabulary: the difference (razlika) is |the declarer side's card points, rounded, - 35|;
 * a radelc doubles its holder's next result as declarer; mondfang is the penalty for losing
 * the mond (T21); the talon's remainder goes to the side that wins the called king when the
 * declarer took it from the talon (spec 6.3). Depends on cards.h and slohand.h.
 */
#ifndef TAROCK_SLOSCORE_H
#define TAROCK_SLOSCORE_H

#include "cards.h"
#include "slohand.h"

/* the score items (scoring.py's item names), in this order */
enum { SI_CONTRACT = 0, SI_DIFFERENCE, SI_TRULA, SI_KRALJI, SI_PAGAT_ULTIMO, SI_KRALJ_ULTIMO,
       SI_VALAT, SI_BARVNI_VALAT, SI_RADELC, SI_MONDFANG, SI_KLOP, SI_NITEMS };

#define SS_MAX_ITEMS 24

/* what scoring reads of the ruleset (contracts.Rules) and of the contract table beyond the
 * sh_config; filled by field name like it (module.c's SS_CONFIG_FIELDS, fast/codec.py) */
typedef struct {
    int win_threshold;            /* thirds the declarer's side needs (106: 35 and a card) */
    int diff_nearest_5;           /* the difference rounded to 5 */
    int klop_nearest_5;           /* klop points rounded to 5 */
    int solo_brez_difference;     /* solo brez (brez_options) counts the difference */
    int silent_ultimo_failure_counts; /* a silent ultimo failed in the last trick counts */
    int count_remainder;          /* trula and kings count in the talon's remainder */
    int mondfang_when_valat;      /* mondfang counts in a valat */
    int mondfang_value;
    int radelci;                  /* radelci are kept */
    int radelci_from_silent_valat;
    int klop_kontra_full_and_empty_doubled; /* klop kontra doubles a full-and-empty pair too */
    int value[SH_MAX_CONTRACTS];  /* Rules.contract_value */
    int radelc[SH_MAX_CONTRACTS]; /* a game worth 70 or more: every seat earns a radelc */
} ss_config;

typedef struct {
    int item, seat, value;
} ss_item;

typedef struct {
    int nitems;
    ss_item items[SS_MAX_ITEMS];
    int totals[4];
    int won; /* 1, 0, or -1 (klop: nobody declares) */
    int radelci[4];
} ss_score;

static const int SS_BONUS_VALUE[4] = {10, 10, 25, 10}; /* trula, kralji, pagat/kralj ultimo */

static int ss_add(ss_score *o, int item, int value, int seat) {
    if (o->nitems >= SS_MAX_ITEMS) return -1;
    o->items[o->nitems].item = item;
    o->items[o->nitems].value = value;
    o->items[o->nitems].seat = seat;
    o->nitems++;
    return 0;
}

/* Score the hand `r` (played under `c`): `dealer` who dealt, `talon` the talon's card ids as
 * dealt, `self_call` the declarer called a king of his own hand, `rad` the radelci before the
 * hand (each >= 0). 0 with `o` filled, or -1 to decline. */
static int ss_score_hand(const sh_config *c, const ss_config *sc, const sh_result *r,
                         int dealer, const int *talon, int ntalon, int self_call, const int *rad,
                         ss_score *o) {
    const int n = c->n, contract = r->contract, nt = r->ntricks;
    const int klop = c->alone[contract];
    const int complete = nt >= c->tricks_total;
    int ntr[4] = {0};
    tk_set pile[4] = {0};
    for (int t = 0; t < nt; t++) {
        ntr[r->tricks[t].winner]++;
        pile[r->tricks[t].winner] |= r->tricks[t].mask;
    }
    int kon[1 + SH_NBONUS] = {0}, ann[SH_NBONUS];
    for (int b = 0; b < SH_NBONUS; b++) ann[b] = -1;
    for (int i = 0; i < r->nann; i++) ann[r->ann[i][1]] = r->ann[i][2];
    for (int i = 0; i < r->nkontra; i++) kon[r->kontra[i][1]] = r->kontra[i][2];
    int radelci[4] = {0};
    for (int s = 0; s < n; s++) radelci[s] = rad[s];
#define SS_FACTOR(s) ((sc->radelci && rad[(s)] >= 1) ? 2 : 1)
    o->nitems = 0;
    o->won = -1;
    int valat_side = -1; /* 0 the declarer's side won every trick, 1 the defenders */

    if (klop) { /* _klop (spec 9.8) */
        for (int i = 0; c->talon_gifts[contract] && i < 6 && i < ntalon && i < nt; i++)
            pile[r->tricks[i].winner] |= TK_BIT(talon[i]); /* the talon's gifts */
        int th[4], sum = 0;
        for (int s = 0; s < n; s++) sum += th[s] = tk_thirds(pile[s]);
        if (!complete || sum != 210) return -1;
        int full = 0, empty = 0, base[4];
        for (int s = 0; s < n; s++) {
            if (th[s] >= sc->win_threshold) full |= 1 << s;
            if (ntr[s] == 0) empty |= 1 << s;
        }
        for (int s = 0; s < n; s++) {
            if (full || empty) {
                base[s] = (full & (1 << s)) ? -70 : (empty & (1 << s)) ? 70 : 0;
            } else {
                int p = (th[s] + 1) / 3;
                if (sc->klop_nearest_5) p = 5 * ((p + 2) / 5);
                base[s] = -p;
            }
        }
        if (kon[SH_GAME] && (!(full && empty) || sc->klop_kontra_full_and_empty_doubled))
            for (int s = 0; s < n; s++) base[s] *= 2;
        for (int i = 0; i < n; i++) {
            int s = (dealer + 1 + i) % n; /* the active seats in order from P1 */
            if (ss_add(o, SI_KLOP, base[s], s) < 0) return -1;
            if (SS_FACTOR(s) == 2 && base[s] && ss_add(o, SI_RADELC, base[s], s) < 0) return -1;
            if (base[s] > 0 && sc->radelci && radelci[s] > 0) radelci[s]--;
        }
    } else { /* _declarer_game (spec 9.3-9.7, 9.9) */
        const int d = r->declarer, p = r->partner;
        if (d < 0) return -1;
        const int two = p >= 0 && p != d;
#define SS_M(s) ((s) == d || (two && (s) == p))
        const int dtr = ntr[d], m_tr = dtr + (two ? ntr[p] : 0), o_tr = nt - m_tr;
        if (complete)
            valat_side = o_tr == 0 ? 0 : m_tr == 0 ? 1 : -1;
        else if (!r->early)
            return -1; /* stops early: scored as far as played (the reference's note) */
        const int kg = 1 << kon[SH_GAME], F = SS_FACTOR(d);
        int won, R = 0;
        if (c->no_trick[contract] || c->every_trick[contract]) { /* berac, valat (spec 9.7) */
            int V = sc->value[contract];
            won = c->no_trick[contract] ? dtr == 0 : dtr == c->tricks_total;
            R = (won ? V : -V) * kg;
            if (ss_add(o, SI_CONTRACT, R, -1) < 0) return -1;
            if (F == 2 && ss_add(o, SI_RADELC, R, -1) < 0) return -1;
            if (won && F == 2) radelci[d]--;
            o->won = won;
        } else {
            /* the piles (spec 9.2, 6.3): the declarer side's tricks and discards, the talon's
             * remainder to the side the called king brings it to */
            const int tk = c->talon[contract], ck = r->called_king;
            tk_set tmask = 0, taken = 0, disc = 0;
            for (int i = 0; i < ntalon; i++) tmask |= TK_BIT(talon[i]);
            if (r->talon_group >= 0)
                for (int i = r->talon_group * tk; i < (r->talon_group + 1) * tk && i < ntalon; i++)
                    taken |= TK_BIT(talon[i]);
            for (int i = 0; i < r->ndiscards; i++) disc |= TK_BIT(r->discards[i]);
            tk_set rem = tk ? (tmask & ~taken) : tmask;
            int rem_to_m = 0;
            if (tk && ck >= 0 && (tmask & TK_BIT(ck)) && (taken & TK_BIT(ck)) && !self_call)
                for (int t = 0; t < nt; t++)
                    if (r->tricks[t].cards[r->tricks[t].wi] == ck) rem_to_m = 1;
            tk_set mm = disc, mo = 0;
            for (int s = 0; s < n; s++) {
                if (SS_M(s)) mm |= pile[s];
                else mo |= pile[s];
            }
            if (rem_to_m) mm |= rem;
            else mo |= rem;
            const int t_m = tk_thirds(mm), t_o = tk_thirds(mo);
            if (complete && (t_m + t_o != 210 || tk_popcount(mm) + tk_popcount(mo) != 54))
                return -1; /* card conservation broken */
            tk_set pm = mm, po = mo;
            if (!sc->count_remainder) {
                pm &= ~rem;
                po &= ~rem;
            }
            /* the bonuses' outcomes (spec 7.1): -1 none, 0 the declarer's side, 1 the
             * defenders; `failed` the side that failed a silent ultimo in the last trick */
            int outcome[4], failed[4] = {-1, -1, -1, -1}, present[4] = {1, 1, 1, 0};
            outcome[0] = (pm & TK_TRULA) == TK_TRULA ? 0 : (po & TK_TRULA) == TK_TRULA ? 1 : -1;
            outcome[1] = (pm & TK_KINGS) == TK_KINGS ? 0 : (po & TK_KINGS) == TK_KINGS ? 1 : -1;
            outcome[2] = outcome[3] = -1;
            const tk_trick *last = nt >= c->tricks_total ? &r->tricks[nt - 1] : NULL;
            if (last) {
                if (last->cards[last->wi] == TK_PAGAT) {
                    outcome[2] = SS_M(last->winner) ? 0 : 1;
                } else {
                    for (int j = 0; j < last->n; j++)
                        if (last->cards[j] == TK_PAGAT)
                            failed[2] = SS_M((last->leader + j) % n) ? 0 : 1;
                }
            }
            if (ck >= 0 && c->king_call[contract] && n == 4) {
                present[3] = 1;
                int in_last = 0;
                for (int j = 0; last && j < last->n; j++)
                    if (last->cards[j] == ck) in_last = 1;
                if (in_last) {
                    if (SS_M(last->winner)) outcome[3] = 0;
                    else failed[3] = 0;
                }
            }
            /* the mond's captures (spec 9.9): the seat that lost it, per event */
            int mond[8], nmond = 0;
            for (int t = 0; t < nt; t++) {
                const tk_trick *tr = &r->tricks[t];
                if (!(tr->mask & TK_BIT(TK_MOND)) || tr->cards[tr->wi] == TK_MOND) continue;
                for (int j = 0; j < tr->n; j++)
                    if (tr->cards[j] == TK_MOND) mond[nmond++] = (tr->leader + j) % n;
            }
            if (tk && (tmask & TK_BIT(TK_MOND)) && !(taken & TK_BIT(TK_MOND)) && !rem_to_m)
                mond[nmond++] = d; /* left in the talon by the declarer */

            if (ann[SH_BARVNI_VALAT] >= 0) { /* announced barvni valat (spec 9.6) */
                int kb = kon[1 + SH_BARVNI_VALAT] > kon[SH_GAME] ? kon[1 + SH_BARVNI_VALAT]
                                                                  : kon[SH_GAME];
                won = dtr == c->tricks_total;
                R = (won ? 125 : -125) * (1 << kb);
                if (ss_add(o, SI_BARVNI_VALAT, R, -1) < 0) return -1;
                if (F == 2 && ss_add(o, SI_RADELC, R, -1) < 0) return -1;
                if (won && F == 2) radelci[d]--;
                o->won = won;
            } else {
                /* the game and the difference (spec 9.3, 9.4), the bonuses (9.5), valat */
                int game_won = t_m >= sc->win_threshold;
                int p_m = (t_m + 1) / 3, diff = p_m > 35 ? p_m - 35 : 35 - p_m;
                if (sc->diff_nearest_5) diff = 5 * ((diff + 2) / 5);
                if (c->brez_options[contract] && !sc->solo_brez_difference) diff = 0;
                int sg = game_won ? 1 : -1, V = sc->value[contract];
                ss_item lines[8];
                int nl = 0;
                lines[nl++] = (ss_item){SI_CONTRACT, -1, sg * V * kg};
                lines[nl++] = (ss_item){SI_DIFFERENCE, -1, sg * diff * kg};
                if (c->has_bonuses[contract]) {
                    for (int b = 0; b < 4; b++) { /* _bonus */
                        if (!present[b] && ann[b] < 0) continue;
                        int v = SS_BONUS_VALUE[b], val;
                        if (ann[b] >= 0) {
                            int kb = 1 << kon[1 + b];
                            if (ann[b] == 0)
                                val = (outcome[b] == 0 ? 2 * v : -2 * v) * kb;
                            else
                                val = (outcome[b] == 1 ? -2 * v : 2 * v) * kb;
                        } else if (outcome[b] == 0) {
                            val = v;
                        } else if (outcome[b] == 1) {
                            val = -v;
                        } else if (failed[b] >= 0 && sc->silent_ultimo_failure_counts) {
                            val = failed[b] == 0 ? -v : v;
                        } else {
                            continue;
                        }
                        lines[nl++] = (ss_item){SI_TRULA + b, -1, val};
                    }
                }
                const int kv = 1 << kon[1 + SH_VALAT];
                ss_item fin[10];
                int nf = 0;
                if (ann[SH_VALAT] >= 0) {
                    if (valat_side == 0) {
                        fin[nf++] = (ss_item){SI_VALAT, -1, 500 * kv};
                    } else if (valat_side == 1) {
                        fin[nf++] = (ss_item){SI_VALAT, -1, -250 * kg};
                        fin[nf++] = (ss_item){SI_VALAT, -1, -500 * kv};
                    } else {
                        for (int j = 0; j < nl; j++) fin[nf++] = lines[j];
                        fin[nf++] = (ss_item){SI_VALAT, -1, -500 * kv};
                    }
                } else if (valat_side == 0) {
                    fin[nf++] = (ss_item){SI_VALAT, -1, 250 * kg};
                } else if (valat_side == 1) {
                    fin[nf++] = (ss_item){SI_VALAT, -1, -250 * kg};
                } else {
                    for (int j = 0; j < nl; j++) fin[nf++] = lines[j];
                }
                for (int j = 0; j < nf; j++) {
                    if (ss_add(o, fin[j].item, fin[j].value, -1) < 0) return -1;
                    R += fin[j].value;
                }
                if (F == 2 && ss_add(o, SI_RADELC, R, -1) < 0) return -1;
                won = valat_side >= 0 ? valat_side == 0 : game_won;
                if (won && F == 2) radelci[d]--;
                o->won = won;
                if (valat_side < 0 || sc->mondfang_when_valat)
                    for (int j = 0; j < nmond; j++)
                        if (ss_add(o, SI_MONDFANG, -sc->mondfang_value, mond[j]) < 0) return -1;
            }
        }
#undef SS_M
    }
#undef SS_FACTOR
    /* _award_radelci (spec 9.10): a game worth 70 or more earns every seat a radelc */
    if (sc->radelci) {
        int award = sc->radelc[contract] || ann[SH_BARVNI_VALAT] >= 0;
        if (!award && sc->radelci_from_silent_valat && !klop &&
            (valat_side >= 0 || ann[SH_VALAT] >= 0))
            award = 1;
        for (int s = 0; s < n; s++) {
            radelci[s] += award;
            if (radelci[s] < 0) radelci[s] = 0;
        }
    } else {
        for (int s = 0; s < n; s++) radelci[s] = 0;
    }
    for (int s = 0; s < 4; s++) o->totals[s] = 0;
    for (int j = 0; j < o->nitems; j++) {
        const ss_item *it = &o->items[j];
        if (it->seat >= 0) {
            o->totals[it->seat] += it->value;
        } else if (!klop) {
            o->totals[r->declarer] += it->value;
            if (r->partner >= 0 && r->partner != r->declarer) o->totals[r->partner] += it->value;
        }
    }
    for (int s = 0; s < n; s++) o->radelci[s] = radelci[s];
    return 0;
}

#endif /* TAROCK_SLOSCORE_H */
