/* The native engine of Royal Tarock: one whole clean game, in C.
 *
 * The machine of the two homes (docs/architecture.md): the reference is
 * tarock_logs/rules/royal/ (hand.py, bidding.py, scoring.py, predicates.py), readable and the
 * only producer of findings. This engine plays a game the reference would find clean, from
 * the deal to its itemised score, and declines (-1) the moment it cannot vouch for that: the
 * caller then gives the game to the reference, whole. It never produces a finding.
 *
 *   deal check   (§3.3)  four hands of ten making the 40-card pack, at least three tarocks
 *                        each (else only a throw-in is clean), XIX and XX where they belong,
 *                        the dealer the defending Eintreiber;
 *   bidding      (§4)    turns of Meldungen, Schlemm announcements (raises), contras, each
 *                        closed by a pass; opened by the dealer or the attackers' Eintreiber;
 *                        over after three empty turns following the last non-empty one;
 *   cards        (§6)    the forty cards through royalloop.h, the bound cards of §6.2 from
 *                        every Schlemm the seat's pair announced;
 *   score        (§7.1)  per party: consolation, Meldungen, final Schlemme, silent premiums,
 *                        contras (limited), trophies, the floor and the cap.
 *
 * The catalogue is data: every item reaches this engine as a row of rh_config (filled by
 * field name from the catalogue by rules/royal/native.py), its condition compiled to the small
 * stack code below. An item whose value or condition is unknown (the catalogue is partly
 * unknown) is never guessed: a game that needs one is declined (the reference reports it as
 * unverified).
 *
 * Depends on cards.h and royalloop.h only (no Python).
 */
#ifndef TAROCK_ROYALHAND_H
#define TAROCK_ROYALHAND_H

#include <stdint.h>
#include <string.h>

#include "cards.h"
#include "royalloop.h"

#define RH_MAX_ITEMS 64     /* catalogue items (a larger catalogue: no native engine) */
#define RH_MAX_CODE 2048    /* ints of compiled conditions */
#define RH_MAX_BINDINGS 64  /* bound cards over all items */
#define RH_MAX_STRINGS 32   /* the string literals of the conditions (and the suit letters) */
#define RH_MAX_PARAMS 4     /* parameters of a Meldung */
#define RH_MAX_ACTIONS 240  /* actions of one game (more: declined) */
#define RH_MAX_RECORDS 96   /* Meldungen, Schlemme and contras of one game */
#define RH_MAX_LINES 128    /* score lines written (per seat) */

/* the item groups, in the order of RH_GROUP_NAMES (module.c; native.py checks them) */
enum { RH_G_MELDUNG, RH_G_MATERIAL, RH_G_SILENT, RH_G_FREE_TRICKS, RH_G_BOUND, RH_G_TROPHY,
       RH_G_SCHLEMM, RH_NGROUPS };
/* the action kinds, in the order of RH_KIND_NAMES */
enum { RH_PASS, RH_MELD, RH_ANNOUNCE, RH_KONTRA, RH_PLAY, RH_THROW_IN, RH_NKINDS };
/* a parameter's kind (catalogue ``params``) and a value's tag */
enum { RH_PK_NONE, RH_PK_SUIT, RH_PK_INT, RH_PK_BOOL, RH_PK_STR };
enum { RH_V_NONE, RH_V_INT, RH_V_BOOL, RH_V_STR };
/* the score lines that are no catalogue item */
enum { RH_L_CONSOLATION = -1, RH_L_KONTRA = -2, RH_L_CAP = -3 };
/* the opcodes of a compiled condition (rules/royal/native.py compiles them; RH_OP_NAMES) */
enum {
    RH_OP_TRUE,            /* push 1 */
    RH_OP_FALSE,           /* push 0 */
    RH_OP_NONE,            /* push None */
    RH_OP_INT,             /* v: push the int v */
    RH_OP_STR,             /* i: push the string i */
    RH_OP_PARAM,           /* slot (-1: none): push the Meldung's parameter */
    RH_OP_HAND_COUNT,      /* pop a suit letter: push the player's cards of it, else None */
    RH_OP_SUIT_SIZE,       /* pop a suit letter: push its size, else None */
    RH_OP_HOME_ALL,        /* n c1..cn: every card home */
    RH_OP_HOME_ANY,        /* n c1..cn: any card home */
    RH_OP_HOME_FROM_OPP,   /* c: dealt to the other pair, home */
    RH_OP_TRICKS_AT_LEAST, /* n */
    RH_OP_FIRST_TO,        /* n: the party completes n tricks first */
    RH_OP_FIRST_N,         /* n: the party wins the first n tricks */
    RH_OP_TRICK_WON_WITH,  /* k c: the party wins trick k with card c */
    RH_OP_HAND_ALL,        /* n c1..cn: the player holds every card */
    RH_OP_HAND_ANY,        /* n c1..cn: the player holds one of them */
    RH_OP_CMP,             /* op (0 eq 1 ne 2 lt 3 le 4 gt 5 ge): pop b, a; push a op b */
    RH_OP_AND,             /* n: pop n, push their conjunction */
    RH_OP_OR,              /* n */
    RH_OP_NOT,
    RH_NOPS
};

/* The ruleset's options and the catalogue, as rules/royal/native.py fills them by field name
 * (RH_CONFIG_FIELDS in module.c). */
typedef struct {
    /* options (a closed option by its place in rulesets' choices) */
    int xix_recipient;         /* 0 the attacking Abfänger, 1 the defending one */
    int raise_voids_contra;    /* 0 always, 1 carry_over, 2 keep */
    int contra_limit;
    int contra_limit_mode;     /* 0 net, 1 separate */
    int cap;
    int trophy_cap_order;      /* 0 cap_then_trophies, 1 lost_trophies_inside_cap */
    int lauer_rule;            /* 0 capturer, 1 victims */
    int meld_only_turn_resets;
    int consolation_known;     /* bit 0 the attackers', bit 1 the defenders' */
    int consolation_att_value; /* the attackers' (its option, else ``consolation``) */
    int consolation_def_value;
    int obscur_item;           /* item index or -1 */
    int lauer_item;
    /* the catalogue, one entry per item */
    int nitems;
    int group[RH_MAX_ITEMS];
    int announceable[RH_MAX_ITEMS];
    int direct_announcement_allowed[RH_MAX_ITEMS];
    int silent[RH_MAX_ITEMS];
    int contra_allowed[RH_MAX_ITEMS];
    int exclusive[RH_MAX_ITEMS];
    int disables_obscur[RH_MAX_ITEMS];
    int value_known[RH_MAX_ITEMS];
    int value[RH_MAX_ITEMS];
    int contra_value_known[RH_MAX_ITEMS]; /* the effective contra value */
    int contra_value[RH_MAX_ITEMS];
    uint64_t raises[RH_MAX_ITEMS];      /* bit j: the item contains or hardens item j (closure) */
    uint64_t suppresses[RH_MAX_ITEMS];  /* bit j */
    uint64_t replaced_by[RH_MAX_ITEMS]; /* bit j */
    int names_lauer_card[RH_MAX_ITEMS]; /* its condition or bindings name a card the Lauer
                                           item captures (lauer_rule victims) */
    int param_kinds[RH_MAX_ITEMS]; /* 3 bits per parameter slot (RH_PK_), slot 0 lowest */
    int distinct_by[RH_MAX_ITEMS]; /* bit per parameter slot */
    int cond_start[RH_MAX_ITEMS];
    int cond_len[RH_MAX_ITEMS];    /* -1: the condition is unknown (null) or not compiled */
    int bind_start[RH_MAX_ITEMS];
    int bind_count[RH_MAX_ITEMS];
    /* the bindings (§6.2) */
    int nbindings;
    int bind_card[RH_MAX_BINDINGS];
    int bind_trick[RH_MAX_BINDINGS];
    /* the compiled conditions */
    int ncode;
    int code[RH_MAX_CODE];
    /* the strings of the conditions, sorted: each one's suit (cards.h: 0 tarock, 1..4) and
     * size, or -1 */
    int nstrings;
    int str_suit[RH_MAX_STRINGS];
    int str_size[RH_MAX_STRINGS];
} rh_config;

typedef struct {
    int tag; /* RH_V_ */
    int v;
} rh_val;

/* One action: kind, seat, the item (meld, announce, kontra's target; -1 none), the card id
 * (play), the item the announcement names as raised (-1 none, -2 not in the catalogue), the
 * kontra's level, the Meldung's parameters by slot. */
typedef struct {
    int kind, seat, item, card, raises, level;
    rh_val params[RH_MAX_PARAMS];
} rh_action;

typedef struct {
    int item, seat, value;
} rh_line;

typedef struct {
    int thrown_in;
    int opener; /* 0 the dealer opened the bidding, 1 the attackers' Eintreiber */
    int ntricks;
    rt_trick tricks[RT_TRICKS];
    int tricks_won[2]; /* attackers, defenders */
    int totals[4];
    int nlines;
    rh_line lines[RH_MAX_LINES];
} rh_result;

/* ------------------------------------------------------------------ conditions */

typedef struct {
    tk_set party;       /* the seats of the party scoring the item (bits 0..3) */
    int player;         /* the seat whose dealt hand the hand predicates read, or -1 */
    const rh_val *params;
    const tk_set *dealt;
    const rt_trick *tricks;
    int ntricks;
} rh_ctx;

static tk_set rh_home(const rh_ctx *x) {
    tk_set h = 0;
    for (int t = 0; t < x->ntricks; t++)
        if (x->party & TK_BIT(x->tricks[t].winner))
            for (int j = 0; j < 4; j++) h |= TK_BIT(x->tricks[t].cards[j]);
    return h;
}

static int rh_cmp(int op, rh_val a, rh_val b) {
    if (a.tag == RH_V_NONE || b.tag == RH_V_NONE) return 0;
    int as = a.tag == RH_V_STR, bs = b.tag == RH_V_STR;
    if (as != bs) return op == 1; /* str against int: only "ne" holds (Python) */
    switch (op) {
        case 0: return a.v == b.v;
        case 1: return a.v != b.v;
        case 2: return a.v < b.v;
        case 3: return a.v <= b.v;
        case 4: return a.v > b.v;
        default: return a.v >= b.v;
    }
}

/* The truth of the condition `code[0..len)`: 1, 0, or -1 (malformed: decline). */
static int rh_eval(const rh_config *c, const int *code, int len, const rh_ctx *x) {
    rh_val st[64];
    int sp = 0, pc = 0;
    tk_set hand = x->player >= 0 ? x->dealt[x->player] : 0;
#define RH_PUSH(t, val)                   \
    do {                                  \
        if (sp >= 64) return -1;          \
        st[sp].tag = (t);                 \
        st[sp].v = (val);                 \
        sp++;                             \
    } while (0)
#define RH_ARG(k) (pc + (k) < len ? code[pc + (k)] : -1)
    while (pc < len) {
        int op = code[pc++];
        switch (op) {
            case RH_OP_TRUE: RH_PUSH(RH_V_INT, 1); break;
            case RH_OP_FALSE: RH_PUSH(RH_V_INT, 0); break;
            case RH_OP_NONE: RH_PUSH(RH_V_NONE, 0); break;
            case RH_OP_INT: RH_PUSH(RH_V_INT, RH_ARG(0)); pc++; break;
            case RH_OP_STR: RH_PUSH(RH_V_STR, RH_ARG(0)); pc++; break;
            case RH_OP_PARAM: {
                int slot = RH_ARG(0);
                pc++;
                if (slot < 0 || slot >= RH_MAX_PARAMS || !x->params) {
                    RH_PUSH(RH_V_NONE, 0);
                } else {
                    rh_val p = x->params[slot];
                    RH_PUSH(p.tag == RH_V_BOOL ? RH_V_INT : p.tag, p.v);
                }
                break;
            }
            case RH_OP_HAND_COUNT:
            case RH_OP_SUIT_SIZE: {
                if (sp < 1) return -1;
                rh_val a = st[--sp];
                if (a.tag != RH_V_STR || a.v < 0 || a.v >= c->nstrings || c->str_suit[a.v] < 0) {
                    RH_PUSH(RH_V_NONE, 0);
                } else if (op == RH_OP_SUIT_SIZE) {
                    RH_PUSH(RH_V_INT, c->str_size[a.v]);
                } else {
                    RH_PUSH(RH_V_INT, tk_popcount(hand & tk_suit_mask(c->str_suit[a.v])));
                }
                break;
            }
            case RH_OP_HOME_ALL:
            case RH_OP_HOME_ANY:
            case RH_OP_HAND_ALL:
            case RH_OP_HAND_ANY: {
                int n = RH_ARG(0);
                if (n < 1 || pc + 1 + n > len) return -1;
                tk_set m = 0;
                for (int k = 0; k < n; k++) {
                    int id = code[pc + 1 + k];
                    if (id < 0 || id >= TK_NCARDS) return -1;
                    m |= TK_BIT(id);
                }
                pc += 1 + n;
                tk_set have = (op == RH_OP_HOME_ALL || op == RH_OP_HOME_ANY) ? rh_home(x) : hand;
                int all = op == RH_OP_HOME_ALL || op == RH_OP_HAND_ALL;
                RH_PUSH(RH_V_INT, all ? (have & m) == m : (have & m) != 0);
                break;
            }
            case RH_OP_HOME_FROM_OPP: {
                int id = RH_ARG(0);
                pc++;
                if (id < 0 || id >= TK_NCARDS) return -1;
                int owner = -1;
                for (int s = 0; s < 4; s++)
                    if (x->dealt[s] & TK_BIT(id)) owner = s;
                RH_PUSH(RH_V_INT, owner >= 0 && !(x->party & TK_BIT(owner)) &&
                                      (rh_home(x) & TK_BIT(id)) != 0);
                break;
            }
            case RH_OP_TRICKS_AT_LEAST: {
                int n = RH_ARG(0), won = 0;
                pc++;
                for (int t = 0; t < x->ntricks; t++) won += (x->party >> x->tricks[t].winner) & 1;
                RH_PUSH(RH_V_INT, won >= n);
                break;
            }
            case RH_OP_FIRST_TO: {
                int n = RH_ARG(0), mine = 0, theirs = 0, got = 0;
                pc++;
                for (int t = 0; t < x->ntricks; t++) {
                    if ((x->party >> x->tricks[t].winner) & 1) {
                        if (++mine == n) {
                            got = 1;
                            break;
                        }
                    } else if (++theirs == n) {
                        break;
                    }
                }
                RH_PUSH(RH_V_INT, got);
                break;
            }
            case RH_OP_FIRST_N: {
                int n = RH_ARG(0), ok = x->ntricks >= n;
                pc++;
                for (int t = 0; ok && t < n; t++) ok = (x->party >> x->tricks[t].winner) & 1;
                RH_PUSH(RH_V_INT, ok);
                break;
            }
            case RH_OP_TRICK_WON_WITH: {
                int k = RH_ARG(0), id = RH_ARG(1), ok = 0;
                pc += 2;
                if (k >= 1 && k <= x->ntricks) {
                    const rt_trick *t = &x->tricks[k - 1];
                    if ((x->party >> t->winner) & 1)
                        for (int j = 0; j < 4; j++)
                            if (t->cards[j] == id && t->seats[j] == t->winner) ok = 1;
                }
                RH_PUSH(RH_V_INT, ok);
                break;
            }
            case RH_OP_CMP: {
                int o = RH_ARG(0);
                pc++;
                if (sp < 2 || o < 0 || o > 5) return -1;
                rh_val b = st[--sp], a = st[--sp];
                RH_PUSH(RH_V_INT, rh_cmp(o, a, b));
                break;
            }
            case RH_OP_AND:
            case RH_OP_OR: {
                int n = RH_ARG(0);
                pc++;
                if (n < 1 || sp < n) return -1;
                int r = op == RH_OP_AND;
                for (int k = 0; k < n; k++) {
                    int t = st[sp - 1 - k].tag != RH_V_NONE && st[sp - 1 - k].v != 0;
                    r = op == RH_OP_AND ? (r && t) : (r || t);
                }
                sp -= n;
                RH_PUSH(RH_V_INT, r);
                break;
            }
            case RH_OP_NOT: {
                if (sp < 1) return -1;
                rh_val a = st[--sp];
                RH_PUSH(RH_V_INT, !(a.tag != RH_V_NONE && a.v != 0));
                break;
            }
            default: return -1;
        }
    }
#undef RH_PUSH
#undef RH_ARG
    if (sp != 1 || st[0].tag != RH_V_INT) return -1;
    return st[0].v != 0;
}

/* item i's condition in x: 1, 0, or -1 (unknown: decline) */
static int rh_item_holds(const rh_config *c, int i, const rh_ctx *x) {
    if (c->cond_len[i] < 0) return -1;
    return rh_eval(c, c->code + c->cond_start[i], c->cond_len[i], x);
}

/* ------------------------------------------------------------------ the bidding's records */

typedef struct {
    int seat, item, seq;
    int party;
    int superseded;  /* raised into another instance */
    int raised_from; /* bits: instance indexes */
} rh_inst;

typedef struct {
    int seat, party, target, void_;
} rh_contra;

typedef struct {
    int seat, item;
    rh_val params[RH_MAX_PARAMS];
} rh_meld;

typedef struct {
    const rh_config *c;
    int parties[2][2]; /* (Abfänger, Eintreiber) of the attackers and the defenders */
    int party_of[4];
    int nmelds, ninst, ncontras;
    rh_meld melds[RH_MAX_RECORDS];
    rh_inst inst[RH_MAX_RECORDS];
    rh_contra contras[RH_MAX_RECORDS];
} rh_bidding;

static int rh_find_active(const rh_bidding *b, int party, int item) {
    for (int i = 0; i < b->ninst; i++)
        if (b->inst[i].party == party && !b->inst[i].superseded && b->inst[i].item == item)
            return i;
    return -1;
}

static int rh_same_val(rh_val a, rh_val b) {
    return a.tag == b.tag && (a.tag == RH_V_NONE || a.v == b.v);
}

/* A Meldung (§4.3) the reference admits without a word: 0, or -1 (decline). */
static int rh_meld_ok(rh_bidding *b, const rh_action *a, const tk_set *dealt) {
    const rh_config *c = b->c;
    int it = a->item;
    if (it < 0 || it >= c->nitems || c->group[it] != RH_G_MELDUNG) return -1;
    int kinds = c->param_kinds[it];
    for (int k = 0; k < RH_MAX_PARAMS; k++) { /* the parameters' kinds (_param_fault) */
        int pk = (kinds >> (3 * k)) & 7;
        rh_val p = a->params[k];
        if (pk == RH_PK_NONE) {
            if (p.tag != RH_V_NONE) return -1;
            continue;
        }
        if (pk == RH_PK_SUIT) {
            if (p.tag != RH_V_STR || p.v < 0 || p.v >= c->nstrings || c->str_suit[p.v] < 1)
                return -1;
        } else if (pk == RH_PK_INT) {
            if (p.tag != RH_V_INT) return -1;
        } else if (pk == RH_PK_BOOL) {
            if (p.tag != RH_V_BOOL) return -1;
        } else if (pk == RH_PK_STR) {
            if (p.tag != RH_V_STR) return -1;
        } else {
            return -1;
        }
    }
    rh_ctx x = {0, a->seat, a->params, dealt, NULL, 0};
    if (rh_item_holds(c, it, &x) != 1) return -1; /* false, or unknown: the reference's */
    for (int m = 0; m < b->nmelds; m++) {         /* a second declaration */
        const rh_meld *o = &b->melds[m];
        if (o->seat != a->seat || o->item != it) continue;
        int same = 1;
        for (int k = 0; k < RH_MAX_PARAMS; k++)
            if (((c->distinct_by[it] >> k) & 1) && !rh_same_val(o->params[k], a->params[k]))
                same = 0;
        if (same) return -1;
    }
    if (b->nmelds >= RH_MAX_RECORDS) return -1;
    rh_meld *m = &b->melds[b->nmelds++];
    m->seat = a->seat;
    m->item = it;
    memcpy(m->params, a->params, sizeof m->params);
    return 0;
}

static int rh_raises(const rh_config *c, int higher, int lower) {
    return (int)((c->raises[higher] >> lower) & 1u);
}

/* A Schlemm announcement or raise (§4.5) the reference admits without a word: 0, or -1. */
static int rh_announce_ok(rh_bidding *b, const rh_action *a, int seq) {
    const rh_config *c = b->c;
    int it = a->item, p = b->party_of[a->seat];
    if (it < 0 || it >= c->nitems) return -1;
    if (c->group[it] == RH_G_MELDUNG || c->silent[it] || !c->announceable[it]) return -1;
    if (rh_find_active(b, p, it) >= 0) return -1;                          /* a duplicate */
    if (c->exclusive[it] && rh_find_active(b, 1 - p, it) >= 0) return -1;  /* exclusive */
    int related = 0, last = -1, named = a->raises == -1;
    for (int i = 0; i < b->ninst; i++) {
        const rh_inst *n = &b->inst[i];
        if (n->party != p || n->superseded) continue;
        if (rh_raises(c, n->item, it)) return -1; /* cheaper after a raise */
        if (rh_raises(c, it, n->item)) {
            related |= 1 << i;
            if (n->item == a->raises) named = 1;
            if (last < 0 || n->seq > b->inst[last].seq) last = i;
        }
    }
    if (a->raises != -1 && !named) return -1; /* raise.target_mismatch */
    if (!related && !c->direct_announcement_allowed[it]) return -1;
    if (related && b->inst[last].seat == a->seat) return -1; /* a raise by its own announcer */
    if (b->ninst >= RH_MAX_RECORDS || b->ninst >= 31) return -1;
    int idx = b->ninst++;
    rh_inst *n = &b->inst[idx];
    n->seat = a->seat;
    n->item = it;
    n->seq = seq;
    n->party = p;
    n->superseded = 0;
    n->raised_from = related;
    /* the raised-from instances, most recent first: superseded; their contras by the option */
    int carried = 0;
    for (;;) {
        int best = -1;
        for (int i = 0; i < idx; i++)
            if (((related >> i) & 1) && !b->inst[i].superseded &&
                (best < 0 || b->inst[i].seq > b->inst[best].seq))
                best = i;
        if (best < 0) break;
        b->inst[best].superseded = 1;
        for (int k = 0; k < b->ncontras; k++) {
            rh_contra *ct = &b->contras[k];
            if (ct->target != best || ct->void_) continue;
            if (c->raise_voids_contra == 2) break; /* keep */
            if (c->raise_voids_contra == 1 && !carried) {
                ct->target = idx;
                carried = 1;
            } else {
                ct->void_ = 1;
            }
            break; /* one live contra per Schlemm */
        }
    }
    return 0;
}

/* A contra (§4.4) the reference admits without a word: 0, or -1. */
static int rh_kontra_ok(rh_bidding *b, const rh_action *a) {
    const rh_config *c = b->c;
    int it = a->item, p = b->party_of[a->seat];
    if (a->level != 1 || it < 0 || it >= c->nitems) return -1;
    if (c->group[it] == RH_G_MELDUNG || c->silent[it]) return -1;
    int inst = rh_find_active(b, 1 - p, it);
    if (inst < 0 || !c->contra_allowed[it]) return -1;
    for (int k = 0; k < b->ncontras; k++)
        if (b->contras[k].target == inst && !b->contras[k].void_) return -1; /* twice */
    if (b->ncontras >= RH_MAX_RECORDS) return -1;
    rh_contra *ct = &b->contras[b->ncontras++];
    ct->seat = a->seat;
    ct->party = p;
    ct->target = inst;
    ct->void_ = 0;
    return 0;
}

/* §4.2: over after three empty turns following the last non-empty one (four if nobody said
 * anything) */
static int rh_bidding_over(const int *said, int n) {
    int any = 0;
    for (int i = 0; i < n; i++) any |= said[i];
    if (!any) return n >= 4;
    int k = 0;
    for (int i = n - 1; i >= 0 && !said[i]; i--) k++;
    return k >= 3;
}

/* ------------------------------------------------------------------ the score (§7.1) */

/* Was instance i made (its condition and every binding along its raise chain)? 1, 0, -1. */
static int rh_outcome(const rh_bidding *b, int i, const rh_ctx *x) {
    const rh_config *c = b->c;
    int h = rh_item_holds(c, b->inst[i].item, x);
    if (h != 1) return h;
    int todo = 1 << i, seen = 0;
    while (todo) {
        int j = __builtin_ctz((unsigned)todo);
        todo &= todo - 1;
        if ((seen >> j) & 1) continue;
        seen |= 1 << j;
        int it = b->inst[j].item;
        for (int k = 0; k < c->bind_count[it]; k++) {
            int bi = c->bind_start[it] + k;
            int code[3] = {RH_OP_TRICK_WON_WITH, c->bind_trick[bi], c->bind_card[bi]};
            if (rh_eval(c, code, 3, x) != 1) return 0;
        }
        todo |= b->inst[j].raised_from;
    }
    return 1;
}

typedef struct {
    int n;
    int item[RH_MAX_LINES / 2];
    int value[RH_MAX_LINES / 2];
} rh_party_lines;

static int rh_add(rh_party_lines *pl, int item, int value) {
    if (pl->n >= RH_MAX_LINES / 4) return -1;
    pl->item[pl->n] = item;
    pl->value[pl->n] = value;
    pl->n++;
    return 0;
}

/* The parties' score lines and totals into r: 0, or -1 (an unknown is needed: decline). */
static int rh_score(const rh_bidding *b, const tk_set *dealt, rh_result *r) {
    const rh_config *c = b->c;
    uint64_t suppressed = 0;
    int obscur_off = 0;
    for (int i = 0; i < b->ninst; i++) {
        suppressed |= c->suppresses[b->inst[i].item];
        obscur_off |= c->disables_obscur[b->inst[i].item];
    }
    if (obscur_off && c->obscur_item >= 0) suppressed |= (uint64_t)1 << c->obscur_item;
    int outcome[RH_MAX_RECORDS];
    for (int i = 0; i < b->ninst; i++) {
        int p = b->inst[i].party;
        tk_set party = TK_BIT(b->parties[p][0]) | TK_BIT(b->parties[p][1]);
        rh_ctx x = {party, -1, NULL, dealt, r->tricks, r->ntricks};
        outcome[i] = rh_outcome(b, i, &x);
        /* an unknown outcome matters only where it is scored: checked below */
    }
    r->nlines = 0;
    for (int p = 0; p < 2; p++) {
        rh_party_lines pl = {0}, tr = {0};
        tk_set party = TK_BIT(b->parties[p][0]) | TK_BIT(b->parties[p][1]);
        /* the consolation */
        if (!((c->consolation_known >> p) & 1)) return -1;
        if (rh_add(&pl, RH_L_CONSOLATION,
                   p == 0 ? c->consolation_att_value : c->consolation_def_value) < 0)
            return -1;
        /* Meldungen: summed per item, in the order first declared */
        uint64_t done = 0;
        for (int m = 0; m < b->nmelds; m++) {
            int it = b->melds[m].item;
            if (b->party_of[b->melds[m].seat] != p || ((done >> it) & 1u)) continue;
            done |= (uint64_t)1 << it;
            int sum = 0;
            for (int k = m; k < b->nmelds; k++) {
                if (b->melds[k].item != it || b->party_of[b->melds[k].seat] != p) continue;
                if (!c->value_known[it]) return -1;
                sum += c->value[it];
            }
            if (sum && rh_add(&pl, it, sum) < 0) return -1;
        }
        /* the final Schlemme; trophies apart */
        uint64_t own = 0;
        int theirs_named_lauer = 0;
        for (int i = 0; i < b->ninst; i++) {
            const rh_inst *n = &b->inst[i];
            if (n->party != p) {
                theirs_named_lauer |= c->names_lauer_card[n->item];
                continue;
            }
            own |= (uint64_t)1 << n->item;
            if (n->superseded) continue;
            if (outcome[i] < 0 || !c->value_known[n->item]) return -1;
            int v = outcome[i] ? c->value[n->item] : -c->value[n->item];
            if (c->group[n->item] == RH_G_TROPHY) {
                if (rh_add(&tr, n->item, v) < 0) return -1;
            } else if (v && rh_add(&pl, n->item, v) < 0) {
                return -1;
            }
        }
        /* silent premiums, in the catalogue's order */
        rh_ctx x = {party, -1, NULL, dealt, r->tricks, r->ntricks};
        for (int it = 0; it < c->nitems; it++) {
            if (!c->silent[it] || ((suppressed >> it) & 1u)) continue;
            if (own & c->replaced_by[it]) continue;
            if (it == c->lauer_item && c->lauer_rule == 1 && theirs_named_lauer) continue;
            int h = rh_item_holds(c, it, &x);
            if (h < 0) return -1;
            if (!h) continue;
            if (!c->value_known[it]) return -1;
            if (c->value[it] && rh_add(&pl, it, c->value[it]) < 0) return -1;
        }
        /* contras on the other party's Schlemme, limited */
        int any = 0, raw = 0, gains = 0, losses = 0;
        for (int k = 0; k < b->ncontras; k++) {
            const rh_contra *ct = &b->contras[k];
            if (ct->party != p || ct->void_) continue;
            const rh_inst *n = &b->inst[ct->target];
            if (n->superseded && c->raise_voids_contra != 2) continue;
            any = 1;
            if (outcome[ct->target] < 0 || !c->contra_value_known[n->item]) return -1;
            int v = outcome[ct->target] ? -c->contra_value[n->item] : c->contra_value[n->item];
            raw += v;
            if (v > 0) gains += v;
            else losses += v;
        }
        if (any) {
            int lim = c->contra_limit, k;
            if (c->contra_limit_mode == 1) {
                k = (gains < lim ? gains : lim) + (losses > -lim ? losses : -lim);
            } else {
                k = raw > lim ? lim : (raw < -lim ? -lim : raw);
            }
            if (k && rh_add(&pl, RH_L_KONTRA, k) < 0) return -1;
        }
        /* close: the floor, the cap before the trophies */
        int nsum = 0, tsum = 0, score;
        for (int k = 0; k < pl.n; k++) nsum += pl.value[k];
        for (int k = 0; k < tr.n; k++) {
            tsum += tr.value[k];
            if (rh_add(&pl, tr.item[k], tr.value[k]) < 0) return -1;
        }
        if (c->trophy_cap_order == 1 && tsum < 0) {
            int s = nsum + tsum;
            score = s > c->cap ? c->cap : s;
        } else {
            score = (nsum > c->cap ? c->cap : nsum) + tsum;
        }
        if (score < 0) score = 0;
        int adj = score - (nsum + tsum);
        if (adj && rh_add(&pl, RH_L_CAP, adj) < 0) return -1;
        for (int k = 0; k < pl.n; k++)
            for (int j = 0; j < 2; j++) {
                if (r->nlines >= RH_MAX_LINES) return -1;
                rh_line *ln = &r->lines[r->nlines++];
                ln->item = pl.item[k];
                ln->seat = b->parties[p][j];
                ln->value = pl.value[k];
            }
        r->totals[b->parties[p][0]] = r->totals[b->parties[p][1]] = score;
    }
    return 0;
}

/* ------------------------------------------------------------------ the game */

/* One whole game: `parties` the attackers' and the defenders' (Abfänger, Eintreiber) (from
 * the recorded pairs, else from the dealer), `dealt` the four hands, the actions. 0 with `r`
 * filled, or -1: decline (the reference takes the game). */
static int rh_hand(const rh_config *c, int dealer, const int parties[2][2], const tk_set *dealt,
                   const rh_action *acts, int n, rh_result *r) {
    static rh_bidding b; /* large: not on the stack (the engine is not reentrant anyway:
                            the GIL holds it) */
    memset(r, 0, sizeof *r);
    memset(&b, 0, sizeof b);
    b.c = c;
    memcpy(b.parties, parties, sizeof b.parties);
    tk_set seen = 0, pack = 0;
    for (int p = 0; p < 2; p++)
        for (int j = 0; j < 2; j++) {
            int s = parties[p][j];
            if (s < 0 || s > 3 || (seen & TK_BIT(s))) return -1;
            seen |= TK_BIT(s);
            b.party_of[s] = p;
        }
    int ein_att = parties[0][1];
    if (dealer != parties[1][1]) return -1; /* deal.dealer_not_eintreiber */
    /* the deal (§3.3): the pack in four hands of ten */
    int short_seat = 0;
    for (int s = 0; s < 4; s++) {
        if (tk_popcount(dealt[s]) != 10 || (pack & dealt[s])) return -1;
        pack |= dealt[s];
        if (tk_popcount(dealt[s] & TK_TAROKS) < 3) short_seat |= 1 << s;
    }
    tk_set royal = TK_TAROKS;
    for (int s = 1; s <= 4; s++) /* K Q N J of the red suits, K Q N J 10 of the black ones */
        royal |= (s <= 2 ? (tk_set)0xF : (tk_set)0x1F) << TK_SUIT_BASE(s);
    if (pack != royal) return -1;
    if (n < 1 || n > RH_MAX_ACTIONS) return -1;
    if (acts[0].kind == RH_THROW_IN) { /* a throw-in annuls the deal: clean when justified */
        if (n != 1 || !((short_seat >> acts[0].seat) & 1)) return -1;
        r->thrown_in = 1;
        return 0;
    }
    if (short_seat) return -1; /* throw_in.required */
    int xix = c->xix_recipient ? parties[1][0] : parties[0][0];
    if (!(dealt[xix] & TK_BIT(18)) || !(dealt[ein_att] & TK_BIT(19))) return -1; /* honours */
    /* the bidding */
    int said[RH_MAX_ACTIONS], nturns = 0;
    int cur = -1, items = 0, nonmeld = 0, i = 0;
    for (; i < n; i++) {
        const rh_action *a = &acts[i];
        if (a->kind == RH_PLAY) break;
        if (a->kind == RH_THROW_IN || a->seat < 0 || a->seat > 3) return -1;
        if (cur < 0) {
            if (a->seat == dealer) r->opener = 0;
            else if (a->seat == ein_att) r->opener = 1;
            else return -1; /* bidding.wrong_opener */
            cur = a->seat;
        } else if (a->seat != cur) {
            return -1; /* bidding.out_of_turn */
        }
        int rc = 0;
        switch (a->kind) {
            case RH_PASS:
                said[nturns++] = items > 0 && (c->meld_only_turn_resets || nonmeld);
                items = nonmeld = 0;
                cur = (a->seat + 1) % 4;
                break;
            case RH_MELD: rc = rh_meld_ok(&b, a, dealt); break;
            case RH_ANNOUNCE: rc = rh_announce_ok(&b, a, i); break;
            case RH_KONTRA: rc = rh_kontra_ok(&b, a); break;
            default: return -1;
        }
        if (rc < 0) return -1;
        if (a->kind != RH_PASS) {
            items++;
            nonmeld |= a->kind != RH_MELD;
        } else if (rh_bidding_over(said, nturns)) {
            i++;
            break;
        }
    }
    if (!rh_bidding_over(said, nturns) || n - i != RT_CARDS) return -1;
    /* the cards (royalloop.h), with the bound cards of every Schlemm of the seat's pair */
    rt_rules rules;
    memset(&rules, 0, sizeof rules);
    for (int k = 0; k < b.ninst; k++) {
        int it = b.inst[k].item;
        for (int j = 0; j < c->bind_count[it]; j++) {
            int bi = c->bind_start[it] + j, card = c->bind_card[bi];
            for (int s = 0; s < 4; s++) {
                if (b.party_of[s] != b.inst[k].party || !(dealt[s] & TK_BIT(card))) continue;
                if (rules.n[s] >= RT_MAX_BOUND) return -1;
                rt_bound *x = &rules.b[s][rules.n[s]++];
                x->card = card;
                x->trick = c->bind_trick[bi];
                x->seq = b.inst[k].seq;
            }
        }
    }
    int seat[RT_CARDS], card[RT_CARDS];
    for (int k = 0; k < RT_CARDS; k++) {
        const rh_action *a = &acts[i + k];
        if (a->kind != RH_PLAY || a->card < 0 || a->card >= TK_NCARDS) return -1;
        seat[k] = a->seat;
        card[k] = a->card;
    }
    tk_set held[4];
    memcpy(held, dealt, sizeof held);
    if (rt_play_cards(&rules, held, ein_att, seat, card, RT_CARDS, r->tricks) != RT_TRICKS)
        return -1;
    r->ntricks = RT_TRICKS;
    for (int t = 0; t < RT_TRICKS; t++) r->tricks_won[b.party_of[r->tricks[t].winner]]++;
    return rh_score(&b, dealt, r);
}

#endif /* TAROCK_ROYALHAND_H */
