/* The native engine of Zwanzigerrufen: one whole clean hand in C (the deal's checks, the
 * merged auction with its calls, solos, announcements and Kontras, the forty cards of
 * zrloop.h, the card-bonus claims, and the itemised score with the double-round multiplier).
 *
 * The machine of the two homes (docs/architecture.md): the reference (the Python engine of
 * tarock_logs/rules/zwanzigerrufen/: hand.py, auction.py, scoring.py, session.py) is the
 * readable home and produces every finding; this runs a hand the reference would find clean,
 * and the moment anything would make the reference report a finding (of any severity: an
 * implied Kontra is one) it declines (-1) and the caller hands the hand to the reference,
 * whole. It never judges. tests/rules/zwanzigerrufen/test_native_hand.py holds the two equal
 * hand by hand (contract, sides, tricks, every score line) on simulated hands of every
 * contract and option set.
 *
 * Its configuration (zr_config) is filled by field name from the reference's tables
 * (rules/zwanzigerrufen/native.py: the ruleset's options of rulesets.py by their names, the
 * contract rows of contracts.py): no contract name is written here; the bonuses and the score
 * items are named by the reference's order, which native.py checks at import
 * (ZR_BONUS_NAMES, ZR_ITEM_NAMES in module.c).
 *
 * Depends on cards.h and zrloop.h only (no Python).
 */
#ifndef TAROCK_ZRHAND_H
#define TAROCK_ZRHAND_H

#include <string.h>

#include "cards.h"
#include "zrloop.h"

#define ZR_MAX_CONTRACTS 8
#define ZR_MAX_ACTIONS 160
#define ZR_MAX_WINDOWS 16
#define ZR_NBONUS 3     /* the announceable bonuses, in auction.BONUSES' order */
#define ZR_NCLAIMS 2    /* trull, four_kings */
#define ZR_MAX_LINES 64 /* the per-seat score lines of one hand */

/* the bonuses (auction.BONUSES) and the score items (scoring.ITEM_ORDER) by index */
enum { ZR_ABSOLUT = 0, ZR_PAGAT = 1, ZR_VALAT = 2 };
enum { ZR_I_GAME = 0, ZR_I_VALAT, ZR_I_ABSOLUT, ZR_I_PAGAT, ZR_I_TRULL, ZR_I_FOUR_KINGS,
       ZR_I_MONDFANG, ZR_NITEMS };
/* the action kinds of a Zwanzigerrufen record */
enum { ZR_PASS = 0, ZR_CALL, ZR_BID, ZR_ANNOUNCE, ZR_KONTRA, ZR_PLAY, ZR_CLAIM, ZR_NKINDS };

/* The ruleset's side, by field name (module.c ZR_CONFIG_FIELDS; rules/zwanzigerrufen/
 * native.py fills it): an option of rulesets.DEFAULT_OPTIONS is an int (a bool 0/1, an
 * integer, or the index of its value among the option's choices, rulesets._CHOICES), a
 * per-contract field one int per row of contracts.CONTRACTS. */
typedef struct {
    /* options (rulesets.py), as ints */
    int throw_in;                        /* 0 standard, 1 strict, 2 off */
    int call_rule;                       /* 0 highest_missing, 1 any_missing */
    int auction_model;                   /* 0 merged, 1 two_phase (not native: declines) */
    int late_declarations;               /* 0 any, 1 responses_only */
    int dagegen_kontra;                  /* 0 wiki, 1 auto_all, 2 explicit_all, 3 none */
    int pagat_announcer;                 /* 0 any_side_member, 1 holder_only */
    int one_announcement_per_bonus;
    int max_kontra_level;                /* "unlimited": a large number */
    int valat_mode;                      /* 0 contract_multiple, 1 .._undoubled, 2 fixed */
    int valat_overrides_bonuses;
    int valat_replaces_game;
    int lost_announced_valat_loses_game;
    int absolut_moves_game_threshold;
    int silent_pagat_loss;               /* 0 counted, 1 not_counted */
    int four_kings_value;
    int trull_value;
    int card_bonus_claim;                /* 0 claim_required, 1 automatic */
    int mondfang_payer;                  /* 0 mond_side, 1 capturing_side, 2 players_only */
    int mondfang_in_farbensolo;          /* 0 ignored, 1 scored */
    int double_round_length;
    int double_round_stacking;           /* 0 multiply, 1 cap, 2 extend */
    int maerchenstich;                   /* 0 any_order, 1 fixed_order, 2 off */
    int farbensolo_tarock_compulsion;    /* 0 true, 1 false, 2 suit_first */
    int farbensolo_min_suit_cards;
    int pagat_hold_obligation;           /* 0 report, 1 ignore */
    int forehand_all_five;               /* 0 solo_only, 1 any_solo */
    /* the constants of tricks.py */
    int game_threshold, absolut_limit, total_points;
    /* per contract (contracts.CONTRACTS, in order) */
    int ncontracts;
    int rank[ZR_MAX_CONTRACTS];
    int called[ZR_MAX_CONTRACTS];       /* named by forehand's call of a tarock */
    int suit_solo[ZR_MAX_CONTRACTS];    /* tarocks are no trumps (Farbensolo) */
    int value[ZR_MAX_CONTRACTS];        /* c of §5.1 under the ruleset */
    int bonus_factor[ZR_MAX_CONTRACTS]; /* s of §7.3 under the ruleset */
} zr_config;

/* one action as the engine reads it */
typedef struct {
    int kind;     /* ZR_ */
    int seat;
    int card;     /* call, play: the card id (zrloop.h's), else -1 */
    int contract; /* bid: the row of the table, else -1 */
    int bonus;    /* announce: ZR_ABSOLUT..; claim: 0 trull, 1 four_kings */
    int side;     /* announce: 0 dazu, 1 dagegen */
    int target;   /* kontra: -1 the game, else the bonus */
    int level;    /* kontra: as written, 0 when absent */
} zr_action;

/* one per-seat score line */
typedef struct {
    int item, seat, value;
} zr_line;

/* what the session carries from hand to hand (session.ZRSession: games, windows) */
typedef struct {
    int games;
    int next_dealer; /* -1: any (the session's first hand) */
    int nwin;
    int windows[ZR_MAX_WINDOWS];
} zr_carry;

typedef struct {
    int contract, declarer, partner, won;
    int called;      /* the called card's id, or -1 */
    int multiplier;
    int mondfang;    /* the Mondfang counts (opens a double round) */
    int ntricks;
    zr_trick tricks[ZR_TRICKS];
    int nlines;
    zr_line lines[ZR_MAX_LINES];
    int totals[4];
    int cp_declarer, cp_defenders; /* the sides' card points */
    int nactions;
} zr_result;

/* ------------------------------------------------------------------ the session */

/* r of §7.5 for the next game (ZRSession.multiplier) */
static int zr_multiplier(const zr_config *c, const zr_carry *k) {
    if (!k->nwin) return 1;
    if (c->double_round_stacking == 0) return 1 << (k->nwin > 20 ? 20 : k->nwin);
    return 2;
}

/* the scored game carried on (ZRSession._advance, a game that is no throw-in); -1 when the
 * windows would overflow (the caller declines) */
static int zr_advance(const zr_config *c, zr_carry *k, int mondfang) {
    k->games++;
    int m = 0;
    for (int i = 0; i < k->nwin; i++)
        if (k->windows[i] - 1 > 0) k->windows[m++] = k->windows[i] - 1;
    k->nwin = m;
    int length = c->double_round_length;
    if (mondfang && length > 0) {
        if (c->double_round_stacking == 2 && k->nwin) {
            k->windows[0] += length;
            k->nwin = 1;
        } else {
            if (k->nwin >= ZR_MAX_WINDOWS) return -1;
            k->windows[k->nwin++] = length;
        }
    }
    return 0;
}

/* ------------------------------------------------------------------ the auction */

static const int ZR_CALLABLE[5] = {19, 18, 17, 16, 15}; /* T20 .. T16 */

typedef struct {
    const zr_config *c;
    const tk_set *dealt;
    int p1, expected, cur_seat, cur_decls, cur_had_contract, pending;
    int empty_run, over, p1_opened;
    int contract, holder, called, partner;
    int passed, open, quiet, game_level;
    int ann[ZR_NBONUS][2];   /* announced (bonus, side): 1 + its level, 0 when not */
    int first_side[ZR_NBONUS]; /* the side that announced the bonus first */
    int turns_done, changed_turn, nhist;
    int last_turn[4];        /* -1: none yet */
    int last_change[1 + ZR_NBONUS]; /* the game, then each bonus: -1 none */
} zr_auction;

static int zr_holder_of(const tk_set *dealt, int card) {
    for (int s = 0; s < 4; s++)
        if (dealt[s] & TK_BIT(card)) return s;
    return -1;
}

/* the declarer side as a seat mask (Auction.declarer_side) */
static int zr_dside(const zr_auction *a) {
    if (a->holder < 0) return 1 << a->p1;
    if (a->partner >= 0) return (1 << a->holder) | (1 << a->partner);
    return 1 << a->holder;
}

static int zr_side_seats(const zr_auction *a, int side) {
    int d = zr_dside(a);
    return side == 0 ? d : (~d & 15);
}

static int zr_required_call(const zr_auction *a) {
    for (int i = 0; i < 5; i++)
        if (!(a->dealt[a->p1] & TK_BIT(ZR_CALLABLE[i]))) return ZR_CALLABLE[i];
    return -1;
}

/* T3 under late_declarations = responses_only (Auction._late); target -2: an announcement */
static int zr_late(const zr_auction *a, int seat, int target) {
    if (a->c->late_declarations != 1 || a->last_turn[seat] < 0) return 0;
    if (a->changed_turn > a->last_turn[seat]) return 0;
    if (target == -2) return 1;
    return a->last_change[target + 1] <= a->last_turn[seat];
}

static int zr_end_turn(zr_auction *a) {
    int seat = a->cur_seat;
    if (seat < 0) return 0;
    int turn = a->turns_done;
    if (seat == a->p1 && !a->p1_opened) {
        a->p1_opened = 1;
        if (!a->cur_had_contract && a->contract < 0) return -1; /* must declare */
    }
    if (a->pending && a->game_level == 0) return -1; /* dagegen without Kontra */
    if (!a->cur_had_contract && a->open && a->contract >= 0) {
        if (seat != a->holder) a->passed |= 1 << seat;
        if (++a->quiet >= 3) a->open = 0;
    }
    a->empty_run = a->cur_decls == 0 ? a->empty_run + 1 : 0;
    a->last_turn[seat] = turn;
    a->turns_done++;
    a->expected = (seat + 1) & 3;
    a->cur_seat = -1;
    a->cur_decls = a->cur_had_contract = a->pending = 0;
    if (a->empty_run >= 4) a->over = 1;
    return 0;
}

/* the announced side of `bonus` a Kontra by `seat` at `level` (0: the next) refers to
 * (Auction.find_announced), or -1 */
static int zr_find_announced(const zr_auction *a, int bonus, int seat, int level) {
    int n = (a->ann[bonus][0] != 0) + (a->ann[bonus][1] != 0);
    if (!n) return -1;
    int first = n > 1 ? a->first_side[bonus] : (a->ann[bonus][0] ? 0 : 1);
    if (n > 1) {
        for (int j = 0; j < 2; j++) {
            int side = j == 0 ? first : 1 - first;
            int nxt = level ? level : a->ann[bonus][side]; /* (1 + level) = the next level */
            int own = (zr_side_seats(a, side) >> seat) & 1;
            if ((nxt % 2 == 0) == own) return side;
        }
    }
    return first;
}

/* one auction action, strictly: 0 applied, -1 the reference would report something */
static int zr_auction_apply(zr_auction *a, const zr_action *x) {
    const zr_config *c = a->c;
    int seat = x->seat;
    if (a->over) return -1;
    if (a->cur_seat >= 0 && seat != a->cur_seat) return -1;
    if (a->cur_seat < 0) {
        if (seat != a->expected) return -1;
        a->cur_seat = seat;
        a->cur_decls = a->cur_had_contract = a->pending = 0;
    }
    if (x->kind == ZR_PASS) return zr_end_turn(a);
    int first = a->cur_decls == 0;
    int opening = seat == a->p1 && !a->p1_opened && first && a->contract < 0;
    switch (x->kind) {
    case ZR_CALL: {
        if (seat != a->p1 || a->contract >= 0 || !opening) return -1;
        int card = x->card, ok = 0;
        for (int i = 0; i < 5; i++) ok |= ZR_CALLABLE[i] == card;
        if (!ok || (a->dealt[seat] & TK_BIT(card))) return -1;
        int required = zr_required_call(a);
        if (required < 0 || (required != card && c->call_rule == 0)) return -1;
        int row = -1;
        for (int i = 0; i < c->ncontracts; i++)
            if (c->called[i]) row = i;
        if (row < 0) return -1;
        a->p1_opened = 1;
        a->contract = row;
        a->holder = seat;
        a->called = card;
        a->partner = zr_holder_of(a->dealt, card);
        if (a->partner == seat) a->partner = -1;
        a->quiet = 0;
        a->cur_had_contract = 1;
        a->nhist++;
        break;
    }
    case ZR_BID: {
        int k = x->contract;
        if (k < 0 || k >= c->ncontracts || c->called[k]) return -1;
        if (opening) {
            a->p1_opened = 1;
            if (zr_required_call(a) < 0 && c->suit_solo[k] && c->forehand_all_five == 0) return -1;
        } else {
            if (seat == a->p1 && !a->p1_opened) a->p1_opened = 1;
            int current = a->contract >= 0 ? c->rank[a->contract] : 0;
            if (c->rank[k] <= current || !a->open || !first || (a->passed >> seat & 1) ||
                seat == a->holder)
                return -1;
        }
        if (c->suit_solo[k] &&
            tk_popcount(a->dealt[seat] & ~TK_TAROKS) < c->farbensolo_min_suit_cards)
            return -1;
        if (a->game_level > 0) return -1; /* voided by the overcall: a finding */
        for (int b = 0; b < ZR_NBONUS; b++)
            if (a->ann[b][0] || a->ann[b][1]) return -1;
        a->contract = k;
        a->holder = seat;
        a->called = -1;
        a->partner = -1;
        a->game_level = 0;
        for (int t = 0; t <= ZR_NBONUS; t++) a->last_change[t] = -1;
        if (a->nhist) a->changed_turn = a->turns_done;
        a->quiet = 0;
        a->cur_had_contract = 1;
        a->pending = 0;
        a->nhist++;
        break;
    }
    case ZR_ANNOUNCE: {
        if (opening) return -1;
        int b = x->bonus, side = x->side;
        if (b < 0 || b >= ZR_NBONUS || side < 0 || side > 1) return -1;
        int own = (zr_dside(a) >> seat & 1) ? 0 : 1;
        if (side != own) return -1;
        if (b == ZR_PAGAT) {
            if (a->contract >= 0 && c->suit_solo[a->contract]) return -1;
            int t1 = zr_holder_of(a->dealt, TK_PAGAT);
            if (c->pagat_announcer == 1) {
                if (t1 != seat) return -1;
            } else if (t1 < 0 || !(zr_side_seats(a, side) >> t1 & 1)) {
                return -1;
            }
        }
        if (a->ann[b][side] || ((a->ann[b][0] || a->ann[b][1]) && c->one_announcement_per_bonus))
            return -1;
        if (zr_late(a, seat, -2)) return -1;
        if (!a->ann[b][0] && !a->ann[b][1]) a->first_side[b] = side;
        a->ann[b][side] = 1;
        a->last_change[b + 1] = a->turns_done;
        a->nhist++;
        if (side == 1) {
            int mode = c->dagegen_kontra;
            int implied = (mode == 0 && b != ZR_PAGAT) || mode == 1;
            int explicit_ = (mode == 0 && b == ZR_PAGAT) || mode == 2;
            if (implied && a->game_level == 0) return -1; /* kontra.implied: a finding */
            if (!implied && explicit_) a->pending = 1;
        }
        break;
    }
    case ZR_KONTRA: {
        if (opening) return -1;
        int t = x->target, current, owner, side = -1;
        if (t < 0) {
            current = a->game_level;
            owner = zr_dside(a);
        } else {
            if (t >= ZR_NBONUS) return -1;
            side = zr_find_announced(a, t, seat, x->level);
            if (side < 0) return -1;
            current = a->ann[t][side] - 1;
            owner = zr_side_seats(a, side);
        }
        int level = x->level ? x->level : current + 1;
        if (level > c->max_kontra_level || level != current + 1) return -1;
        if ((level % 2 == 1) == ((owner >> seat) & 1)) return -1;
        if (zr_late(a, seat, t)) return -1;
        if (t < 0) a->game_level = level;
        else a->ann[t][side] = 1 + level;
        a->last_change[t + 1] = a->turns_done;
        a->nhist++;
        break;
    }
    default:
        return -1;
    }
    a->cur_decls++;
    return 0;
}

/* ------------------------------------------------------------------ scoring */

typedef struct {
    int item, winners, losers, value;
} zr_side_item;

static int zr_bit_count(int m) { return __builtin_popcount((unsigned)m); }

/* scoring.score_deal for a clean hand (no offender), then scoring.settle */
static int zr_score(const zr_config *c, const zr_auction *a, const tk_set *dealt,
                    const int *claimed, int multiplier, zr_result *res) {
    int k = a->contract;
    int D = zr_dside(a), F = ~D & 15;
    int cval = c->value[k], sb = c->bonus_factor[k], r = multiplier;
    int pts[4] = {0}, trk[4] = {0};
    for (int t = 0; t < res->ntricks; t++) {
        pts[res->tricks[t].winner] += res->tricks[t].points;
        trk[res->tricks[t].winner]++;
    }
    int cp_d = 0, cp_f = 0, tricks_d = 0;
    for (int s = 0; s < 4; s++) {
        if (D >> s & 1) {
            cp_d += pts[s];
            tricks_d += trk[s];
        } else {
            cp_f += pts[s];
        }
    }
    res->cp_declarer = cp_d;
    res->cp_defenders = cp_f;
#define ZR_CP(side) ((side) == D ? cp_d : cp_f)
#define ZR_OPP(side) (~(side) & 15)
#define ZR_SIDE_OF(seat) ((D >> (seat) & 1) ? D : F)
#define ZR_ANN_SIDE(side) ((side) == 0 ? D : F)
    int valat_side = res->ntricks == 10 && tricks_d == 10 ? D
                     : res->ntricks == 10 && tricks_d == 0 ? F
                                                           : 0;
    zr_side_item items[24];
    int n = 0;
#define ZR_ADD(it, w, l, v)                                                                  \
    do {                                                                                     \
        items[n].item = (it);                                                                \
        items[n].winners = (w);                                                              \
        items[n].losers = (l);                                                               \
        items[n].value = (v);                                                                \
        n++;                                                                                 \
    } while (0)
    /* game (§7.1) */
    int thr = c->game_threshold;
    if (c->absolut_moves_game_threshold && (a->ann[ZR_ABSOLUT][0] || a->ann[ZR_ABSOLUT][1]))
        thr = a->ann[ZR_ABSOLUT][0] ? c->total_points - c->absolut_limit : c->absolut_limit + 1;
    int gw = cp_d >= thr ? D : F;
    for (int j = 0; j < 2; j++) {
        int side = j ? 1 - a->first_side[ZR_VALAT] : a->first_side[ZR_VALAT];
        if (a->ann[ZR_VALAT][side] && c->lost_announced_valat_loses_game &&
            valat_side != ZR_ANN_SIDE(side))
            gw = ZR_OPP(ZR_ANN_SIDE(side));
    }
    ZR_ADD(ZR_I_GAME, gw, ZR_OPP(gw), cval * (1 << a->game_level) * r);
    /* Valat */
    int s_valat = c->valat_mode == 1 ? 1 : sb, fixed = c->valat_mode == 2;
    int any_valat = a->ann[ZR_VALAT][0] || a->ann[ZR_VALAT][1];
    for (int j = 0; j < 2; j++) {
        int side = j ? 1 - a->first_side[ZR_VALAT] : a->first_side[ZR_VALAT];
        if (!a->ann[ZR_VALAT][side]) continue;
        int as = ZR_ANN_SIDE(side), lv = a->ann[ZR_VALAT][side] - 1;
        int w = valat_side == as ? as : ZR_OPP(as);
        ZR_ADD(ZR_I_VALAT, w, ZR_OPP(w), (fixed ? 12 : 12 * cval) * (1 << lv) * s_valat * r);
    }
    if (!any_valat && valat_side)
        ZR_ADD(ZR_I_VALAT, valat_side, ZR_OPP(valat_side), (fixed ? 6 : 6 * cval) * s_valat * r);
    /* Absolut */
    int any_abs = a->ann[ZR_ABSOLUT][0] || a->ann[ZR_ABSOLUT][1];
    for (int j = 0; j < 2; j++) {
        int side = j ? 1 - a->first_side[ZR_ABSOLUT] : a->first_side[ZR_ABSOLUT];
        if (!a->ann[ZR_ABSOLUT][side]) continue;
        int as = ZR_ANN_SIDE(side), lv = a->ann[ZR_ABSOLUT][side] - 1;
        int w = ZR_CP(ZR_OPP(as)) <= c->absolut_limit ? as : ZR_OPP(as);
        ZR_ADD(ZR_I_ABSOLUT, w, ZR_OPP(w), 2 * (1 << lv) * sb * r);
    }
    if (!any_abs && res->ntricks == 10 && (cp_f <= c->absolut_limit || cp_d <= c->absolut_limit)) {
        int w = cp_f <= c->absolut_limit ? D : F;
        ZR_ADD(ZR_I_ABSOLUT, w, ZR_OPP(w), sb * r);
    }
    /* Pagat Ultimo, Trull, Mondfang (not in a Farbensolo) */
    int t1_seat = -1, t1_no = 0, t1_winner = -1;
    for (int t = 0; t < res->ntricks; t++)
        for (int j = 0; j < 4; j++)
            if (res->tricks[t].cards[j] == TK_PAGAT) {
                t1_seat = res->tricks[t].seats[j];
                t1_no = t + 1;
                t1_winner = res->tricks[t].winner;
            }
    int t1_last = t1_no == 10, t1_won = t1_last && t1_winner == t1_seat;
    int mond_owner = -1, mond_capturer = -1;
    for (int t = 0; t < res->ntricks && mond_owner < 0; t++)
        if (res->tricks[t].mond_owner >= 0) {
            mond_owner = res->tricks[t].mond_owner;
            mond_capturer = res->tricks[t].winner;
        }
    int suit_solo = c->suit_solo[k];
    int mondfang_counts = mond_owner >= 0 && (!suit_solo || c->mondfang_in_farbensolo == 1);
    if (!suit_solo) {
        int any_pag = a->ann[ZR_PAGAT][0] || a->ann[ZR_PAGAT][1];
        for (int j = 0; j < 2; j++) {
            int side = j ? 1 - a->first_side[ZR_PAGAT] : a->first_side[ZR_PAGAT];
            if (!a->ann[ZR_PAGAT][side]) continue;
            int as = ZR_ANN_SIDE(side), lv = a->ann[ZR_PAGAT][side] - 1;
            int ok = t1_won && t1_seat >= 0 && (as >> t1_seat & 1);
            int w = ok ? as : ZR_OPP(as);
            ZR_ADD(ZR_I_PAGAT, w, ZR_OPP(w), 2 * (1 << lv) * sb * r);
        }
        if (!any_pag && t1_last && t1_seat >= 0) {
            int x = ZR_SIDE_OF(t1_seat);
            if (t1_won || c->silent_pagat_loss == 0) {
                int w = t1_won ? x : ZR_OPP(x);
                ZR_ADD(ZR_I_PAGAT, w, ZR_OPP(w), sb * r);
            }
        }
    }
    for (int b = 0; b < ZR_NCLAIMS; b++) {
        tk_set cards = b == 0 ? TK_TRULA : TK_KINGS;
        int base = b == 0 ? c->trull_value : c->four_kings_value;
        int counts = b == 0 ? !suit_solo : 1;
        for (int s = 0; s < 4; s++)
            if ((dealt[s] & cards) == cards && counts &&
                (c->card_bonus_claim == 1 || (claimed[s] >> b & 1))) {
                int w = ZR_SIDE_OF(s);
                ZR_ADD(b == 0 ? ZR_I_TRULL : ZR_I_FOUR_KINGS, w, ZR_OPP(w), base * sb * r);
            }
    }
    if (mondfang_counts) {
        int m = sb * r;
        if (c->mondfang_payer == 2) {
            ZR_ADD(ZR_I_MONDFANG, 1 << mond_capturer, 1 << mond_owner, m);
        } else {
            int w = c->mondfang_payer == 0 ? ZR_OPP(ZR_SIDE_OF(mond_owner))
                                           : ZR_SIDE_OF(mond_capturer);
            ZR_ADD(ZR_I_MONDFANG, w, ZR_OPP(w), m);
        }
    }
    /* settle (§7.4) */
    res->nlines = 0;
    for (int s = 0; s < 4; s++) res->totals[s] = 0;
    for (int i = 0; i < n; i++) {
        const zr_side_item *it = &items[i];
        if (valat_side && c->valat_overrides_bonuses && it->item != ZR_I_GAME &&
            it->item != ZR_I_VALAT)
            continue;
        if (valat_side && c->valat_replaces_game && it->item == ZR_I_GAME) continue;
        int nw = zr_bit_count(it->winners), nl = zr_bit_count(it->losers);
        if (!nw || !nl) continue;
        int v = it->value;
        int win_each = nw <= nl ? v * (nl / nw > 1 ? nl / nw : 1) : v;
        int lose_each = nl <= nw ? v * (nw / nl > 1 ? nw / nl : 1) : v;
        if (nw == 1 && nl == 1) win_each = lose_each = v;
        for (int s = 0; s < 4; s++) {
            if (!((it->winners | it->losers) >> s & 1)) continue;
            if (res->nlines >= ZR_MAX_LINES) return -1;
            int val = (it->winners >> s & 1) ? win_each : -lose_each;
            zr_line *l = &res->lines[res->nlines++];
            l->item = it->item;
            l->seat = s;
            l->value = val;
            res->totals[s] += val;
        }
    }
    res->won = gw == D;
    res->mondfang = mondfang_counts;
#undef ZR_ADD
#undef ZR_CP
#undef ZR_OPP
#undef ZR_SIDE_OF
#undef ZR_ANN_SIDE
    return 0;
}

/* ------------------------------------------------------------------ the whole hand */

/* The throw-in status of a dealt hand (hand.throw_in_status): 2 must, 1 may, 0 none */
static int zr_throw_in(const zr_config *c, tk_set hand) {
    if (c->throw_in == 2) return 0;
    tk_set t = hand & TK_TAROKS;
    if (!t) return 2;
    if (tk_popcount(t) == 1 && (t & TK_TRULA)) return c->throw_in == 1 ? 2 : 1;
    return 0;
}

/* One whole hand: the deal `dealt` (four hands of card ids), dealt by `dealer`, its actions,
 * and the session's carry `k` (its multiplier for this game; carried on when the hand is
 * taken). 0 with *res filled, or -1: the reference takes the hand. */
static int zr_hand(const zr_config *c, int dealer, const tk_set *dealt, const zr_action *acts,
                   int nacts, zr_carry *k, zr_result *res) {
    if (c->auction_model != 0 || dealer < 0 || dealer > 3) return -1;
    if (k->next_dealer >= 0 && dealer != k->next_dealer) return -1; /* deal.dealer_order */
    /* the deal (§3.7): ten cards each, the forty cards of the pack */
    tk_set all = 0;
    for (int s = 0; s < 4; s++) {
        if (tk_popcount(dealt[s]) != 10 || (all & dealt[s])) return -1;
        all |= dealt[s];
    }
    tk_set pack = TK_TAROKS & ~(TK_BIT(1) | TK_BIT(2)); /* I, IIII..Sküs */
    for (int su = 1; su <= 4; su++) {
        int b = TK_SUIT_BASE(su);
        pack |= TK_BIT(b) | TK_BIT(b + 1) | TK_BIT(b + 2) | TK_BIT(b + 3) | TK_BIT(b + 7);
    }
    if (all != pack) return -1;
    for (int s = 0; s < 4; s++)
        if (zr_throw_in(c, dealt[s]) == 2) return -1; /* throw_in.missing */
    zr_auction a;
    memset(&a, 0, sizeof a);
    a.c = c;
    a.dealt = dealt;
    a.p1 = a.expected = (dealer + 1) & 3;
    a.cur_seat = a.contract = a.holder = a.called = a.partner = -1;
    a.open = 1;
    a.changed_turn = -1;
    for (int s = 0; s < 4; s++) a.last_turn[s] = -1;
    for (int t = 0; t <= ZR_NBONUS; t++) a.last_change[t] = -1;
    int i = 0;
    while (i < nacts && !a.over) {
        if (acts[i].kind == ZR_PLAY || acts[i].kind == ZR_CLAIM) return -1;
        if (zr_auction_apply(&a, &acts[i]) < 0) return -1;
        i++;
    }
    if (!a.over || a.contract < 0 || a.holder < 0) return -1;
    /* the forty cards (zrloop.h) */
    if (nacts - i < ZR_CARDS) return -1;
    int seat[ZR_CARDS], card[ZR_CARDS];
    for (int j = 0; j < ZR_CARDS; j++) {
        const zr_action *x = &acts[i + j];
        if (x->kind != ZR_PLAY) return -1;
        seat[j] = x->seat;
        card[j] = x->card;
    }
    zr_rules rules;
    rules.farbensolo = c->suit_solo[a.contract];
    rules.compulsion = c->farbensolo_tarock_compulsion == 0 ? 1
                       : c->farbensolo_tarock_compulsion == 1 ? 0
                                                              : 2;
    rules.maerchen = c->maerchenstich == 0 ? 1 : c->maerchenstich == 1 ? 2 : 0;
    rules.keep_pagat = 0;
    if (c->pagat_hold_obligation == 0)
        for (int side = 0; side < 2; side++)
            if (a.ann[ZR_PAGAT][side]) rules.keep_pagat |= zr_side_seats(&a, side);
    tk_set hands[4];
    for (int s = 0; s < 4; s++) hands[s] = dealt[s];
    if (zr_play_cards(&rules, hands, a.p1, seat, card, ZR_CARDS, res->tricks) != ZR_TRICKS)
        return -1;
    res->ntricks = ZR_TRICKS;
    i += ZR_CARDS;
    /* the claims after the play (Trull, Four Kings) */
    int claimed[4] = {0, 0, 0, 0};
    for (; i < nacts; i++) {
        const zr_action *x = &acts[i];
        if (x->kind != ZR_CLAIM || x->bonus < 0 || x->bonus >= ZR_NCLAIMS) return -1;
        tk_set cards = x->bonus == 0 ? TK_TRULA : TK_KINGS;
        if ((dealt[x->seat] & cards) != cards) return -1; /* claim.false */
        claimed[x->seat] |= 1 << x->bonus;
    }
    res->contract = a.contract;
    res->declarer = a.holder;
    res->partner = a.partner;
    res->called = a.called;
    res->multiplier = zr_multiplier(c, k);
    res->nactions = nacts;
    if (zr_score(c, &a, dealt, claimed, res->multiplier, res) < 0) return -1;
    k->next_dealer = (dealer + 1) & 3;
    return zr_advance(c, k, res->mondfang);
}

#endif /* TAROCK_ZRHAND_H */
