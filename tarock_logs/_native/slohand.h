/* One whole clean Slovenian hand in C: the deal check, the bidding, the king call, the talon,
 * the discards, the announcement round (announcements, kontras, "ležim" and the passes), the
 * card play and, under a ruleset scored by OpenSpiel's returns (``openspiel-2.0``), the
 * returns. Under the other rulesets the caller scores the tricks (the reference's score_hand
 * in Python, or sloscore.h in the store's ingest lane), with the announcements and kontras
 * this returns. Tables of 3 and 4.
 *
 * The native home of the clean case of the reference engine (tarock_logs/rules/slovenian/):
 * SlovenianHand's deal check (_deal_findings), the bidding of BiddingMixin (_bid, _final,
 * _finish_bidding), the king call, talon and discards of ExchangeMixin (_call, _talon,
 * _discard), _enter_announcements, the round of AnnouncementsMixin (_ann_pass, _announce,
 * _ann_problem, _kontra_problem, _advance_stage) where it reports nothing, the card play
 * under the play rules the announcements leave (_play_rules, _first_leader; PlayRules.legal
 * and winner_index through cards.h) and openspiel_hand_score. The Python stays the readable
 * reference; tests/rules/slovenian/test_native_hand.py holds the two equal, position by
 * position. Whatever the reference would report (a doubtful bid, an announcement or a kontra
 * out of turn or not allowed, any finding), and anything else unusual, makes this decline:
 * the caller (fast/fastpath.py, lane.h) then leaves the hand to the reference, whole.
 *
 * Vocabulary: the talon is the six cards dealt face down; the declarer takes one of its groups
 * and lays away (discards) as many cards; in klop nobody declares and the first six tricks each
 * take a talon card (a gift). "Ležim" ("I lie") is the declarer's word that he announces
 * nothing more; "v redu" (a pass) a defender's. A kontra doubles the game or an announced
 * bonus (re, sub and mord double it again, by turns of the sides). Seats follow cards.h and
 * cardloop.h.
 *
 * Depends on cards.h, cardloop.h and openspiel.h only (no Python): module.c reads the log.
 */
#ifndef TAROCK_SLOHAND_H
#define TAROCK_SLOHAND_H

#include "cardloop.h"
#include "cards.h"
#include "openspiel.h"

#define SH_MAX_CONTRACTS 16
#define SH_MAX_ACTIONS 80

/* action kinds, as the binding reads the log's ``type`` */
enum {
    SH_PASS = 0,
    SH_BID = 1,
    SH_CALL = 2,
    SH_TALON = 3,
    SH_DISCARD = 4,
    SH_PLAY = 5,
    SH_LEZIM = 6,
    SH_ANNOUNCE = 7,
    SH_KONTRA = 8,
    SH_OTHER = 9
};

/* the bonuses that may be announced (announcements.ANN_BONUSES), in that order; a kontra's
 * target is SH_GAME or 1 + a bonus */
#define SH_NBONUS 6
enum { SH_TRULA = 0, SH_KRALJI, SH_PAGAT_ULTIMO, SH_KRALJ_ULTIMO, SH_VALAT, SH_BARVNI_VALAT };
#define SH_GAME 0
#define SH_MAX_KONTRAS 16

/* One action of the log: its kind and seat, and for a bid the contract index (-1: not a
 * contract), a call or a card its card id (-1: not a card of the pack), a talon pick its group
 * (-1: not an int), an announcement its bonus (SH_TRULA ..., -1: not one of them), a kontra
 * its target (SH_GAME or 1 + a bonus, -1: neither) with ``level`` its level as recorded; a
 * discard's cards (``ncards`` tokens, -1 when one is not a card of the pack) and the taroks it
 * shows (unknown tokens left out: they match no card). */
typedef struct {
    int type;
    int seat;
    int arg;
    int level;
    int ncards;
    int cards[6];
    tk_set shown;
} sh_action;

/* The ruleset's side of a hand: fixed per ruleset and table size. Built once in Python from
 * the rule tables BY FIELD NAME (rules/slovenian/fast/codec.py; module.c's SH_CONFIG_FIELDS
 * lists the fields it reads): a scalar is the option of contracts.Rules of the same name, a
 * per-contract array the Contract flag of the same name (contracts.CONTRACTS, in its order),
 * unless codec.py derives it. The comments give the fields' meaning; contracts.py the flags'. */
typedef struct {
    int n;              /* 3 or 4 active seats (5 is left to Python: the dealer sits out) */
    int tricks_total;   /* 48 / n */
    int table_ok;       /* n is among the ruleset's table sizes */
    int redeal_without_taroks; /* a seat without a tarok is a finding */
    int discard_only_if_forced; /* a tarok is laid away only when nothing else may go */
    int openspiel_scoring;     /* scored by OpenSpiel's returns (else the caller scores) */
    int ncontracts;     /* (the reader's: the length of the per-contract arrays) */
    int mandatory;      /* (the reader's: the index of the contract with forehand_holds) */
    int rank[SH_MAX_CONTRACTS];
    int at_three[SH_MAX_CONTRACTS];
    int king_call[SH_MAX_CONTRACTS];
    int talon[SH_MAX_CONTRACTS];          /* talon cards taken (= discarded) */
    int declarer_leads[SH_MAX_CONTRACTS];
    int alone[SH_MAX_CONTRACTS];          /* klop: nobody declares, never bid */
    int talon_gifts[SH_MAX_CONTRACTS];    /* klop: the first six tricks each take a talon card */
    int forehand_holds[SH_MAX_CONTRACTS]; /* the mandatory three */
    int no_trick[SH_MAX_CONTRACTS];       /* berac: the play ends at the declarer's first trick */
    int every_trick[SH_MAX_CONTRACTS];    /* valat: the play ends at his side's first lost trick */
    int colour_valat[SH_MAX_CONTRACTS];   /* barvni valat: its trick rule, one kontra item */
    int brez_options[SH_MAX_CONTRACTS];   /* solo brez: difference per solo_brez_difference */
    int os_kind[SH_MAX_CONTRACTS];        /* openspiel.h's kind, -1: not scored natively */
    int os_value[SH_MAX_CONTRACTS];
    /* the announcement round of each contract (_enter_announcements): -1 none (straight to
     * the play), 0 it opens with the declarer's turn, 1 with the defenders' (klop: everyone's) */
    int ann_stage[SH_MAX_CONTRACTS];
    tk_rules rules[SH_MAX_CONTRACTS];     /* the play rules of each contract */
    /* the announcement round (announcements.py): the ruleset's switches, and per contract
     * whether it has bonuses (Rules.has_bonuses) and is a solo (barvni valat announceable) */
    int announcements;       /* bonuses may be announced */
    int kontra_levels;       /* 0: no kontra; 1 kontra, 2 re, 3 sub, 4 mord */
    int klop_kontra;         /* the one kontra on klop */
    int protection;          /* announced ultimo cards are protected (spec 8.4(c)) */
    int announced_valat_leads; /* announced valat: the declarer leads */
    int has_bonuses[SH_MAX_CONTRACTS];
    int solo[SH_MAX_CONTRACTS];
} sh_config;

typedef struct {
    int contract;
    int declarer;   /* -1 in klop */
    int partner;    /* -1: none */
    int called_king;
    int talon_group;
    int discards[6];
    int ndiscards;
    int first_card; /* index of the first card action */
    int ntricks;
    int early;
    tk_trick tricks[TK_MAX_TRICKS];
    int returns[4];
    /* the announcements in the order made (seat, bonus, side: 0 the declarer's, 1 the
     * defenders') and the kontras (seat, target, level reached) */
    int nann;
    int ann[SH_NBONUS][3];
    int nkontra;
    int kontra[SH_MAX_KONTRAS][3];
} sh_result;

/* The deal check's usual case (SlovenianHand._deal_is_clean): a table size of the ruleset, the
 * 54 cards of the pack each once, a talon of six, tricks_total cards a seat, and (under
 * redeal_without_taroks) a tarok in every hand. 1 when clean. */
static int sh_deal_clean(const sh_config *c, const int hand_len[4], const tk_set hands[4],
                         tk_set talon, int talon_len) {
    if (!c->table_ok || talon_len != 6 || tk_popcount(talon) != 6) return 0;
    tk_set all = talon;
    for (int s = 0; s < c->n; s++) {
        if (hand_len[s] != c->tricks_total || tk_popcount(hands[s]) != hand_len[s]) return 0;
        if (all & hands[s]) return 0;
        all |= hands[s];
        if (c->redeal_without_taroks && !(hands[s] & TK_TAROKS)) return 0;
    }
    return all == TK_ALL;
}

/* The seat after `s` among the n active seats, skipping the seats in `passed`. */
static inline int sh_next(int n, int s, int passed) {
    int t = (s + 1) % n;
    while (passed & (1 << t)) t = (t + 1) % n;
    return t;
}

/* Run the hand; 0 with `r` filled, or -1 to decline. `hands` are each seat's dealt cards (they
 * are played down), `talon` the six talon ids in dealt order. */
static int sh_play_hand(const sh_config *c, int dealer, tk_set *hands, const int *talon,
                        const sh_action *acts, int nacts, sh_result *r) {
    const int n = c->n;
    if (dealer < 0 || dealer >= n) return -1;
    const int p1 = (dealer + 1) % n;
    /* position in the bidding order from P1 */
#define SH_POS(s) ((((s) - p1) % n + n) % n)

    /* ---- the bidding (BiddingMixin: _bid, _final, _finish_bidding) */
    int nbids = 0, passed = 0, high = c->mandatory, hrank = c->rank[c->mandatory], holder = p1;
    int others_bid = 0, turn = (p1 + 1) % n, final = 0, k = 0, done = 0;
    int contract = -1, declarer = -1;
    while (k < nacts) {
        const sh_action *a = &acts[k];
        int code; /* -1: pass; else a contract index; -2: not a contract */
        if (a->type == SH_PASS)
            code = -1;
        else if (a->type == SH_BID)
            code = a->arg >= 0 ? a->arg : -2;
        else
            return -1;
        int seat = a->seat;
        if (seat < 0 || seat >= n) return -1;
        if (seat != turn && !(nbids == 0 && seat == p1 && code == c->mandatory)) return -1;
        if (final) {
            int special = seat == p1 && high == c->mandatory && !others_bid;
            if (code < 0 || !(n == 4 || c->at_three[code])) return -1;
            if (code >= 0 && c->alone[code]) {
                if (!special) return -1;
            } else if (c->rank[code] < hrank) {
                return -1;
            }
            k++;
            contract = code;
            declarer = c->alone[code] ? -1 : seat;
            done = 1;
            break;
        }
        if (nbids == 0 && seat == p1 && code == c->mandatory) { /* the explicit mandatory three */
            nbids++;
            k++;
            continue;
        }
        if (passed & (1 << seat)) return -1;
        if (code == -1) {
            passed |= 1 << seat;
        } else {
            if (code < 0 || c->alone[code] || c->forehand_holds[code] || !(n == 4 || c->at_three[code]))
                return -1;
            int rk = c->rank[code];
            if (rk < hrank || (rk == hrank && SH_POS(seat) > SH_POS(holder))) return -1;
            high = code;
            hrank = rk;
            holder = seat;
            if (seat != p1) others_bid = 1;
        }
        nbids++;
        k++;
        if (tk_popcount((tk_set)passed) >= n - 1) {
            int rem = -1;
            for (int i = 0; i < n; i++) {
                int s = (p1 + i) % n;
                if (!(passed & (1 << s))) {
                    rem = s;
                    break;
                }
            }
            final = 1;
            turn = rem >= 0 ? rem : holder;
        } else {
            turn = sh_next(n, seat, passed);
        }
    }
    if (!done) return -1;
#undef SH_POS

    /* ---- the king call, the talon, the discards (ExchangeMixin: _call, _talon, _discard) */
    enum { PH_KING, PH_TALON, PH_DISCARD, PH_ANN, PH_PLAY } phase;
    int partner = -1, called_king = -1, group = -1, ndisc = 0;
    const int tk = c->talon[contract];
    const int ann_stage = c->ann_stage[contract];
    /* _enter_announcements: the round, or straight to the play */
#define SH_ENTER_ANNOUNCEMENTS() (phase = ann_stage < 0 ? PH_PLAY : PH_ANN)
    if (declarer < 0)
        SH_ENTER_ANNOUNCEMENTS(); /* klop */
    else if (c->king_call[contract] && n == 4)
        phase = PH_KING;
    else if (tk)
        phase = PH_TALON;
    else
        SH_ENTER_ANNOUNCEMENTS();
    while (k < nacts && phase != PH_PLAY && phase != PH_ANN) {
        const sh_action *a = &acts[k];
        if (a->seat != declarer) return -1;
        if (a->type == SH_CALL && phase == PH_KING) {
            int king = a->arg;
            if (king < 0 || !(TK_BIT(king) & TK_KINGS)) return -1;
            called_king = king;
            partner = -1;
            for (int s = 0; s < n; s++)
                if (s != declarer && (hands[s] & TK_BIT(king))) partner = s;
            phase = PH_TALON;
        } else if (a->type == SH_TALON && phase == PH_TALON) {
            int g = a->arg;
            if (tk <= 0 || g < 0 || g >= 6 / tk) return -1;
            group = g;
            for (int i = g * tk; i < (g + 1) * tk; i++) hands[declarer] |= TK_BIT(talon[i]);
            phase = PH_DISCARD;
        } else if (a->type == SH_DISCARD && phase == PH_DISCARD) {
            int m = a->ncards;
            if (m <= 0 || ndisc + m > tk) return -1;
            tk_set cards = 0;
            for (int i = 0; i < m; i++) {
                if (a->cards[i] < 0) return -1; /* not held (not a card of the pack) */
                cards |= TK_BIT(a->cards[i]);
            }
            if (tk_popcount(cards) != m) return -1; /* a card twice */
            tk_set hand = hands[declarer];
            for (int i = 0; i < m; i++) {
                int cd = a->cards[i];
                tk_set b = TK_BIT(cd);
                if (!(hand & b)) return -1;
                if (b & (TK_KINGS | TK_TRULA)) return -1; /* never a king or a trula card */
                if (b & TK_TAROKS) {
                    if (c->discard_only_if_forced) {
                        /* a tarok only when nothing but taroks and kings is left to lay away */
                        if (hand & ~b & ~cards & ~TK_TAROKS & ~TK_KINGS) return -1;
                    } else if (!(a->shown & b)) {
                        return -1; /* a tarok laid away must be shown */
                    }
                }
            }
            for (int i = 0; i < m; i++) {
                hands[declarer] &= ~TK_BIT(a->cards[i]);
                r->discards[ndisc++] = a->cards[i];
            }
            if (ndisc >= tk) SH_ENTER_ANNOUNCEMENTS();
        } else {
            return -1;
        }
        k++;
    }
#undef SH_ENTER_ANNOUNCEMENTS

    /* ---- the announcement round (AnnouncementsMixin: _ann_pass, _announce, _kontra; the
     * first card ends it as SlovenianHand._advance does), its clean case: the declarer's turn (stage 0: his announcements,
     * closed by "ležim" or a pass), the other seats in order from P1 (stage 1: their
     * announcements and kontras, each closed by "v redu", a pass; in klop everyone's, for the
     * one kontra on klop), the declarer's reply when he has something to double (stage 2),
     * then the play (stage 3). The first card ends the round without a word (spec 7.5). Any
     * action the reference would report (out of turn, a bonus that may not be announced, a
     * kontra that may not be given, ...) and this declines. */
    int ann_seat[SH_NBONUS], ann_side[SH_NBONUS]; /* -1: not announced */
    int kon[1 + SH_NBONUS];                       /* the kontra level reached per target */
    for (int b = 0; b < SH_NBONUS; b++) ann_seat[b] = ann_side[b] = -1;
    for (int t = 0; t <= SH_NBONUS; t++) kon[t] = 0;
    r->nann = 0;
    r->nkontra = 0;
    const int klop = declarer < 0;
    /* the side of a seat: 0 the declarer's (declarer and partner), 1 the defenders' */
#define SH_SIDE(s) ((!klop && ((s) == declarer || (s) == partner)) ? 0 : 1)
    /* a kontra on target t: the level it doubles now (the barvni valat and the game are one
     * item, _kontra_item) */
#define SH_KONTRA_CUR(t)                                                                        \
    ((((t) == SH_GAME || (t) == 1 + SH_BARVNI_VALAT) &&                                         \
      (c->colour_valat[contract] || ann_seat[SH_BARVNI_VALAT] >= 0))                               \
         ? (kon[SH_GAME] > kon[1 + SH_BARVNI_VALAT] ? kon[SH_GAME] : kon[1 + SH_BARVNI_VALAT]) \
         : kon[(t)])
    if (phase == PH_ANN) {
        int stage = ann_stage, lezim = stage == 1 && !klop, done_mask = 0;
        int others = 0; /* the seats of stage 1: the active seats other than the declarer */
        for (int s = 0; s < n; s++)
            if (s != declarer) others |= 1 << s;
        const int maxl = klop ? 1 : c->kontra_levels;
        while (k < nacts) {
            const sh_action *a = &acts[k];
            if (a->type == SH_PLAY) break;
            int seat = a->seat;
            if (seat < 0 || seat >= n) return -1;
            /* _ann_turn: whose turn it is (-1: nobody's) */
            int turn = -1;
            if (stage == 0 || stage == 2) {
                turn = declarer;
            } else if (stage == 1) {
                for (int i = 0; i < n; i++) {
                    int s = (p1 + i) % n;
                    if ((others & (1 << s)) && !(done_mask & (1 << s))) {
                        turn = s;
                        break;
                    }
                }
            }
            int advance = 0;
            if (a->type == SH_PASS) { /* _ann_pass */
                if (stage == 0 || stage == 2) {
                    if (klop || seat != declarer) return -1;
                    if (stage == 0) {
                        lezim = 1;
                        stage = 1;
                    } else {
                        stage = 3;
                    }
                } else if (stage == 1) {
                    if (seat != turn) return -1;
                    done_mask |= 1 << seat;
                } else {
                    return -1;
                }
                advance = 1;
            } else if (a->type == SH_LEZIM) {
                if (klop || seat != declarer || lezim) return -1;
                lezim = 1;
                if (stage == 0) stage = 1;
                advance = 1;
            } else if (a->type == SH_ANNOUNCE) { /* _ann_problem, then _announce's checks */
                int b = a->arg, side = SH_SIDE(seat);
                if (b < 0 || !c->announcements || klop || !c->has_bonuses[contract]) return -1;
                if (b == SH_KRALJ_ULTIMO && !(c->king_call[contract] && n == 4)) return -1;
                if (b == SH_BARVNI_VALAT && !(c->solo[contract] || n == 3)) return -1;
                if ((b == SH_VALAT || b == SH_BARVNI_VALAT) && seat != declarer) return -1;
                if (side == 1 && b > SH_PAGAT_ULTIMO) return -1; /* BOTH_SIDES_BONUSES */
                if (ann_seat[SH_BARVNI_VALAT] >= 0 || (b == SH_BARVNI_VALAT && r->nann > 0))
                    return -1;
                if (ann_seat[b] >= 0) return -1;
                if (!lezim && seat != declarer) return -1;
                if (lezim && seat == declarer && stage != 0) return -1;
                if (turn >= 0 && turn != seat) return -1;
                if (b == SH_PAGAT_ULTIMO || b == SH_KRALJ_ULTIMO) { /* the side holds the card */
                    int card = b == SH_PAGAT_ULTIMO ? TK_PAGAT : called_king;
                    if (card < 0) return -1;
                    int held = 0;
                    for (int s = 0; s < n; s++)
                        if (SH_SIDE(s) == side && (hands[s] & TK_BIT(card))) held = 1;
                    if (!held) return -1;
                }
                ann_seat[b] = seat;
                ann_side[b] = side;
                r->ann[r->nann][0] = seat;
                r->ann[r->nann][1] = b;
                r->ann[r->nann][2] = side;
                r->nann++;
            } else if (a->type == SH_KONTRA) { /* _kontra_problem, then _announce's checks */
                int t = a->arg;
                if (t < 0 || c->kontra_levels == 0 || (klop && !c->klop_kontra)) return -1;
                if (t != SH_GAME && ann_seat[t - 1] < 0) return -1;
                int cur = SH_KONTRA_CUR(t);
                if (a->level <= cur || cur + 1 > maxl) return -1;
                if (!klop) {
                    int owner = t == SH_GAME ? 0 : ann_side[t - 1];
                    int giver = (cur + 1) % 2 == 0 ? owner : 1 - owner;
                    if (SH_SIDE(seat) != giver || (giver == 0 && seat != declarer)) return -1;
                    if (!lezim) return -1;
                }
                if (turn >= 0 && turn != seat) return -1;
                if (r->nkontra >= SH_MAX_KONTRAS) return -1;
                kon[t] = cur + 1;
                r->kontra[r->nkontra][0] = seat;
                r->kontra[r->nkontra][1] = t;
                r->kontra[r->nkontra][2] = cur + 1;
                r->nkontra++;
            } else {
                return -1; /* anything else: the Python's */
            }
            k++;
            if (advance) { /* _advance_stage */
                if (stage == 1 && (done_mask & others) == others) {
                    /* the declarer's reply, when he has something he may double */
                    int reply = 0;
                    for (int t = 0; !klop && t <= SH_NBONUS && !reply; t++) {
                        if (t != SH_GAME && ann_seat[t - 1] < 0) continue;
                        if (c->kontra_levels == 0) break;
                        int cur = SH_KONTRA_CUR(t);
                        if (cur + 1 > c->kontra_levels) continue;
                        int owner = t == SH_GAME ? 0 : ann_side[t - 1];
                        int giver = (cur + 1) % 2 == 0 ? owner : 1 - owner;
                        if (giver == 0) reply = 1;
                    }
                    stage = reply ? 2 : 3;
                }
                if (stage >= 3) {
                    phase = PH_PLAY;
                    break;
                }
            }
        }
        phase = PH_PLAY; /* the first card ends the round */
    }
#undef SH_KONTRA_CUR
#undef SH_SIDE
    if (phase != PH_PLAY || k >= nacts) return -1;
    if (c->openspiel_scoring && (r->nann || r->nkontra)) return -1; /* (OpenSpiel has neither) */

    /* ---- the card play (cardloop.h), under the play rules the announcements leave
     * (HandFields._play_rules, _first_leader): an announced barvni valat plays by the
     * colour-valat rules and ends at the declarer's first lost trick; announced pagat and
     * king ultimo protect those cards (under announced_card_protection); the declarer leads
     * after an announced barvni valat, and after an announced valat under
     * announced_valat_declarer_leads */
    int seat[TK_NCARDS], card[TK_NCARDS], ncards = nacts - k;
    if (ncards > TK_NCARDS) return -1;
    for (int i = 0; i < ncards; i++) {
        const sh_action *a = &acts[k + i];
        if (a->type != SH_PLAY || a->arg < 0 || a->seat < 0 || a->seat >= n) return -1;
        seat[i] = a->seat;
        card[i] = a->arg;
    }
    const int barvni_ann = ann_seat[SH_BARVNI_VALAT] >= 0;
    tk_play p;
    p.nseats = n;
    for (int s = 0; s < n; s++) {
        for (int j = 0; j < n; j++) p.order[s][j] = (s + j) % n;
        p.order_len[s] = n;
    }
    for (int s = n; s < TK_MAX_SEATS; s++) p.order_len[s] = 0;
    p.rules = c->rules[contract];
    if (barvni_ann) p.rules.colour_valat = 1;
    if (c->protection && !p.rules.negative) {
        int np = 0;
        if (ann_seat[SH_PAGAT_ULTIMO] >= 0) p.rules.protected_[np++] = TK_PAGAT;
        if (ann_seat[SH_KRALJ_ULTIMO] >= 0 && called_king >= 0)
            p.rules.protected_[np++] = called_king;
    }
    p.tricks_total = c->tricks_total;
    p.declarer = declarer;
    p.ends_on_win = c->no_trick[contract];
    p.ends_on_loss = c->every_trick[contract] || barvni_ann;
    int leader = p1;
    if (declarer >= 0 &&
        (c->declarer_leads[contract] || barvni_ann || (ann_seat[SH_VALAT] >= 0 && c->announced_valat_leads)))
        leader = declarer;
    int early = 0;
    int nt = tk_play_cards(&p, hands, leader, seat, card, ncards, r->tricks, &early);
    if (nt < 0) return -1;

    r->contract = contract;
    r->declarer = declarer;
    r->partner = partner;
    r->called_king = called_king;
    r->talon_group = group;
    r->ndiscards = ndisc;
    r->first_card = k;
    r->ntricks = nt;
    r->early = early;
    if (!c->openspiel_scoring) return 0; /* the caller scores the tricks */

    /* ---- OpenSpiel's returns (openspiel.h) */
    int kind = c->os_kind[contract];
    if (kind < 0) return -1;
    tk_os_trick os[TK_MAX_TRICKS];
    for (int t = 0; t < nt; t++) {
        os[t].leader = r->tricks[t].leader;
        os[t].winner = r->tricks[t].winner;
        os[t].n = r->tricks[t].n;
        for (int j = 0; j < r->tricks[t].n; j++) os[t].cards[j] = r->tricks[t].cards[j];
    }
    if (tk_openspiel_returns(n, kind, c->os_value[contract], tk, declarer, partner, called_king,
                             talon, 6, group, r->discards, ndisc, os, nt, r->returns) < 0)
        return -1;
    return 0;
}

#endif /* TAROCK_SLOHAND_H */
