/* The ingest lane's reading of one session record in C: a strict JSON parse of the line, each
 * hand read into a plain struct (the log format's fields for a hand recorded with its cards),
 * and the hand's canonical JSON (the text its content hash is taken of).
 *
 * The twin of a narrow case of the careful reader (tarock_logs/log/decode.py, validate.py:
 * the decoding, the models, the normalising and the structural checks) and of
 * verdict/audit.py's canonical_hand: a line this reads is one the reader accepts whole, with
 * no error and the same values; anything else (an escape, a number that is not a plain
 * integer where the format wants one, a key outside the fields below, a card token that is
 * not written as the pack writes it, a string that is not plain ASCII in a hand (a hand's notes:
 * not UTF-8 text), a deal that
 * is not the whole pack, ...) and it declines, and the careful reader reads the line. The
 * Python (tarock_logs/store/lane.py) decides what the session is; tests/store/test_lane.py
 * holds the lane's rows to the careful path's.
 *
 * The subset (docs/store.md, "The ingest lane"):
 *   - the line: no backslash (no escapes), no number with 19 digits in a row (no integer
 *     beyond 64 bits), no key twice in any object, nesting at most LN_MAX_DEPTH deep, JSON
 *     after that;
 *   - a hand: number, dealer, deal {hands, talon, seed?}, actions, result, and optionally id,
 *     notes, and the defaults written out (extent "whole", irregularities [], facts null,
 *     radelci_before null, method "normal", cut_by/stacks/seed null, ...);
 *   - an action: pass, bid, call, talon, discard, announce, kontra, lezim or play with the
 *     fields of its kind (no note, no announcement side, parameters or raise);
 *   - a result: scores, items (item, value, seat), radelci_after (no running totals);
 *   - a Royal Tarock record (ln_parser.royal): its pack, no talon, a deal's cut_by, the
 *     actions pass, meld (with its parameters: at most LN_MAX_PARAMS plain ints, booleans or
 *     ASCII strings), announce (with the Schlemm it raises), kontra, play and throw_in.
 *   - a Zwanzigerrufen record (ln_parser.zr): its pack, no talon, the actions of the auction
 *     (announce with its side), play, claim and throw_in (a hand thrown in is read so that
 *     the reference audits it alone: zrhand.h plays no throw-in).
 *
 * Depends on cards.h and slohand.h (the action kinds) only.
 */
#ifndef TAROCK_LANE_H
#define TAROCK_LANE_H

#include <string.h>

#include "cards.h"
#include "slohand.h"

#define LN_MAX_DEPTH 32
#define LN_MAX_KEYS 64
#define LN_MAX_ITEMS 48
#define LN_MAX_PARAMS 4
#define LN_MAX_SEATS 5
#define LN_MAX_NUMBER 100000

/* a run of bytes of the line (a string's text without its quotes) */
typedef struct {
    int off;
    int len;
} ln_span;

/* one action of a hand, as written (kinds of slohand.h) */
typedef struct {
    unsigned char type;
    unsigned char seat;
    signed char card;   /* call, play: the card id */
    signed char group;  /* talon */
    signed char level;  /* kontra: as written (1 when absent) */
    unsigned char ncards, nshown;
    signed char cards[6], shown[6];
    ln_span str;        /* bid: the contract; announce: the bonus; kontra: the target (len 0:
                           absent, the game); claim: the claim */
    ln_span side;       /* announce (Zwanzigerrufen): dazu or dagegen (len 0: absent) */
    ln_span raises;     /* announce (Royal Tarock): the Schlemm raised (len 0: absent) */
    /* meld (Royal Tarock): its parameters, sorted by name: a name, a tag (1 an integer, 2 a
     * boolean, 3 a string) and the integer (the boolean 0/1) or the string */
    unsigned char nparams;
    unsigned char ptag[LN_MAX_PARAMS];
    ln_span pkey[LN_MAX_PARAMS], pstr[LN_MAX_PARAMS];
    long long pint[LN_MAX_PARAMS];
} ln_action;

/* one hand recorded with its cards */
typedef struct {
    int number, dealer;
    int has_id, has_notes, has_seed;
    int cut_by; /* -1: none (Royal Tarock: the seat that cut the pack) */
    ln_span id, notes;
    long long seed;
    int nseats;
    int hand_len[LN_MAX_SEATS];
    tk_set hand[LN_MAX_SEATS];
    int ntalon;
    int talon[6];
    int nacts;
    ln_action acts[SH_MAX_ACTIONS];
    int nscores;
    long long scores[LN_MAX_SEATS];
    int nitems;
    struct {
        ln_span item;
        int seat; /* -1: none */
        long long value;
    } items[LN_MAX_ITEMS];
    int nrad; /* -1: no radelci_after */
    long long rad[LN_MAX_SEATS];
} ln_hand;

typedef struct {
    const unsigned char *s; /* the line */
    int n;
    int i;
    /* 0: a Slovenian record; 1: a Zwanzigerrufen record (its pack's tokens, no talon, an
     * announcement's side, the claims after the play) */
    int zr;
    /* 1: a Royal Tarock record (no talon, a cut, Meldungen, raises, a throw-in) */
    int royal;
} ln_parser;

/* the kind of a claim (a Zwanzigerrufen card bonus claimed after the play): after slohand.h's */
#define LN_CLAIM 9
/* the kinds of a Royal Tarock Meldung and of a throw-in */
#define LN_MELD 10
#define LN_THROW_IN 11

/* ------------------------------------------------------------------ the whole line */

/* No backslash anywhere (decode.fast_decode's condition: a string is exactly its text). */
static int ln_plain_line(const unsigned char *s, int n) { return memchr(s, '\\', (size_t)n) == NULL; }

static inline void ln_ws(ln_parser *p) {
    while (p->i < p->n) {
        unsigned char ch = p->s[p->i];
        if (ch != ' ' && ch != '\t' && ch != '\n' && ch != '\r') break;
        p->i++;
    }
}

/* a string at p->i (its opening quote); its text in *out. ``ascii``: printable ASCII only
 * (a hand's strings); else any byte but control characters (the envelope's strings, whose
 * UTF-8 the Python's decoder checks). 0, or -1 to decline. */
static int ln_string(ln_parser *p, ln_span *out, int ascii) {
    if (p->i >= p->n || p->s[p->i] != '"') return -1;
    int start = ++p->i;
    while (p->i < p->n) {
        unsigned char ch = p->s[p->i];
        if (ch == '"') {
            out->off = start;
            out->len = p->i - start;
            p->i++;
            return 0;
        }
        if (ch < 0x20 || (ascii && ch > 0x7e)) return -1;
        p->i++;
    }
    return -1;
}

/* a JSON number; *is_int when it is an integer (no fraction, no exponent), its value in *v */
static int ln_number(ln_parser *p, long long *v, int *is_int) {
    int i = p->i, neg = 0;
    const unsigned char *s = p->s;
    if (i < p->n && s[i] == '-') {
        neg = 1;
        i++;
    }
    if (i >= p->n || s[i] < '0' || s[i] > '9') return -1;
    /* no run of 19 digits (an integer that may be beyond 64 bits: decode.has_long_int) */
    long long x = 0;
    int k = i;
    if (s[i] == '0') {
        i++;
    } else {
        while (i < p->n && s[i] >= '0' && s[i] <= '9') x = 10 * x + (s[i++] - '0');
        if (i - k >= 19) return -1;
    }
    *is_int = 1;
    if (i < p->n && s[i] == '.') {
        *is_int = 0;
        k = ++i;
        if (i >= p->n || s[i] < '0' || s[i] > '9') return -1;
        while (i < p->n && s[i] >= '0' && s[i] <= '9') i++;
        if (i - k >= 19) return -1;
    }
    if (i < p->n && (s[i] == 'e' || s[i] == 'E')) {
        *is_int = 0;
        i++;
        if (i < p->n && (s[i] == '+' || s[i] == '-')) i++;
        k = i;
        if (i >= p->n || s[i] < '0' || s[i] > '9') return -1;
        while (i < p->n && s[i] >= '0' && s[i] <= '9') i++;
        if (i - k >= 19) return -1;
    }
    p->i = i;
    *v = neg ? -x : x;
    return 0;
}

static int ln_lit(ln_parser *p, const char *w) {
    int k = (int)strlen(w);
    if (p->i + k > p->n || memcmp(p->s + p->i, w, k) != 0) return -1;
    p->i += k;
    return 0;
}

static int ln_same(const ln_parser *p, ln_span a, ln_span b) {
    return a.len == b.len && memcmp(p->s + a.off, p->s + b.off, a.len) == 0;
}

static int ln_is(const ln_parser *p, ln_span a, const char *w) {
    int k = (int)strlen(w);
    return a.len == k && memcmp(p->s + a.off, w, k) == 0;
}

/* any JSON value (checked, not kept): no key twice in an object, at most LN_MAX_DEPTH deep */
static int ln_skip(ln_parser *p, int depth, int ascii) {
    if (depth > LN_MAX_DEPTH) return -1;
    ln_ws(p);
    if (p->i >= p->n) return -1;
    unsigned char ch = p->s[p->i];
    if (ch == '"') {
        ln_span sp;
        return ln_string(p, &sp, ascii);
    }
    if (ch == '{') {
        ln_span keys[LN_MAX_KEYS];
        int nk = 0;
        p->i++;
        ln_ws(p);
        if (p->i < p->n && p->s[p->i] == '}') {
            p->i++;
            return 0;
        }
        for (;;) {
            ln_ws(p);
            ln_span k;
            if (ln_string(p, &k, ascii) < 0 || nk >= LN_MAX_KEYS) return -1;
            for (int j = 0; j < nk; j++)
                if (ln_same(p, keys[j], k)) return -1; /* a key twice */
            keys[nk++] = k;
            ln_ws(p);
            if (p->i >= p->n || p->s[p->i] != ':') return -1;
            p->i++;
            if (ln_skip(p, depth + 1, ascii) < 0) return -1;
            ln_ws(p);
            if (p->i >= p->n) return -1;
            if (p->s[p->i] == ',') {
                p->i++;
                continue;
            }
            if (p->s[p->i] == '}') {
                p->i++;
                return 0;
            }
            return -1;
        }
    }
    if (ch == '[') {
        p->i++;
        ln_ws(p);
        if (p->i < p->n && p->s[p->i] == ']') {
            p->i++;
            return 0;
        }
        for (;;) {
            if (ln_skip(p, depth + 1, ascii) < 0) return -1;
            ln_ws(p);
            if (p->i >= p->n) return -1;
            if (p->s[p->i] == ',') {
                p->i++;
                continue;
            }
            if (p->s[p->i] == ']') {
                p->i++;
                return 0;
            }
            return -1;
        }
    }
    if (ch == 't') return ln_lit(p, "true");
    if (ch == 'f') return ln_lit(p, "false");
    if (ch == 'n') return ln_lit(p, "null");
    long long v;
    int is_int;
    return ln_number(p, &v, &is_int);
}

/* Past the array or object at p->i (brackets counted, strings stepped over: the line has no
 * escape), without checking what is inside: the hands array, which lane_hands reads
 * strictly, member by member, up to the end this finds. */
static int ln_past(ln_parser *p) {
    int depth = 0;
    while (p->i < p->n) {
        unsigned char ch = p->s[p->i++];
        if (ch == '"') {
            const unsigned char *q = memchr(p->s + p->i, '"', (size_t)(p->n - p->i));
            if (!q) return -1;
            p->i = (int)(q - p->s) + 1;
        } else if (ch == '[' || ch == '{') {
            if (++depth > LN_MAX_DEPTH) return -1;
        } else if (ch == ']' || ch == '}') {
            if (--depth == 0) return 0;
        }
    }
    return -1;
}

/* The whole line: a JSON object with a key "hands" whose value is an array (its members are
 * not checked here: lane_hands reads them strictly); *hs, *he: the bytes of that array. 0,
 * or -1 to decline. */
static int ln_envelope(const unsigned char *s, int n, int *hs, int *he) {
    if (!ln_plain_line(s, n)) return -1;
    ln_parser p = {s, n, 0};
    ln_ws(&p);
    if (p.i >= n || s[p.i] != '{') return -1;
    p.i++;
    ln_span keys[LN_MAX_KEYS];
    int nk = 0, found = 0;
    ln_ws(&p);
    if (p.i < n && s[p.i] == '}') return -1; /* no hands */
    for (;;) {
        ln_ws(&p);
        ln_span k;
        if (ln_string(&p, &k, 0) < 0 || nk >= LN_MAX_KEYS) return -1;
        for (int j = 0; j < nk; j++)
            if (ln_same(&p, keys[j], k)) return -1;
        keys[nk++] = k;
        ln_ws(&p);
        if (p.i >= n || s[p.i] != ':') return -1;
        p.i++;
        ln_ws(&p);
        if (ln_is(&p, k, "hands")) {
            if (p.i >= n || s[p.i] != '[') return -1;
            *hs = p.i;
            if (ln_past(&p) < 0) return -1;
            *he = p.i;
            found = 1;
        } else if (ln_skip(&p, 1, 0) < 0) {
            return -1;
        }
        ln_ws(&p);
        if (p.i >= n) return -1;
        if (s[p.i] == ',') {
            p.i++;
            continue;
        }
        if (s[p.i] == '}') {
            p.i++;
            break;
        }
        return -1;
    }
    ln_ws(&p);
    return (found && p.i == n) ? 0 : -1;
}

/* ------------------------------------------------------------------ one hand */

/* The card id of a token written as the Slovenian pack writes it (cards.h), or -1. */
static int ln_card(const unsigned char *t, int len) {
    if (len < 2 || len > 3) return -1;
    if (t[0] == 'T') {
        int v = t[1] - '0';
        if (v < 1 || v > 9) return -1;
        if (len == 3) {
            if (t[2] < '0' || t[2] > '9') return -1;
            v = 10 * v + (t[2] - '0');
        }
        return (v >= 1 && v <= 22) ? v - 1 : -1;
    }
    int suit;
    switch (t[0]) {
    case 'H': suit = 1; break;
    case 'D': suit = 2; break;
    case 'S': suit = 3; break;
    case 'C': suit = 4; break;
    default: return -1;
    }
    int base = TK_SUIT_BASE(suit), red = suit <= 2;
    if (len == 2) {
        switch (t[1]) {
        case 'K': return base;
        case 'Q': return base + 1;
        case 'N': return base + 2;
        case 'J': return base + 3;
        default: break;
        }
        int d = t[1] - '0';
        if (red && d >= 1 && d <= 4) return base + 3 + d; /* 1 the strongest pip */
        if (!red && d >= 7 && d <= 9) return base + 4 + (10 - d) + 0 * d; /* 10, 9, 8, 7 */
        return -1;
    }
    if (!red && t[1] == '1' && t[2] == '0') return base + 4; /* 10 */
    return -1;
}

/* an integer (a plain one: no fraction, no exponent) */
static int ln_int(ln_parser *p, long long *v) {
    ln_ws(p);
    int is_int;
    if (p->i >= p->n || p->s[p->i] == '"' || p->s[p->i] == '[' || p->s[p->i] == '{') return -1;
    if (ln_number(p, v, &is_int) < 0 || !is_int) return -1;
    /* "-0" is 0; a leading zero is no JSON ("01"): ln_number stops after the 0 */
    return 0;
}

static int ln_null(ln_parser *p) {
    ln_ws(p);
    return ln_lit(p, "null");
}

/* a string value (plain ASCII) of ``lo`` .. ``hi`` characters */
static int ln_str(ln_parser *p, ln_span *out, int lo, int hi) {
    ln_ws(p);
    if (ln_string(p, out, 1) < 0) return -1;
    return (out->len >= lo && out->len <= hi) ? 0 : -1;
}

/* whether s[0..n) is valid UTF-8 (what a JSON reader accepts: no overlong form, no surrogate,
 * nothing beyond U+10FFFF) */
static int ln_utf8_ok(const unsigned char *s, int n) {
    int i = 0;
    while (i < n) {
        unsigned c = s[i];
        if (c < 0x80) {
            i++;
            continue;
        }
        int k;
        unsigned cp;
        if (c >= 0xc2 && c <= 0xdf) {
            k = 1;
            cp = c & 0x1f;
        } else if (c >= 0xe0 && c <= 0xef) {
            k = 2;
            cp = c & 0x0f;
        } else if (c >= 0xf0 && c <= 0xf4) {
            k = 3;
            cp = c & 0x07;
        } else {
            return 0;
        }
        if (i + k >= n) return 0;
        for (int j = 1; j <= k; j++) {
            unsigned d = s[i + j];
            if ((d & 0xc0) != 0x80) return 0;
            cp = (cp << 6) | (d & 0x3f);
        }
        if ((k == 2 && cp < 0x800) || (k == 3 && cp < 0x10000) || cp > 0x10ffff ||
            (cp >= 0xd800 && cp <= 0xdfff))
            return 0;
        i += k + 1;
    }
    return 1;
}

/* a free text (a hand's notes): a JSON string of UTF-8 text without an escape or a control
 * character, at most hi bytes (the model counts characters: never more) */
static int ln_text(ln_parser *p, ln_span *out, int hi) {
    ln_ws(p);
    if (ln_string(p, out, 0) < 0 || out->len > hi) return -1;
    return ln_utf8_ok(p->s + out->off, out->len) ? 0 : -1;
}

/* The card id of a token written as the Zwanzigerrufen pack writes it (zrloop.h's ids: the
 * Slovenian pack's, the Glatze on the suit's weakest pip), or -1: T1, T4..T22; K Q N J G. */
static int ln_card_zr(const unsigned char *t, int len) {
    if (len < 2 || len > 3) return -1;
    if (t[0] == 'T') {
        int id = ln_card(t, len);
        return (id == 1 || id == 2) ? -1 : id;
    }
    if (len != 2) return -1;
    int suit;
    switch (t[0]) {
    case 'H': suit = 1; break;
    case 'D': suit = 2; break;
    case 'S': suit = 3; break;
    case 'C': suit = 4; break;
    default: return -1;
    }
    int base = TK_SUIT_BASE(suit);
    switch (t[1]) {
    case 'K': return base;
    case 'Q': return base + 1;
    case 'N': return base + 2;
    case 'J': return base + 3;
    case 'G': return base + 7;
    default: return -1;
    }
}

/* a card token of the pack: its id */
static int ln_cardv(ln_parser *p, int *id) {
    ln_span sp;
    if (ln_str(p, &sp, 1, 12) < 0) return -1;
    *id = p->zr ? ln_card_zr(p->s + sp.off, sp.len) : ln_card(p->s + sp.off, sp.len);
    return *id < 0 ? -1 : 0;
}

/* the punctuation between members: after a value, ',' (1, more follow) or the closer (0) */
static int ln_next(ln_parser *p, unsigned char closer) {
    ln_ws(p);
    if (p->i >= p->n) return -1;
    if (p->s[p->i] == ',') {
        p->i++;
        return 1;
    }
    if (p->s[p->i] == closer) {
        p->i++;
        return 0;
    }
    return -1;
}

static int ln_open(ln_parser *p, unsigned char opener, unsigned char closer, int *empty) {
    ln_ws(p);
    if (p->i >= p->n || p->s[p->i] != opener) return -1;
    p->i++;
    ln_ws(p);
    *empty = p->i < p->n && p->s[p->i] == closer;
    if (*empty) p->i++;
    return 0;
}

/* a key and its colon */
static int ln_key(ln_parser *p, ln_span *k) {
    ln_ws(p);
    if (ln_string(p, k, 1) < 0) return -1;
    ln_ws(p);
    if (p->i >= p->n || p->s[p->i] != ':') return -1;
    p->i++;
    return 0;
}

/* a list of card tokens (at most ``max``): ids in ``out``, the count in *n */
static int ln_cards(ln_parser *p, int *out, int max, int *n) {
    int empty;
    *n = 0;
    if (ln_open(p, '[', ']', &empty) < 0) return -1;
    if (empty) return 0;
    for (;;) {
        int id;
        if (*n >= max || ln_cardv(p, &id) < 0) return -1;
        out[(*n)++] = id;
        int r = ln_next(p, ']');
        if (r < 0) return -1;
        if (!r) return 0;
    }
}

/* a list of integers (at most ``max``) within lo .. hi */
static int ln_ints(ln_parser *p, long long *out, int max, int *n, long long lo, long long hi) {
    int empty;
    *n = 0;
    if (ln_open(p, '[', ']', &empty) < 0) return -1;
    if (empty) return 0;
    for (;;) {
        long long v;
        if (*n >= max || ln_int(p, &v) < 0 || v < lo || v > hi) return -1;
        out[(*n)++] = v;
        int r = ln_next(p, ']');
        if (r < 0) return -1;
        if (!r) return 0;
    }
}

#define LN_SEAT_OK(v) ((v) >= 0 && (v) <= 4)

/* A Meldung's parameters: an object of at most LN_MAX_PARAMS names (plain ASCII, no name
 * twice) with a plain integer, true/false or an ASCII string each; kept sorted by name (the
 * canonical JSON's order). 0, or -1 to decline. */
static int ln_params_read(ln_parser *p, ln_action *a) {
    int empty;
    a->nparams = 0;
    if (ln_open(p, '{', '}', &empty) < 0) return -1;
    if (empty) return 0;
    for (;;) {
        ln_span k, vs = {0, 0};
        long long vi = 0;
        unsigned char tag;
        if (a->nparams >= LN_MAX_PARAMS || ln_key(p, &k) < 0 || k.len < 1 || k.len > 32) return -1;
        ln_ws(p);
        if (p->i >= p->n) return -1;
        unsigned char ch = p->s[p->i];
        if (ch == '"') {
            if (ln_str(p, &vs, 0, 48) < 0) return -1;
            tag = 3;
        } else if (ch == 't' || ch == 'f') {
            if (ln_lit(p, ch == 't' ? "true" : "false") < 0) return -1;
            tag = 2;
            vi = ch == 't';
        } else {
            if (ln_int(p, &vi) < 0 || vi < -1000000 || vi > 1000000) return -1;
            tag = 1;
        }
        int j = a->nparams;
        for (int m = 0; m < j; m++)
            if (ln_same(p, a->pkey[m], k)) return -1; /* a name twice */
        /* insert in name order (bytes: Python's order of ASCII names) */
        while (j > 0) {
            ln_span x = a->pkey[j - 1];
            int c = memcmp(p->s + x.off, p->s + k.off, (size_t)(x.len < k.len ? x.len : k.len));
            if (c < 0 || (c == 0 && x.len < k.len)) break;
            a->pkey[j] = a->pkey[j - 1];
            a->pstr[j] = a->pstr[j - 1];
            a->ptag[j] = a->ptag[j - 1];
            a->pint[j] = a->pint[j - 1];
            j--;
        }
        a->pkey[j] = k;
        a->pstr[j] = vs;
        a->ptag[j] = tag;
        a->pint[j] = vi;
        a->nparams++;
        int r = ln_next(p, '}');
        if (r < 0) return -1;
        if (!r) return 0;
    }
}

static int ln_action_read(ln_parser *p, ln_action *a) {
    int empty;
    if (ln_open(p, '{', '}', &empty) < 0 || empty) return -1;
    memset(a, 0, sizeof *a);
    a->card = a->group = -1;
    a->level = 1;
    enum { K_TYPE = 1, K_SEAT = 2, K_CARD = 4, K_CONTRACT = 8, K_GROUP = 16, K_CARDS = 32,
           K_SHOWN = 64, K_BONUS = 128, K_TARGET = 256, K_LEVEL = 512, K_SIDE = 1024,
           K_CLAIM = 2048, K_MELD = 4096, K_PARAMS = 8192, K_RAISES = 16384 };
    int seen = 0, type = -1;
    for (;;) {
        ln_span k;
        if (ln_key(p, &k) < 0) return -1;
        int bit;
        long long v;
        if (ln_is(p, k, "type")) {
            ln_span t;
            if (ln_str(p, &t, 1, 16) < 0) return -1;
            bit = K_TYPE;
            if (ln_is(p, t, "pass")) type = SH_PASS;
            else if (ln_is(p, t, "bid")) type = SH_BID;
            else if (ln_is(p, t, "call")) type = SH_CALL;
            else if (ln_is(p, t, "talon")) type = SH_TALON;
            else if (ln_is(p, t, "discard")) type = SH_DISCARD;
            else if (ln_is(p, t, "announce")) type = SH_ANNOUNCE;
            else if (ln_is(p, t, "kontra")) type = SH_KONTRA;
            else if (ln_is(p, t, "lezim")) type = SH_LEZIM;
            else if (ln_is(p, t, "play")) type = SH_PLAY;
            else if (p->zr && ln_is(p, t, "claim")) type = LN_CLAIM;
            else if (p->royal && ln_is(p, t, "meld")) type = LN_MELD;
            else if ((p->royal || p->zr) && ln_is(p, t, "throw_in")) type = LN_THROW_IN;
            else return -1;
            /* (no auction, king call, talon or ležim in Royal Tarock) */
            if (p->royal && (type == SH_BID || type == SH_CALL || type == SH_TALON ||
                             type == SH_DISCARD || type == SH_LEZIM))
                return -1;
            /* (no talon, discard or ležim in Zwanzigerrufen) */
            if (p->zr && (type == SH_TALON || type == SH_DISCARD || type == SH_LEZIM)) return -1;
        } else if (ln_is(p, k, "seat")) {
            if (ln_int(p, &v) < 0 || !LN_SEAT_OK(v)) return -1;
            a->seat = (unsigned char)v;
            bit = K_SEAT;
        } else if (ln_is(p, k, "card")) {
            int id;
            if (ln_cardv(p, &id) < 0) return -1;
            a->card = (signed char)id;
            bit = K_CARD;
        } else if (ln_is(p, k, "contract")) {
            if (ln_str(p, &a->str, 1, 32) < 0) return -1;
            bit = K_CONTRACT;
        } else if (ln_is(p, k, "group")) {
            if (ln_int(p, &v) < 0 || v < 0 || v > 5) return -1;
            a->group = (signed char)v;
            bit = K_GROUP;
        } else if (ln_is(p, k, "cards") || ln_is(p, k, "shown")) {
            int ids[6], m, shown = ln_is(p, k, "shown");
            if (ln_cards(p, ids, 6, &m) < 0) return -1;
            for (int j = 0; j < m; j++) (shown ? a->shown : a->cards)[j] = (signed char)ids[j];
            if (shown) a->nshown = (unsigned char)m;
            else a->ncards = (unsigned char)m;
            bit = shown ? K_SHOWN : K_CARDS;
        } else if (ln_is(p, k, "bonus")) {
            if (ln_str(p, &a->str, 1, 48) < 0) return -1;
            bit = K_BONUS;
        } else if (ln_is(p, k, "target")) {
            if (ln_str(p, &a->str, 1, 48) < 0) return -1;
            bit = K_TARGET;
        } else if (p->zr && ln_is(p, k, "side")) {
            if (ln_str(p, &a->side, 1, 16) < 0) return -1;
            bit = K_SIDE;
        } else if (p->zr && ln_is(p, k, "claim")) {
            if (ln_str(p, &a->str, 1, 32) < 0) return -1;
            bit = K_CLAIM;
        } else if (p->royal && ln_is(p, k, "meld")) {
            if (ln_str(p, &a->str, 1, 48) < 0) return -1;
            bit = K_MELD;
        } else if (p->royal && ln_is(p, k, "raises")) {
            if (ln_str(p, &a->raises, 1, 48) < 0) return -1;
            bit = K_RAISES;
        } else if (p->royal && ln_is(p, k, "params")) {
            if (ln_params_read(p, a) < 0) return -1;
            bit = K_PARAMS;
        } else if (ln_is(p, k, "level")) {
            if (ln_int(p, &v) < 0 || v < 1 || v > 4) return -1;
            a->level = (signed char)v;
            bit = K_LEVEL;
        } else {
            return -1; /* a note, a side, parameters, a raise, anything else */
        }
        if (seen & bit) return -1;
        seen |= bit;
        int r = ln_next(p, '}');
        if (r < 0) return -1;
        if (!r) break;
    }
    /* the fields of each kind: the required ones, and no other */
    int need, may = 0;
    switch (type) {
    case SH_PASS: case SH_LEZIM: need = K_TYPE | K_SEAT; break;
    case SH_BID: need = K_TYPE | K_SEAT | K_CONTRACT; break;
    case SH_CALL: case SH_PLAY: need = K_TYPE | K_SEAT | K_CARD; break;
    case SH_TALON: need = K_TYPE | K_SEAT | K_GROUP; break;
    case SH_DISCARD: need = K_TYPE | K_SEAT | K_CARDS; may = K_SHOWN; break;
    case SH_ANNOUNCE:
        need = K_TYPE | K_SEAT | K_BONUS | (p->zr ? K_SIDE : 0);
        may = p->royal ? K_RAISES : 0;
        break;
    case LN_MELD: need = K_TYPE | K_SEAT | K_MELD; may = K_PARAMS; break;
    case LN_THROW_IN: need = K_TYPE | K_SEAT; break;
    case LN_CLAIM: need = K_TYPE | K_SEAT | K_CLAIM; break;
    case SH_KONTRA: need = K_TYPE | K_SEAT; may = K_TARGET | K_LEVEL; break;
    default: return -1;
    }
    if ((seen & need) != need || (seen & ~(need | may))) return -1;
    a->type = (unsigned char)type;
    return 0;
}

static int ln_deal_read(ln_parser *p, ln_hand *h) {
    int empty;
    if (ln_open(p, '{', '}', &empty) < 0 || empty) return -1;
    int seen = 0;
    for (;;) {
        ln_span k;
        if (ln_key(p, &k) < 0) return -1;
        int bit;
        if (ln_is(p, k, "hands")) {
            bit = 1;
            if (ln_open(p, '[', ']', &empty) < 0 || empty) return -1;
            h->nseats = 0;
            for (;;) {
                int ids[TK_NCARDS], m;
                if (h->nseats >= LN_MAX_SEATS || ln_cards(p, ids, 18, &m) < 0) return -1;
                tk_set set = 0;
                for (int j = 0; j < m; j++) set |= TK_BIT(ids[j]);
                if (tk_popcount(set) != m) return -1; /* a card twice in one hand */
                h->hand[h->nseats] = set;
                h->hand_len[h->nseats++] = m;
                int r = ln_next(p, ']');
                if (r < 0) return -1;
                if (!r) break;
            }
        } else if (ln_is(p, k, "talon")) {
            bit = 2;
            if (ln_cards(p, h->talon, 6, &h->ntalon) < 0) return -1;
            if ((p->zr || p->royal) && h->ntalon) return -1; /* (no talon in either game) */
        } else if (ln_is(p, k, "seed")) {
            bit = 4;
            ln_ws(p);
            if (p->i < p->n && p->s[p->i] == 'n') {
                if (ln_null(p) < 0) return -1;
            } else {
                if (ln_int(p, &h->seed) < 0) return -1;
                h->has_seed = 1;
            }
        } else if (ln_is(p, k, "method")) {
            bit = 8;
            ln_span m;
            if (ln_str(p, &m, 1, 16) < 0 || !ln_is(p, m, "normal")) return -1;
        } else if (ln_is(p, k, "cut_by") || ln_is(p, k, "stacks")) {
            bit = ln_is(p, k, "cut_by") ? 16 : 32;
            ln_ws(p);
            if (bit == 16 && p->royal && p->i < p->n && p->s[p->i] != 'n') {
                long long v;
                if (ln_int(p, &v) < 0 || v < 0 || v > 3) return -1;
                h->cut_by = (int)v;
            } else if (ln_null(p) < 0) {
                return -1;
            }
        } else {
            return -1;
        }
        if (seen & bit) return -1;
        seen |= bit;
        int r = ln_next(p, '}');
        if (r < 0) return -1;
        if (!r) break;
    }
    int need = (p->zr || p->royal) ? 1 : 3;
    return (seen & need) == need ? 0 : -1;
}

static int ln_result_read(ln_parser *p, ln_hand *h) {
    int empty;
    if (ln_open(p, '{', '}', &empty) < 0 || empty) return -1;
    int seen = 0;
    h->nrad = -1;
    for (;;) {
        ln_span k;
        if (ln_key(p, &k) < 0) return -1;
        int bit;
        if (ln_is(p, k, "scores")) {
            bit = 1;
            if (ln_ints(p, h->scores, LN_MAX_SEATS, &h->nscores, -10000000, 10000000) < 0)
                return -1;
        } else if (ln_is(p, k, "items")) {
            bit = 2;
            if (ln_open(p, '[', ']', &empty) < 0) return -1;
            h->nitems = 0;
            while (!empty) {
                if (h->nitems >= LN_MAX_ITEMS) return -1;
                int e2, iseen = 0;
                if (ln_open(p, '{', '}', &e2) < 0 || e2) return -1;
                h->items[h->nitems].seat = -1;
                for (;;) {
                    ln_span ik;
                    long long v;
                    if (ln_key(p, &ik) < 0) return -1;
                    int ib;
                    if (ln_is(p, ik, "item")) {
                        ib = 1;
                        if (ln_str(p, &h->items[h->nitems].item, 1, 48) < 0) return -1;
                    } else if (ln_is(p, ik, "value")) {
                        ib = 2;
                        if (ln_int(p, &v) < 0 || v < -10000000 || v > 10000000) return -1;
                        h->items[h->nitems].value = v;
                    } else if (ln_is(p, ik, "seat")) {
                        ib = 4;
                        ln_ws(p);
                        if (p->i < p->n && p->s[p->i] == 'n') {
                            if (ln_null(p) < 0) return -1;
                        } else {
                            if (ln_int(p, &v) < 0 || !LN_SEAT_OK(v)) return -1;
                            h->items[h->nitems].seat = (int)v;
                        }
                    } else {
                        return -1;
                    }
                    if (iseen & ib) return -1;
                    iseen |= ib;
                    int r = ln_next(p, '}');
                    if (r < 0) return -1;
                    if (!r) break;
                }
                if ((iseen & 3) != 3) return -1;
                h->nitems++;
                int r = ln_next(p, ']');
                if (r < 0) return -1;
                if (!r) break;
            }
        } else if (ln_is(p, k, "radelci_after")) {
            bit = 4;
            ln_ws(p);
            if (p->i < p->n && p->s[p->i] == 'n') {
                if (ln_null(p) < 0) return -1;
            } else if (ln_ints(p, h->rad, LN_MAX_SEATS, &h->nrad, 0, 1000) < 0) {
                return -1;
            }
        } else if (ln_is(p, k, "totals_after")) {
            bit = 8;
            if (ln_null(p) < 0) return -1;
        } else {
            return -1;
        }
        if (seen & bit) return -1;
        seen |= bit;
        int r = ln_next(p, '}');
        if (r < 0) return -1;
        if (!r) break;
    }
    return (seen & 1) ? 0 : -1;
}

/* One hand at p->i: 0 with *h filled, or -1 to decline. */
static int ln_hand_read(ln_parser *p, ln_hand *h) {
    int empty;
    if (ln_open(p, '{', '}', &empty) < 0 || empty) return -1;
    h->has_id = h->has_notes = h->has_seed = 0;
    h->cut_by = -1;
    h->nseats = h->ntalon = h->nacts = h->nscores = h->nitems = 0;
    h->nrad = -1;
    enum { H_NUMBER = 1, H_DEALER = 2, H_DEAL = 4, H_ACTIONS = 8, H_RESULT = 16, H_ID = 32,
           H_NOTES = 64, H_EXTENT = 128, H_IRR = 256, H_FACTS = 512, H_RADB = 1024 };
    int seen = 0;
    for (;;) {
        ln_span k;
        if (ln_key(p, &k) < 0) return -1;
        int bit;
        long long v;
        if (ln_is(p, k, "number")) {
            bit = H_NUMBER;
            if (ln_int(p, &v) < 0 || v < 1 || v > LN_MAX_NUMBER) return -1;
            h->number = (int)v;
        } else if (ln_is(p, k, "dealer")) {
            bit = H_DEALER;
            if (ln_int(p, &v) < 0 || !LN_SEAT_OK(v)) return -1;
            h->dealer = (int)v;
        } else if (ln_is(p, k, "deal")) {
            bit = H_DEAL;
            if (ln_deal_read(p, h) < 0) return -1;
        } else if (ln_is(p, k, "actions")) {
            bit = H_ACTIONS;
            if (ln_open(p, '[', ']', &empty) < 0 || empty) return -1;
            for (;;) {
                if (h->nacts >= SH_MAX_ACTIONS || ln_action_read(p, &h->acts[h->nacts]) < 0)
                    return -1;
                h->nacts++;
                int r = ln_next(p, ']');
                if (r < 0) return -1;
                if (!r) break;
            }
        } else if (ln_is(p, k, "result")) {
            bit = H_RESULT;
            if (ln_result_read(p, h) < 0) return -1;
        } else if (ln_is(p, k, "id") || ln_is(p, k, "notes")) {
            int notes = ln_is(p, k, "notes");
            bit = notes ? H_NOTES : H_ID;
            ln_ws(p);
            if (p->i < p->n && p->s[p->i] == 'n') {
                if (ln_null(p) < 0) return -1;
            } else {
                if ((notes ? ln_text(p, &h->notes, 4000) : ln_str(p, &h->id, 0, 128)) < 0)
                    return -1;
                if (notes) h->has_notes = 1;
                else h->has_id = 1;
            }
        } else if (ln_is(p, k, "extent")) {
            bit = H_EXTENT;
            ln_span e;
            if (ln_str(p, &e, 1, 16) < 0 || !ln_is(p, e, "whole")) return -1;
        } else if (ln_is(p, k, "irregularities")) {
            bit = H_IRR;
            if (ln_open(p, '[', ']', &empty) < 0 || !empty) return -1;
        } else if (ln_is(p, k, "facts") || ln_is(p, k, "radelci_before")) {
            bit = ln_is(p, k, "facts") ? H_FACTS : H_RADB;
            if (ln_null(p) < 0) return -1;
        } else {
            return -1;
        }
        if (seen & bit) return -1;
        seen |= bit;
        int r = ln_next(p, '}');
        if (r < 0) return -1;
        if (!r) break;
    }
    int need = H_NUMBER | H_DEALER | H_DEAL | H_ACTIONS | H_RESULT;
    return (seen & need) == need ? 0 : -1;
}

/* ------------------------------------------------------------------ the canonical JSON */

/* A growing text (a fixed buffer: a hand's canonical JSON is a few kilobytes) */
typedef struct {
    char *b;
    int n, cap;
} ln_out;

static inline int ln_put(ln_out *o, const char *s, int k) {
    if (o->n + k > o->cap) return -1;
    memcpy(o->b + o->n, s, k);
    o->n += k;
    return 0;
}

#define LN_PUTS(o, lit) ln_put((o), (lit), (int)sizeof(lit) - 1)

static int ln_put_int(ln_out *o, long long v) {
    char tmp[24];
    int k = 0;
    unsigned long long u = v < 0 ? (unsigned long long)(-(v + 1)) + 1 : (unsigned long long)v;
    do {
        tmp[k++] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0) tmp[k++] = '-';
    if (o->n + k > o->cap) return -1;
    for (int j = 0; j < k; j++) o->b[o->n + j] = tmp[k - 1 - j];
    o->n += k;
    return 0;
}

/* a string of the line (plain ASCII without quotes or backslashes: written as it is) */
static int ln_put_str(ln_out *o, const ln_parser *p, ln_span sp) {
    if (LN_PUTS(o, "\"") < 0 || ln_put(o, (const char *)p->s + sp.off, sp.len) < 0) return -1;
    return LN_PUTS(o, "\"");
}

/* a card token by id (``tok`` the 54 tokens, ``toklen`` their lengths) */
static int ln_put_card(ln_out *o, int id, const char *const *tok, const int *toklen) {
    if (LN_PUTS(o, "\"") < 0 || ln_put(o, tok[id], toklen[id]) < 0) return -1;
    return LN_PUTS(o, "\"");
}

static int ln_put_cards(ln_out *o, const signed char *ids, int m, const char *const *tok,
                        const int *toklen) {
    if (LN_PUTS(o, "[") < 0) return -1;
    for (int j = 0; j < m; j++) {
        if (j && LN_PUTS(o, ",") < 0) return -1;
        if (ln_put_card(o, ids[j], tok, toklen) < 0) return -1;
    }
    return LN_PUTS(o, "]");
}

/* A Meldung's parameters as compact JSON, sorted by name (also the action_details text) */
static int ln_put_params(ln_out *o, const ln_parser *p, const ln_action *a) {
    if (LN_PUTS(o, "{") < 0) return -1;
    for (int j = 0; j < a->nparams; j++) {
        if (j && LN_PUTS(o, ",") < 0) return -1;
        if (ln_put_str(o, p, a->pkey[j]) < 0 || LN_PUTS(o, ":") < 0) return -1;
        int rc = a->ptag[j] == 3   ? ln_put_str(o, p, a->pstr[j])
                 : a->ptag[j] == 2 ? (a->pint[j] ? LN_PUTS(o, "true") : LN_PUTS(o, "false"))
                                   : ln_put_int(o, a->pint[j]);
        if (rc < 0) return -1;
    }
    return LN_PUTS(o, "}");
}

/* The canonical JSON of the hand (verdict/audit.py canonical_hand: the model's JSON without
 * default-valued fields, keys sorted, no whitespace); *deal and *result: where the deal's and
 * the result's own canonical JSON lie in it. The dealt hands are in the pack's order
 * (cards.sort_cards), the talon as dealt. 0, or -1 (no room). */
static int ln_canonical(ln_out *o, const ln_parser *p, const ln_hand *h, const char *const *tok,
                        const int *toklen, ln_span *deal, ln_span *result) {
    static const char *const TYPES[] = {"pass", "bid", "call", "talon", "discard", "play",
                                        "lezim", "announce", "kontra", "claim", "meld",
                                        "throw_in"};
    if (LN_PUTS(o, "{\"actions\":[") < 0) return -1;
    for (int i = 0; i < h->nacts; i++) {
        const ln_action *a = &h->acts[i];
        if (i && LN_PUTS(o, ",") < 0) return -1;
        if (LN_PUTS(o, "{") < 0) return -1;
        switch (a->type) {
        case SH_BID:
            if (LN_PUTS(o, "\"contract\":") < 0 || ln_put_str(o, p, a->str) < 0 ||
                LN_PUTS(o, ",") < 0)
                return -1;
            break;
        case SH_CALL:
        case SH_PLAY:
            if (LN_PUTS(o, "\"card\":") < 0 || ln_put_card(o, a->card, tok, toklen) < 0 ||
                LN_PUTS(o, ",") < 0)
                return -1;
            break;
        case SH_TALON:
            if (LN_PUTS(o, "\"group\":") < 0 || ln_put_int(o, a->group) < 0 ||
                LN_PUTS(o, ",") < 0)
                return -1;
            break;
        case SH_DISCARD:
            if (LN_PUTS(o, "\"cards\":") < 0 ||
                ln_put_cards(o, a->cards, a->ncards, tok, toklen) < 0 || LN_PUTS(o, ",") < 0)
                return -1;
            break;
        case SH_ANNOUNCE:
            if (LN_PUTS(o, "\"bonus\":") < 0 || ln_put_str(o, p, a->str) < 0 ||
                LN_PUTS(o, ",") < 0)
                return -1;
            if (a->raises.len && (LN_PUTS(o, "\"raises\":") < 0 ||
                                  ln_put_str(o, p, a->raises) < 0 || LN_PUTS(o, ",") < 0))
                return -1;
            break;
        case LN_MELD:
            if (LN_PUTS(o, "\"meld\":") < 0 || ln_put_str(o, p, a->str) < 0 ||
                LN_PUTS(o, ",") < 0)
                return -1;
            if (a->nparams &&
                (LN_PUTS(o, "\"params\":") < 0 || ln_put_params(o, p, a) < 0 ||
                 LN_PUTS(o, ",") < 0))
                return -1;
            break;
        case LN_CLAIM:
            if (LN_PUTS(o, "\"claim\":") < 0 || ln_put_str(o, p, a->str) < 0 ||
                LN_PUTS(o, ",") < 0)
                return -1;
            break;
        case SH_KONTRA:
            if (a->level != 1 &&
                (LN_PUTS(o, "\"level\":") < 0 || ln_put_int(o, a->level) < 0 ||
                 LN_PUTS(o, ",") < 0))
                return -1;
            break;
        default:
            break;
        }
        if (LN_PUTS(o, "\"seat\":") < 0 || ln_put_int(o, a->seat) < 0) return -1;
        if (a->type == SH_ANNOUNCE && a->side.len &&
            (LN_PUTS(o, ",\"side\":") < 0 || ln_put_str(o, p, a->side) < 0))
            return -1;
        if (a->type == SH_DISCARD && a->nshown &&
            (LN_PUTS(o, ",\"shown\":") < 0 || ln_put_cards(o, a->shown, a->nshown, tok, toklen) < 0))
            return -1;
        if (a->type == SH_KONTRA && a->str.len && !ln_is(p, a->str, "game") &&
            (LN_PUTS(o, ",\"target\":") < 0 || ln_put_str(o, p, a->str) < 0))
            return -1;
        if (LN_PUTS(o, ",\"type\":\"") < 0) return -1;
        const char *t = TYPES[a->type];
        if (ln_put(o, t, (int)strlen(t)) < 0 || LN_PUTS(o, "\"}") < 0) return -1;
    }
    if (LN_PUTS(o, "],\"deal\":") < 0) return -1;
    deal->off = o->n;
    if (LN_PUTS(o, "{") < 0) return -1;
    if (h->cut_by >= 0 &&
        (LN_PUTS(o, "\"cut_by\":") < 0 || ln_put_int(o, h->cut_by) < 0 || LN_PUTS(o, ",") < 0))
        return -1;
    if (LN_PUTS(o, "\"hands\":[") < 0) return -1;
    for (int s = 0; s < h->nseats; s++) {
        if (s && LN_PUTS(o, ",") < 0) return -1;
        if (LN_PUTS(o, "[") < 0) return -1;
        tk_set m = h->hand[s];
        int first = 1;
        while (m) {
            int id = tk_lowest(m);
            m &= m - 1;
            if (!first && LN_PUTS(o, ",") < 0) return -1;
            first = 0;
            if (ln_put_card(o, id, tok, toklen) < 0) return -1;
        }
        if (LN_PUTS(o, "]") < 0) return -1;
    }
    if (LN_PUTS(o, "]") < 0) return -1;
    if (h->has_seed && (LN_PUTS(o, ",\"seed\":") < 0 || ln_put_int(o, h->seed) < 0)) return -1;
    if (h->ntalon) {
        signed char t[6];
        for (int j = 0; j < h->ntalon; j++) t[j] = (signed char)h->talon[j];
        if (LN_PUTS(o, ",\"talon\":") < 0 || ln_put_cards(o, t, h->ntalon, tok, toklen) < 0)
            return -1;
    }
    if (LN_PUTS(o, "}") < 0) return -1;
    deal->len = o->n - deal->off;
    if (LN_PUTS(o, ",\"dealer\":") < 0 || ln_put_int(o, h->dealer) < 0) return -1;
    if (h->has_id && (LN_PUTS(o, ",\"id\":") < 0 || ln_put_str(o, p, h->id) < 0)) return -1;
    if (h->has_notes && (LN_PUTS(o, ",\"notes\":") < 0 || ln_put_str(o, p, h->notes) < 0))
        return -1;
    if (LN_PUTS(o, ",\"number\":") < 0 || ln_put_int(o, h->number) < 0) return -1;
    if (LN_PUTS(o, ",\"result\":") < 0) return -1;
    result->off = o->n;
    if (LN_PUTS(o, "{") < 0) return -1;
    if (h->nitems) {
        if (LN_PUTS(o, "\"items\":[") < 0) return -1;
        for (int j = 0; j < h->nitems; j++) {
            if (j && LN_PUTS(o, ",") < 0) return -1;
            if (LN_PUTS(o, "{\"item\":") < 0 || ln_put_str(o, p, h->items[j].item) < 0) return -1;
            if (h->items[j].seat >= 0 &&
                (LN_PUTS(o, ",\"seat\":") < 0 || ln_put_int(o, h->items[j].seat) < 0))
                return -1;
            if (LN_PUTS(o, ",\"value\":") < 0 || ln_put_int(o, h->items[j].value) < 0 ||
                LN_PUTS(o, "}") < 0)
                return -1;
        }
        if (LN_PUTS(o, "],") < 0) return -1;
    }
    if (h->nrad >= 0) {
        if (LN_PUTS(o, "\"radelci_after\":[") < 0) return -1;
        for (int j = 0; j < h->nrad; j++)
            if ((j && LN_PUTS(o, ",") < 0) || ln_put_int(o, h->rad[j]) < 0) return -1;
        if (LN_PUTS(o, "],") < 0) return -1;
    }
    if (LN_PUTS(o, "\"scores\":[") < 0) return -1;
    for (int j = 0; j < h->nscores; j++)
        if ((j && LN_PUTS(o, ",") < 0) || ln_put_int(o, h->scores[j]) < 0) return -1;
    if (LN_PUTS(o, "]}") < 0) return -1;
    result->len = o->n - result->off;
    return LN_PUTS(o, "}");
}

#endif /* TAROCK_LANE_H */
