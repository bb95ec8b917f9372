/* The perfect-information ("all cards visible") solver of Slovenian tarok card play: the
 * native twin of tarock_logs/analysis/search.py (same algorithm, same values).
 *
 * Alpha-beta with a transposition table at trick boundaries (key: the cards in play, the
 * leader, the accumulated facts), card equivalence, bounds from the objective, move ordering,
 * and MTD(f) null-window searches for exact values. The objective (what the maximising side
 * wants) is tarock_logs.analysis.objective.Objective, passed as the flat int array of
 * Objective.native_params() in the field order of tk_objective below.
 */
#ifndef TAROCK_SOLVER_H
#define TAROCK_SOLVER_H

#include "cards.h"

enum { TK_NORMAL = 0, TK_NO_TRICK = 1, TK_ALL_TRICKS = 2, TK_KLOP = 3 };
enum { TK_SIDE_NONE = 0, TK_SIDE_M = 1, TK_SIDE_O = 2 };
#define TK_ACC 9
#define TK_INF (1 << 30)
#define TK_LIN_N 512

/* Objective.native_params(), in order */
typedef struct {
    int kind, tricks_total, value, kontra_game, radelc, win_threshold, diff_nearest_5,
        no_difference, discard_thirds, remainder_thirds, remainder_if_king_wins, king, bonuses,
        count_remainder, trula_discarded, trula_in_remainder, kings_discarded,
        kings_in_remainder, trula_ann, trula_k, kralji_ann, kralji_k, pagat_ann, pagat_k,
        kralj_exists, kralj_ann, kralj_k, silent_ultimo_failure_counts, valat_announced,
        valat_k, mondfang, mondfang_when_valat, mond_in_talon, klop_kontra,
        klop_full_empty_doubled, klop_nearest_5, perspective;
    int gifts[16];
} tk_objective;
#define TK_OBJECTIVE_INTS ((int)(sizeof(tk_objective) / sizeof(int)))

/* how the last trick decided the ultimo bonuses (objective.Outcome) */
typedef struct {
    int pagat, pagat_failed, kralj, kralj_failed;
} tk_last;

/* 16 bytes: the second half of the position's 128-bit key (key1; the first half, key0, picks
 * the bucket: solver.c, tt_find), the bounds. In a thirds-free table (normal contracts, see
 * tk_solver.thirds_free) the key leaves out the declarer side's thirds and each bound says
 * for which thirds it holds: `lo` for every number of thirds >= `tlo`, `hi` for every number
 * <= `thi` (the value is monotone in them). */
typedef struct {
    uint64_t key1;
    int16_t lo, hi;
    uint8_t tlo, thi; /* thirds: 0 ... 210 (all 54 cards' points) */
    int8_t best;
    int8_t work; /* 0: empty; else the bit length of the nodes its search took */
} tk_entry;

/* a memo of the static bounds' part that does not depend on the thirds (solver.c,
 * bounds_memo): direct-mapped, key 0 empty */
typedef struct {
    uint32_t key;
    int32_t blo, bhi, cmin, cmax;
} tk_bmemo;
#define TK_BMEMO_BITS 9

typedef struct {
    tk_objective ob;
    tk_rules rules;
    int n;
    int maxside[4];
    /* the search state */
    tk_set hand[4];
    /* who holds each card of the loaded position (the first hand holding it); a card never
     * changes hands, so it stays right while the search plays cards (canonical_hands) */
    int8_t owner[64];
    /* the cards in the hands and in the trick being played (kept by play) */
    tk_set live;
    int trick[4];
    int tk;
    int leader;
    int done;
    int acc[TK_ACC];
    /* the transposition table (two-way buckets) */
    tk_entry *tt;
    uint64_t tt_mask;
    /* the table is keyed without the declarer side's thirds (acc[0]): set for normal
     * contracts, whose value never falls when the declarer side has more card points */
    int thirds_free;
    /* where the game value is linear in the card points (see lin_span): gv(x) =
     * lin_slope * ((x + 1) / 3) + a constant on each run of lin_seg (x: the declarer side's
     * thirds at the end), so a bound proven at one number of thirds carries to another */
    int lin_slope;
    int lin_mono; /* the constant of the runs never falls with more thirds */
    int16_t lin_seg[TK_LIN_N];
    /* the first guess of the next MTD(f): the last position's value (a hand's positions follow
     * each other, and their values stay close) */
    int guess;
    /* every final value lies on the lattice lat_off + lat_g * z (see value_lattice): MTD(f)
     * tests only its points */
    int lat_g, lat_off;
    long long nodes;  /* cards played in the search */
    long long probes; /* null-window searches of MTD(f) */
    /* the budget: a public call stops (aborted = 1) once it played max_nodes cards */
    long long max_nodes, call_start;
    int aborted;
    tk_bmemo bmemo[1 << TK_BMEMO_BITS];
} tk_solver;

/* one position: what a Python caller hands over */
typedef struct {
    tk_set hand[4];
    int trick[4];
    int tk, leader, done;
    int acc[TK_ACC];
} tk_position;

/* the table takes 32 << tt_bits bytes (2^(tt_bits + 1) entries of 16 bytes) */
int tk_solver_init(tk_solver *s, int n, const int *maxside, const tk_rules *rules,
                   const int *objective, int tt_bits);
void tk_solver_free(tk_solver *s);
void tk_solver_clear(tk_solver *s);
void tk_load(tk_solver *s, const tk_position *p);

int tk_leaf(const tk_objective *ob, const int *acc, const tk_last *last, int n);
void tk_bounds(const tk_objective *ob, const int *acc, tk_set remaining, int *lo, int *hi);

/* value of the loaded position within (alpha, beta), fail-soft */
int tk_search(tk_solver *s, int alpha, int beta);
/* exact value of the position `p`, after `card` if card >= 0 (MTD(f) from `guess`) */
int tk_value(tk_solver *s, const tk_position *p, int card, int guess);
/* the exact value of every legal card: fills cards[] and values[], returns their number */
int tk_values(tk_solver *s, const tk_position *p, int *cards, int *values);
/* a principal line from `p` (after `card` if >= 0): fills line[], returns its length */
int tk_line(tk_solver *s, const tk_position *p, int card, int *line, int max);
/* exhaustive minimax without pruning or table (the tests' oracle) */
int tk_minimax(tk_solver *s);
/* start a public call under the budget (see tk_solver.max_nodes) */
void tk_begin(tk_solver *s);

#endif /* TAROCK_SOLVER_H */
