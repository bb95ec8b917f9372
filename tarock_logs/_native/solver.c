/* The perfect-information solver (see solver.h and tarock_logs/analysis/search.py, whose
 * algorithm this is, function for function). */
#if defined(__linux__) && !defined(_GNU_SOURCE)
#define _GNU_SOURCE /* posix_memalign, madvise */
#endif
#include "solver.h"

#include <stdlib.h>
#include <string.h>
#ifdef TRACE
#include <stdio.h>
#endif
#if defined(__linux__)
#include <sys/mman.h>
#endif

/* The transposition table: one random memory access per trick boundary, the search's main
 * cost (a cache and TLB miss each). Buckets (four 16-byte entries, 64 bytes) start on a cache
 * line, and on Linux the table asks for transparent huge pages (2 MB), which takes most of the
 * TLB misses away. */
static tk_entry *tt_alloc(size_t entries) {
    size_t bytes = entries * sizeof(tk_entry);
#if defined(__linux__)
    void *p = NULL;
    size_t align = bytes >= ((size_t)2 << 20) ? ((size_t)2 << 20) : 64;
    if (posix_memalign(&p, align, bytes) != 0) return NULL;
#ifdef MADV_HUGEPAGE
    if (align > 64) madvise(p, bytes, MADV_HUGEPAGE);
#endif
    memset(p, 0, bytes);
    return (tk_entry *)p;
#else
    return (tk_entry *)calloc(entries, sizeof(tk_entry));
#endif
}

/* ------------------------------------------------------------------------ the objective */

static int game_value(const tk_objective *o, int tm) {
    int won = tm >= o->win_threshold;
    int diff = abs((tm + 1) / 3 - 35);
    if (o->diff_nearest_5) diff = 5 * ((diff + 2) / 5);
    if (o->no_difference) diff = 0;
    return (won ? 1 : -1) * (o->value + diff) * o->kontra_game;
}

static int bonus(const tk_objective *o, int ann, int k, int v, int outcome, int failed) {
    if (ann == TK_SIDE_M) return (outcome == TK_SIDE_M ? 2 * v : -2 * v) * k;
    if (ann == TK_SIDE_O) return (outcome == TK_SIDE_O ? -2 * v : 2 * v) * k;
    if (outcome == TK_SIDE_M) return v;
    if (outcome == TK_SIDE_O) return -v;
    if (failed && o->silent_ultimo_failure_counts) return failed == TK_SIDE_M ? -v : v;
    return 0;
}

static int set_outcome(const tk_objective *o, int took_m, int took_o, int discarded, int in_rem,
                       int rem_to_m) {
    int rem_m = in_rem == 0 || (o->count_remainder && rem_to_m);
    int rem_o = in_rem == 0 || (o->count_remainder && !rem_to_m);
    if (!took_o && rem_m) return TK_SIDE_M;
    if (!took_m && !discarded && rem_o) return TK_SIDE_O;
    return TK_SIDE_NONE;
}

static int klop_leaf(const tk_objective *o, const int *acc, int n) {
    int any_full = 0, any_empty = 0, p = o->perspective;
    for (int i = 0; i < n; i++) {
        if (acc[i] >= o->win_threshold) any_full = 1;
        if (!acc[4 + i]) any_empty = 1;
    }
    int base;
    if (any_full || any_empty) {
        base = acc[p] >= o->win_threshold ? -70 : !acc[4 + p] ? 70 : 0;
    } else {
        int pts = (acc[p] + 1) / 3;
        if (o->klop_nearest_5) pts = 5 * ((pts + 2) / 5);
        base = -pts;
    }
    if (o->klop_kontra && (!(any_full && any_empty) || o->klop_full_empty_doubled)) base *= 2;
    return base * o->radelc;
}

int tk_leaf(const tk_objective *o, const int *acc, const tk_last *last, int n) {
    if (o->kind == TK_KLOP) return klop_leaf(o, acc, n);
    int tm = acc[0], m_trick = acc[1], o_trick = acc[2], king_won = acc[3];
    int rem_to_m = o->remainder_if_king_wins && king_won;
    int t_m = tm + o->discard_thirds + (rem_to_m ? o->remainder_thirds : 0);
    int valat = !o_trick ? TK_SIDE_M : !m_trick ? TK_SIDE_O : TK_SIDE_NONE;
    int r = 0;
    if (valat == TK_SIDE_NONE || o->valat_announced) {
        r = game_value(o, t_m);
        if (o->bonuses) {
            int tr = set_outcome(o, acc[4], acc[5], o->trula_discarded, o->trula_in_remainder,
                                 rem_to_m);
            int kg = set_outcome(o, acc[6], acc[7], o->kings_discarded, o->kings_in_remainder,
                                 rem_to_m);
            r += bonus(o, o->trula_ann, o->trula_k, 10, tr, 0);
            r += bonus(o, o->kralji_ann, o->kralji_k, 10, kg, 0);
            r += bonus(o, o->pagat_ann, o->pagat_k, 25, last->pagat, last->pagat_failed);
            if (o->kralj_exists || o->kralj_ann)
                r += bonus(o, o->kralj_ann, o->kralj_k, 10, last->kralj ? TK_SIDE_M : 0,
                           last->kralj_failed ? TK_SIDE_M : 0);
        }
    }
    if (o->valat_announced) {
        int kv = o->valat_k;
        if (valat == TK_SIDE_M)
            r = 500 * kv;
        else if (valat == TK_SIDE_O)
            r = -250 * o->kontra_game - 500 * kv;
        else
            r -= 500 * kv;
    } else if (valat == TK_SIDE_M) {
        r = 250 * o->kontra_game;
    } else if (valat == TK_SIDE_O) {
        r = -250 * o->kontra_game;
    }
    r *= o->radelc;
    if (valat == TK_SIDE_NONE || o->mondfang_when_valat) {
        if (acc[8] == TK_SIDE_M) r -= o->mondfang;
        if (acc[8] == TK_SIDE_O) r += o->mondfang;
        if (o->mond_in_talon && !rem_to_m) r -= o->mondfang;
    }
    return r;
}

static void bonus_range(const tk_objective *o, int ann, int k, int v, const int *outs, int no,
                        const int *fails, int nf, int *lo, int *hi) {
    int mn = TK_INF, mx = -TK_INF;
    for (int i = 0; i < no; i++)
        for (int j = 0; j < nf; j++) {
            int x = bonus(o, ann, k, v, outs[i], fails[j]);
            if (x < mn) mn = x;
            if (x > mx) mx = x;
        }
    *lo += mn;
    *hi += mx;
}

static int add_unique(int *arr, int n, int x) {
    for (int i = 0; i < n; i++)
        if (arr[i] == x) return n;
    arr[n] = x;
    return n + 1;
}

/* The bounds of tk_bounds when the declarer side surely takes m_sure more thirds and the other
 * side o_sure (and so at least one trick each when > 0): see sure_takes. */
static void bounds_sure(const tk_objective *o, const int *acc, tk_set remaining, int m_sure,
                        int o_sure, int *plo, int *phi);

void tk_bounds(const tk_objective *o, const int *acc, tk_set remaining, int *plo, int *phi) {
    bounds_sure(o, acc, remaining, 0, 0, plo, phi);
}

/* The bounds of a normal contract but for the game value: every bound is
 * game_value(t) * radelc + a part that depends only on the facts, on which bonus cards are
 * still in play and on whether each side surely takes a trick (not on the thirds), and the
 * valat lines' values bring cmin / cmax (TK_INF / -TK_INF when no valat line is open). */
static void bounds_rest(const tk_objective *o, const int *acc, tk_set remaining, int m_sure,
                        int o_sure, int *blo, int *bhi, int *cmin, int *cmax) {
    int m_trick = acc[1], o_trick = acc[2], king_won = acc[3], mond = acc[8];
    int king_live = o->king >= 0 && ((remaining >> o->king) & 1);
    int kw_open = o->remainder_if_king_wins && !king_won && king_live;
    int rem_sure = o->remainder_if_king_wins && king_won;
    int lo = 0, hi = 0;
    if (o->bonuses) {
        int rems[2], nr = 0;
        if (kw_open) {
            rems[nr++] = 1;
            rems[nr++] = 0;
        } else {
            rems[nr++] = rem_sure;
        }
        const int none[1] = {TK_SIDE_NONE};
        for (int set = 0; set < 2; set++) {
            int took_m = acc[4 + 2 * set], took_o = acc[5 + 2 * set];
            int disc = set ? o->kings_discarded : o->trula_discarded;
            int in_rem = set ? o->kings_in_remainder : o->trula_in_remainder;
            tk_set cards = set ? TK_KINGS : TK_TRULA;
            int live = (remaining & cards) != 0;
            int outs[8], no = 0;
            no = add_unique(outs, no, TK_SIDE_NONE);
            for (int i = 0; i < nr; i++) {
                no = add_unique(outs, no, set_outcome(o, took_m, took_o, disc, in_rem, rems[i]));
                if (live) {
                    no = add_unique(outs, no, set_outcome(o, 1, took_o, disc, in_rem, rems[i]));
                    no = add_unique(outs, no, set_outcome(o, took_m, 1, disc, in_rem, rems[i]));
                }
            }
            if (set)
                bonus_range(o, o->kralji_ann, o->kralji_k, 10, outs, no, none, 1, &lo, &hi);
            else
                bonus_range(o, o->trula_ann, o->trula_k, 10, outs, no, none, 1, &lo, &hi);
        }
        const int sides3[3] = {TK_SIDE_NONE, TK_SIDE_M, TK_SIDE_O};
        int pl = (remaining >> TK_PAGAT) & 1;
        bonus_range(o, o->pagat_ann, o->pagat_k, 25, sides3, pl ? 3 : 1, sides3, pl ? 3 : 1,
                    &lo, &hi);
        if (o->kralj_exists || o->kralj_ann)
            bonus_range(o, o->kralj_ann, o->kralj_k, 10, sides3, king_live ? 2 : 1, sides3,
                        king_live ? 2 : 1, &lo, &hi);
    }
    if (o->valat_announced) {
        lo -= 500 * o->valat_k;
        hi -= 500 * o->valat_k;
    }
    int f = o->radelc;
    lo *= f;
    hi *= f;
    int mf = o->mondfang;
    int md_lo, md_hi;
    if ((remaining >> TK_MOND) & 1) {
        md_lo = -mf;
        md_hi = mf;
    } else {
        md_lo = md_hi = mond == TK_SIDE_M ? -mf : mond == TK_SIDE_O ? mf : 0;
    }
    int tal = 0;
    if (o->mond_in_talon) tal = rem_sure ? 0 : -mf;
    *blo = lo + md_lo + tal;
    *bhi = hi + md_hi + ((kw_open && o->mond_in_talon) ? 0 : tal);
    int cl[3], ch[3], nc = 1;
    int kg = o->kontra_game;
    /* a side that surely takes a trick rules out the other side's valat */
    if (o_sure) o_trick = 1;
    if (m_sure) m_trick = 1;
    if (o->valat_announced) {
        int kv = o->valat_k;
        if (!o_trick) {
            cl[nc] = ch[nc] = 500 * kv * f;
            nc++;
        }
        if (!m_trick) {
            cl[nc] = ch[nc] = (-250 * kg - 500 * kv) * f;
            nc++;
        }
    } else {
        if (!o_trick) {
            cl[nc] = ch[nc] = 250 * kg * f;
            nc++;
        }
        if (!m_trick) {
            cl[nc] = ch[nc] = -250 * kg * f;
            nc++;
        }
    }
    if (o->mondfang_when_valat && nc > 1) {
        int spread = mf * (o->mond_in_talon ? 2 : 1);
        for (int i = 1; i < nc; i++) {
            cl[i] -= spread;
            ch[i] += spread;
        }
    }
    int mn = TK_INF, mx = -TK_INF;
    for (int i = 1; i < nc; i++) {
        if (cl[i] < mn) mn = cl[i];
        if (ch[i] > mx) mx = ch[i];
    }
    *cmin = mn;
    *cmax = mx;
}

/* the thirds of the declarer side at the end, at least and at most (see bounds_sure) */
static inline void bounds_thirds(const tk_objective *o, const int *acc, tk_set remaining,
                                 int m_sure, int o_sure, int *t_lo, int *t_hi) {
    int rest = tk_thirds(remaining);
    int king_live = o->king >= 0 && ((remaining >> o->king) & 1);
    int kw_open = o->remainder_if_king_wins && !acc[3] && king_live;
    int rem_sure = o->remainder_if_king_wins && acc[3];
    int base = acc[0] + o->discard_thirds;
    *t_lo = base + m_sure + (rem_sure ? o->remainder_thirds : 0);
    *t_hi = base + rest - o_sure + ((rem_sure || kw_open) ? o->remainder_thirds : 0);
}

static inline void bounds_combine(const tk_objective *o, int t_lo, int t_hi, int blo, int bhi,
                                  int cmin, int cmax, int *plo, int *phi) {
    int lo = game_value(o, t_lo) * o->radelc + blo, hi = game_value(o, t_hi) * o->radelc + bhi;
    *plo = lo < cmin ? lo : cmin;
    *phi = hi > cmax ? hi : cmax;
}

static void bounds_sure(const tk_objective *o, const int *acc, tk_set remaining, int m_sure,
                        int o_sure, int *plo, int *phi) {
    if (o->kind != TK_NORMAL) {
        int big = (o->kind == TK_KLOP ? 140 : o->value) * o->radelc;
        *plo = -big;
        *phi = big;
        return;
    }
    int t_lo, t_hi, blo, bhi, cmin, cmax;
    bounds_thirds(o, acc, remaining, m_sure, o_sure, &t_lo, &t_hi);
    bounds_rest(o, acc, remaining, m_sure, o_sure, &blo, &bhi, &cmin, &cmax);
    bounds_combine(o, t_lo, t_hi, blo, bhi, cmin, cmax, plo, phi);
}

/* ------------------------------------------------------------------------ the solver */

static int gcd(int a, int b) {
    a = abs(a);
    b = abs(b);
    while (b) {
        int t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* The lattice every final value lies on: *off + *g * z. A finished play's value is a sum of
 * components (the game value, each bonus, valat, mondfang), each a multiple of its own step, so
 * the gcd of the steps divides every value (a conservative g: it may be smaller than the true
 * one, never larger). no_trick / all_tricks have the two values -value and +value. MTD(f) then
 * tests only lattice points: a test between two of them proves nothing new. */
static void value_lattice(const tk_objective *o, int *g, int *off) {
    *off = 0;
    if (o->kind == TK_NO_TRICK || o->kind == TK_ALL_TRICKS) {
        *g = 2 * abs(o->value);
        *off = o->value;
        if (!*g) *g = 1;
        return;
    }
    int r = o->radelc ? abs(o->radelc) : 1;
    if (o->kind == TK_KLOP) {
        *g = r * (o->klop_nearest_5 ? 5 : 1);
        return;
    }
    int a = 0;
    for (int t = 0; t <= 3 * 80; t++) a = gcd(a, game_value(o, t));
    if (o->bonuses) {
        a = gcd(a, 10 * (o->trula_k ? o->trula_k : 1));
        a = gcd(a, 10);
        a = gcd(a, 10 * (o->kralji_k ? o->kralji_k : 1));
        a = gcd(a, 25);
        a = gcd(a, 25 * (o->pagat_k ? o->pagat_k : 1));
        a = gcd(a, 10 * (o->kralj_k ? o->kralj_k : 1));
    }
    a = gcd(a, 250 * o->kontra_game);
    a = gcd(a, 500 * o->valat_k);
    if (!a) a = 1;
    *g = gcd(r * a, o->mondfang);
    if (!*g) *g = 1;
}

/* the lattice point at or below / at or above v */
static inline int lat_floor(const tk_solver *s, int v) {
    long long d = (long long)v - s->lat_off, g = s->lat_g;
    long long q = d >= 0 ? d / g : -((-d + g - 1) / g);
    return (int)(s->lat_off + q * g);
}
static inline int lat_ceil(const tk_solver *s, int v) {
    long long d = (long long)v - s->lat_off, g = s->lat_g;
    long long q = d >= 0 ? (d + g - 1) / g : -((-d) / g);
    return (int)(s->lat_off + q * g);
}

int tk_solver_init(tk_solver *s, int n, const int *maxside, const tk_rules *rules,
                   const int *objective, int tt_bits) {
    memset(s, 0, sizeof(*s));
    s->n = n;
    for (int i = 0; i < n; i++) s->maxside[i] = maxside[i];
    s->rules = *rules;
    memcpy(&s->ob, objective, sizeof(tk_objective));
    if (tt_bits < 4) tt_bits = 4;
    if (tt_bits > 28) tt_bits = 28;
    tt_bits++; /* 16-byte entries: twice as many as 2^tt_bits 32-byte ones, the same memory */
    s->tt = tt_alloc((size_t)1 << tt_bits);
    if (!s->tt) return -1;
    s->tt_mask = ((uint64_t)1 << tt_bits) - 1;
    value_lattice(&s->ob, &s->lat_g, &s->lat_off);
    if (s->ob.kind == TK_NORMAL && s->ob.radelc > 0) {
        /* monotone: the game value never falls with more thirds (the rest of the leaf does
         * not depend on them), so a table entry's bounds carry over to more / fewer thirds */
        int mono = 1, prev = game_value(&s->ob, 0);
        for (int t = 1; t <= 3 * 80 && mono; t++) {
            int g = game_value(&s->ob, t);
            mono = g >= prev;
            prev = g;
        }
        s->thirds_free = mono;
        s->lin_slope = s->ob.no_difference ? 0 : s->ob.kontra_game;
        int prev_lin = 0;
        s->lin_mono = 1;
        for (int x = 0; x < TK_LIN_N; x++) {
            int lin = game_value(&s->ob, x) - s->lin_slope * ((x + 1) / 3);
            s->lin_seg[x] = (int16_t)(x == 0 ? 0 : s->lin_seg[x - 1] + (lin != prev_lin));
            if (x && lin < prev_lin) s->lin_mono = 0;
            prev_lin = lin;
        }
    }
    return 0;
}

void tk_solver_free(tk_solver *s) {
    free(s->tt);
    s->tt = NULL;
}

void tk_solver_clear(tk_solver *s) {
    memset(s->tt, 0, (size_t)(s->tt_mask + 1) * sizeof(tk_entry));
    s->nodes = 0;
    s->probes = 0;
}

void tk_load(tk_solver *s, const tk_position *p) {
    for (int i = 0; i < 4; i++) {
        s->hand[i] = p->hand[i];
        s->trick[i] = p->trick[i];
    }
    for (int i = s->n - 1; i >= 0; i--)
        for (tk_set m = p->hand[i] & TK_ALL; m; m &= m - 1) s->owner[tk_lowest(m)] = (int8_t)i;
    s->live = 0;
    for (int i = 0; i < s->n; i++) s->live |= p->hand[i];
    for (int i = 0; i < p->tk; i++) s->live |= TK_BIT(p->trick[i]);
    s->tk = p->tk;
    s->leader = p->leader;
    s->done = p->done;
    memcpy(s->acc, p->acc, sizeof(s->acc));
}

static void save(const tk_solver *s, tk_position *p) {
    for (int i = 0; i < 4; i++) {
        p->hand[i] = s->hand[i];
        p->trick[i] = s->trick[i];
    }
    p->tk = s->tk;
    p->leader = s->leader;
    p->done = s->done;
    memcpy(p->acc, s->acc, sizeof(p->acc));
}

/* the other hands' cards and the trick's */
static inline tk_set outstanding(const tk_solver *s, int p) { return s->live & ~s->hand[p]; }

/* each card's points in thirds (tk_thirds of the card alone) */
static const int THIRDS_OF[TK_NCARDS] = {
    13, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 13, 13,
    13, 10, 7, 4, 1, 1, 1, 1, 13, 10, 7, 4, 1, 1, 1, 1,
    13, 10, 7, 4, 1, 1, 1, 1, 13, 10, 7, 4, 1, 1, 1, 1,
};

/* Score the full trick: 1 and the final value in *final when the hand ends, else 0; the
 * new facts in acc, the winner in *w. */
static int complete(const tk_solver *s, int *final, int *acc, int *w) {
    const tk_objective *o = &s->ob;
    int n = s->n;
    int wi = tk_winner(s->trick, n, s->rules.colour_valat);
    *w = (s->leader + wi) % n;
    int win_card = s->trick[wi];
    tk_set pile = 0;
    for (int i = 0; i < n; i++) pile |= TK_BIT(s->trick[i]);
    int last = s->done + 1 == o->tricks_total;
    int mx = s->maxside[*w];
    memcpy(acc, s->acc, sizeof(int) * TK_ACC);
    switch (o->kind) {
    case TK_NORMAL: {
        if (mx) {
            /* the four cards' thirds from the table: no bit counts (libgcc calls) */
            for (int i = 0; i < n; i++) acc[0] += THIRDS_OF[s->trick[i]];
            acc[1] = 1;
            if (pile & TK_TRULA) acc[4] = 1;
            if (pile & TK_KINGS) acc[6] = 1;
        } else {
            acc[2] = 1;
            if (pile & TK_TRULA) acc[5] = 1;
            if (pile & TK_KINGS) acc[7] = 1;
        }
        if (win_card == o->king) acc[3] = 1;
        if (((pile >> TK_MOND) & 1) && win_card != TK_MOND) {
            for (int i = 0; i < n; i++)
                if (s->trick[i] == TK_MOND)
                    acc[8] = s->maxside[(s->leader + i) % n] ? TK_SIDE_M : TK_SIDE_O;
        }
        if (!last) return 0;
        tk_last l = {0, 0, 0, 0};
        if (win_card == TK_PAGAT) {
            l.pagat = mx ? TK_SIDE_M : TK_SIDE_O;
        } else if ((pile >> TK_PAGAT) & 1) {
            for (int i = 0; i < n; i++)
                if (s->trick[i] == TK_PAGAT)
                    l.pagat_failed = s->maxside[(s->leader + i) % n] ? TK_SIDE_M : TK_SIDE_O;
        }
        if (o->king >= 0 && ((pile >> o->king) & 1)) {
            l.kralj = mx;
            l.kralj_failed = !mx;
        }
        *final = tk_leaf(o, acc, &l, n);
        return 1;
    }
    case TK_KLOP: {
        if (s->done < 16 && o->gifts[s->done] >= 0) pile |= TK_BIT(o->gifts[s->done]);
        acc[*w] += tk_thirds(pile);
        acc[4 + *w] = 1;
        if (!last) return 0;
        *final = tk_leaf(o, acc, NULL, n);
        return 1;
    }
    case TK_NO_TRICK:
        if (mx) {
            *final = -o->value;
            return 1;
        }
        if (last) {
            *final = o->value;
            return 1;
        }
        return 0;
    default: /* TK_ALL_TRICKS */
        if (!mx) {
            *final = -o->value;
            return 1;
        }
        if (last) {
            *final = o->value;
            return 1;
        }
        return 0;
    }
}

static inline uint64_t mix64(uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
}

static inline uint64_t pack_acc(const int *acc) {
    uint64_t k = 0;
    for (int i = 0; i < 7; i++) k |= (uint64_t)(acc[i] & 0xFF) << (8 * i);
    k |= (uint64_t)(acc[7] & 0xF) << 56;
    k |= (uint64_t)(acc[8] & 0xF) << 60;
    return k;
}

/* The bucket of key k0: four 16-byte entries on one cache line. An entry keeps key1 only: with
 * the index bits of k0 that placed it there, 64 + 20-odd bits tell positions apart (a false
 * match needs two positions in one bucket with equal key1: about 2^-62 per lookup). */
#define TT_BUCKET(s, k0) (&(s)->tt[(k0) & (s)->tt_mask & ~(uint64_t)3])

static tk_entry *tt_find(tk_solver *s, uint64_t k0, uint64_t k1) {
    tk_entry *b = TT_BUCKET(s, k0); /* k0 is mixed already */
    for (int j = 0; j < 4; j++)
        if (b[j].work && b[j].key1 == k1) return &b[j];
    return NULL;
}

/* the entry of (k0, k1), else an empty one of its bucket, else the one whose search took the
 * fewest nodes (keep the entries that save more work) */
static tk_entry *tt_slot(tk_solver *s, uint64_t k0, uint64_t k1) {
    tk_entry *b = TT_BUCKET(s, k0), *r = &b[0];
    for (int j = 0; j < 4; j++) {
        if (!b[j].work || b[j].key1 == k1) return &b[j];
        if (b[j].work < r->work) r = &b[j];
    }
    return r;
}

static const tk_set EQ_RANGES[5] = {
    TK_PLAIN_TAROKS,
    (tk_set)0xF0 << 22,
    (tk_set)0xF0 << 30,
    (tk_set)0xF0 << 38,
    (tk_set)0xF0 << 46,
};

/* first id of each range of EQ_RANGES */
static const int EQ_LO[5] = {1, 26, 34, 42, 50};
#define EQ_ALL (EQ_RANGES[0] | EQ_RANGES[1] | EQ_RANGES[2] | EQ_RANGES[3] | EQ_RANGES[4])

/* Relative ranks (bridge solvers' trick): inside a range of EQ_RANGES every card scores the
 * same and only the order matters, so the position where the j-th remaining card of a range
 * is held by seat p equals every other such position whichever cards those are. The hands in
 * that canonical form give the j-th remaining card of each range the range's j-th id. */
static void canonical_hands(const tk_solver *s, tk_set rem, tk_set *out) {
    for (int p = 0; p < s->n; p++) out[p] = s->hand[p] & ~EQ_ALL;
    for (int r = 0; r < 5; r++) {
        int j = EQ_LO[r];
        for (tk_set m = rem & EQ_RANGES[r]; m; m &= m - 1, j++)
            out[s->owner[tk_lowest(m)]] |= TK_BIT(j);
    }
}

/* the id card c has in the canonical form of the remaining cards rem */
static int canonical_id(tk_set rem, int c) {
    for (int r = 0; r < 5; r++)
        if ((EQ_RANGES[r] >> c) & 1)
            return EQ_LO[r] + tk_popcount(rem & EQ_RANGES[r] & (TK_BIT(c) - 1));
    return c;
}

/* Legal cards grouped by equivalence: representatives in rep[], what each stands for in
 * members[] (search.representatives). */
static int representatives(tk_set own, tk_set legal, tk_set outst, int *rep, tk_set *members) {
    int k = 0;
    tk_set rest = legal;
    for (int r = 0; r < 5; r++) {
        tk_set mine = legal & EQ_RANGES[r];
        if (!(mine & (mine - 1))) continue; /* fewer than two: no bit count (a libgcc call) */
        rest &= ~mine;
        tk_set rel = (own | outst) & EQ_RANGES[r];
        /* over the legal cards only: a card joins the group of the one below when it is that
         * card's next card in play of the range */
        int cur = -1;
        tk_set next = 0;
        for (tk_set m = mine; m; m &= m - 1) {
            int c = tk_lowest(m);
            tk_set b = m & -m;
            if (cur >= 0 && next == b) {
                members[cur] |= b;
            } else {
                cur = k;
                rep[k] = c;
                members[k] = b;
                k++;
            }
            tk_set above = rel & ~((b << 1) - 1);
            next = above & -above;
        }
    }
    for (tk_set m = rest; m; m &= m - 1) {
        rep[k] = tk_lowest(m);
        members[k] = m & -m;
        k++;
    }
    return k;
}

/* The strongest card each opponent of p who plays after p in this trick may play: one of
 * his legal cards at the trick as it stands (the cards between ignored), his top tarok if he
 * may play one, else his top card of the led suit; -1 when he may play neither. For the
 * follower ordering (a heuristic, not a rule). Returns their number. */
static int later_tops(const tk_solver *s, int p, int *tops) {
    int n = s->n, k = 0;
    int pos_p = (p - s->leader + n) % n;
    tk_set led = s->tk ? tk_suit_mask(tk_suit_of(s->trick[0])) : 0;
    for (int j = pos_p + 1; j < n; j++) {
        int q = (s->leader + j) % n;
        if (s->maxside[q] == s->maxside[p]) continue;
        tk_set lg = tk_legal(s->hand[q], s->trick, s->tk, &s->rules);
        tk_set tar = lg & TK_TAROKS, suit = lg & led & ~TK_TAROKS;
        tops[k++] = tar ? tk_highest(tar) : suit ? tk_lowest(suit) : -1;
    }
    return k;
}

/* A trick in progress for the move ordering's "would card c take it" (tk_winner's rule, asked
 * once per card without replaying the trick): the led suit, the best card by suit and
 * strength leaving the emperor's trick aside, and the trick's cards. */
typedef struct {
    int led, bsuit, bstr;
    tk_set m;
} sv_trick;

static inline void sv_add(sv_trick *t, int c, int colour_valat) {
    int su = tk_suit_of(c);
    if (su == t->bsuit) {
        int st = tk_strength(c);
        if (st > t->bstr) t->bstr = st;
    } else if (su == 0 && !colour_valat) {
        t->bsuit = 0;
        t->bstr = tk_strength(c);
    }
    t->m |= TK_BIT(c);
}

static inline void sv_state(const int *cards, int k, int colour_valat, sv_trick *t) {
    t->led = t->bsuit = tk_suit_of(cards[0]);
    t->bstr = tk_strength(cards[0]);
    t->m = TK_BIT(cards[0]);
    for (int i = 1; i < k; i++) sv_add(t, cards[i], colour_valat);
}

/* whether card c (not in the trick) played next would take the trick */
static inline int sv_takes(const sv_trick *t, int c, int colour_valat) {
    /* the emperor's trick goes to the pagat */
    if (((t->m | TK_BIT(c)) & TK_TRULA) == TK_TRULA && (!colour_valat || t->led == 0))
        return c == TK_PAGAT;
    int su = tk_suit_of(c);
    if (su == t->bsuit) return tk_strength(c) > t->bstr;
    return su == 0 && !colour_valat;
}

/* whether one of the cards tops[0..nt-1] would take the trick t */
static int later_beats(const sv_trick *t, const int *tops, int nt, int colour_valat) {
    for (int i = 0; i < nt; i++)
        if (tops[i] >= 0 && sv_takes(t, tops[i], colour_valat)) return 1;
    return 0;
}

/* Representatives in search order (search.PySolver._ordered). */
static void order_moves(const tk_solver *s, int p, int *rep, int k) {
    int key[16];
    if (s->tk == 0) {
        /* the lead: first the sure winners (the top tarok; the top card of a suit when every
         * opponent follows suit or holds no tarok), the most points first (cash them); then
         * the other suit cards, the fewest points first (lead low); the other taroks last.
         * Against the strongest card first: -26 % nodes at 8 tricks left, -50 % at 10 (the
         * same values). */
        tk_set others = outstanding(s, p);
        for (int i = 0; i < k; i++) {
            int c = rep[i], su = tk_suit_of(c);
            tk_set rest = others & tk_suit_mask(su);
            /* taroks: the strongest is the highest bit; suit cards: the lowest */
            int sure = su == 0 ? !(rest >> c) : !(rest & (TK_BIT(c) - 1));
            for (int q = 0; q < s->n && sure && su; q++)
                if (s->maxside[q] != s->maxside[p] && !(s->hand[q] & tk_suit_mask(su)) &&
                    (s->hand[q] & TK_TAROKS))
                    sure = 0;
            key[i] = sure ? -THIRDS_OF[c] * 64 + c
                          : (su ? 100000 : 200000) + THIRDS_OF[c] * 64 + c;
        }
    } else {
        /* a follower: first, on a trick a partner wins and no opponent after this player can
         * take from him, the most points (smear); then the cards that win the trick and keep it
         * (no opponent after can beat them), the most points first; then the cards that lose
         * it, the fewest points first; last the winners an opponent after may still beat, the
         * strongest first. Against "win with the strongest card, or the cheapest when last"
         * and the partner's trick smeared whoever follows: -21 % nodes at 10 tricks left, -18 %
         * at 8 (the same values). */
        int cv = s->rules.colour_valat;
        int wi = tk_winner(s->trick, s->tk, cv);
        int mx = s->maxside[p];
        int ally = s->maxside[(s->leader + wi) % s->n] == mx;
        int last = s->tk == s->n - 1;
        sv_trick st;
        sv_state(s->trick, s->tk, cv, &st);
        int tops[4], nt = -1; /* computed when first needed */
        if (ally && !last) {
            nt = later_tops(s, p, tops);
            if (later_beats(&st, tops, nt, cv)) ally = 0;
        }
        for (int i = 0; i < k; i++) {
            int c = rep[i];
            int wins = sv_takes(&st, c, cv);
            int cls, sub;
            if (wins && !last && nt < 0) nt = later_tops(s, p, tops);
            sv_trick with = st;
            if (wins && !last) sv_add(&with, c, cv);
            if (wins && !last && later_beats(&with, tops, nt, cv)) {
                cls = 3;
                sub = -tk_strength(c);
            } else if (ally && !wins) {
                cls = 0;
                sub = -THIRDS_OF[c];
            } else if (wins) {
                cls = 1;
                sub = -THIRDS_OF[c];
            } else {
                cls = 2;
                sub = THIRDS_OF[c];
            }
            key[i] = cls * 100000 + (sub + 100) * 64 + c;
        }
    }
    for (int i = 1; i < k; i++) {
        int kk = key[i], rr = rep[i], j = i - 1;
        while (j >= 0 && key[j] > kk) {
            key[j + 1] = key[j];
            rep[j + 1] = rep[j];
            j--;
        }
        key[j + 1] = kk;
        rep[j + 1] = rr;
    }
}

static int ab(tk_solver *s, int alpha, int beta);

/* Quick tricks at a trick boundary: the run of top taroks that one player holds (every
 * remaining tarok above the best tarok of the others) wins a trick per card, each card played
 * being the strongest tarok of its trick; the skis only when the emperor's trick cannot take
 * it (its holder keeps the mond or the pagat, or one of them is gone). Each of those tricks
 * brings the holder's side the card's thirds and at least one third from every other card.
 * Returns the side's sure thirds in *m_sure or *o_sure (the other 0); none in colour valat. */
static void sure_takes(const tk_solver *s, tk_set rem, int *m_sure, int *o_sure) {
    *m_sure = *o_sure = 0;
    tk_set tar = rem & TK_TAROKS;
    if (s->rules.colour_valat || !tar) return;
    int top = tk_highest(tar), p = 0;
    while (p < s->n && !((s->hand[p] >> top) & 1)) p++;
    if (p == s->n) return;
    tk_set h = s->hand[p];
    tk_set emperor = TK_BIT(TK_MOND) | TK_BIT(TK_PAGAT);
    if (top == TK_SKIS && (rem & emperor) == emperor && !(h & emperor)) return;
    tk_set others = tar & ~h;
    tk_set run = others ? tar & ~((TK_BIT(tk_highest(others)) << 1) - 1) : tar;
    int sure = tk_thirds(run) + tk_popcount(run) * (s->n - 1);
    if (s->maxside[p])
        *m_sure = sure;
    else
        *o_sure = sure;
}

/* bounds_sure of a normal contract at the search's state, its thirds-free part (bounds_rest)
 * looked up in a small memo keyed by what it depends on: the facts, which of the trula, the
 * kings, the pagat, the mond and the called king are in play, and whether each side surely
 * takes a trick. */
static void bounds_memo(tk_solver *s, tk_set rem, int m_sure, int o_sure, int *lo, int *hi) {
    const tk_objective *o = &s->ob;
    const int *acc = s->acc;
    int t_lo, t_hi, blo, bhi, cmin, cmax;
    bounds_thirds(o, acc, rem, m_sure, o_sure, &t_lo, &t_hi);
    uint32_t key = 1;
    for (int i = 1; i < TK_ACC; i++) key = key << 2 | ((uint32_t)acc[i] & 3);
    key = key << 1 | ((rem & TK_TRULA) != 0);
    key = key << 1 | ((rem & TK_KINGS) != 0);
    key = key << 1 | ((rem >> TK_PAGAT) & 1);
    key = key << 1 | ((rem >> TK_MOND) & 1);
    key = key << 1 | (o->king >= 0 && ((rem >> o->king) & 1));
    key = key << 1 | (m_sure != 0);
    key = key << 1 | (o_sure != 0);
    int fits = 1;
    for (int i = 1; i < TK_ACC; i++) fits &= (unsigned)acc[i] <= 3;
    tk_bmemo *b = &s->bmemo[(key * 2654435761u) >> (32 - TK_BMEMO_BITS)];
    if (fits && b->key == key) {
        blo = b->blo;
        bhi = b->bhi;
        cmin = b->cmin;
        cmax = b->cmax;
    } else {
        bounds_rest(o, acc, rem, m_sure, o_sure, &blo, &bhi, &cmin, &cmax);
        if (fits) {
            b->key = key;
            b->blo = blo;
            b->bhi = bhi;
            b->cmin = cmin;
            b->cmax = cmax;
        }
    }
    bounds_combine(o, t_lo, t_hi, blo, bhi, cmin, cmax, lo, hi);
}

/* Play card c for the player to move and search on; the state is restored. */
static int play(tk_solver *s, int c, int alpha, int beta, int exhaustive);
static int minimax(tk_solver *s);

void tk_begin(tk_solver *s) {
    s->aborted = 0;
    s->call_start = s->nodes;
}

static int play(tk_solver *s, int c, int alpha, int beta, int exhaustive) {
    if (++s->nodes - s->call_start > s->max_nodes && s->max_nodes > 0) s->aborted = 1;
    if (s->aborted) return 0;
    int p = (s->leader + s->tk) % s->n;
    tk_set bit = TK_BIT(c);
    s->hand[p] &= ~bit;
    s->trick[s->tk++] = c;
    int v;
    if (s->tk < s->n) {
        v = exhaustive ? minimax(s) : ab(s, alpha, beta);
    } else {
        int acc[TK_ACC], w, final = 0;
        if (complete(s, &final, acc, &w)) {
            v = final;
        } else {
            int trick[4], saved_acc[TK_ACC];
            int leader = s->leader, done = s->done;
            memcpy(trick, s->trick, sizeof(trick));
            memcpy(saved_acc, s->acc, sizeof(saved_acc));
            s->tk = 0;
            s->leader = w;
            s->done = done + 1;
            memcpy(s->acc, acc, sizeof(acc));
            tk_set live = s->live;
            for (int i = 0; i < s->n; i++) s->live &= ~TK_BIT(trick[i]);
            v = exhaustive ? minimax(s) : ab(s, alpha, beta);
            s->live = live;
            memcpy(s->trick, trick, sizeof(trick));
            memcpy(s->acc, saved_acc, sizeof(saved_acc));
            s->tk = s->n;
            s->leader = leader;
            s->done = done;
        }
    }
    s->tk--;
    s->hand[p] |= bit;
    return v;
}

/* The last trick: every hand holds one card, so the play is forced; score it at once. */
static int last_trick(tk_solver *s) {
    int tk0 = s->tk, n = s->n;
    for (int i = tk0; i < n; i++) {
        tk_set h = s->hand[(s->leader + i) % n];
        if (!h) return 0; /* inconsistent input: nothing to play */
        s->trick[i] = tk_lowest(h);
    }
    s->nodes += n - tk0;
    if (s->nodes - s->call_start > s->max_nodes && s->max_nodes > 0) s->aborted = 1;
    if (s->aborted) return 0;
    int acc[TK_ACC], w, final = 0;
    s->tk = n;
    complete(s, &final, acc, &w);
    s->tk = tk0;
    return final;
}

/* The run of lin_seg holding every final thirds count of the declarer side reachable from the
 * trick boundary in s with t thirds taken (the remaining cards rem, holding rest thirds), or
 * -1: on one run the game value of every line moves by lin_slope per three thirds more, so two
 * positions with the same cards and facts, t and t' thirds, both on one run, differ in value by
 * between
 * lin_slope * floor((t' - t) / 3) and lin_slope * ceil((t' - t) / 3) (times the radelc), the
 * lines without a valat; a valat line's value does not move (see ab). */
static int lin_span(const tk_solver *s, int t, tk_set rem, int rest, int m_sure, int o_sure) {
    const tk_objective *o = &s->ob;
    int king_live = o->king >= 0 && ((rem >> o->king) & 1);
    int rem_sure = o->remainder_if_king_wins && s->acc[3];
    int kw_open = o->remainder_if_king_wins && !s->acc[3] && king_live;
    int xlo = t + o->discard_thirds + m_sure + (rem_sure ? o->remainder_thirds : 0);
    int xhi = t + o->discard_thirds + rest - o_sure +
              ((rem_sure || kw_open) ? o->remainder_thirds : 0);
    if (xlo < 0 || xhi >= TK_LIN_N) return -1;
    return s->lin_seg[xlo] == s->lin_seg[xhi] ? s->lin_seg[xlo] : -1;
}

static inline int floor_div3(int d) { return d >= 0 ? d / 3 : -((-d + 2) / 3); }
static inline int ceil_div3(int d) { return d >= 0 ? (d + 2) / 3 : -((-d) / 3); }

/* Decided facts (normal contracts once both sides took a trick, so no valat): a fact that no
 * remaining card can change adds a constant to the value of every line (the trula bonus once
 * the trula is gone, the kings' once the kings are, the mondfang once the mond is; who won the
 * called king when the talon remainder does not depend on it). Such facts are left out of the
 * table key (set to 0 in acc_key) and the table holds the value minus their constant, which is
 * returned: positions that differ only in them share one entry. */
static int decided_facts(const tk_solver *s, tk_set rem, int *acc_key) {
    const tk_objective *o = &s->ob;
    const int *acc = s->acc;
    if (o->kind != TK_NORMAL || !acc[1] || !acc[2]) return 0;
    int off = 0;
    int king_live = o->king >= 0 && ((rem >> o->king) & 1);
    if (!o->remainder_if_king_wins) acc_key[3] = 0;
    int rem_known = !o->remainder_if_king_wins || acc[3] || !king_live;
    int rem_to_m = o->remainder_if_king_wins && acc[3];
    if (!rem_known) return 0;
    if (!(rem & TK_TRULA)) {
        if (o->bonuses) {
            int tr = set_outcome(o, acc[4], acc[5], o->trula_discarded, o->trula_in_remainder,
                                 rem_to_m);
            off += o->radelc * bonus(o, o->trula_ann, o->trula_k, 10, tr, 0);
        }
        acc_key[4] = acc_key[5] = 0;
    }
    if (!(rem & TK_KINGS)) {
        if (o->bonuses) {
            int kg = set_outcome(o, acc[6], acc[7], o->kings_discarded, o->kings_in_remainder,
                                 rem_to_m);
            off += o->radelc * bonus(o, o->kralji_ann, o->kralji_k, 10, kg, 0);
        }
        acc_key[6] = acc_key[7] = 0;
    }
    if (!((rem >> TK_MOND) & 1)) {
        off += acc[8] == TK_SIDE_M ? -o->mondfang : acc[8] == TK_SIDE_O ? o->mondfang : 0;
        acc_key[8] = 0;
    }
    return off;
}

/* The table key of the trick boundary in s (the cards rem in play): a 128-bit fingerprint of
 * the canonical hands, the leader and the facts (the decided ones left out); returns the
 * decided facts' constant (see decided_facts). */
static int boundary_key(const tk_solver *s, tk_set rem, uint64_t *pk0, uint64_t *pk1) {
    int off = 0;
    tk_set ch[4] = {0, 0, 0, 0};
    canonical_hands(s, rem, ch);
    int acc_key[TK_ACC];
    memcpy(acc_key, s->acc, sizeof(acc_key));
#ifndef TK_NO_DECIDED
    if (s->thirds_free) off = decided_facts(s, rem, acc_key);
#endif
    uint64_t facts = pack_acc(acc_key);
    if (s->thirds_free) facts &= ~(uint64_t)0xFF;
    uint64_t k0 = mix64(ch[0] ^ 0x9e3779b97f4a7c15ULL);
    uint64_t k1 = mix64(ch[0] ^ 0xc2b2ae3d27d4eb4fULL);
    for (int i = 1; i < 4; i++) {
        k0 = mix64(k0 ^ ch[i]) + 0x165667b19e3779f9ULL * (uint64_t)i;
        k1 = mix64(k1 + ch[i] * 0x94d049bb133111ebULL) ^ (uint64_t)i;
    }
    *pk0 = mix64(k0 ^ facts ^ ((uint64_t)s->leader << 60));
    *pk1 = mix64(k1 ^ mix64(facts + (uint64_t)s->leader * 0xbf58476d1ce4e5b9ULL));
    return off;
}

static int ab(tk_solver *s, int alpha, int beta) {
    if (s->aborted) return 0;
    if (s->done + 1 == s->ob.tricks_total) return last_trick(s);
    tk_entry *e = NULL;
    uint64_t k0 = 0, k1 = 0;
    int tt_best = -1, boundary = s->tk == 0;
    int elo = -TK_INF, ehi = TK_INF, slo = -32767, shi = 32767, off = 0;
    int m_sure = 0, o_sure = 0; /* the quick tricks */
    int t = s->acc[0];
    tk_set rem = 0;
    if (boundary) {
        rem = s->live; /* the trick is empty */
        off = boundary_key(s, rem, &k0, &k1);
        /* the bucket is one cache (and often TLB) miss away: ask for it now and compute the
         * static bounds (quick tricks, objective) while it comes; they are used after the
         * entry's, as before */
        __builtin_prefetch(TT_BUCKET(s, k0));
        int lo, hi;
        sure_takes(s, rem, &m_sure, &o_sure);
        if (s->ob.kind == TK_NORMAL) {
            bounds_memo(s, rem, m_sure, o_sure, &lo, &hi);
        } else {
            tk_bounds(&s->ob, s->acc, rem, &lo, &hi);
            /* no trick for the declarer / every trick: a sure trick decides it */
            if ((s->ob.kind == TK_NO_TRICK && m_sure) || (s->ob.kind == TK_ALL_TRICKS && o_sure))
                lo = hi = -s->ob.value;
        }
        e = tt_find(s, k0, k1);
        if (e) {
            elo = e->lo <= -32767 || t < e->tlo ? -TK_INF : e->lo + off;
            ehi = e->hi >= 32767 || t > e->thi ? TK_INF : e->hi + off;
#ifndef TK_NO_LIN
            if (s->thirds_free && ((e->lo > -32767 && t != e->tlo) ||
                                   (e->hi < 32767 && t != e->thi))) {
                int rest = tk_thirds(rem); /* once for the up to three spans */
                int sid = lin_span(s, t, rem, rest, m_sure, o_sure);
                int f = s->ob.radelc * s->lin_slope;
                /* a valat line's value does not move with the thirds: while one side may
                 * still take every trick, a bound carries only towards the side where the
                 * shift is looser than 0 (a lower bound to fewer thirds, an upper to more) */
                int valat_open = !s->acc[1] || !s->acc[2];
                /* towards more thirds for a lower bound (fewer for an upper), the shift holds
                 * across runs too when their constant never falls (the won game's step) */
                int along = !valat_open && s->lin_mono;
                if (e->lo > -32767 && t != e->tlo && (!valat_open || t < e->tlo) &&
                    ((along && t > e->tlo) || (sid >= 0 && lin_span(s, e->tlo, rem, rest, m_sure, o_sure) == sid))) {
                    int v = e->lo + off + f * floor_div3(t - e->tlo);
                    if (v > elo) elo = v;
                }
                if (e->hi < 32767 && t != e->thi && (!valat_open || t > e->thi) &&
                    ((along && t < e->thi) || (sid >= 0 && lin_span(s, e->thi, rem, rest, m_sure, o_sure) == sid))) {
                    int v = e->hi + off + f * ceil_div3(t - e->thi);
                    if (v < ehi) ehi = v;
                }
            }
#endif
            if (elo >= beta) return elo;
            if (ehi <= alpha) return ehi;
            if (elo == ehi) return elo;
            if (elo > alpha) alpha = elo;
            if (ehi < beta) beta = ehi;
            tt_best = e->best; /* a canonical id */
        }
        if (lo >= beta) return lo;
        if (hi <= alpha) return hi;
        slo = lo - off;
        shi = hi - off;
    }
    int a0 = alpha, b0 = beta;
    long long nodes0 = s->nodes;
    int p = (s->leader + s->tk) % s->n;
    tk_set legal = tk_legal(s->hand[p], s->trick, s->tk, &s->rules);
    if (!legal) return 0; /* inconsistent input: nothing to play */
    int rep[16];
    tk_set members[16];
    int k = representatives(s->hand[p], legal, outstanding(s, p), rep, members);
    order_moves(s, p, rep, k);
    if (tt_best >= 0) {
        for (int i = 0; i < k; i++)
            if (canonical_id(rem, rep[i]) == tt_best) {
                int c = rep[i];
                for (int j = i; j > 0; j--) rep[j] = rep[j - 1];
                rep[0] = c;
                break;
            }
    }
    int mx = s->maxside[p];
    int best = mx ? -TK_INF : TK_INF, best_card = rep[0];
    for (int i = 0; i < k; i++) {
        int v = play(s, rep[i], alpha, beta, 0);
        if (mx) {
            if (v > best) {
                best = v;
                best_card = rep[i];
                if (v > alpha) alpha = v;
            }
        } else if (v < best) {
            best = v;
            best_card = rep[i];
            if (v < beta) beta = v;
        }
        if (alpha >= beta) break;
    }
    if (boundary && !s->aborted) {
        /* the entry's weight for replacement: the bit length of the nodes its search took
         * (the larger of the old and the new search's), not its cards in play: whole hand 2
         * -2.5 % nodes, the first cards -0.25 % */
        int work = 64 - __builtin_clzll((unsigned long long)(s->nodes - nodes0) + 1);
        if (e && e->work > work) work = e->work;
        tk_entry *slot = e;
        if (!slot) {
            slot = tt_slot(s, k0, k1);
            slot->lo = (int16_t)(slo < -32767 ? -32767 : slo > 32767 ? 32767 : slo);
            slot->hi = (int16_t)(shi > 32767 ? 32767 : shi < -32767 ? -32767 : shi);
            slot->tlo = slot->thi = (int16_t)t;
        }
        /* the search proved an upper bound (fail low), a lower bound (fail high) or the exact
         * value at these thirds; a bound of the entry that held here is never looser */
        int rel = best - off;
        int clipped = rel < -32767 ? -32767 : rel > 32767 ? 32767 : rel;
        if (best < b0) {
            slot->hi = (int16_t)clipped;
            slot->thi = (int16_t)t;
        }
        if (best > a0) {
            slot->lo = (int16_t)clipped;
            slot->tlo = (int16_t)t;
        }
        slot->key1 = k1;
        /* a search that failed for the side to move (every card refuted: an upper bound for
         * the maximiser, a lower for the minimiser) does not tell which card is best; keep
         * its first card (the table's or the ordering's) rather than the one with the best
         * fail-soft bound (-1.3 % nodes at 10 tricks left, -6.6 % at 8; the same values) */
        if (mx ? best <= a0 : best >= b0) best_card = rep[0];
        slot->best = (int8_t)canonical_id(rem, best_card);
        slot->work = (int8_t)work;
    }
    return best;
}

int tk_search(tk_solver *s, int alpha, int beta) { return ab(s, alpha, beta); }

static int probe_pos(tk_solver *s, const tk_position *p, int card, int alpha, int beta) {
    s->probes++;
    tk_load(s, p);
    if (card < 0) return ab(s, alpha, beta);
    return play(s, card, alpha, beta, 0);
}

/* MTD(f): each null-window test "value >= t?" returns a fail-soft bound (hi when it fails low,
 * lo when it fails high). From the first guess the tests gallop: the next t is the bound moved on
 * by `step`, which doubles while the tests keep failing the same way (a far first guess costs a
 * few tests, not one per point); once they have failed both ways the value is bracketed and the
 * tests bisect (lo, hi] (a test costs most near the value, and the fail-soft bounds rarely move
 * far past t, so halving beats creeping in from the ends). t stays within (lo, hi]: the loop
 * ends with lo == hi, the exact value. Everything moves on the value lattice (value_lattice):
 * the bounds are rounded to it (the value lies on it) and t and the step are lattice points and
 * steps. Candidates (tk_values): cand[0..nc-1] are values other cards of the position took (exact
 * values, so lattice points), the most likely first; while one lies in (lo, hi] it is the next
 * test (at the value v the test ">= v" holds, and the next, v + g, settles it). */
static int value_c(tk_solver *s, const tk_position *p, int card, int guess, const int *cand,
                   int nc) {
    int lo = -TK_INF, hi = TK_INF, step = 1, dir = 0, g_ = s->lat_g, turned = 0;
    int t = lat_ceil(s, guess);
    while (lo < hi && !s->aborted) {
        if (t <= lo) t = lo + g_;
        if (t > hi) t = hi;
#ifdef TRACE
        long long n0 = s->nodes;
#endif
        int g = probe_pos(s, p, card, t - 1, t);
#ifdef TRACE
        fprintf(stderr, "test >= %d -> %d (%lld nodes)\n", t, g, s->nodes - n0);
#endif
        int d = g < t ? -1 : 1;
        int t_prev = t;
        if (d < 0)
            hi = lat_floor(s, g);
        else
            lo = lat_ceil(s, g);
        int next = TK_INF;
        for (int i = 0; i < nc && next == TK_INF; i++)
            if (cand[i] > lo && cand[i] <= hi) next = cand[i];
        if (turned || (dir && d != dir)) {
            int first_turn = !turned;
            turned = 1;
            /* both sides bounded: bisect (the midpoint, on the lattice, in (lo, hi]) */
            long long span = ((long long)hi - lo) / g_;
            t = lo + (int)((span + 1) / 2) * g_;
            /* the first test that fails low after the gallop up: when its fail-soft upper
             * bound lies below the test, the value is often that bound, so test it first
             * (the first card of a 12-trick hand: -4 % and -15 % nodes; 10 tricks +0.2 %) */
            if (first_turn && d < 0 && hi < t_prev) t = hi;
            dir = d;
            if (next != TK_INF) t = next;
            continue;
        }
        step = d == dir ? 2 * step : step > 1 ? step / 2 : 1;
        dir = d;
        t = d < 0 ? hi - (step - 1) * g_ : lo + step * g_;
        if (next != TK_INF) t = next;
    }
    return lo;
}

int tk_value(tk_solver *s, const tk_position *p, int card, int guess) {
    return value_c(s, p, card, guess, NULL, 0);
}

int tk_values(tk_solver *s, const tk_position *p, int *cards, int *values) {
    tk_load(s, p);
    int who = (s->leader + s->tk) % s->n;
    tk_set legal = tk_legal(s->hand[who], s->trick, s->tk, &s->rules);
    int rep[16];
    tk_set members[16];
    int k = representatives(s->hand[who], legal, outstanding(s, who), rep, members);
    int out = 0, guess = s->guess, mx = s->maxside[who];
    int best = mx ? -TK_INF : TK_INF;
    /* a card's value is mostly one of its position's few values: the values of the cards
     * valued so far are the candidates of the next card's tests (value_c), the most frequent
     * first (of equals, the better for the player to move); the first card starts from the
     * guess (the previous position's value) */
    int seen[16], nseen = 0;
    for (int i = 0; i < k && !s->aborted; i++) {
        int cand[16], cnt[16], nc = 0;
        for (int a = 0; a < nseen; a++) {
            int f = -1;
            for (int b = 0; b < nc; b++)
                if (cand[b] == seen[a]) f = b;
            if (f < 0) {
                cand[nc] = seen[a];
                cnt[nc++] = 1;
            } else {
                cnt[f]++;
            }
        }
        for (int a = 1; a < nc; a++)
            for (int b = a; b > 0; b--) {
                int before = cnt[b] > cnt[b - 1] ||
                             (cnt[b] == cnt[b - 1] &&
                              (mx ? cand[b] > cand[b - 1] : cand[b] < cand[b - 1]));
                if (!before) break;
                int x = cand[b];
                cand[b] = cand[b - 1];
                cand[b - 1] = x;
                x = cnt[b];
                cnt[b] = cnt[b - 1];
                cnt[b - 1] = x;
            }
        if (nc) guess = cand[0];
        int v = value_c(s, p, rep[i], guess, cand, nc);
        seen[nseen++] = v;
        if (mx ? v > best : v < best) best = v;
        for (tk_set m = members[i]; m; m &= m - 1) {
            cards[out] = tk_lowest(m);
            values[out] = v;
            out++;
        }
    }
    if (k && !s->aborted) s->guess = best;
    return out;
}

/* The position after `card`; 0 when the hand is over. */
static int after(tk_solver *s, const tk_position *p, int card, tk_position *next) {
    tk_load(s, p);
    int who = (s->leader + s->tk) % s->n;
    s->hand[who] &= ~TK_BIT(card);
    s->trick[s->tk++] = card;
    if (s->tk == s->n) {
        int acc[TK_ACC], w, final;
        if (complete(s, &final, acc, &w)) return 0;
        s->tk = 0;
        s->leader = w;
        s->done++;
        memcpy(s->acc, acc, sizeof(acc));
    }
    save(s, next);
    return 1;
}

int tk_line(tk_solver *s, const tk_position *p, int card, int *line, int max) {
    int len = 0;
    tk_position cur = *p, next;
    if (card >= 0) {
        line[len++] = card;
        if (!after(s, &cur, card, &next)) return len;
        cur = next;
    }
    /* the value of every position along a principal line is the value of its first one:
     * valued once, then each step plays the first card that keeps it */
    int v = 0, valued = 0;
    while (len < max && !s->aborted) {
        tk_load(s, &cur);
        int who = (s->leader + s->tk) % s->n;
        tk_set legal = tk_legal(s->hand[who], s->trick, s->tk, &s->rules);
        if (!legal) return len;
        if (!valued) {
            v = tk_value(s, &cur, -1, s->guess);
            valued = 1;
        }
        tk_load(s, &cur);
        int rep[16];
        tk_set members[16];
        int k = representatives(s->hand[who], legal, outstanding(s, who), rep, members);
        order_moves(s, who, rep, k);
        int best = -1, mx = s->maxside[who];
        for (int i = 0; i < k && best < 0; i++) {
            /* the last card left reaches the value when no other does */
            int w = i == k - 1 || (mx ? probe_pos(s, &cur, rep[i], v - 1, v) >= v
                                      : probe_pos(s, &cur, rep[i], v, v + 1) <= v);
            if (w) best = rep[i];
        }
        if (best < 0) return -1;
        line[len++] = best;
        if (!after(s, &cur, best, &next)) return len;
        cur = next;
    }
    return len;
}

static int minimax(tk_solver *s) {
    int p = (s->leader + s->tk) % s->n;
    tk_set legal = tk_legal(s->hand[p], s->trick, s->tk, &s->rules);
    if (!legal) return 0;
    int mx = s->maxside[p];
    int best = mx ? -TK_INF : TK_INF;
    for (tk_set m = legal; m; m &= m - 1) {
        int v = play(s, tk_lowest(m), 0, 0, 1);
        if (mx ? v > best : v < best) best = v;
    }
    return best;
}

int tk_minimax(tk_solver *s) { return minimax(s); }
