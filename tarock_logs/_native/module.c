/* tarock_logs._native._core: the native core as a CPython extension.
 *
 * Module functions expose the card-set primitives of cards.h (legal, winner, thirds) so that
 * tests compare them with the pure-Python engine; the Solver type wraps solver.h. Positions
 * cross the boundary as plain ints and tuples (see tarock_logs/analysis/native.py).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "cardloop.h"
#include "cards.h"
#include "openspiel.h"
#include "royalloop.h"
#include "slohand.h"
#include "lane.h"
#include "sloscore.h"

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "solver.h"
#include "zrloop.h"
#include "zrhand.h"
#include "royalhand.h"

/* attribute names of the log's actions, interned at import */
static PyObject *s_type, *s_seat, *s_card, *s_contract, *s_group, *s_cards, *s_shown, *s_note;
static PyObject *s_bonus, *s_target, *s_level;
/* "game" and the bonus names (a kontra's targets, SH_GAME and 1 + SH_TRULA ...), and the two
 * sides, interned at import */
static PyObject *sh_names[1 + SH_NBONUS], *s_side_m, *s_side_o;

static int read_ints(PyObject *seq, int *out, int max, const char *what) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n > max) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "%s: at most %d values", what, max);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        out[i] = (int)v;
    }
    Py_DECREF(fast);
    return (int)n;
}

/* The play rules as ints: negative, pagat_restricted, pagat_last_tarok, by_rank,
 * emperor_always, colour_valat, the two protected card ids (or -1), and optionally
 * protect_either (0 when absent: the solver's rules). */
static int read_rules(PyObject *seq, tk_rules *r) {
    int v[9] = {0};
    int n = read_ints(seq, v, 9, "rules");
    if (n < 0) return -1;
    if (n != 8 && n != 9) {
        PyErr_SetString(PyExc_ValueError, "rules: 8 or 9 ints expected");
        return -1;
    }
    for (int i = 6; i < 8; i++)
        if (v[i] < -1 || v[i] >= TK_NCARDS) {
            PyErr_Format(PyExc_ValueError, "rules: protected card id %d outside the pack", v[i]);
            return -1;
        }
    r->negative = v[0];
    r->pagat_restricted = v[1];
    r->pagat_last_tarok = v[2];
    r->by_rank = v[3];
    r->emperor_always = v[4];
    r->colour_valat = v[5];
    r->protected_[0] = v[6];
    r->protected_[1] = v[7];
    r->protect_either = v[8];
    return 0;
}

static int read_card(int c) {
    if (c < 0 || c >= TK_NCARDS) {
        PyErr_Format(PyExc_ValueError, "card id %d outside the pack", c);
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------------ primitives */

static PyObject *py_legal(PyObject *self, PyObject *args) {
    unsigned long long hand;
    PyObject *trick_o, *rules_o;
    if (!PyArg_ParseTuple(args, "KOO", &hand, &trick_o, &rules_o)) return NULL;
    int trick[4];
    int k = read_ints(trick_o, trick, 4, "trick");
    if (k < 0) return NULL;
    for (int i = 0; i < k; i++)
        if (read_card(trick[i]) < 0) return NULL;
    tk_rules r;
    if (read_rules(rules_o, &r) < 0) return NULL;
    return PyLong_FromUnsignedLongLong(tk_legal((tk_set)hand, trick, k, &r));
}

static PyObject *py_winner(PyObject *self, PyObject *args) {
    PyObject *trick_o;
    int cv;
    if (!PyArg_ParseTuple(args, "Op", &trick_o, &cv)) return NULL;
    int trick[5];
    int k = read_ints(trick_o, trick, 5, "trick");
    if (k < 0) return NULL;
    if (k == 0) {
        PyErr_SetString(PyExc_ValueError, "an empty trick has no winner");
        return NULL;
    }
    for (int i = 0; i < k; i++)
        if (read_card(trick[i]) < 0) return NULL;
    return PyLong_FromLong(tk_winner(trick, k, cv));
}

static PyObject *py_thirds(PyObject *self, PyObject *args) {
    unsigned long long m;
    if (!PyArg_ParseTuple(args, "K", &m)) return NULL;
    return PyLong_FromLong(tk_thirds((tk_set)m));
}

static PyObject *py_tables(PyObject *self, PyObject *noargs) {
    /* per card id: (suit, strength, points) -- for the tests comparing them with cardbits */
    PyObject *out = PyTuple_New(TK_NCARDS);
    if (!out) return NULL;
    for (int i = 0; i < TK_NCARDS; i++) {
        PyObject *t = Py_BuildValue("(iii)", tk_suit_of(i), tk_strength(i), tk_points(i));
        if (!t) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, i, t);
    }
    return out;
}


/* ------------------------------------------------------------------------ the log's actions */

/* The card id of a card token: `cid` maps the Slovenian pack's tokens to their ids; -1 for
 * anything else (an unknown token, not a string). */
static int card_id(PyObject *cid, PyObject *token) {
    PyObject *v = PyDict_GetItemWithError(cid, token);
    if (!v) {
        PyErr_Clear(); /* unhashable or unknown: not a card of the pack */
        return -1;
    }
    long id = PyLong_AsLong(v);
    if (id < 0 || id >= TK_NCARDS) {
        PyErr_Clear();
        return -1;
    }
    return (int)id;
}

/* An action's field (a new reference, or NULL with an exception set): from the instance's
 * __dict__ when it has one (the log's pydantic models: one dict look-up), else by getattr
 * (engine actions with __slots__, any other object). */
static PyObject *field(PyObject *a, PyObject *name) {
    PyObject **dp = _PyObject_GetDictPtr(a);
    if (dp && *dp) {
        PyObject *v = PyDict_GetItemWithError(*dp, name);
        if (v) {
            Py_INCREF(v);
            return v;
        }
        if (PyErr_Occurred()) return NULL;
    }
    return PyObject_GetAttr(a, name);
}

static int is_play(PyObject *t) {
    return PyUnicode_Check(t) && PyUnicode_CompareWithASCIIString(t, "play") == 0;
}

/* ------------------------------------------------------------------------ OpenSpiel's returns */

/* Card ids of a sequence of tokens (at most `max`); the count, or -1 when a token is not a card
 * of the pack (or too many), -2 with an exception set. */
static int token_ids(PyObject *cid, PyObject *seq, int *out, int max) {
    PyObject *f = PySequence_Fast(seq, "cards");
    if (!f) return -2;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(f);
    if (n > max) {
        Py_DECREF(f);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        int id = card_id(cid, PySequence_Fast_GET_ITEM(f, i));
        if (id < 0) {
            Py_DECREF(f);
            return -1;
        }
        out[i] = id;
    }
    Py_DECREF(f);
    return (int)n;
}

/* openspiel_returns(n, kind, value, k, declarer, partner, called_king, talon, talon_group,
 * discards, tricks, cid) -> [int] * n, or None (decline: the reference scores the hand).
 * See openspiel.h; the caller is openspiel_scoring.openspiel_returns. */
static PyObject *py_openspiel_returns(PyObject *self, PyObject *args) {
    int n, kind, value, k, declarer, partner, talon_group;
    PyObject *king_o, *talon_o, *discards_o, *tricks_o, *cid;
    if (!PyArg_ParseTuple(args, "iiiiiiOOiOOO!", &n, &kind, &value, &k, &declarer, &partner,
                          &king_o, &talon_o, &talon_group, &discards_o, &tricks_o, &PyDict_Type,
                          &cid))
        return NULL;
    int called_king = -1;
    if (king_o != Py_None && (called_king = card_id(cid, king_o)) < 0) Py_RETURN_NONE;
    int talon[6], discards[6];
    int ntalon = token_ids(cid, talon_o, talon, 6);
    if (ntalon == -2) return NULL;
    if (ntalon < 0) Py_RETURN_NONE;
    int ndiscards = token_ids(cid, discards_o, discards, 6);
    if (ndiscards == -2) return NULL;
    if (ndiscards < 0) Py_RETURN_NONE;
    PyObject *tf = PySequence_Fast(tricks_o, "tricks");
    if (!tf) return NULL;
    Py_ssize_t nt = PySequence_Fast_GET_SIZE(tf);
    if (nt > TK_MAX_TRICKS) {
        Py_DECREF(tf);
        Py_RETURN_NONE;
    }
    tk_os_trick tricks[TK_MAX_TRICKS];
    for (Py_ssize_t t = 0; t < nt; t++) {
        PyObject *rec = PySequence_Fast_GET_ITEM(tf, t);
        if (!PyTuple_Check(rec) || PyTuple_GET_SIZE(rec) != 3) {
            Py_DECREF(tf);
            Py_RETURN_NONE;
        }
        long ld = PyLong_AsLong(PyTuple_GET_ITEM(rec, 0));
        long w = PyLong_AsLong(PyTuple_GET_ITEM(rec, 2));
        if ((ld == -1 || w == -1) && PyErr_Occurred()) {
            PyErr_Clear(); /* a winner that is not a seat number: the reference's */
            Py_DECREF(tf);
            Py_RETURN_NONE;
        }
        int c = token_ids(cid, PyTuple_GET_ITEM(rec, 1), tricks[t].cards, 4);
        if (c == -2) {
            Py_DECREF(tf);
            return NULL;
        }
        if (c < 0 || ld < 0 || ld >= n || w < 0 || w >= n) {
            Py_DECREF(tf);
            Py_RETURN_NONE;
        }
        tricks[t].leader = (int)ld;
        tricks[t].winner = (int)w;
        tricks[t].n = c;
    }
    Py_DECREF(tf);
    int returns[4];
    if (tk_openspiel_returns(n, kind, value, k, declarer, partner, called_king, talon, ntalon,
                             talon_group, discards, ndiscards, tricks, (int)nt, returns) < 0)
        Py_RETURN_NONE;
    PyObject *out = PyList_New(n);
    if (!out) return NULL;
    for (int s = 0; s < n; s++) {
        PyObject *v = PyLong_FromLong(returns[s]);
        if (!v) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, s, v);
    }
    return out;
}

/* ------------------------------------------------------------------------ Solver */

typedef struct {
    PyObject_HEAD tk_solver s;
    int ready;
} SolverObject;

static PyObject *budget_error(SolverObject *self) {
    PyErr_Format(PyExc_TimeoutError, "the search budget of %lld cards played was spent",
                 self->s.max_nodes);
    return NULL;
}

static void Solver_dealloc(SolverObject *self) {
    if (self->ready) tk_solver_free(&self->s);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int Solver_init(SolverObject *self, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"maxside", "rules", "objective", "tt_bits", NULL};
    PyObject *maxside_o, *rules_o, *obj_o;
    int tt_bits = 20;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOO|i", kwlist, &maxside_o, &rules_o, &obj_o,
                                     &tt_bits))
        return -1;
    int maxside[4];
    int n = read_ints(maxside_o, maxside, 4, "maxside");
    if (n < 0) return -1;
    if (n < 3) {
        PyErr_SetString(PyExc_ValueError, "maxside: one flag per player (3 or 4)");
        return -1;
    }
    tk_rules r;
    if (read_rules(rules_o, &r) < 0) return -1;
    int ob[TK_OBJECTIVE_INTS];
    int m = read_ints(obj_o, ob, TK_OBJECTIVE_INTS, "objective");
    if (m < 0) return -1;
    if (m != TK_OBJECTIVE_INTS) {
        PyErr_Format(PyExc_ValueError, "objective: %d ints expected, got %d", TK_OBJECTIVE_INTS,
                     m);
        return -1;
    }
    if (self->ready) tk_solver_free(&self->s);
    self->ready = 0;
    if (tk_solver_init(&self->s, n, maxside, &r, ob, tt_bits) < 0) {
        PyErr_NoMemory();
        return -1;
    }
    self->ready = 1;
    return 0;
}

/* (hands, trick, leader, tricks_done, acc) -> tk_position */
static int read_position(SolverObject *self, PyObject *hands_o, PyObject *trick_o, int leader,
                         int done, PyObject *acc_o, tk_position *p) {
    if (!self->ready) {
        PyErr_SetString(PyExc_RuntimeError, "Solver not initialised");
        return -1;
    }
    memset(p, 0, sizeof(*p));
    PyObject *fast = PySequence_Fast(hands_o, "hands");
    if (!fast) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n != self->s.n) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "hands: one mask per player");
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        unsigned long long h = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(fast, i));
        if (h == (unsigned long long)-1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        p->hand[i] = (tk_set)h & TK_ALL;
    }
    Py_DECREF(fast);
    p->tk = read_ints(trick_o, p->trick, self->s.n - 1, "trick");
    if (p->tk < 0) return -1;
    for (int i = 0; i < p->tk; i++)
        if (read_card(p->trick[i]) < 0) return -1;
    if (leader < 0 || leader >= self->s.n) {
        PyErr_SetString(PyExc_ValueError, "leader out of range");
        return -1;
    }
    p->leader = leader;
    p->done = done;
    int k = read_ints(acc_o, p->acc, TK_ACC, "acc");
    if (k < 0) return -1;
    if (k != TK_ACC) {
        PyErr_SetString(PyExc_ValueError, "acc: 9 ints expected");
        return -1;
    }
    return 0;
}

static PyObject *Solver_values(SolverObject *self, PyObject *args) {
    PyObject *hands, *trick, *acc;
    int leader, done;
    if (!PyArg_ParseTuple(args, "OOiiO", &hands, &trick, &leader, &done, &acc)) return NULL;
    tk_position p;
    if (read_position(self, hands, trick, leader, done, acc, &p) < 0) return NULL;
    int cards[16], values[16], k;
    tk_begin(&self->s);
    k = tk_values(&self->s, &p, cards, values);
    if (self->s.aborted) return budget_error(self);
    PyObject *out = PyList_New(k);
    if (!out) return NULL;
    for (int i = 0; i < k; i++) {
        PyObject *t = Py_BuildValue("(ii)", cards[i], values[i]);
        if (!t) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, i, t);
    }
    return out;
}

static PyObject *Solver_value(SolverObject *self, PyObject *args) {
    PyObject *hands, *trick, *acc;
    int leader, done, card = -1, guess = 0;
    if (!PyArg_ParseTuple(args, "OOiiO|ii", &hands, &trick, &leader, &done, &acc, &card, &guess))
        return NULL;
    tk_position p;
    if (read_position(self, hands, trick, leader, done, acc, &p) < 0) return NULL;
    if (card >= 0 && read_card(card) < 0) return NULL;
    int v;
    tk_begin(&self->s);
    v = tk_value(&self->s, &p, card, guess);
    if (self->s.aborted) return budget_error(self);
    return PyLong_FromLong(v);
}

static PyObject *Solver_search(SolverObject *self, PyObject *args) {
    PyObject *hands, *trick, *acc;
    int leader, done, alpha, beta;
    if (!PyArg_ParseTuple(args, "OOiiOii", &hands, &trick, &leader, &done, &acc, &alpha, &beta))
        return NULL;
    tk_position p;
    if (read_position(self, hands, trick, leader, done, acc, &p) < 0) return NULL;
    tk_load(&self->s, &p);
    int v;
    tk_begin(&self->s);
    v = tk_search(&self->s, alpha, beta);
    if (self->s.aborted) return budget_error(self);
    return PyLong_FromLong(v);
}

static PyObject *Solver_line(SolverObject *self, PyObject *args) {
    PyObject *hands, *trick, *acc;
    int leader, done, card = -1;
    if (!PyArg_ParseTuple(args, "OOiiO|i", &hands, &trick, &leader, &done, &acc, &card))
        return NULL;
    tk_position p;
    if (read_position(self, hands, trick, leader, done, acc, &p) < 0) return NULL;
    if (card >= 0 && read_card(card) < 0) return NULL;
    int line[TK_NCARDS + 1], k;
    tk_begin(&self->s);
    k = tk_line(&self->s, &p, card, line, TK_NCARDS);
    if (self->s.aborted) return budget_error(self);
    if (k < 0) {
        PyErr_SetString(PyExc_RuntimeError, "no card reaches the position's value");
        return NULL;
    }
    PyObject *out = PyList_New(k);
    if (!out) return NULL;
    for (int i = 0; i < k; i++) PyList_SET_ITEM(out, i, PyLong_FromLong(line[i]));
    return out;
}

static PyObject *Solver_minimax(SolverObject *self, PyObject *args) {
    PyObject *hands, *trick, *acc;
    int leader, done;
    if (!PyArg_ParseTuple(args, "OOiiO", &hands, &trick, &leader, &done, &acc)) return NULL;
    tk_position p;
    if (read_position(self, hands, trick, leader, done, acc, &p) < 0) return NULL;
    tk_load(&self->s, &p);
    int v;
    v = tk_minimax(&self->s);
    return PyLong_FromLong(v);
}

static PyObject *Solver_leaf(SolverObject *self, PyObject *args) {
    PyObject *acc_o, *last_o;
    if (!PyArg_ParseTuple(args, "OO", &acc_o, &last_o)) return NULL;
    int acc[TK_ACC], last[4] = {0, 0, 0, 0};
    if (read_ints(acc_o, acc, TK_ACC, "acc") != TK_ACC) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "acc: 9 ints expected");
        return NULL;
    }
    if (read_ints(last_o, last, 4, "last") < 0) return NULL;
    tk_last l = {last[0], last[1], last[2], last[3]};
    return PyLong_FromLong(tk_leaf(&self->s.ob, acc, &l, self->s.n));
}

static PyObject *Solver_bounds(SolverObject *self, PyObject *args) {
    PyObject *acc_o;
    unsigned long long rem;
    if (!PyArg_ParseTuple(args, "OK", &acc_o, &rem)) return NULL;
    int acc[TK_ACC];
    if (read_ints(acc_o, acc, TK_ACC, "acc") != TK_ACC) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "acc: 9 ints expected");
        return NULL;
    }
    int lo, hi;
    tk_bounds(&self->s.ob, acc, (tk_set)rem, &lo, &hi);
    return Py_BuildValue("(ii)", lo, hi);
}

static PyObject *Solver_clear(SolverObject *self, PyObject *noargs) {
    if (self->ready) tk_solver_clear(&self->s);
    Py_RETURN_NONE;
}

static PyObject *Solver_get_nodes(SolverObject *self, void *closure) {
    return PyLong_FromLongLong(self->s.nodes);
}

static PyMethodDef Solver_methods[] = {
    {"values", (PyCFunction)Solver_values, METH_VARARGS,
     "values(hands, trick, leader, tricks_done, acc) -> [(card, value)]: every legal card"},
    {"value", (PyCFunction)Solver_value, METH_VARARGS,
     "value(hands, trick, leader, tricks_done, acc, card=-1, guess=0) -> exact value"},
    {"search", (PyCFunction)Solver_search, METH_VARARGS,
     "search(hands, trick, leader, tricks_done, acc, alpha, beta) -> fail-soft value"},
    {"line", (PyCFunction)Solver_line, METH_VARARGS,
     "line(hands, trick, leader, tricks_done, acc, card=-1) -> principal line (card ids)"},
    {"minimax", (PyCFunction)Solver_minimax, METH_VARARGS,
     "minimax(hands, trick, leader, tricks_done, acc) -> value by exhaustive search"},
    {"leaf", (PyCFunction)Solver_leaf, METH_VARARGS,
     "leaf(acc, (pagat, pagat_failed, kralj, kralj_failed)) -> the objective's value"},
    {"bounds", (PyCFunction)Solver_bounds, METH_VARARGS,
     "bounds(acc, remaining) -> (low, high) of the final value"},
    {"clear", (PyCFunction)Solver_clear, METH_NOARGS, "empty the transposition table"},
    {NULL, NULL, 0, NULL},
};

static PyObject *Solver_get_probes(SolverObject *self, void *closure) {
    return PyLong_FromLongLong(self->s.probes);
}

static PyObject *Solver_get_lattice(SolverObject *self, void *closure) {
    return Py_BuildValue("(ii)", self->s.lat_g, self->s.lat_off);
}

static PyObject *Solver_get_budget(SolverObject *self, void *closure) {
    return PyLong_FromLongLong(self->s.max_nodes);
}

static int Solver_set_budget(SolverObject *self, PyObject *value, void *closure) {
    long long v = value ? PyLong_AsLongLong(value) : 0;
    if (v == -1 && PyErr_Occurred()) return -1;
    self->s.max_nodes = v < 0 ? 0 : v;
    return 0;
}

static PyGetSetDef Solver_getset[] = {
    {"budget", (getter)Solver_get_budget, (setter)Solver_set_budget,
     "cards a public call may play before it stops with TimeoutError (0: no limit)", NULL},
    {"nodes", (getter)Solver_get_nodes, NULL, "cards played in the search so far", NULL},
    {"probes", (getter)Solver_get_probes, NULL, "null-window searches so far", NULL},
    {"lattice", (getter)Solver_get_lattice, NULL,
     "(step, offset): every final value is offset + step * z (MTD(f) tests only those)", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject SolverType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "tarock_logs._native._core.Solver",
    .tp_basicsize = sizeof(SolverObject),
    .tp_dealloc = (destructor)Solver_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Solver(maxside, rules, objective, tt_bits=20): one hand's card-play search",
    .tp_methods = Solver_methods,
    .tp_getset = Solver_getset,
    .tp_init = (initproc)Solver_init,
    .tp_new = PyType_GenericNew,
};

/* ------------------------------------------------------------------------ the card loops of
 * Zwanzigerrufen (zrloop.h) and Royal Tarock (royalloop.h) */

/* Four seats' hands (iterables of card tokens) as masks: 1, 0 when a token is not a card of
 * `cid` or there are not four seats (decline), -1 with an exception set. */
static int read_four_hands(PyObject *hands_o, PyObject *cid, tk_set *hands) {
    PyObject *hf = PySequence_Fast(hands_o, "hands");
    if (!hf) return -1;
    if (PySequence_Fast_GET_SIZE(hf) != 4) {
        Py_DECREF(hf);
        return 0;
    }
    for (Py_ssize_t s = 0; s < 4; s++) {
        hands[s] = 0;
        PyObject *it = PyObject_GetIter(PySequence_Fast_GET_ITEM(hf, s));
        if (!it) {
            Py_DECREF(hf);
            return -1;
        }
        PyObject *c;
        while ((c = PyIter_Next(it))) {
            int id = card_id(cid, c);
            Py_DECREF(c);
            if (id < 0 || (hands[s] & TK_BIT(id))) {
                Py_DECREF(it);
                Py_DECREF(hf);
                return 0;
            }
            hands[s] |= TK_BIT(id);
        }
        Py_DECREF(it);
        if (PyErr_Occurred()) {
            Py_DECREF(hf);
            return -1;
        }
    }
    Py_DECREF(hf);
    return 1;
}

/* The card actions `actions[start:]` of a table of four: exactly `want` plays by seats 0-3 of
 * cards of `cid`. Fills seat/card/token (new references in token[0..*got-1], which the caller
 * releases); 1 when they are, 0 to decline, -1 with an exception set. */
static int read_four_plays(PyObject *actions_o, Py_ssize_t start, PyObject *cid, int want,
                           int *seat, int *card, PyObject **token, int *got) {
    *got = 0;
    PyObject *af = PySequence_Fast(actions_o, "actions");
    if (!af) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(af) - start;
    if (start < 0 || n != want) {
        Py_DECREF(af);
        return 0;
    }
    int ok = 1;
    for (Py_ssize_t i = 0; i < n && ok; i++) {
        PyObject *a = PySequence_Fast_GET_ITEM(af, start + i);
        PyObject *t = field(a, s_type);
        if (!t) {
            ok = 0;
            break;
        }
        int play = is_play(t);
        Py_DECREF(t);
        PyObject *so = play ? field(a, s_seat) : NULL;
        if (!so) {
            ok = 0;
            break;
        }
        long sv = PyLong_Check(so) ? PyLong_AsLong(so) : -1;
        Py_DECREF(so);
        PyObject *co = (sv >= 0 && sv < 4) ? field(a, s_card) : NULL;
        if (!co) {
            ok = 0;
            break;
        }
        int id = card_id(cid, co);
        if (id < 0) {
            Py_DECREF(co);
            ok = 0;
            break;
        }
        seat[i] = (int)sv;
        card[i] = id;
        token[i] = co;
        *got = (int)i + 1;
    }
    Py_DECREF(af);
    if (!ok) PyErr_Clear(); /* an action without those fields: the reference reports it */
    return ok;
}

/* A trick's cards as ((seat, token), ...) in playing order (tokens from `token`). */
static PyObject *seat_cards(const int *seats, PyObject **token) {
    PyObject *cards = PyTuple_New(4);
    if (!cards) return NULL;
    for (int j = 0; j < 4; j++) {
        PyObject *pair = Py_BuildValue("(iO)", seats[j], token[j]);
        if (!pair) {
            Py_DECREF(cards);
            return NULL;
        }
        PyTuple_SET_ITEM(cards, j, pair);
    }
    return cards;
}

/* zr_play_cards(hands, actions, start, leader, rules, cid) -> None (decline) or the ten tricks
 * as (leader, ((seat, card), ...), winner, points, maerchenstich, mondfang or None), the
 * fields of zwanzigerrufen.tricks.Trick after its number. rules: (farbensolo, compulsion,
 * maerchen, keep_pagat), see zrloop.h; the caller is zwanzigerrufen.fast. */
static PyObject *py_zr_play_cards(PyObject *self, PyObject *args) {
    PyObject *hands_o, *actions_o, *rules_o, *cid;
    Py_ssize_t start;
    int leader;
    if (!PyArg_ParseTuple(args, "OOniOO!", &hands_o, &actions_o, &start, &leader, &rules_o,
                          &PyDict_Type, &cid))
        return NULL;
    int rv[4];
    int nr = read_ints(rules_o, rv, 4, "rules");
    if (nr < 0) return NULL;
    if (nr != 4) {
        PyErr_SetString(PyExc_ValueError, "rules: 4 ints expected");
        return NULL;
    }
    zr_rules r = {rv[0], rv[1], rv[2], rv[3]};
    tk_set hands[4];
    int st = read_four_hands(hands_o, cid, hands);
    if (st < 0) return NULL;
    if (st == 0) Py_RETURN_NONE;
    int seat[ZR_CARDS], card[ZR_CARDS], got = 0;
    PyObject *token[ZR_CARDS];
    PyObject *result = NULL;
    st = read_four_plays(actions_o, start, cid, ZR_CARDS, seat, card, token, &got);
    if (st <= 0) goto done;
    zr_trick tricks[ZR_TRICKS];
    if (zr_play_cards(&r, hands, leader, seat, card, ZR_CARDS, tricks) != ZR_TRICKS) goto done;
    PyObject *out = PyList_New(ZR_TRICKS);
    if (!out) goto done;
    for (int k = 0; k < ZR_TRICKS; k++) {
        zr_trick *t = &tricks[k];
        PyObject *cards = seat_cards(t->seats, token + 4 * k);
        if (!cards) {
            Py_DECREF(out);
            goto done;
        }
        PyObject *mf = Py_None;
        if (t->mond_owner >= 0) {
            mf = Py_BuildValue("(ii)", t->mond_owner, t->winner);
            if (!mf) {
                Py_DECREF(cards);
                Py_DECREF(out);
                goto done;
            }
        } else {
            Py_INCREF(mf);
        }
        /* "N" steals cards and mf, also when the build fails */
        PyObject *rec = Py_BuildValue("(iNiiON)", t->leader, cards, t->winner, t->points,
                                      t->maerchen ? Py_True : Py_False, mf);
        if (!rec) {
            Py_DECREF(out);
            goto done;
        }
        PyList_SET_ITEM(out, k, rec);
    }
    result = out;
done:
    for (int i = 0; i < got; i++) Py_DECREF(token[i]);
    if (result) return result;
    if (PyErr_Occurred()) return NULL;
    Py_RETURN_NONE;
}

/* royal_play_cards(hands, actions, start, leader, bound, cid) -> None (decline) or the ten
 * tricks as (((seat, card), ...), winner), the records of RoyalHand.tricks. bound: per seat a
 * sequence of (card id, trick, seq), the bound cards of §6.2 (royalloop.h); the caller is
 * royal.fast. */
static PyObject *py_royal_play_cards(PyObject *self, PyObject *args) {
    PyObject *hands_o, *actions_o, *bound_o, *cid;
    Py_ssize_t start;
    int leader;
    if (!PyArg_ParseTuple(args, "OOniOO!", &hands_o, &actions_o, &start, &leader, &bound_o,
                          &PyDict_Type, &cid))
        return NULL;
    rt_rules r;
    memset(&r, 0, sizeof r);
    PyObject *bf = PySequence_Fast(bound_o, "bound");
    if (!bf) return NULL;
    if (PySequence_Fast_GET_SIZE(bf) != 4) {
        Py_DECREF(bf);
        PyErr_SetString(PyExc_ValueError, "bound: four seats expected");
        return NULL;
    }
    for (int s = 0; s < 4; s++) {
        PyObject *lf = PySequence_Fast(PySequence_Fast_GET_ITEM(bf, s), "bound");
        if (!lf) {
            Py_DECREF(bf);
            return NULL;
        }
        Py_ssize_t nb = PySequence_Fast_GET_SIZE(lf);
        if (nb > RT_MAX_BOUND) {
            Py_DECREF(lf);
            Py_DECREF(bf);
            Py_RETURN_NONE; /* more bindings than the loop takes: decline */
        }
        for (Py_ssize_t i = 0; i < nb; i++) {
            int v[3];
            int k = read_ints(PySequence_Fast_GET_ITEM(lf, i), v, 3, "binding");
            if (k != 3 || v[0] < 0 || v[0] >= TK_NCARDS) {
                Py_DECREF(lf);
                Py_DECREF(bf);
                if (k >= 0) PyErr_SetString(PyExc_ValueError, "binding: (card id, trick, seq)");
                return NULL;
            }
            r.b[s][i].card = v[0];
            r.b[s][i].trick = v[1];
            r.b[s][i].seq = v[2];
        }
        r.n[s] = (int)nb;
        Py_DECREF(lf);
    }
    Py_DECREF(bf);
    tk_set hands[4];
    int st = read_four_hands(hands_o, cid, hands);
    if (st < 0) return NULL;
    if (st == 0) Py_RETURN_NONE;
    int seat[RT_CARDS], card[RT_CARDS], got = 0;
    PyObject *token[RT_CARDS];
    PyObject *result = NULL;
    st = read_four_plays(actions_o, start, cid, RT_CARDS, seat, card, token, &got);
    if (st <= 0) goto done;
    rt_trick tricks[RT_TRICKS];
    if (rt_play_cards(&r, hands, leader, seat, card, RT_CARDS, tricks) != RT_TRICKS) goto done;
    PyObject *out = PyList_New(RT_TRICKS);
    if (!out) goto done;
    for (int k = 0; k < RT_TRICKS; k++) {
        PyObject *cards = seat_cards(tricks[k].seats, token + 4 * k);
        PyObject *rec = cards ? Py_BuildValue("(Ni)", cards, tricks[k].winner) : NULL; /* N */
        if (!rec) {
            Py_DECREF(out);
            goto done;
        }
        PyList_SET_ITEM(out, k, rec);
    }
    result = out;
done:
    for (int i = 0; i < got; i++) Py_DECREF(token[i]);
    if (result) return result;
    if (PyErr_Occurred()) return NULL;
    Py_RETURN_NONE;
}


/* ------------------------------------------------------------------------ a whole hand */

/* The bonuses of slohand.h's SH_TRULA ... SH_BARVNI_VALAT, by name (announcements.ANN_BONUSES) */
static const char *const SH_BONUS_NAMES[SH_NBONUS] = {"trula", "kralji", "pagat_ultimo",
                                                      "kralj_ultimo", "valat", "barvni_valat"};

/* the SH_ index of a bonus name (an exact str), or -1 */
static int bonus_index(PyObject *v) {
    if (!v || !PyUnicode_Check(v)) return -1;
    for (int b = 0; b < SH_NBONUS; b++)
        if (PyUnicode_CompareWithASCIIString(v, SH_BONUS_NAMES[b]) == 0) return b;
    return -1;
}

/* Read the log's actions into sh_action records (slohand.h); 0, or -1 to decline (an action
 * without the fields, too many actions), -2 with an exception set. `kinds` maps a ``type`` to
 * its SH_ kind, `contracts` a contract code to its index. */
static int read_hand_actions(PyObject *actions_o, PyObject *kinds, PyObject *contracts,
                             PyObject *cid, sh_action *out, int *nacts) {
    PyObject *af = PySequence_Fast(actions_o, "actions");
    if (!af) return -2;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(af);
    int rc = 0;
    if (n > SH_MAX_ACTIONS) rc = -1;
    for (Py_ssize_t i = 0; i < n && rc == 0; i++) {
        PyObject *a = PySequence_Fast_GET_ITEM(af, i);
        sh_action *x = &out[i];
        x->type = SH_OTHER;
        x->seat = -1;
        x->arg = -1;
        x->level = 0;
        x->ncards = 0;
        x->shown = 0;
        /* a class whose every instance has one type (its key in `kinds`: fastpath's
         * _learn_action_class) saves reading the type */
        PyObject *kv = PyDict_GetItemWithError(kinds, (PyObject *)Py_TYPE(a));
        if (!kv) {
            if (PyErr_Occurred()) {
                rc = -1;
                break;
            }
            PyObject *t = field(a, s_type);
            if (!t) {
                rc = -1;
                break;
            }
            kv = PyUnicode_Check(t) ? PyDict_GetItemWithError(kinds, t) : NULL;
            Py_DECREF(t);
            if (!kv) {
                rc = -1; /* another kind of action (or no type): the Python path's */
                break;
            }
        }
        x->type = (int)PyLong_AsLong(kv);
        PyObject *so = field(a, s_seat);
        if (!so) {
            rc = -1;
            break;
        }
        long sv = PyLong_Check(so) ? PyLong_AsLong(so) : -1;
        Py_DECREF(so);
        if (sv == -1 && PyErr_Occurred()) PyErr_Clear();
        x->seat = (sv < 0 || sv > 8) ? -1 : (int)sv;
        PyObject *v;
        switch (x->type) {
        case SH_BID:
            v = field(a, s_contract);
            if (!v) {
                rc = -1;
                break;
            }
            if (PyUnicode_Check(v)) {
                PyObject *ix = PyDict_GetItemWithError(contracts, v);
                if (ix) x->arg = (int)PyLong_AsLong(ix);
            }
            Py_DECREF(v);
            break;
        case SH_CALL:
        case SH_PLAY:
            v = field(a, s_card);
            if (!v) {
                rc = -1;
                break;
            }
            x->arg = card_id(cid, v);
            Py_DECREF(v);
            break;
        case SH_TALON:
            v = field(a, s_group);
            if (!v) {
                rc = -1;
                break;
            }
            if (PyLong_CheckExact(v)) { /* type(g) is int: never a bool */
                long g = PyLong_AsLong(v);
                if (g == -1 && PyErr_Occurred()) PyErr_Clear();
                x->arg = (g < 0 || g > 6) ? -1 : (int)g;
            }
            Py_DECREF(v);
            break;
        case SH_ANNOUNCE:
            v = field(a, s_bonus);
            if (!v) {
                rc = -1;
                break;
            }
            x->arg = bonus_index(v);
            Py_DECREF(v);
            break;
        case SH_KONTRA: {
            /* the target (None or "" is the game, as ``a.target or "game"``) and the level
             * (None: not compared) */
            v = field(a, s_target);
            if (!v) {
                rc = -1;
                break;
            }
            int empty = v == Py_None || (PyUnicode_Check(v) && PyUnicode_GET_LENGTH(v) == 0);
            if (empty || (PyUnicode_Check(v) && PyUnicode_CompareWithASCIIString(v, "game") == 0))
                x->arg = SH_GAME;
            else {
                int b = bonus_index(v);
                x->arg = b < 0 ? -1 : 1 + b;
            }
            Py_DECREF(v);
            v = field(a, s_level);
            if (!v) {
                rc = -1;
                break;
            }
            if (v == Py_None) {
                x->level = 1 << 30;
            } else if (PyLong_CheckExact(v)) {
                long lv = PyLong_AsLong(v);
                if (lv == -1 && PyErr_Occurred()) PyErr_Clear();
                x->level = (lv < -1000 || lv > 1000) ? (lv < 0 ? -1000 : 1000) : (int)lv;
            } else {
                x->arg = -1; /* not an int: the Python's */
            }
            Py_DECREF(v);
            break;
        }
        case SH_DISCARD: {
            v = field(a, s_cards);
            if (!v) {
                rc = -1;
                break;
            }
            int ids[7];
            int m = PySequence_Check(v) && !PyUnicode_Check(v) ? token_ids(cid, v, ids, 6) : -1;
            if (m == -2) PyErr_Clear();
            if (m < 0) {
                /* more than six, or a token outside the pack: not held (the Python declines) */
                if (PySequence_Check(v) && PySequence_Size(v) > 0) {
                    x->ncards = 1;
                    x->cards[0] = -1;
                } else {
                    PyErr_Clear();
                    rc = -1;
                }
            } else {
                x->ncards = m;
                for (int j = 0; j < m; j++) x->cards[j] = ids[j];
            }
            Py_DECREF(v);
            if (rc) break;
            v = field(a, s_shown);
            if (!v) {
                rc = -1;
                break;
            }
            PyObject *it = PyUnicode_Check(v) ? NULL : PyObject_GetIter(v);
            Py_DECREF(v);
            if (!it) {
                PyErr_Clear();
                rc = -1;
                break;
            }
            PyObject *c;
            while ((c = PyIter_Next(it))) {
                int id = card_id(cid, c);
                Py_DECREF(c);
                if (id >= 0) x->shown |= TK_BIT(id);
            }
            Py_DECREF(it);
            if (PyErr_Occurred()) {
                PyErr_Clear();
                rc = -1;
            }
            break;
        }
        default:
            break;
        }
    }
    Py_DECREF(af);
    if (rc == -1) PyErr_Clear(); /* a field missing: the Python path says what is wrong */
    *nacts = (int)n;
    return rc;
}

/* The Python value of a hand slohand.h played (see slovenian_hand below): ``tokens`` the 54
 * card tokens by id (None: no trick records). */
static PyObject *sh_result_py(const sh_config *c, const sh_result *r, PyObject *tokens) {
    PyObject *packed = PyBytes_FromStringAndSize(NULL, 7 * r->ntricks);
    if (!packed) return NULL;
    unsigned char *b = (unsigned char *)PyBytes_AS_STRING(packed);
    for (int t = 0; t < r->ntricks; t++, b += 7) {
        const tk_trick *tr = &r->tricks[t];
        b[0] = (unsigned char)tr->leader;
        b[1] = (unsigned char)tr->winner;
        b[2] = (unsigned char)tr->wi;
        for (int j = 0; j < 4; j++) b[3 + j] = j < tr->n ? (unsigned char)tr->cards[j] : 255;
    }
    PyObject *disc = PyTuple_New(r->ndiscards);
    /* the tricks' card masks are for the caller's scoring: none when the returns are here */
    PyObject *masks =
        c->openspiel_scoring ? (Py_INCREF(Py_None), Py_None) : PyTuple_New(r->ntricks);
    PyObject *ret = c->openspiel_scoring ? PyTuple_New(c->n) : (Py_INCREF(Py_None), Py_None);
    /* the trick records (leader, [card tokens], winner) and winning indexes, for the caller's
     * scoring, when it passed the tokens and the ruleset is not scored here */
    int want = tokens != NULL && !c->openspiel_scoring;
    PyObject *recs = want ? PyList_New(r->ntricks) : NULL;
    PyObject *wins = want ? PyList_New(r->ntricks) : NULL;
    if (!disc || !masks || !ret || (want && (!recs || !wins))) {
        Py_XDECREF(disc);
        Py_XDECREF(masks);
        Py_XDECREF(ret);
        Py_XDECREF(recs);
        Py_XDECREF(wins);
        Py_DECREF(packed);
        return NULL;
    }
    PyObject *records = NULL;
    if (want) {
        for (int t = 0; t < r->ntricks; t++) {
            const tk_trick *tr = &r->tricks[t];
            PyObject *cards = PyList_New(tr->n);
            if (!cards) goto fail_records;
            for (int j = 0; j < tr->n; j++) {
                PyObject *tok = PyTuple_GET_ITEM(tokens, tr->cards[j]);
                Py_INCREF(tok);
                PyList_SET_ITEM(cards, j, tok);
            }
            PyObject *rec = Py_BuildValue("(iNi)", tr->leader, cards, tr->winner);
            if (!rec) goto fail_records;
            PyList_SET_ITEM(recs, t, rec);
            PyObject *w = PyLong_FromLong(tr->wi);
            if (!w) goto fail_records;
            PyList_SET_ITEM(wins, t, w);
        }
        records = Py_BuildValue("(NN)", recs, wins);
        recs = wins = NULL;
        if (!records) goto fail;
    } else {
        Py_INCREF(Py_None);
        records = Py_None;
    }
    for (int i = 0; i < r->ndiscards; i++) {
        PyObject *v = PyLong_FromLong(r->discards[i]);
        if (!v) goto fail;
        PyTuple_SET_ITEM(disc, i, v);
    }
    for (int t = 0; t < r->ntricks && masks != Py_None; t++) {
        PyObject *v = PyLong_FromUnsignedLongLong(r->tricks[t].mask);
        if (!v) goto fail;
        PyTuple_SET_ITEM(masks, t, v);
    }
    if (c->openspiel_scoring)
        for (int s = 0; s < c->n; s++) {
            PyObject *v = PyLong_FromLong(r->returns[s]);
            if (!v) goto fail;
            PyTuple_SET_ITEM(ret, s, v);
        }
    /* the announcements ((seat, bonus, side "M" or "O"), in the order made) and the kontras
     * ((seat, target, level reached)) */
    PyObject *anns = PyTuple_New(r->nann), *kons = PyTuple_New(r->nkontra);
    if (!anns || !kons) {
        Py_XDECREF(anns);
        Py_XDECREF(kons);
        goto fail;
    }
    for (int i = 0; i < r->nann; i++) {
        PyObject *e = Py_BuildValue("(iOO)", r->ann[i][0], sh_names[1 + r->ann[i][1]],
                                    r->ann[i][2] ? s_side_o : s_side_m);
        if (!e) {
            Py_DECREF(anns);
            Py_DECREF(kons);
            goto fail;
        }
        PyTuple_SET_ITEM(anns, i, e);
    }
    for (int i = 0; i < r->nkontra; i++) {
        PyObject *e = Py_BuildValue("(iOi)", r->kontra[i][0], sh_names[r->kontra[i][1]],
                                    r->kontra[i][2]);
        if (!e) {
            Py_DECREF(anns);
            Py_DECREF(kons);
            goto fail;
        }
        PyTuple_SET_ITEM(kons, i, e);
    }
    return Py_BuildValue("(iiiiiNNONNiNNN)", r->contract, r->declarer, r->partner, r->called_king,
                         r->talon_group, disc, packed, r->early ? Py_True : Py_False, masks, ret,
                         r->first_card, records, anns, kons);
fail_records:
    Py_XDECREF(recs);
    Py_XDECREF(wins);
fail:
    Py_DECREF(disc);
    Py_DECREF(masks);
    Py_DECREF(ret);
    Py_DECREF(packed);
    Py_XDECREF(records);
    return NULL;
}

/* slovenian_hand(config, dealer, hands, talon, actions, kinds, contracts, cid) -> None
 * (decline) or (contract, declarer, partner, called king id, talon group, discard ids, tricks,
 * ended early, the tricks' card masks (None when the returns are given), returns (None
 * unless the ruleset is scored by OpenSpiel's returns), index of the first card, records).
 * With `tokens` (the 54 card tokens by id) and a ruleset not scored here, `records` is (the
 * trick records (leader, [card tokens], winner), the winning cards' indexes), else None. `config` is the bytes of an sh_config
 * (slovenian_config); `tricks` packs each trick as 7 bytes: leader, winner, the winning card's
 * index, then the card ids (255 for none). See slohand.h; the caller is
 * fastpath._native_hand. */
/* The sh_config in the bytes `config_o` into `c`: 1, 0 (a table the native whole hand does
 * not play), -1 with an exception set. */
static int sh_read_config(PyObject *config_o, sh_config *c, const char *who) {
    if (PyBytes_GET_SIZE(config_o) != (Py_ssize_t)sizeof(sh_config)) {
        PyErr_Format(PyExc_ValueError, "%s: not a slovenian_config", who);
        return -1;
    }
    memcpy(c, PyBytes_AS_STRING(config_o), sizeof *c);
    return c->n == 3 || c->n == 4;
}

/* One hand's deal and actions through slohand.h: 1 with `r` filled (`dealt`: each seat's hand
 * as dealt; `talon`, `ntalon`: the talon's card ids), 0 to decline, -1 with an exception set. */
static int sh_run(const sh_config *c, int dealer, PyObject *hands_o, PyObject *talon_o,
                  PyObject *actions_o, PyObject *kinds, PyObject *contracts, PyObject *cid,
                  sh_result *r, tk_set *dealt, int *talon, int *ntalon) {
    /* the deal */
    PyObject *hf = PySequence_Fast(hands_o, "hands");
    if (!hf) return -1;
    if (PySequence_Fast_GET_SIZE(hf) != c->n) {
        Py_DECREF(hf);
        return 0;
    }
    tk_set hands[TK_MAX_SEATS] = {0};
    int hand_len[4] = {0};
    for (int s = 0; s < c->n; s++) {
        int ids[TK_NCARDS];
        int m = token_ids(cid, PySequence_Fast_GET_ITEM(hf, s), ids, TK_NCARDS);
        if (m < 0) {
            Py_DECREF(hf);
            if (m == -2) PyErr_Clear();
            return 0;
        }
        hand_len[s] = m;
        for (int j = 0; j < m; j++) hands[s] |= TK_BIT(ids[j]);
    }
    Py_DECREF(hf);
    int nt = token_ids(cid, talon_o, talon, 6);
    if (nt < 0) {
        if (nt == -2) PyErr_Clear();
        return 0;
    }
    *ntalon = nt;
    tk_set talon_set = 0;
    for (int i = 0; i < nt; i++) talon_set |= TK_BIT(talon[i]);
    if (!sh_deal_clean(c, hand_len, hands, talon_set, nt)) return 0;
    for (int s = 0; s < TK_MAX_SEATS; s++) dealt[s] = hands[s];
    /* the actions */
    sh_action acts[SH_MAX_ACTIONS];
    int nacts = 0;
    int rc = read_hand_actions(actions_o, kinds, contracts, cid, acts, &nacts);
    if (rc == -2) return -1;
    if (rc < 0) return 0;
    return sh_play_hand(c, dealer, hands, talon, acts, nacts, r) < 0 ? 0 : 1;
}

static PyObject *py_slovenian_hand(PyObject *self, PyObject *args) {
    PyObject *config_o, *hands_o, *talon_o, *actions_o, *kinds, *contracts, *cid;
    PyObject *tokens = NULL;
    int dealer;
    if (!PyArg_ParseTuple(args, "O!iOOOO!O!O!|O!", &PyBytes_Type, &config_o, &dealer, &hands_o,
                          &talon_o, &actions_o, &PyDict_Type, &kinds, &PyDict_Type, &contracts,
                          &PyDict_Type, &cid, &PyTuple_Type, &tokens))
        return NULL;
    if (tokens && PyTuple_GET_SIZE(tokens) != TK_NCARDS) {
        PyErr_SetString(PyExc_ValueError, "slovenian_hand: tokens must hold the 54 card tokens");
        return NULL;
    }
    sh_config c;
    int ok = sh_read_config(config_o, &c, "slovenian_hand");
    if (ok < 0) return NULL;
    if (!ok) Py_RETURN_NONE;
    sh_result r;
    tk_set dealt[TK_MAX_SEATS];
    int talon[7], nt = 0;
    ok = sh_run(&c, dealer, hands_o, talon_o, actions_o, kinds, contracts, cid, &r, dealt, talon,
                &nt);
    if (ok < 0) return NULL;
    if (!ok) Py_RETURN_NONE;
    return sh_result_py(&c, &r, tokens);
}

/* ------------------------------------------------ the rule tables' codec (by field name) */

/* The config structs reach C from the Python rule tables by FIELD NAME, never by position:
 * Python passes a dict {field name: value} (rules/slovenian/fast/codec.py builds it from
 * contracts.CONTRACTS, contracts.Rules and tricks.PlayRules), and the readers below take
 * exactly the fields these lists name, by offset into the struct: a missing or an unknown
 * field is an error. slovenian_config_fields() gives the lists, so that codec.py checks at
 * import (and tests/rules/slovenian/test_codec.py) that both sides name the same fields.
 * To add a field: add it to the struct and to its list here, rebuild, and give it a value
 * in codec.py (a Contract flag or a Rules option of the same name needs nothing more). */
enum { CF_INT = 0, CF_CONTRACTS = 1, CF_PLAY_RULES = 2 };
static const char *const CF_KIND[] = {"int", "contracts", "play_rules"};
typedef struct {
    const char *name;
    size_t offset;
    int kind; /* CF_INT: one int; CF_CONTRACTS: an int per contract; CF_PLAY_RULES: a
                 tk_rules per contract, each a dict by TK_RULES_FIELDS */
} cf_field;
#define CF(type, field, kind) {#field, offsetof(type, field), kind}

static const cf_field SH_CONFIG_FIELDS[] = {
    CF(sh_config, n, CF_INT),
    CF(sh_config, tricks_total, CF_INT),
    CF(sh_config, table_ok, CF_INT),
    CF(sh_config, redeal_without_taroks, CF_INT),
    CF(sh_config, discard_only_if_forced, CF_INT),
    CF(sh_config, openspiel_scoring, CF_INT),
    CF(sh_config, announcements, CF_INT),
    CF(sh_config, kontra_levels, CF_INT),
    CF(sh_config, klop_kontra, CF_INT),
    CF(sh_config, protection, CF_INT),
    CF(sh_config, announced_valat_leads, CF_INT),
    CF(sh_config, rank, CF_CONTRACTS),
    CF(sh_config, at_three, CF_CONTRACTS),
    CF(sh_config, king_call, CF_CONTRACTS),
    CF(sh_config, talon, CF_CONTRACTS),
    CF(sh_config, declarer_leads, CF_CONTRACTS),
    CF(sh_config, alone, CF_CONTRACTS),
    CF(sh_config, talon_gifts, CF_CONTRACTS),
    CF(sh_config, forehand_holds, CF_CONTRACTS),
    CF(sh_config, no_trick, CF_CONTRACTS),
    CF(sh_config, every_trick, CF_CONTRACTS),
    CF(sh_config, colour_valat, CF_CONTRACTS),
    CF(sh_config, brez_options, CF_CONTRACTS),
    CF(sh_config, os_kind, CF_CONTRACTS),
    CF(sh_config, os_value, CF_CONTRACTS),
    CF(sh_config, ann_stage, CF_CONTRACTS),
    CF(sh_config, rules, CF_PLAY_RULES),
    CF(sh_config, has_bonuses, CF_CONTRACTS),
    CF(sh_config, solo, CF_CONTRACTS),
    {NULL, 0, 0}};

static const cf_field SS_CONFIG_FIELDS[] = {
    CF(ss_config, win_threshold, CF_INT),
    CF(ss_config, diff_nearest_5, CF_INT),
    CF(ss_config, klop_nearest_5, CF_INT),
    CF(ss_config, solo_brez_difference, CF_INT),
    CF(ss_config, silent_ultimo_failure_counts, CF_INT),
    CF(ss_config, count_remainder, CF_INT),
    CF(ss_config, mondfang_when_valat, CF_INT),
    CF(ss_config, mondfang_value, CF_INT),
    CF(ss_config, radelci, CF_INT),
    CF(ss_config, radelci_from_silent_valat, CF_INT),
    CF(ss_config, klop_kontra_full_and_empty_doubled, CF_INT),
    CF(ss_config, value, CF_CONTRACTS),
    CF(ss_config, radelc, CF_CONTRACTS),
    {NULL, 0, 0}};

/* a contract's play rules in the config (protected_ is the hand's: set by slohand.h) */
static const cf_field TK_RULES_FIELDS[] = {
    CF(tk_rules, negative, CF_INT),
    CF(tk_rules, pagat_restricted, CF_INT),
    CF(tk_rules, pagat_last_tarok, CF_INT),
    CF(tk_rules, by_rank, CF_INT),
    CF(tk_rules, emperor_always, CF_INT),
    CF(tk_rules, colour_valat, CF_INT),
    CF(tk_rules, protect_either, CF_INT),
    {NULL, 0, 0}};

static int cf_int(PyObject *o, int *out, const char *who, const char *name) {
    long v = PyLong_AsLong(o);
    if (v == -1 && PyErr_Occurred()) {
        PyErr_Format(PyExc_TypeError, "%s: field %s: an int expected", who, name);
        return -1;
    }
    if (v < INT_MIN || v > INT_MAX) {
        PyErr_Format(PyExc_ValueError, "%s: field %s out of range", who, name);
        return -1;
    }
    *out = (int)v;
    return 0;
}

/* Read the dict `d` into the struct at `base` by the field list `spec`: every field present,
 * no other key. `*nc`: the number of contracts (-1 until a per-contract field sets it; every
 * per-contract field must have that many). 0, or -1 with an exception set. */
static int cf_read(PyObject *d, const cf_field *spec, char *base, Py_ssize_t *nc,
                   const char *who) {
    if (!PyDict_Check(d)) {
        PyErr_Format(PyExc_TypeError, "%s: a dict of fields by name expected", who);
        return -1;
    }
    Py_ssize_t nfields = 0;
    for (const cf_field *f = spec; f->name; f++, nfields++) {
        PyObject *v = PyDict_GetItemString(d, f->name); /* borrowed */
        if (!v) {
            PyErr_Format(PyExc_KeyError, "%s: field %s missing", who, f->name);
            return -1;
        }
        if (f->kind == CF_INT) {
            if (cf_int(v, (int *)(base + f->offset), who, f->name) < 0) return -1;
            continue;
        }
        PyObject *seq = PySequence_Fast(v, "a sequence per contract expected");
        if (!seq) return -1;
        Py_ssize_t m = PySequence_Fast_GET_SIZE(seq);
        if (*nc < 0) *nc = m;
        if (m != *nc || m > SH_MAX_CONTRACTS) {
            Py_DECREF(seq);
            PyErr_Format(PyExc_ValueError, "%s: field %s has %zd contracts, not %zd (at most %d)",
                         who, f->name, m, *nc, SH_MAX_CONTRACTS);
            return -1;
        }
        for (Py_ssize_t i = 0; i < m; i++) {
            PyObject *item = PySequence_Fast_GET_ITEM(seq, i);
            int rc;
            if (f->kind == CF_CONTRACTS) {
                rc = cf_int(item, (int *)(base + f->offset) + i, who, f->name);
            } else {
                tk_rules *r = (tk_rules *)(base + f->offset) + i;
                memset(r, 0, sizeof *r);
                r->protected_[0] = r->protected_[1] = -1;
                Py_ssize_t none = -1;
                rc = cf_read(item, TK_RULES_FIELDS, (char *)r, &none, "play rules");
            }
            if (rc < 0) {
                Py_DECREF(seq);
                return -1;
            }
        }
        Py_DECREF(seq);
    }
    if (PyDict_GET_SIZE(d) != nfields) { /* name the key no field has */
        PyObject *key, *value;
        Py_ssize_t pos = 0;
        while (PyDict_Next(d, &pos, &key, &value)) {
            const char *k = PyUnicode_Check(key) ? PyUnicode_AsUTF8(key) : NULL;
            if (!k) {
                PyErr_Clear();
                PyErr_Format(PyExc_KeyError, "%s: a field name must be a str", who);
                return -1;
            }
            const cf_field *f = spec;
            while (f->name && strcmp(f->name, k) != 0) f++;
            if (!f->name) {
                PyErr_Format(PyExc_KeyError, "%s: unknown field %s", who, k);
                return -1;
            }
        }
    }
    return 0;
}

static PyObject *cf_names(const cf_field *spec) {
    Py_ssize_t n = 0;
    while (spec[n].name) n++;
    PyObject *out = PyTuple_New(n);
    if (!out) return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *pair = Py_BuildValue("(ss)", spec[i].name, CF_KIND[spec[i].kind]);
        if (!pair) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, i, pair);
    }
    return out;
}

/* slovenian_config_fields() -> {"config": ((name, kind), ...), "score_config": ...,
 * "play_rules": ...}: the fields slovenian_config and slovenian_score_config read, by name,
 * with their kind ("int", "contracts": an int per contract, "play_rules": a dict of the
 * play_rules fields per contract). */
static PyObject *py_slovenian_config_fields(PyObject *self, PyObject *noargs) {
    PyObject *a = cf_names(SH_CONFIG_FIELDS), *b = cf_names(SS_CONFIG_FIELDS),
             *c = cf_names(TK_RULES_FIELDS);
    PyObject *out = (a && b && c)
                        ? Py_BuildValue("{sOsOsO}", "config", a, "score_config", b, "play_rules", c)
                        : NULL;
    Py_XDECREF(a);
    Py_XDECREF(b);
    Py_XDECREF(c);
    return out;
}

/* slovenian_config(fields) -> bytes: the sh_config of slovenian_hand, from a dict of the
 * fields SH_CONFIG_FIELDS names (fast/codec.py). */
static PyObject *py_slovenian_config(PyObject *self, PyObject *fields) {
    sh_config c;
    memset(&c, 0, sizeof c);
    Py_ssize_t nc = -1;
    if (cf_read(fields, SH_CONFIG_FIELDS, (char *)&c, &nc, "slovenian_config") < 0) return NULL;
    c.ncontracts = (int)(nc < 0 ? 0 : nc);
    c.mandatory = -1;
    for (int i = 0; i < c.ncontracts; i++) {
        if (c.forehand_holds[i] && c.mandatory < 0) c.mandatory = i;
        if (c.talon[i] < 0 || c.talon[i] > 3 || c.ann_stage[i] < -1 || c.ann_stage[i] > 1) {
            PyErr_SetString(PyExc_ValueError,
                            "slovenian_config: talon 0..3 and ann_stage -1..1 per contract");
            return NULL;
        }
    }
    if (c.mandatory < 0) {
        PyErr_SetString(PyExc_ValueError, "slovenian_config: no contract forehand holds");
        return NULL;
    }
    return PyBytes_FromStringAndSize((const char *)&c, sizeof c);
}

/* slovenian_score_config(fields) -> bytes: the ss_config of sloscore.h, from a dict of the
 * fields SS_CONFIG_FIELDS names (fast/codec.py). */
static PyObject *py_slovenian_score_config(PyObject *self, PyObject *fields) {
    ss_config c;
    memset(&c, 0, sizeof c);
    Py_ssize_t nc = -1;
    if (cf_read(fields, SS_CONFIG_FIELDS, (char *)&c, &nc, "slovenian_score_config") < 0)
        return NULL;
    return PyBytes_FromStringAndSize((const char *)&c, sizeof c);
}


/* ------------------------------------------------------------------ the reader's actions */

/* 1 when x is a card token of the pack as written (an exact str in the frozenset), 0 when
 * not, -1 on an error */
static int in_pack(PyObject *pack, PyObject *x) {
    if (!PyUnicode_CheckExact(x)) return 0;
    return PySet_Contains(pack, x);
}

/* 1 when a[key] is absent, null, or a list of card tokens of the pack; 0 when not; -1 error */
static int cards_ok(PyObject *a, PyObject *key, PyObject *pack) {
    PyObject *v = PyDict_GetItemWithError(a, key);
    if (!v) return PyErr_Occurred() ? -1 : 1;
    if (v == Py_None) return 1;
    if (!PyList_CheckExact(v)) return 0;
    for (Py_ssize_t k = 0; k < PyList_GET_SIZE(v); k++) {
        int r = in_pack(pack, PyList_GET_ITEM(v, k));
        if (r <= 0) return r;
    }
    return 1;
}

/* the (key, value) pairs of a, in order, when every value is an exact int or str (a new
 * reference); Py_None (a new reference) when some value is not; NULL on an error */
static PyObject *scalar_items(PyObject *a) {
    Py_ssize_t n = PyDict_GET_SIZE(a), pos = 0, k = 0;
    PyObject *key, *value;
    PyObject *items = PyTuple_New(n);
    if (!items) return NULL;
    while (PyDict_Next(a, &pos, &key, &value)) {
        if (!PyLong_CheckExact(value) && !PyUnicode_CheckExact(value)) {
            Py_DECREF(items);
            Py_RETURN_NONE;
        }
        PyObject *pair = PyTuple_Pack(2, key, value);
        if (!pair) {
            Py_DECREF(items);
            return NULL;
        }
        PyTuple_SET_ITEM(items, k++, pair);
    }
    return items;
}

/* prepare_actions(actions, pack, plays, shared, scalar) -> None or (list, [places]): the C
 * twin of tarock_logs.log.validate.prepare_actions_py (its docstring is the definition) */
static PyObject *py_prepare_actions(PyObject *self, PyObject *args) {
    PyObject *actions, *pack, *plays, *shared, *scalar;
    if (!PyArg_ParseTuple(args, "O!O!O!O!O!", &PyList_Type, &actions, &PyFrozenSet_Type, &pack,
                          &PyDict_Type, &plays, &PyDict_Type, &shared, &PyFrozenSet_Type,
                          &scalar))
        return NULL;
    Py_ssize_t n = PyList_GET_SIZE(actions);
    PyObject *out = PyList_New(n);
    PyObject *todo = PyList_New(0);
    if (!out || !todo) goto fail;
    for (Py_ssize_t j = 0; j < n; j++) {
        PyObject *a = PyList_GET_ITEM(actions, j);
        if (!PyDict_CheckExact(a)) goto decline;
        PyObject *c = PyDict_GetItemWithError(a, s_card);
        if (!c && PyErr_Occurred()) goto fail;
        if (c == Py_None) c = NULL;
        if (c) {
            int r = in_pack(pack, c);
            if (r < 0) goto fail;
            if (!r) goto decline;
        }
        int ok = cards_ok(a, s_cards, pack);
        if (ok < 0) goto fail;
        if (!ok) goto decline;
        ok = cards_ok(a, s_shown, pack);
        if (ok < 0) goto fail;
        if (!ok) goto decline;
        PyObject *t = PyDict_GetItemWithError(a, s_type);
        if (!t && PyErr_Occurred()) goto fail;
        int is_str = t && PyUnicode_CheckExact(t);
        int plain_play = c && PyDict_GET_SIZE(a) == 3 && is_str &&
                      PyUnicode_CompareWithASCIIString(t, "play") == 0;
        PyObject *hit = NULL; /* borrowed */
        if (plain_play) {
            PyObject *seat = PyDict_GetItemWithError(a, s_seat);
            if (!seat && PyErr_Occurred()) goto fail;
            if (seat && PyLong_CheckExact(seat)) {
                PyObject *key = PyTuple_Pack(2, seat, c);
                if (!key) goto fail;
                hit = PyDict_GetItemWithError(plays, key);
                Py_DECREF(key);
                if (!hit && PyErr_Occurred()) goto fail;
            }
        } else if (is_str) {
            int r = PySet_Contains(scalar, t);
            if (r < 0) goto fail;
            int noted = r ? PyDict_Contains(a, s_note) : 0;
            if (noted < 0) goto fail;
            if (r && !noted) {
                PyObject *items = scalar_items(a);
                if (!items) goto fail;
                if (items != Py_None) {
                    hit = PyDict_GetItemWithError(shared, items);
                    if (!hit && PyErr_Occurred()) {
                        Py_DECREF(items);
                        goto fail;
                    }
                }
                Py_DECREF(items);
            }
        }
        if (!hit) {
            PyObject *place = PyLong_FromSsize_t(j);
            if (!place) goto fail;
            int r = PyList_Append(todo, place);
            Py_DECREF(place);
            if (r < 0) goto fail;
            hit = a;
        }
        Py_INCREF(hit);
        PyList_SET_ITEM(out, j, hit);
    }
    PyObject *res = PyTuple_Pack(2, out, todo);
    Py_DECREF(out);
    Py_DECREF(todo);
    return res;
decline:
    Py_DECREF(out);
    Py_DECREF(todo);
    Py_RETURN_NONE;
fail:
    Py_XDECREF(out);
    Py_XDECREF(todo);
    return NULL;
}


/* ------------------------------------------------------------------ the ingest lane */

/* lane_envelope(line) -> None or (start, stop): the bytes of the session record's "hands"
 * array, when the line is one lane.h reads (ln_envelope: plain JSON outside the hands, no key
 * twice, no escape, no integer of 19 digits; the hands are lane_hands' to read); None: the
 * careful reader reads the line. */
static PyObject *py_lane_envelope(PyObject *self, PyObject *args) {
    Py_buffer buf;
    if (!PyArg_ParseTuple(args, "y*", &buf)) return NULL;
    int hs = 0, he = 0, rc = -1;
    if (buf.len < (1 << 30)) rc = ln_envelope((const unsigned char *)buf.buf, (int)buf.len, &hs, &he);
    PyBuffer_Release(&buf);
    if (rc < 0) Py_RETURN_NONE;
    return Py_BuildValue("(ii)", hs, he);
}

/* a string of the line (ASCII) */
static PyObject *ln_pystr(const unsigned char *s, ln_span sp) {
    return PyUnicode_DecodeASCII((const char *)s + sp.off, sp.len, NULL);
}

/* a hand's notes (ln_text: UTF-8 text, checked) */
static PyObject *ln_pytext(const unsigned char *s, ln_span sp) {
    return PyUnicode_DecodeUTF8((const char *)s + sp.off, sp.len, NULL);
}

/* the action_details row of action `i` (process.SCHEMAS["action_details"]: hand_id, idx, cards,
 * shown, contract, talon_group, bonus, side, target, level, claim, meld, raises, params,
 * note) with the values its model holds (defaults included), or Py_None when it has no field
 * beyond seat, type and card (a pass, ležim, a king call, a card) */
static PyObject *ln_details(const unsigned char *s, const ln_action *a, int i, PyObject *hand_id,
                            PyObject *tokens) {
    PyObject *v[15];
    for (int j = 0; j < 15; j++) v[j] = Py_None;
    PyObject *owned[3] = {NULL, NULL, NULL};
    int no = 0;
    switch (a->type) {
    case SH_BID:
        v[4] = owned[no++] = ln_pystr(s, a->str);
        break;
    case SH_TALON:
        v[5] = owned[no++] = PyLong_FromLong(a->group);
        break;
    case SH_DISCARD: {
        PyObject *cards = PyList_New(a->ncards), *shown = PyList_New(a->nshown);
        owned[no++] = cards;
        owned[no++] = shown;
        if (!cards || !shown) goto fail;
        for (int j = 0; j < a->ncards; j++) {
            PyObject *t = PyTuple_GET_ITEM(tokens, a->cards[j]);
            Py_INCREF(t);
            PyList_SET_ITEM(cards, j, t);
        }
        for (int j = 0; j < a->nshown; j++) {
            PyObject *t = PyTuple_GET_ITEM(tokens, a->shown[j]);
            Py_INCREF(t);
            PyList_SET_ITEM(shown, j, t);
        }
        v[2] = cards;
        v[3] = shown;
        break;
    }
    case SH_ANNOUNCE:
        v[6] = owned[no++] = ln_pystr(s, a->str);
        break;
    case SH_KONTRA:
        if (a->str.len) {
            v[8] = owned[no++] = ln_pystr(s, a->str);
        } else {
            v[8] = sh_names[SH_GAME];
        }
        v[9] = owned[no++] = PyLong_FromLong(a->level);
        break;
    default:
        Py_RETURN_NONE;
    }
    for (int j = 0; j < no; j++)
        if (!owned[j]) goto fail;
    v[0] = hand_id;
    PyObject *idx = PyLong_FromLong(i);
    if (!idx) goto fail;
    v[1] = idx;
    PyObject *row = PyTuple_New(15);
    if (!row) {
        Py_DECREF(idx);
        goto fail;
    }
    for (int j = 0; j < 15; j++) {
        if (j != 1) Py_INCREF(v[j]); /* (idx is handed over as it is) */
        PyTuple_SET_ITEM(row, j, v[j]);
    }
    for (int j = 0; j < no; j++) Py_DECREF(owned[j]);
    return row;
fail:
    for (int j = 0; j < no; j++) Py_XDECREF(owned[j]);
    return NULL;
}

/* the index of a contract name in `contracts` (a tuple of str), or -1 */
static int ln_contract(const unsigned char *s, ln_span sp, PyObject *contracts) {
    Py_ssize_t n = PyTuple_GET_SIZE(contracts);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *c = PyTuple_GET_ITEM(contracts, i);
        Py_ssize_t len;
        const char *u = PyUnicode_AsUTF8AndSize(c, &len);
        if (u && len == sp.len && memcmp(u, s + sp.off, len) == 0) return (int)i;
        if (!u) PyErr_Clear();
    }
    return -1;
}

/* the SH_ bonus of a name of the line, or -1 */
static int ln_bonus(const unsigned char *s, ln_span sp) {
    for (int b = 0; b < SH_NBONUS; b++) {
        int k = (int)strlen(SH_BONUS_NAMES[b]);
        if (k == sp.len && memcmp(SH_BONUS_NAMES[b], s + sp.off, k) == 0) return b;
    }
    return -1;
}

#define LN_CANON_CAP (1 << 16)
/* the most hands of one session the lane reads (a longer one takes the careful path): its
 * buffers grow to it as sessions need, ≈ 1.5 KB per hand */
#define LN_MAX_HANDS 16384
#define LN_MAX_ROWS 48 /* score_items rows of one hand */

/* The columns of a session's actions and tricks, as the Arrow buffers of the store's tables
 * (process.py, _LaneParts): per hand its count of actions and of tricks; per action its
 * index in the hand (u16), seat (u8), type (u8: slohand.h's kind) and card (u8: the card id,
 * 255 for none); per trick its number (u16, from 1), leader and winner (u8), card points in
 * thirds (i32) and count of cards (u8), then per card played its seat and card id (u8).
 * Module-level buffers for `cap` hands (ln_cols_reserve), filled by one lane_hands call at a
 * time (under the GIL) and kept for the next. */
static struct {
    int cap;
    int nh, na, nt, nc;
    unsigned char *a_count, *t_count;
    uint16_t *a_idx;
    unsigned char *a_seat, *a_type, *a_card;
    uint16_t *t_no;
    unsigned char *t_leader, *t_winner;
    int32_t *t_points;
    unsigned char *t_n, *t_seat, *t_card;
    /* hand_scores: per hand a row per seat: seat, role (LN_ROLE_), recorded and recomputed
     * totals (i32), radelci before and after (i16) */
    int nhs;
    unsigned char *h_seat, *h_role;
    int32_t *h_rec, *h_rcp;
    int16_t *h_before, *h_after;
    /* score_items: per hand its count of rows; per row the item (LN_ITEM_), the seat, the
     * recorded and the recomputed value (i32), each with a byte saying it is there */
    int nsi;
    unsigned char *s_count, *s_item, *s_seat, *s_has_seat;
    int32_t *s_rec, *s_rcp;
    unsigned char *s_has_rec, *s_has_rcp;
} ln_cols;

/* ln_cols' buffers made room for `hands` hands (at most LN_MAX_HANDS); -1 when memory ran out
 * (the buffers already grown stay valid: `cap` moves only when all of them have) */
static int ln_cols_reserve(int hands) {
    if (hands <= ln_cols.cap) return 0;
    int cap = ln_cols.cap ? ln_cols.cap : 64;
    while (cap < hands) cap *= 2;
    if (cap > LN_MAX_HANDS) cap = LN_MAX_HANDS;
#define LN_GROW(f, per)                                                                   \
    do {                                                                                  \
        void *q = PyMem_Realloc(ln_cols.f, (size_t)cap * (per) * sizeof *ln_cols.f);      \
        if (!q) return -1;                                                                \
        ln_cols.f = q;                                                                    \
    } while (0)
    LN_GROW(a_count, 1);
    LN_GROW(t_count, 1);
    LN_GROW(a_idx, SH_MAX_ACTIONS);
    LN_GROW(a_seat, SH_MAX_ACTIONS);
    LN_GROW(a_type, SH_MAX_ACTIONS);
    LN_GROW(a_card, SH_MAX_ACTIONS);
    LN_GROW(t_no, TK_MAX_TRICKS);
    LN_GROW(t_leader, TK_MAX_TRICKS);
    LN_GROW(t_winner, TK_MAX_TRICKS);
    LN_GROW(t_points, TK_MAX_TRICKS);
    LN_GROW(t_n, TK_MAX_TRICKS);
    LN_GROW(t_seat, TK_MAX_TRICKS * 4);
    LN_GROW(t_card, TK_MAX_TRICKS * 4);
    LN_GROW(h_seat, 4);
    LN_GROW(h_role, 4);
    LN_GROW(h_rec, 4);
    LN_GROW(h_rcp, 4);
    LN_GROW(h_before, 4);
    LN_GROW(h_after, 4);
    LN_GROW(s_count, 1);
    LN_GROW(s_item, LN_MAX_ROWS);
    LN_GROW(s_seat, LN_MAX_ROWS);
    LN_GROW(s_has_seat, LN_MAX_ROWS);
    LN_GROW(s_rec, LN_MAX_ROWS);
    LN_GROW(s_rcp, LN_MAX_ROWS);
    LN_GROW(s_has_rec, LN_MAX_ROWS);
    LN_GROW(s_has_rcp, LN_MAX_ROWS);
#undef LN_GROW
    ln_cols.cap = cap;
    return 0;
}

/* the names a score item may have in a lane hand: the engine's (sloscore.h's SI_ codes),
 * then the two it writes only for irregularities, which a score sheet may still write as 0
 * (SlovenianEngine.score_items) */
#define LN_NITEMS (SI_NITEMS + 2)
static const char *const LN_ITEM_NAMES[LN_NITEMS] = {
    "contract", "difference", "trula", "kralji", "pagat_ultimo", "kralj_ultimo", "valat",
    "barvni_valat", "radelc", "mondfang", "klop", "renons", "penalty"};
/* each name's place in alphabetical order (the score_items rows are sorted by item, then seat:
 * process._add_score_items) */
static int ln_item_rank[LN_NITEMS];

/* the roles of hand_scores (process._role) a lane hand has */
enum { LN_ROLE_DECLARER = 0, LN_ROLE_PARTNER, LN_ROLE_DEFENDER, LN_ROLE_KLOP,
       LN_ROLE_UNKNOWN };

/* the LN_ITEM_ code of a name of the line, or -1 */
static int ln_item_code(const unsigned char *s, ln_span sp) {
    for (int j = 0; j < LN_NITEMS; j++) {
        int k = (int)strlen(LN_ITEM_NAMES[j]);
        if (k == sp.len && memcmp(LN_ITEM_NAMES[j], s + sp.off, k) == 0) return j;
    }
    return -1;
}

/* one sheet's lines expanded to (item, seat) keys and summed (process._items_by_key): a line
 * of the declarer's side (seat -1) counts for each member of `side` (none: it stays -1) */
typedef struct {
    int item, seat, rec, rcp, has_rec, has_rcp;
} ln_item_key;

static int ln_add_key(ln_item_key *keys, int *nk, int item, int seat, int value, int recorded) {
    for (int j = 0; j < *nk; j++)
        if (keys[j].item == item && keys[j].seat == seat) {
            if (recorded) {
                keys[j].rec += value;
                keys[j].has_rec = 1;
            } else {
                keys[j].rcp += value;
                keys[j].has_rcp = 1;
            }
            return 0;
        }
    if (*nk >= LN_MAX_ROWS) return -1;
    ln_item_key *k = &keys[(*nk)++];
    k->item = item;
    k->seat = seat;
    k->rec = recorded ? value : 0;
    k->rcp = recorded ? 0 : value;
    k->has_rec = recorded;
    k->has_rcp = !recorded;
    return 0;
}

/* the score items' names (sloscore.h's SI_ codes), interned at import */
static PyObject *si_names[SI_NITEMS];
static const char *const SI_NAMES[SI_NITEMS] = {"contract", "difference", "trula", "kralji",
                                                "pagat_ultimo", "kralj_ultimo", "valat",
                                                "barvni_valat", "radelc", "mondfang", "klop"};

/* (contract, declarer, partner, won, items ((item, seat, value), ...; seat None: the
 * declarer's side), totals, radelci after) of a scored hand */
static PyObject *ln_score_py(const sh_config *c, const sh_result *r, const ss_score *sco,
                             PyObject *contracts) {
    const int n = c->n;
    PyObject *items = PyTuple_New(sco->nitems), *totals = PyTuple_New(n), *rad = PyTuple_New(n);
    if (!items || !totals || !rad) goto fail;
    for (int j = 0; j < sco->nitems; j++) {
        const ss_item *it = &sco->items[j];
        PyObject *e = it->seat >= 0 ? Py_BuildValue("(Oii)", si_names[it->item], it->seat, it->value)
                                    : Py_BuildValue("(OOi)", si_names[it->item], Py_None, it->value);
        if (!e) goto fail;
        PyTuple_SET_ITEM(items, j, e);
    }
    for (int t = 0; t < n; t++) {
        PyObject *a = PyLong_FromLong(sco->totals[t]), *b = PyLong_FromLong(sco->radelci[t]);
        if (!a || !b) {
            Py_XDECREF(a);
            Py_XDECREF(b);
            goto fail;
        }
        PyTuple_SET_ITEM(totals, t, a);
        PyTuple_SET_ITEM(rad, t, b);
    }
    PyObject *contract = PyTuple_GET_ITEM(contracts, r->contract);
    PyObject *decl = r->declarer >= 0 ? PyLong_FromLong(r->declarer) : (Py_INCREF(Py_None), Py_None);
    PyObject *part = r->partner >= 0 ? PyLong_FromLong(r->partner) : (Py_INCREF(Py_None), Py_None);
    PyObject *won = sco->won < 0 ? Py_None : sco->won ? Py_True : Py_False;
    if (!decl || !part) {
        Py_XDECREF(decl);
        Py_XDECREF(part);
        goto fail;
    }
    return Py_BuildValue("(ONNONNN)", contract, decl, part, won, items, totals, rad);
fail:
    Py_XDECREF(items);
    Py_XDECREF(totals);
    Py_XDECREF(rad);
    return NULL;
}

/* slovenian_score(config, score_config, dealer, hands, talon, actions, kinds, contracts, cid,
 * names, radelci) -> None or (contract, declarer, partner, won, items ((item, seat, value),
 * ...; seat None: the declarer's side), totals, radelci after): one hand played by slohand.h
 * and scored by sloscore.h (the ingest lane's score of a hand), with `radelci` the radelci
 * before it and `names` the contract codes by index. For the differential tests of the
 * native scoring against the reference's (tests/rules/slovenian/test_native_hand.py). */
static PyObject *py_slovenian_score(PyObject *self, PyObject *args) {
    PyObject *config_o, *score_o, *hands_o, *talon_o, *actions_o, *kinds, *contracts, *cid;
    PyObject *names, *rad_o;
    int dealer;
    if (!PyArg_ParseTuple(args, "O!O!iOOOO!O!O!O!O", &PyBytes_Type, &config_o, &PyBytes_Type,
                          &score_o, &dealer, &hands_o, &talon_o, &actions_o, &PyDict_Type, &kinds,
                          &PyDict_Type, &contracts, &PyDict_Type, &cid, &PyTuple_Type, &names,
                          &rad_o))
        return NULL;
    if (PyBytes_GET_SIZE(score_o) != (Py_ssize_t)sizeof(ss_config)) {
        PyErr_SetString(PyExc_ValueError, "slovenian_score: not a slovenian_score_config");
        return NULL;
    }
    ss_config sc;
    memcpy(&sc, PyBytes_AS_STRING(score_o), sizeof sc);
    sh_config c;
    int ok = sh_read_config(config_o, &c, "slovenian_score");
    if (ok < 0) return NULL;
    if (!ok || c.openspiel_scoring) Py_RETURN_NONE;
    int rad[4] = {0};
    if (read_ints(rad_o, rad, 4, "radelci") != c.n) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "radelci: one per seat");
        return NULL;
    }
    for (int s = 0; s < c.n; s++)
        if (rad[s] < 0) rad[s] = 0;
    sh_result r;
    tk_set dealt[TK_MAX_SEATS];
    int talon[7], nt = 0;
    ok = sh_run(&c, dealer, hands_o, talon_o, actions_o, kinds, contracts, cid, &r, dealt, talon,
                &nt);
    if (ok < 0) return NULL;
    if (!ok) Py_RETURN_NONE;
    if (r.contract < 0 || r.contract >= PyTuple_GET_SIZE(names)) Py_RETURN_NONE;
    int self_call = r.declarer >= 0 && r.called_king >= 0 &&
                    (dealt[r.declarer] & TK_BIT(r.called_king)) != 0;
    ss_score sco;
    if (ss_score_hand(&c, &sc, &r, dealer, talon, nt, self_call, rad, &sco) < 0) Py_RETURN_NONE;
    return ln_score_py(&c, &r, &sco, names);
}

/* One hand through the lane: the checks that need the table (seats, sizes, the deal), the
 * canonical JSON and its hash, the replay (slohand.h); its actions and tricks appended to
 * ln_cols; the Python values of the rest. NULL with an exception set, Py_None to decline,
 * else the hand's tuple (see lane_hands). */
static PyObject *ln_hand_py(const unsigned char *s, const ln_hand *h, const sh_config *c,
                            const ss_config *sc, int *rad, PyObject *contracts, PyObject *tokens,
                            const char *const *tok, const int *toklen, const char *prefix,
                            int nprefix, const char *suffix, int nsuffix, PyObject *sha256,
                            char *buf) {
    const int n = c->n;
    /* the structural checks of the reader that need the table (validate._Validator.structure,
     * deal_checks): every seat at the table, a result per seat; the deal itself is judged by
     * the replay's deal check (the whole pack, the sizes of the table) */
    if (h->nseats != n || h->dealer >= n || h->nscores != n || (h->nrad >= 0 && h->nrad != n))
        Py_RETURN_NONE;
    for (int i = 0; i < h->nacts; i++)
        if (h->acts[i].seat >= n) Py_RETURN_NONE;
    for (int j = 0; j < h->nitems; j++)
        if (h->items[j].seat >= n) Py_RETURN_NONE;
    /* the replay */
    sh_action acts[SH_MAX_ACTIONS];
    for (int i = 0; i < h->nacts; i++) {
        const ln_action *a = &h->acts[i];
        sh_action *x = &acts[i];
        x->type = a->type;
        x->seat = a->seat;
        x->arg = -1;
        x->level = a->level;
        x->ncards = 0;
        x->shown = 0;
        switch (a->type) {
        case SH_BID: x->arg = ln_contract(s, a->str, contracts); break;
        case SH_CALL: case SH_PLAY: x->arg = a->card; break;
        case SH_TALON: x->arg = a->group; break;
        case SH_ANNOUNCE: x->arg = ln_bonus(s, a->str); break;
        case SH_KONTRA:
            if (!a->str.len) {
                x->arg = SH_GAME;
            } else {
                int b = ln_bonus(s, a->str);
                x->arg = ln_is(&(ln_parser){s, 0, 0}, a->str, "game") ? SH_GAME : b < 0 ? -1 : 1 + b;
            }
            break;
        case SH_DISCARD:
            x->ncards = a->ncards;
            for (int j = 0; j < a->ncards; j++) x->cards[j] = a->cards[j];
            for (int j = 0; j < a->nshown; j++) x->shown |= TK_BIT(a->shown[j]);
            break;
        default: break;
        }
    }
    tk_set hands[TK_MAX_SEATS] = {0}, talon_set = 0;
    int hand_len[4] = {0};
    for (int t = 0; t < n; t++) {
        hands[t] = h->hand[t];
        hand_len[t] = h->hand_len[t];
    }
    for (int j = 0; j < h->ntalon; j++) talon_set |= TK_BIT(h->talon[j]);
    /* (from here on, a hand the engine declines is the reference's alone: Py_Ellipsis) */
    if (!sh_deal_clean(c, hand_len, hands, talon_set, h->ntalon)) goto engine_declines;
    sh_result r;
    if (sh_play_hand(c, h->dealer, hands, h->talon, acts, h->nacts, &r) < 0) goto engine_declines;
    if (r.ntricks < 1) goto engine_declines;
    if (ln_cols.nh >= LN_MAX_HANDS) Py_RETURN_NONE;
    if (ln_cols_reserve(ln_cols.nh + 1) < 0) return PyErr_NoMemory();
    int self_call = r.declarer >= 0 && r.called_king >= 0 &&
                    (h->hand[r.declarer] & TK_BIT(r.called_king)) != 0;
    /* the score: OpenSpiel's returns, or the reference's items (sloscore.h), with the radelci
     * carried from the session's earlier hands */
    ss_score sco;
    if (c->openspiel_scoring) {
        sco.nitems = 0;
        int klop = c->alone[r.contract];
        for (int i = 0; i < n; i++) {
            int t = (h->dealer + 1 + i) % n; /* the active seats from P1 */
            sco.items[sco.nitems++] = (ss_item){klop ? SI_KLOP : SI_CONTRACT, t, r.returns[t]};
        }
        for (int t = 0; t < 4; t++) {
            sco.totals[t] = t < n ? r.returns[t] : 0;
            sco.radelci[t] = 0;
        }
        sco.won = klop ? -1 : r.returns[r.declarer] > 0;
    } else {
        int talon_ids[6];
        for (int j = 0; j < h->ntalon; j++) talon_ids[j] = h->talon[j];
        if (ss_score_hand(c, sc, &r, h->dealer, talon_ids, h->ntalon, self_call, rad, &sco) < 0)
            goto engine_declines;
    }
    /* the score_items rows (process._add_score_items): both sheets' lines by (item, seat),
     * the declarer side's lines counted for its members (a self-called partner is none) */
    ln_item_key keys[LN_MAX_ROWS];
    int nk = 0;
    int side[2], nside = 0;
    if (r.declarer >= 0) {
        side[nside++] = r.declarer;
        if (r.partner >= 0 && r.partner != r.declarer) side[nside++] = r.partner;
    }
    for (int j = 0; j < h->nitems; j++) {
        int code = ln_item_code(s, h->items[j].item);
        if (code < 0) goto engine_declines; /* a name the engine does not know */
        int seat = h->items[j].seat;
        long long v = h->items[j].value;
        if (seat < 0 && nside) {
            for (int t = 0; t < nside; t++)
                if (ln_add_key(keys, &nk, code, side[t], (int)v, 1) < 0) goto engine_declines;
        } else if (ln_add_key(keys, &nk, code, seat, (int)v, 1) < 0) {
            goto engine_declines;
        }
    }
    for (int j = 0; j < sco.nitems; j++) {
        const ss_item *it = &sco.items[j];
        if (it->seat < 0 && nside) {
            for (int t = 0; t < nside; t++)
                if (ln_add_key(keys, &nk, it->item, side[t], it->value, 0) < 0) goto engine_declines;
        } else if (ln_add_key(keys, &nk, it->item, it->seat, it->value, 0) < 0) {
            goto engine_declines;
        }
    }
    /* in item order (alphabetical), then seat (none first) */
    for (int a = 1; a < nk; a++) {
        ln_item_key x = keys[a];
        int b = a - 1;
        while (b >= 0 && (ln_item_rank[keys[b].item] > ln_item_rank[x.item] ||
                          (keys[b].item == x.item && keys[b].seat > x.seat))) {
            keys[b + 1] = keys[b];
            b--;
        }
        keys[b + 1] = x;
    }
    /* the canonical JSON, between the session's prefix and suffix, and its hash */
    ln_out o = {buf, 0, LN_CANON_CAP};
    ln_span deal, result;
    ln_parser lp = {s, 0, 0};
    if (ln_put(&o, prefix, nprefix) < 0 ||
        ln_canonical(&o, &lp, h, tok, toklen, &deal, &result) < 0 ||
        ln_put(&o, suffix, nsuffix) < 0)
        goto engine_declines;
    PyObject *doc = PyBytes_FromStringAndSize(buf, o.n);
    if (!doc) return NULL;
    PyObject *hasher = PyObject_CallOneArg(sha256, doc);
    Py_DECREF(doc);
    if (!hasher) return NULL;
    PyObject *hand_id = PyObject_CallMethod(hasher, "hexdigest", NULL);
    Py_DECREF(hasher);
    if (!hand_id) return NULL;
    PyObject *out = NULL, *score = NULL, *deal_s = NULL, *result_s = NULL, *notes = NULL;
    PyObject *scores = NULL, *items = NULL, *radt = NULL, *details = NULL;
    deal_s = PyUnicode_DecodeASCII(buf + deal.off, deal.len, NULL);
    result_s = PyUnicode_DecodeASCII(buf + result.off, result.len, NULL);
    notes = h->has_notes ? ln_pytext(s, h->notes) : (Py_INCREF(Py_None), Py_None);
    score = ln_score_py(c, &r, &sco, contracts);
    scores = PyTuple_New(n);
    items = PyTuple_New(h->nitems);
    radt = h->nrad >= 0 ? PyTuple_New(h->nrad) : (Py_INCREF(Py_None), Py_None);
    details = PyList_New(0);
    if (!deal_s || !result_s || !notes || !score || !scores || !items || !radt || !details)
        goto done;
    for (int t = 0; t < n; t++) {
        PyObject *v = PyLong_FromLongLong(h->scores[t]);
        if (!v) goto done;
        PyTuple_SET_ITEM(scores, t, v);
    }
    for (int j = 0; j < h->nitems; j++) {
        PyObject *name = ln_pystr(s, h->items[j].item);
        if (!name) goto done;
        PyObject *e = h->items[j].seat >= 0
                          ? Py_BuildValue("(NiL)", name, h->items[j].seat, h->items[j].value)
                          : Py_BuildValue("(NOL)", name, Py_None, h->items[j].value);
        if (!e) goto done;
        PyTuple_SET_ITEM(items, j, e);
    }
    for (int t = 0; t < h->nrad; t++) {
        PyObject *v = PyLong_FromLongLong(h->rad[t]);
        if (!v) goto done;
        PyTuple_SET_ITEM(radt, t, v);
    }
    for (int i = 0; i < h->nacts; i++) {
        PyObject *row = ln_details(s, &h->acts[i], i, hand_id, tokens);
        if (!row) goto done;
        if (row != Py_None && PyList_Append(details, row) < 0) {
            Py_DECREF(row);
            goto done;
        }
        Py_DECREF(row);
    }
    out = Py_BuildValue("(OOOiiOiOOOOO)", hand_id, deal_s, result_s, h->number, h->dealer,
                        notes, h->nacts, score, scores, items, radt, details);
    if (out) { /* the radelci carried on, the columns (HandTricks.rows for the tricks) */
        /* hand_scores (process._add_hand_scores, _role): every seat's totals and radelci */
        for (int t = 0; t < n; t++) {
            int k = ln_cols.nhs++;
            int role = c->alone[r.contract] ? LN_ROLE_KLOP
                       : t == r.declarer ? LN_ROLE_DECLARER
                       : (t == r.partner && r.partner != r.declarer) ? LN_ROLE_PARTNER
                                                                     : LN_ROLE_DEFENDER;
            ln_cols.h_seat[k] = (unsigned char)t;
            ln_cols.h_role[k] = (unsigned char)role;
            ln_cols.h_rec[k] = (int32_t)h->scores[t];
            ln_cols.h_rcp[k] = sco.totals[t];
            ln_cols.h_before[k] = (int16_t)rad[t];
            ln_cols.h_after[k] = (int16_t)sco.radelci[t];
        }
        /* score_items: a sheet with no lines has no values (None), an absent line 0 */
        ln_cols.s_count[ln_cols.nh] = (unsigned char)nk;
        for (int j = 0; j < nk; j++) {
            int k = ln_cols.nsi++;
            ln_cols.s_item[k] = (unsigned char)keys[j].item;
            ln_cols.s_seat[k] = (unsigned char)(keys[j].seat < 0 ? 0 : keys[j].seat);
            ln_cols.s_has_seat[k] = keys[j].seat >= 0;
            ln_cols.s_rec[k] = keys[j].rec;
            ln_cols.s_has_rec[k] = h->nitems > 0;
            ln_cols.s_rcp[k] = keys[j].rcp;
            ln_cols.s_has_rcp[k] = sco.nitems > 0;
        }
        for (int t = 0; t < n; t++) rad[t] = sco.radelci[t];
        ln_cols.a_count[ln_cols.nh] = (unsigned char)h->nacts;
        ln_cols.t_count[ln_cols.nh] = (unsigned char)r.ntricks;
        ln_cols.nh++;
        for (int i = 0; i < h->nacts; i++) {
            const ln_action *a = &h->acts[i];
            int k = ln_cols.na++;
            ln_cols.a_idx[k] = (uint16_t)i;
            ln_cols.a_seat[k] = a->seat;
            ln_cols.a_type[k] = a->type;
            ln_cols.a_card[k] = (a->type == SH_CALL || a->type == SH_PLAY) ? (unsigned char)a->card : 255;
        }
        for (int t = 0; t < r.ntricks; t++) {
            const tk_trick *tr = &r.tricks[t];
            int k = ln_cols.nt++;
            int thirds = tk_thirds(tr->mask);
            /* klop: the first six tricks each take a talon card (a gift) */
            if (c->talon_gifts[r.contract] && t < 6 && t < h->ntalon) thirds += tk_thirds(TK_BIT(h->talon[t]));
            ln_cols.t_no[k] = (uint16_t)(t + 1);
            ln_cols.t_leader[k] = (unsigned char)tr->leader;
            ln_cols.t_winner[k] = (unsigned char)tr->winner;
            ln_cols.t_points[k] = thirds;
            ln_cols.t_n[k] = (unsigned char)tr->n;
            for (int j = 0; j < tr->n; j++) {
                ln_cols.t_seat[ln_cols.nc] = (unsigned char)((tr->leader + j) % n);
                ln_cols.t_card[ln_cols.nc++] = (unsigned char)tr->cards[j];
            }
        }
    }
done:
    Py_DECREF(hand_id);
    Py_XDECREF(deal_s);
    Py_XDECREF(result_s);
    Py_XDECREF(notes);
    Py_XDECREF(score);
    Py_XDECREF(scores);
    Py_XDECREF(items);
    Py_XDECREF(radt);
    Py_XDECREF(details);
    return out;
engine_declines:
    Py_INCREF(Py_Ellipsis);
    return Py_Ellipsis;
}

/* the used part of ln_cols as bytes objects: (action counts, idx, seat, type, card), (trick
 * counts, number, leader, winner, points, card counts, seats, cards) */
static PyObject *ln_cols_py(void) {
    Py_ssize_t nhs = ln_cols.nhs, nsi = ln_cols.nsi;
    return Py_BuildValue(
        "((y#y#y#y#y#)(y#y#y#y#y#y#y#y#)(y#y#y#y#y#y#)(y#y#y#y#y#y#y#y#))", ln_cols.a_count,
        (Py_ssize_t)ln_cols.nh,
        (const char *)ln_cols.a_idx, (Py_ssize_t)(2 * ln_cols.na), ln_cols.a_seat,
        (Py_ssize_t)ln_cols.na, ln_cols.a_type, (Py_ssize_t)ln_cols.na, ln_cols.a_card,
        (Py_ssize_t)ln_cols.na, ln_cols.t_count, (Py_ssize_t)ln_cols.nh,
        (const char *)ln_cols.t_no, (Py_ssize_t)(2 * ln_cols.nt), ln_cols.t_leader,
        (Py_ssize_t)ln_cols.nt, ln_cols.t_winner, (Py_ssize_t)ln_cols.nt,
        (const char *)ln_cols.t_points, (Py_ssize_t)(4 * ln_cols.nt), ln_cols.t_n,
        (Py_ssize_t)ln_cols.nt, ln_cols.t_seat, (Py_ssize_t)ln_cols.nc, ln_cols.t_card,
        (Py_ssize_t)ln_cols.nc, ln_cols.h_seat, nhs, ln_cols.h_role, nhs,
        (const char *)ln_cols.h_rec, 4 * nhs, (const char *)ln_cols.h_rcp, 4 * nhs,
        (const char *)ln_cols.h_before, 2 * nhs, (const char *)ln_cols.h_after, 2 * nhs,
        ln_cols.s_count, (Py_ssize_t)ln_cols.nh, ln_cols.s_item, nsi, ln_cols.s_seat, nsi,
        ln_cols.s_has_seat, nsi, (const char *)ln_cols.s_rec, 4 * nsi, ln_cols.s_has_rec, nsi,
        (const char *)ln_cols.s_rcp, 4 * nsi, ln_cols.s_has_rcp, nsi);
}

/* ------------------------------------------------ the lane of a game with its own engine */

/* What a game's reader of a session's hands (zwanzigerrufen_lane_hands, royal_lane_hands)
 * shares across the hands: the game's names (contracts, items), the card tokens (as Python
 * and as C strings), the session's hash frame, the hasher and a buffer for canonical JSON. */
typedef struct {
    PyObject *names, *tokens, *sha256;
    const char *tok[TK_NCARDS];
    int toklen[TK_NCARDS];
    const char *prefix, *suffix;
    int nprefix, nsuffix;
    char *canon;
} ln_env;

/* One hand of the game: NULL with an exception set, Py_None to decline the session,
 * Py_Ellipsis when the native engine declines this hand alone (read as the reader reads it, but
 * not clean: the reference audits it; the game's carry left as it was before the hand), else
 * its entry */
typedef PyObject *(*ln_hand_fn)(void *game, const unsigned char *s, const ln_hand *h,
                                const ln_env *e);

/* The game's carry (what passes from hand to hand) as a Python value, for a stop at a hand the
 * engine declines; NULL for a game whose lane takes sessions whole */
typedef PyObject *(*ln_carry_fn)(void *game);

/* The hand's canonical JSON between the session's prefix and suffix (in e->canon; where its
 * deal and result lie in *deal, *result) and its content hash (the hand_id): 1 with *hand_id
 * set, 0 to decline (no room), -1 with an exception set. */
static int ln_hand_id(const ln_env *e, const ln_parser *lp, const ln_hand *h, ln_span *deal,
                      ln_span *result, PyObject **hand_id) {
    ln_out o = {e->canon, 0, LN_CANON_CAP};
    if (ln_put(&o, e->prefix, e->nprefix) < 0 ||
        ln_canonical(&o, lp, h, e->tok, e->toklen, deal, result) < 0 ||
        ln_put(&o, e->suffix, e->nsuffix) < 0)
        return 0;
    PyObject *doc = PyBytes_FromStringAndSize(e->canon, o.n);
    if (!doc) return -1;
    PyObject *hasher = PyObject_CallOneArg(e->sha256, doc);
    Py_DECREF(doc);
    if (!hasher) return -1;
    *hand_id = PyObject_CallMethod(hasher, "hexdigest", NULL);
    Py_DECREF(hasher);
    return *hand_id ? 1 : -1;
}

/* The hands of one session record (`buf[hs:he]`, its "hands" array) read in the mode of
 * `mode` (zr, royal) and played hand by hand by `fn`: (hands, columns) as lane_hands gives
 * them, None to decline (a hand `fn` declines, a number twice, anything the reader would
 * not take), NULL with an exception set.
 *
 * With `carry` (a game whose lane takes a session hand by hand), a hand the engine declines
 * alone (`fn` gives Py_Ellipsis) stops the reading there: (hands, columns, (start, end, resume,
 * carry)) for the hands before it, `buf[start:end]` the declined hand's object, `resume` the
 * `hs` to read the hands after it from (-1: it was the last), `carry` the game's carry before
 * it (the reference audits the hand; the lane goes on from `resume` with the reference's
 * carry after it). `hs` is the offset just before the first hand to read (the array's "[",
 * or the "," after a declined hand); hand numbers are checked twice within one call only. */
static PyObject *ln_game_session(const Py_buffer *buf, int hs, int he, ln_parser mode,
                                 PyObject *names, PyObject *tokens, const Py_buffer *prefix,
                                 const Py_buffer *suffix, PyObject *sha256, ln_hand_fn fn,
                                 void *game, ln_carry_fn carry) {
    PyObject *out = NULL, *list = NULL;
    ln_hand *h = NULL;
    ln_env e;
    memset(&e, 0, sizeof e);
    ln_cols.nh = ln_cols.na = ln_cols.nt = ln_cols.nc = ln_cols.nhs = ln_cols.nsi = 0;
    if (PyTuple_GET_SIZE(tokens) != TK_NCARDS || hs < 0 || he > buf->len || hs >= he) {
        PyErr_SetString(PyExc_ValueError, "lane hands: bad arguments");
        return NULL;
    }
    e.names = names;
    e.tokens = tokens;
    e.sha256 = sha256;
    e.prefix = (const char *)prefix->buf;
    e.nprefix = (int)prefix->len;
    e.suffix = (const char *)suffix->buf;
    e.nsuffix = (int)suffix->len;
    for (int i = 0; i < TK_NCARDS; i++) {
        Py_ssize_t len;
        e.tok[i] = PyUnicode_AsUTF8AndSize(PyTuple_GET_ITEM(tokens, i), &len);
        if (!e.tok[i]) return NULL;
        e.toklen[i] = (int)len;
    }
    e.canon = PyMem_Malloc(LN_CANON_CAP);
    h = PyMem_Malloc(sizeof *h);
    if (!e.canon || !h) {
        PyErr_NoMemory();
        goto end;
    }
    const unsigned char *s = (const unsigned char *)buf->buf;
    ln_parser p = mode;
    p.s = s;
    p.n = he;
    p.i = hs + 1;
    list = PyList_New(0);
    if (!list) goto end;
    static unsigned char seen[LN_MAX_NUMBER / 8 + 1];
    memset(seen, 0, sizeof seen);
    int nnum = 0;
    ln_ws(&p);
    int more = !(p.i < p.n && s[p.i] == ']');
    while (more) {
        ln_ws(&p);
        int at = p.i;
        if (ln_hand_read(&p, h) < 0 || nnum >= LN_MAX_HANDS) goto decline;
        if (seen[h->number >> 3] & (1u << (h->number & 7))) goto decline;
        seen[h->number >> 3] |= (unsigned char)(1u << (h->number & 7));
        nnum++;
        PyObject *one = fn(game, s, h, &e);
        if (!one) goto end;
        if (one == Py_None) {
            Py_DECREF(one);
            goto decline;
        }
        if (one == Py_Ellipsis) { /* the engine declines this hand: stop before it */
            Py_DECREF(one);
            if (!carry) goto decline;
            int stop = p.i;
            int r = ln_next(&p, ']');
            if (r < 0 || (!r && p.i != he)) goto decline;
            PyObject *hands = PyList_AsTuple(list);
            PyObject *cols = hands ? ln_cols_py() : NULL;
            PyObject *k = cols ? carry(game) : NULL;
            out = k ? Py_BuildValue("(NN(iiiN))", hands, cols, at, stop, r ? p.i - 1 : -1, k)
                    : NULL;
            if (!k) {
                Py_XDECREF(hands);
                Py_XDECREF(cols);
            }
            goto end;
        }
        if (PyList_Append(list, one) < 0) {
            Py_DECREF(one);
            goto end;
        }
        Py_DECREF(one);
        int r = ln_next(&p, ']');
        if (r < 0) goto decline;
        more = r;
    }
    if (nnum == 0 || p.i != he) goto decline;
    {
        PyObject *hands = PyList_AsTuple(list);
        PyObject *cols = hands ? ln_cols_py() : NULL;
        out = cols ? Py_BuildValue("(NN)", hands, cols) : NULL;
        if (!cols) Py_XDECREF(hands);
    }
    goto end;
decline:
    out = (Py_INCREF(Py_None), Py_None);
end:
    Py_XDECREF(list);
    PyMem_Free(e.canon);
    PyMem_Free(h);
    return out;
}

/* Slovenian tarok through ln_game_session: ln_hand_py with the session's configurations and
 * the radelci carried from hand to hand */
typedef struct {
    const sh_config *c;
    const ss_config *sc;
    int rad[4];
} sl_lane_game;

static PyObject *sl_hand_py(void *game, const unsigned char *s, const ln_hand *h,
                            const ln_env *e) {
    sl_lane_game *g = game;
    return ln_hand_py(s, h, g->c, g->sc, g->rad, e->names, e->tokens, e->tok, e->toklen,
                      e->prefix, e->nprefix, e->suffix, e->nsuffix, e->sha256, e->canon);
}

static PyObject *sl_carry_of(void *game) {
    const int *rad = ((sl_lane_game *)game)->rad;
    return Py_BuildValue("(iiii)", rad[0], rad[1], rad[2], rad[3]);
}

/* lane_hands(line, start, stop, config, score_config, contracts, tokens, prefix, suffix,
 * sha256[, carry]) -> None (decline: the careful path reads the session) or (hands, columns[,
 * stop]) for the "hands" array at line[start:stop] (lane_envelope). One entry per hand:
 *   (hand_id, deal JSON, result JSON, number, dealer, notes, number of actions, the score
 *    (ln_score_py: the radelci carried from the session's earlier hands, none before the
 *    first, or `carry`'s four), recorded scores, recorded items (item, seat, value), recorded
 *    radelci after (or None), the action_details rows);
 * the columns as ln_cols_py gives them (little-endian). `config` is a slovenian_config,
 * `score_config` a slovenian_score_config; `contracts` the contract codes by index; `tokens`
 * the 54 card tokens by id; the content hash is sha256(prefix + canonical hand + suffix), hex.
 * Any hand the lane does not read, a hand number twice, and it declines; a hand the native
 * whole hand or score declines stops the reading (ln_game_session's `stop`, the carry the
 * four radelci before it). */
static PyObject *py_lane_hands(PyObject *self, PyObject *args) {
    Py_buffer buf;
    int hs, he;
    PyObject *config_o, *score_o, *contracts, *tokens, *sha256, *carry_o = Py_None;
    Py_buffer prefix, suffix;
    if (!PyArg_ParseTuple(args, "y*iiO!O!O!O!y*y*O|O", &buf, &hs, &he, &PyBytes_Type, &config_o,
                          &PyBytes_Type, &score_o, &PyTuple_Type, &contracts, &PyTuple_Type,
                          &tokens, &prefix, &suffix, &sha256, &carry_o))
        return NULL;
    PyObject *out = NULL;
    sh_config c;
    ss_config sc;
    sl_lane_game game = {&c, &sc, {0, 0, 0, 0}};
    if (PyBytes_GET_SIZE(config_o) != (Py_ssize_t)sizeof(sh_config) ||
        PyBytes_GET_SIZE(score_o) != (Py_ssize_t)sizeof(ss_config)) {
        PyErr_SetString(PyExc_ValueError, "lane_hands: bad arguments");
        goto end;
    }
    memcpy(&c, PyBytes_AS_STRING(config_o), sizeof c);
    memcpy(&sc, PyBytes_AS_STRING(score_o), sizeof sc);
    if (PyTuple_GET_SIZE(contracts) < c.ncontracts) {
        PyErr_SetString(PyExc_ValueError, "lane_hands: a name for every contract");
        goto end;
    }
    if (carry_o != Py_None && read_ints(carry_o, game.rad, 4, "carry") != 4) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "lane_hands: four radelci");
        goto end;
    }
    if (c.n != 3 && c.n != 4) {
        out = (Py_INCREF(Py_None), Py_None);
        goto end;
    }
    ln_parser mode = {NULL, 0, 0, 0, 0};
    out = ln_game_session(&buf, hs, he, mode, contracts, tokens, &prefix, &suffix, sha256,
                          sl_hand_py, &game, sl_carry_of);
end:
    PyBuffer_Release(&buf);
    PyBuffer_Release(&prefix);
    PyBuffer_Release(&suffix);
    return out;
}

/* ======================================================================================
 * Zwanzigerrufen: the native engine (zrhand.h), its codec by field name, and its binding.
 * (A section of its own, to keep merges of this file simple.)
 * ====================================================================================== */

static const cf_field ZR_CONFIG_FIELDS[] = {
    CF(zr_config, throw_in, CF_INT),
    CF(zr_config, call_rule, CF_INT),
    CF(zr_config, auction_model, CF_INT),
    CF(zr_config, late_declarations, CF_INT),
    CF(zr_config, dagegen_kontra, CF_INT),
    CF(zr_config, pagat_announcer, CF_INT),
    CF(zr_config, one_announcement_per_bonus, CF_INT),
    CF(zr_config, max_kontra_level, CF_INT),
    CF(zr_config, valat_mode, CF_INT),
    CF(zr_config, valat_overrides_bonuses, CF_INT),
    CF(zr_config, valat_replaces_game, CF_INT),
    CF(zr_config, lost_announced_valat_loses_game, CF_INT),
    CF(zr_config, absolut_moves_game_threshold, CF_INT),
    CF(zr_config, silent_pagat_loss, CF_INT),
    CF(zr_config, four_kings_value, CF_INT),
    CF(zr_config, trull_value, CF_INT),
    CF(zr_config, card_bonus_claim, CF_INT),
    CF(zr_config, mondfang_payer, CF_INT),
    CF(zr_config, mondfang_in_farbensolo, CF_INT),
    CF(zr_config, double_round_length, CF_INT),
    CF(zr_config, double_round_stacking, CF_INT),
    CF(zr_config, maerchenstich, CF_INT),
    CF(zr_config, farbensolo_tarock_compulsion, CF_INT),
    CF(zr_config, farbensolo_min_suit_cards, CF_INT),
    CF(zr_config, pagat_hold_obligation, CF_INT),
    CF(zr_config, forehand_all_five, CF_INT),
    CF(zr_config, game_threshold, CF_INT),
    CF(zr_config, absolut_limit, CF_INT),
    CF(zr_config, total_points, CF_INT),
    CF(zr_config, rank, CF_CONTRACTS),
    CF(zr_config, called, CF_CONTRACTS),
    CF(zr_config, suit_solo, CF_CONTRACTS),
    CF(zr_config, value, CF_CONTRACTS),
    CF(zr_config, bonus_factor, CF_CONTRACTS),
    {NULL, 0, 0}};

/* the names zrhand.h numbers: the bonuses (auction.BONUSES), the score items
 * (scoring.ITEM_ORDER), the claims and the action kinds; native.py checks them at import */
static const char *const ZR_BONUS_NAMES[ZR_NBONUS] = {"absolut", "pagat", "valat"};
static const char *const ZR_ITEM_NAMES[ZR_NITEMS] = {"game", "valat", "absolut", "pagat",
                                                     "trull", "four_kings", "mondfang"};
static const char *const ZR_CLAIM_NAMES[ZR_NCLAIMS] = {"trull", "four_kings"};
static const char *const ZR_KIND_NAMES[ZR_NKINDS] = {"pass", "call", "bid", "announce",
                                                     "kontra", "play", "claim"};

static PyObject *zr_strings(const char *const *names, int n) {
    PyObject *t = PyTuple_New(n);
    if (!t) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *s = PyUnicode_FromString(names[i]);
        if (!s) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, i, s);
    }
    return t;
}

/* zwanzigerrufen_config_fields() -> {"config": ((name, kind), ...), "bonuses": (...),
 * "items": (...), "claims": (...), "kinds": (...)} */
static PyObject *py_zwanzigerrufen_config_fields(PyObject *self, PyObject *noargs) {
    PyObject *a = cf_names(ZR_CONFIG_FIELDS), *b = zr_strings(ZR_BONUS_NAMES, ZR_NBONUS),
             *i = zr_strings(ZR_ITEM_NAMES, ZR_NITEMS), *c = zr_strings(ZR_CLAIM_NAMES, ZR_NCLAIMS),
             *k = zr_strings(ZR_KIND_NAMES, ZR_NKINDS);
    PyObject *out = (a && b && i && c && k)
                        ? Py_BuildValue("{sOsOsOsOsO}", "config", a, "bonuses", b, "items", i,
                                        "claims", c, "kinds", k)
                        : NULL;
    Py_XDECREF(a);
    Py_XDECREF(b);
    Py_XDECREF(i);
    Py_XDECREF(c);
    Py_XDECREF(k);
    return out;
}

/* zwanzigerrufen_config(fields) -> bytes: the zr_config, from a dict of the fields
 * ZR_CONFIG_FIELDS names (rules/zwanzigerrufen/native.py) */
static PyObject *py_zwanzigerrufen_config(PyObject *self, PyObject *fields) {
    zr_config c;
    memset(&c, 0, sizeof c);
    Py_ssize_t nc = -1;
    if (cf_read(fields, ZR_CONFIG_FIELDS, (char *)&c, &nc, "zwanzigerrufen_config") < 0)
        return NULL;
    if (nc < 1 || nc > ZR_MAX_CONTRACTS) {
        PyErr_SetString(PyExc_ValueError, "zwanzigerrufen_config: 1 to 8 contracts");
        return NULL;
    }
    c.ncontracts = (int)nc;
    return PyBytes_FromStringAndSize((const char *)&c, sizeof c);
}

static int zr_read_config(PyObject *o, zr_config *c) {
    if (!PyBytes_Check(o) || PyBytes_GET_SIZE(o) != (Py_ssize_t)sizeof *c) {
        PyErr_SetString(PyExc_ValueError, "not a zwanzigerrufen_config");
        return -1;
    }
    memcpy(c, PyBytes_AS_STRING(o), sizeof *c);
    return 0;
}

/* the session's carry (games, (window, ...), next dealer or -1) */
static int zr_read_carry(PyObject *o, zr_carry *k) {
    PyObject *wins;
    memset(k, 0, sizeof *k);
    if (!PyArg_ParseTuple(o, "iOi", &k->games, &wins, &k->next_dealer)) return -1;
    int w[ZR_MAX_WINDOWS];
    int n = read_ints(wins, w, ZR_MAX_WINDOWS, "windows");
    if (n < 0) return -1;
    k->nwin = n;
    for (int i = 0; i < n; i++) k->windows[i] = w[i];
    return 0;
}

static PyObject *zr_carry_py(const zr_carry *k) {
    PyObject *w = PyTuple_New(k->nwin);
    if (!w) return NULL;
    for (int i = 0; i < k->nwin; i++) {
        PyObject *v = PyLong_FromLong(k->windows[i]);
        if (!v) {
            Py_DECREF(w);
            return NULL;
        }
        PyTuple_SET_ITEM(w, i, v);
    }
    return Py_BuildValue("(iNi)", k->games, w, k->next_dealer);
}

static PyObject *zr_opt_seat(int s) {
    if (s < 0) Py_RETURN_NONE;
    return PyLong_FromLong(s);
}

/* the result of zrhand.h as Python values (see zwanzigerrufen_hand) */
static PyObject *zr_result_py(const zr_result *r, const zr_carry *k) {
    PyObject *lines = PyTuple_New(r->nlines), *tricks = PyTuple_New(r->ntricks);
    if (!lines || !tricks) goto fail;
    for (int j = 0; j < r->nlines; j++) {
        PyObject *e = Py_BuildValue("(iii)", r->lines[j].item, r->lines[j].seat, r->lines[j].value);
        if (!e) goto fail;
        PyTuple_SET_ITEM(lines, j, e);
    }
    for (int t = 0; t < r->ntricks; t++) {
        const zr_trick *tr = &r->tricks[t];
        PyObject *e = Py_BuildValue("(i(iiii)(iiii)iii)", tr->leader, tr->seats[0], tr->seats[1],
                                    tr->seats[2], tr->seats[3], tr->cards[0], tr->cards[1],
                                    tr->cards[2], tr->cards[3], tr->winner, tr->points,
                                    tr->mond_owner);
        if (!e) goto fail;
        PyTuple_SET_ITEM(tricks, t, e);
    }
    return Py_BuildValue("(iNNOiNN(iiii)iiNN)", r->contract, zr_opt_seat(r->declarer),
                         zr_opt_seat(r->partner), r->won ? Py_True : Py_False, r->multiplier,
                         lines, tricks, r->totals[0], r->totals[1], r->totals[2], r->totals[3],
                         r->cp_declarer, r->mondfang, zr_opt_seat(r->called), zr_carry_py(k));
fail:
    Py_XDECREF(lines);
    Py_XDECREF(tricks);
    return NULL;
}

/* zwanzigerrufen_hand(config, dealer, hands, actions, carry) -> None (the reference takes the
 * hand) or (contract, declarer, partner, won, multiplier, lines ((item, seat, value), ...),
 * tricks ((leader, seats, cards, winner, points, mond owner or -1), ...), totals, declarer
 * side's card points, mondfang, called card id or None, carry after): one whole clean hand
 * through zrhand.h. `hands`: four sequences of card ids; `actions`: (kind, seat, card,
 * contract, bonus, side, target, level) per action (rules/zwanzigerrufen/native.py encodes
 * them); `carry`: (games, windows, next dealer or -1) of the session before the hand. */
/* Four seats' hands given as card ids (sequences of ints) as masks: 1; 0 when there are not
 * four seats or an id is out of range or repeated (decline); -1 with an exception set. The
 * whole-hand engines of Zwanzigerrufen and Royal Tarock read their deal with it. */
static int read_four_id_hands(PyObject *hands_o, tk_set *dealt) {
    PyObject *hf = PySequence_Fast(hands_o, "hands");
    if (!hf) return -1;
    if (PySequence_Fast_GET_SIZE(hf) != 4) {
        Py_DECREF(hf);
        return 0;
    }
    for (int s = 0; s < 4; s++) {
        int ids[TK_NCARDS];
        int n = read_ints(PySequence_Fast_GET_ITEM(hf, s), ids, TK_NCARDS, "hand");
        if (n < 0) {
            Py_DECREF(hf);
            return -1;
        }
        dealt[s] = 0;
        for (int j = 0; j < n; j++) {
            if (ids[j] < 0 || ids[j] >= TK_NCARDS || (dealt[s] & TK_BIT(ids[j]))) {
                Py_DECREF(hf);
                return 0;
            }
            dealt[s] |= TK_BIT(ids[j]);
        }
    }
    Py_DECREF(hf);
    return 1;
}

static PyObject *py_zwanzigerrufen_hand(PyObject *self, PyObject *args) {
    PyObject *config_o, *hands_o, *actions_o, *carry_o;
    int dealer;
    if (!PyArg_ParseTuple(args, "OiOOO", &config_o, &dealer, &hands_o, &actions_o, &carry_o))
        return NULL;
    zr_config c;
    zr_carry k;
    if (zr_read_config(config_o, &c) < 0 || zr_read_carry(carry_o, &k) < 0) return NULL;
    tk_set dealt[4];
    int got = read_four_id_hands(hands_o, dealt);
    if (got < 0) return NULL;
    if (got == 0) Py_RETURN_NONE;
    PyObject *af = PySequence_Fast(actions_o, "actions");
    if (!af) return NULL;
    Py_ssize_t na = PySequence_Fast_GET_SIZE(af);
    if (na > ZR_MAX_ACTIONS) {
        Py_DECREF(af);
        Py_RETURN_NONE;
    }
    zr_action acts[ZR_MAX_ACTIONS];
    for (Py_ssize_t i = 0; i < na; i++) {
        int v[8];
        if (read_ints(PySequence_Fast_GET_ITEM(af, i), v, 8, "action") != 8) {
            Py_DECREF(af);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "an action has 8 ints");
            return NULL;
        }
        if (v[0] < 0 || v[0] >= ZR_NKINDS || v[1] < 0 || v[1] > 3 || v[2] < -1 ||
            v[2] >= TK_NCARDS) {
            Py_DECREF(af);
            Py_RETURN_NONE;
        }
        zr_action *x = &acts[i];
        x->kind = v[0];
        x->seat = v[1];
        x->card = v[2];
        x->contract = v[3];
        x->bonus = v[4];
        x->side = v[5];
        x->target = v[6];
        x->level = v[7];
    }
    Py_DECREF(af);
    zr_result r;
    if (zr_hand(&c, dealer, dealt, acts, (int)na, &k, &r) < 0) Py_RETURN_NONE;
    return zr_result_py(&r, &k);
}

/* ------------------------------------------------ Zwanzigerrufen through the ingest lane */

/* the score items' names by zrhand.h's ZR_I_ codes, interned at import, and each one's place
 * in alphabetical order (the score_items rows are sorted by item, then seat) */
static PyObject *zr_item_names[ZR_NITEMS];
static int zr_item_rank[ZR_NITEMS];

/* the ZR_I_ code of a name of the line, or -1 */
static int zr_item_code(const unsigned char *s, ln_span sp) {
    for (int j = 0; j < ZR_NITEMS; j++) {
        int k = (int)strlen(ZR_ITEM_NAMES[j]);
        if (k == sp.len && memcmp(ZR_ITEM_NAMES[j], s + sp.off, k) == 0) return j;
    }
    return -1;
}

static int zr_name_index(const unsigned char *s, ln_span sp, const char *const *names, int n) {
    for (int j = 0; j < n; j++) {
        int k = (int)strlen(names[j]);
        if (k == sp.len && memcmp(names[j], s + sp.off, k) == 0) return j;
    }
    return -1;
}

/* the action_details row of a Zwanzigerrufen action (ln_details, with an announcement's side
 * and a claim), or Py_None for one with no field beyond seat, type and card */
static PyObject *zr_details(const unsigned char *s, const ln_action *a, int i, PyObject *hand_id,
                            PyObject *tokens) {
    if (a->type != SH_ANNOUNCE && a->type != LN_CLAIM) return ln_details(s, a, i, hand_id, tokens);
    PyObject *v[15];
    for (int j = 0; j < 15; j++) v[j] = Py_None;
    PyObject *str = ln_pystr(s, a->str), *side = NULL, *idx = PyLong_FromLong(i);
    if (a->type == SH_ANNOUNCE) {
        side = ln_pystr(s, a->side);
        v[6] = str;
        v[7] = side;
    } else {
        side = PyList_New(0); /* a claim's cards: none laid down (models.Claim's default) */
        v[2] = side;
        v[10] = str;
    }
    PyObject *row = NULL;
    if (!str || !idx || !side) goto end;
    v[0] = hand_id;
    v[1] = idx;
    row = PyTuple_New(15);
    if (!row) goto end;
    for (int j = 0; j < 15; j++) {
        Py_INCREF(v[j]);
        PyTuple_SET_ITEM(row, j, v[j]);
    }
end:
    Py_XDECREF(str);
    Py_XDECREF(side);
    Py_XDECREF(idx);
    return row;
}

/* One Zwanzigerrufen hand through the lane (ln_hand_py's twin for zrhand.h): the checks that
 * need the table, the actions read as zrhand.h's, the whole hand with the session's carry
 * `k`, the canonical JSON and its hash; its rows appended to ln_cols. NULL with an exception
 * set, Py_None to decline, else the hand's tuple (see zwanzigerrufen_lane_hands). */
typedef struct {
    const zr_config *c;
    zr_carry *k;
} zr_lane_game;

static PyObject *zr_hand_py(void *game, const unsigned char *s, const ln_hand *h,
                            const ln_env *e) {
    const zr_config *c = ((zr_lane_game *)game)->c;
    zr_carry *k = ((zr_lane_game *)game)->k;
    PyObject *contracts = e->names, *tokens = e->tokens;
    const char *buf = e->canon;
    const int n = 4;
    if (h->nseats != n || h->dealer >= n || h->nscores != n || h->nrad >= 0 || h->ntalon)
        Py_RETURN_NONE;
    if (h->nacts > ZR_MAX_ACTIONS) Py_RETURN_NONE;
    zr_action acts[ZR_MAX_ACTIONS];
    for (int i = 0; i < h->nacts; i++) {
        const ln_action *a = &h->acts[i];
        zr_action *x = &acts[i];
        if (a->seat >= n) Py_RETURN_NONE;
        x->seat = a->seat;
        x->card = x->contract = x->bonus = x->side = x->target = -1;
        x->level = 0;
        switch (a->type) {
        case SH_PASS: x->kind = ZR_PASS; break;
        case SH_CALL: x->kind = ZR_CALL; x->card = a->card; break;
        case SH_PLAY: x->kind = ZR_PLAY; x->card = a->card; break;
        case SH_BID:
            x->kind = ZR_BID;
            x->contract = ln_contract(s, a->str, contracts);
            if (x->contract < 0) Py_RETURN_NONE;
            break;
        case SH_ANNOUNCE:
            x->kind = ZR_ANNOUNCE;
            x->bonus = zr_name_index(s, a->str, ZR_BONUS_NAMES, ZR_NBONUS);
            x->side = ln_is(&(ln_parser){s, 0, 0, 1}, a->side, "dazu")      ? 0
                      : ln_is(&(ln_parser){s, 0, 0, 1}, a->side, "dagegen") ? 1
                                                                             : -1;
            if (x->bonus < 0 || x->side < 0) Py_RETURN_NONE;
            break;
        case SH_KONTRA:
            x->kind = ZR_KONTRA;
            x->level = a->level;
            if (a->str.len && !ln_is(&(ln_parser){s, 0, 0, 1}, a->str, "game")) {
                x->target = zr_name_index(s, a->str, ZR_BONUS_NAMES, ZR_NBONUS);
                if (x->target < 0) Py_RETURN_NONE;
            }
            break;
        case LN_CLAIM:
            x->kind = ZR_CLAIM;
            x->bonus = zr_name_index(s, a->str, ZR_CLAIM_NAMES, ZR_NCLAIMS);
            if (x->bonus < 0) Py_RETURN_NONE;
            break;
        case LN_THROW_IN: /* (zrhand.h plays no throw-in: the reference audits the hand, the
                           * session's carry going on from its) */
            goto engine_declines;
        default: Py_RETURN_NONE;
        }
    }
    for (int j = 0; j < h->nitems; j++)
        if (h->items[j].seat >= n) Py_RETURN_NONE;
    zr_carry before = *k;
    zr_result r;
    if (zr_hand(c, h->dealer, h->hand, acts, h->nacts, k, &r) < 0) goto engine_declines;
    /* a recorded score other than the engine's: the reference audits the hand (the difference
     * is the careful path's finding), the session going on from the engine's carry after it */
    for (int t = 0; t < n; t++)
        if (h->scores[t] != r.totals[t]) goto decline;
    if (ln_cols.nh >= LN_MAX_HANDS) Py_RETURN_NONE;
    if (ln_cols_reserve(ln_cols.nh + 1) < 0) return PyErr_NoMemory();
    /* the score_items rows: both sheets' lines by (item, seat) (every line has its seat but
     * a recorded one of the declarer's side, counted for its members) */
    ln_item_key keys[LN_MAX_ROWS];
    int nk = 0;
    int side[2], nside = 0;
    side[nside++] = r.declarer;
    if (r.partner >= 0) side[nside++] = r.partner;
    for (int j = 0; j < h->nitems; j++) {
        int code = zr_item_code(s, h->items[j].item);
        if (code < 0) goto decline;
        int seat = h->items[j].seat;
        long long v = h->items[j].value;
        if (seat < 0) {
            for (int t = 0; t < nside; t++)
                if (ln_add_key(keys, &nk, code, side[t], (int)v, 1) < 0) goto decline;
        } else if (ln_add_key(keys, &nk, code, seat, (int)v, 1) < 0) {
            goto decline;
        }
    }
    for (int j = 0; j < r.nlines; j++)
        if (ln_add_key(keys, &nk, r.lines[j].item, r.lines[j].seat, r.lines[j].value, 0) < 0)
            goto decline;
    if (h->nitems) /* (a recorded line other than the engine's: as a score, the reference's) */
        for (int j = 0; j < nk; j++)
            if (keys[j].rec != keys[j].rcp) goto decline;
    for (int a = 1; a < nk; a++) {
        ln_item_key x = keys[a];
        int b = a - 1;
        while (b >= 0 && (zr_item_rank[keys[b].item] > zr_item_rank[x.item] ||
                          (keys[b].item == x.item && keys[b].seat > x.seat))) {
            keys[b + 1] = keys[b];
            b--;
        }
        keys[b + 1] = x;
    }
    /* the canonical JSON, between the session's prefix and suffix, and its hash */
    ln_span deal, result;
    ln_parser lp = {s, 0, 0, 1};
    PyObject *hand_id = NULL;
    int got = ln_hand_id(e, &lp, h, &deal, &result, &hand_id);
    if (got < 0) {
        *k = before;
        return NULL;
    }
    if (!got) goto decline;
    PyObject *out = NULL, *score = NULL, *deal_s = NULL, *result_s = NULL, *notes = NULL;
    PyObject *scores = NULL, *items = NULL, *details = NULL, *lines = NULL, *totals = NULL;
    deal_s = PyUnicode_DecodeASCII(buf + deal.off, deal.len, NULL);
    result_s = PyUnicode_DecodeASCII(buf + result.off, result.len, NULL);
    notes = h->has_notes ? ln_pytext(s, h->notes) : (Py_INCREF(Py_None), Py_None);
    scores = PyTuple_New(n);
    items = PyTuple_New(h->nitems);
    lines = PyTuple_New(r.nlines);
    totals = PyTuple_New(n);
    details = PyList_New(0);
    if (!deal_s || !result_s || !notes || !scores || !items || !details || !lines || !totals)
        goto done;
    for (int j = 0; j < r.nlines; j++) {
        PyObject *e = Py_BuildValue("(Oii)", zr_item_names[r.lines[j].item], r.lines[j].seat,
                                    r.lines[j].value);
        if (!e) goto done;
        PyTuple_SET_ITEM(lines, j, e);
    }
    for (int t = 0; t < n; t++) {
        PyObject *v = PyLong_FromLongLong(h->scores[t]), *w = PyLong_FromLong(r.totals[t]);
        if (!v || !w) {
            Py_XDECREF(v);
            Py_XDECREF(w);
            goto done;
        }
        PyTuple_SET_ITEM(scores, t, v);
        PyTuple_SET_ITEM(totals, t, w);
    }
    score = Py_BuildValue("(ONNOOOO)", PyTuple_GET_ITEM(contracts, r.contract),
                          zr_opt_seat(r.declarer), zr_opt_seat(r.partner),
                          r.won ? Py_True : Py_False, lines, totals, Py_None);
    if (!score) goto done;
    for (int j = 0; j < h->nitems; j++) {
        PyObject *name = ln_pystr(s, h->items[j].item);
        if (!name) goto done;
        PyObject *e = h->items[j].seat >= 0
                          ? Py_BuildValue("(NiL)", name, h->items[j].seat, h->items[j].value)
                          : Py_BuildValue("(NOL)", name, Py_None, h->items[j].value);
        if (!e) goto done;
        PyTuple_SET_ITEM(items, j, e);
    }
    for (int i = 0; i < h->nacts; i++) {
        PyObject *row = zr_details(s, &h->acts[i], i, hand_id, tokens);
        if (!row) goto done;
        if (row != Py_None && PyList_Append(details, row) < 0) {
            Py_DECREF(row);
            goto done;
        }
        Py_DECREF(row);
    }
    out = Py_BuildValue("(OOOiiOiOOOOO)", hand_id, deal_s, result_s, h->number, h->dealer,
                        notes, h->nacts, score, scores, items, Py_None, details);
    if (out) { /* the columns */
        for (int t = 0; t < n; t++) {
            int q = ln_cols.nhs++;
            int role = t == r.declarer  ? LN_ROLE_DECLARER
                       : t == r.partner ? LN_ROLE_PARTNER
                                        : LN_ROLE_DEFENDER;
            ln_cols.h_seat[q] = (unsigned char)t;
            ln_cols.h_role[q] = (unsigned char)role;
            ln_cols.h_rec[q] = (int32_t)h->scores[t];
            ln_cols.h_rcp[q] = r.totals[t];
            ln_cols.h_before[q] = -1; /* (no radelci in this game: null) */
            ln_cols.h_after[q] = -1;
        }
        ln_cols.s_count[ln_cols.nh] = (unsigned char)nk;
        for (int j = 0; j < nk; j++) {
            int q = ln_cols.nsi++;
            ln_cols.s_item[q] = (unsigned char)keys[j].item;
            ln_cols.s_seat[q] = (unsigned char)(keys[j].seat < 0 ? 0 : keys[j].seat);
            ln_cols.s_has_seat[q] = keys[j].seat >= 0;
            ln_cols.s_rec[q] = keys[j].rec;
            ln_cols.s_has_rec[q] = h->nitems > 0;
            ln_cols.s_rcp[q] = keys[j].rcp;
            ln_cols.s_has_rcp[q] = r.nlines > 0;
        }
        ln_cols.a_count[ln_cols.nh] = (unsigned char)h->nacts;
        ln_cols.t_count[ln_cols.nh] = (unsigned char)r.ntricks;
        ln_cols.nh++;
        for (int i = 0; i < h->nacts; i++) {
            const ln_action *a = &h->acts[i];
            int q = ln_cols.na++;
            ln_cols.a_idx[q] = (uint16_t)i;
            ln_cols.a_seat[q] = a->seat;
            ln_cols.a_type[q] = a->type;
            ln_cols.a_card[q] = (a->type == SH_CALL || a->type == SH_PLAY) ? (unsigned char)a->card : 255;
        }
        for (int t = 0; t < r.ntricks; t++) {
            const zr_trick *tr = &r.tricks[t];
            int q = ln_cols.nt++;
            ln_cols.t_no[q] = (uint16_t)(t + 1);
            ln_cols.t_leader[q] = (unsigned char)tr->leader;
            ln_cols.t_winner[q] = (unsigned char)tr->winner;
            ln_cols.t_points[q] = tr->points;
            ln_cols.t_n[q] = 4;
            for (int j = 0; j < 4; j++) {
                ln_cols.t_seat[ln_cols.nc] = (unsigned char)tr->seats[j];
                ln_cols.t_card[ln_cols.nc++] = (unsigned char)tr->cards[j];
            }
        }
    }
done:
    Py_DECREF(hand_id);
    Py_XDECREF(deal_s);
    Py_XDECREF(result_s);
    Py_XDECREF(notes);
    Py_XDECREF(score);
    Py_XDECREF(scores);
    Py_XDECREF(items);
    Py_XDECREF(details);
    Py_XDECREF(lines);
    Py_XDECREF(totals);
    if (!out) *k = before;
    return out;
decline: /* (after the engine took the hand: a recorded line it cannot key, no room for the
          * canonical JSON; the reference audits the hand) */
    *k = before;
engine_declines:
    Py_INCREF(Py_Ellipsis);
    return Py_Ellipsis;
}

static PyObject *zr_carry_of(void *game) { return zr_carry_py(((zr_lane_game *)game)->k); }

/* zwanzigerrufen_lane_hands(line, start, stop, config, score_config, contracts, tokens, prefix,
 * suffix, sha256[, carry]) -> None (decline: the careful path reads the session) or (hands,
 * columns[, stop]): lane_hands for a Zwanzigerrufen record, its hands played by zrhand.h with
 * the session's carry (games, double-round windows, the dealer due or -1) from hand to hand,
 * from `carry` when given (a reading resumed after a hand the reference audited). A hand
 * zrhand.h declines stops the reading (ln_game_session's `stop`). An entry per hand as
 * lane_hands' (the score's radelci and the recorded radelci None: the game has none;
 * `score_config` is not read: zrhand.h's config holds the scoring's options). */
static PyObject *py_zwanzigerrufen_lane_hands(PyObject *self, PyObject *args) {
    Py_buffer buf;
    int hs, he;
    PyObject *config_o, *score_o, *contracts, *tokens, *sha256, *carry_o = Py_None;
    Py_buffer prefix, suffix;
    if (!PyArg_ParseTuple(args, "y*iiO!O!O!O!y*y*O|O", &buf, &hs, &he, &PyBytes_Type, &config_o,
                          &PyBytes_Type, &score_o, &PyTuple_Type, &contracts, &PyTuple_Type,
                          &tokens, &prefix, &suffix, &sha256, &carry_o))
        return NULL;
    PyObject *out = NULL;
    zr_config c;
    zr_carry k;
    memset(&k, 0, sizeof k);
    k.next_dealer = -1;
    if (zr_read_config(config_o, &c) < 0) goto end;
    if (carry_o != Py_None && zr_read_carry(carry_o, &k) < 0) goto end;
    if (PyTuple_GET_SIZE(contracts) < c.ncontracts) {
        PyErr_SetString(PyExc_ValueError, "zwanzigerrufen_lane_hands: a name for every contract");
        goto end;
    }
    zr_lane_game game = {&c, &k};
    ln_parser mode = {NULL, 0, 0, 1, 0};
    out = ln_game_session(&buf, hs, he, mode, contracts, tokens, &prefix, &suffix, sha256,
                          zr_hand_py, &game, zr_carry_of);
end:
    PyBuffer_Release(&buf);
    PyBuffer_Release(&prefix);
    PyBuffer_Release(&suffix);
    return out;
}

/* ------------------------------------------------ Royal Tarock through the ingest lane */

/* What royal_lane_hands keeps across a session's hands: the engine's configuration, the
 * session's recorded pairs and first dealer, the rotation so far, and the names the line's
 * strings are read by (the catalogue's ids and the score lines' names, each Meldung's
 * parameters, the conditions' strings) */
typedef struct {
    const rh_config *c;
    int has_pairs, pairs[2][2]; /* (Abfänger, Eintreiber) of pair A and pair B */
    int first_dealer;           /* -1: none recorded */
    int parity;                 /* the Eintreibers' seats mod 2 (-1: not yet known) */
    int have_prev, prev_number, prev_dealer, prev_thrown;
    int games, match_length;    /* games played (not thrown in), and the match's length */
    int nnames;                 /* the catalogue's items, then consolation, kontra, cap */
    const char *name[RH_MAX_ITEMS + 3];
    int namelen[RH_MAX_ITEMS + 3], rank[RH_MAX_ITEMS + 3];
    PyObject *names;            /* the same as a tuple of str */
    int np[RH_MAX_ITEMS];
    const char *pname[RH_MAX_ITEMS][RH_MAX_PARAMS];
    int pnamelen[RH_MAX_ITEMS][RH_MAX_PARAMS];
    int nstr;
    const char *str[RH_MAX_STRINGS];
    int strlen_[RH_MAX_STRINGS];
} rh_lane_game;

/* the index of the line's string `sp` among `n` names, or -1 */
static int rh_lookup(const unsigned char *s, ln_span sp, const char *const *names,
                     const int *lens, int n) {
    for (int j = 0; j < n; j++)
        if (lens[j] == sp.len && memcmp(names[j], s + sp.off, (size_t)sp.len) == 0) return j;
    return -1;
}

/* the action_details row of a Royal Tarock action (ln_details' columns: a Meldung's name and
 * parameters, an announcement's raise), Py_None for one with nothing beyond seat and type */
static PyObject *rh_details(const unsigned char *s, const ln_action *a, int i, PyObject *hand_id,
                            PyObject *tokens) {
    if (a->type != LN_MELD && !(a->type == SH_ANNOUNCE && a->raises.len))
        return a->type == LN_THROW_IN ? (Py_INCREF(Py_None), Py_None)
                                      : ln_details(s, a, i, hand_id, tokens);
    PyObject *v[15];
    for (int j = 0; j < 15; j++) v[j] = Py_None;
    PyObject *str = ln_pystr(s, a->str), *extra = NULL, *idx = PyLong_FromLong(i), *row = NULL;
    if (a->type == SH_ANNOUNCE) {
        extra = ln_pystr(s, a->raises);
        v[6] = str;
        v[12] = extra;
    } else {
        v[11] = str;
        if (a->nparams) {
            char tmp[512];
            ln_out o = {tmp, 0, (int)sizeof tmp};
            ln_parser lp = {s, 0, 0, 0, 1};
            if (ln_put_params(&o, &lp, a) < 0) {
                PyErr_SetString(PyExc_ValueError, "royal lane: parameters too long");
                goto end;
            }
            extra = PyUnicode_DecodeASCII(tmp, o.n, NULL);
            v[13] = extra;
        } else {
            extra = (Py_INCREF(Py_None), Py_None);
        }
    }
    if (!str || !extra || !idx) goto end;
    v[0] = hand_id;
    v[1] = idx;
    row = PyTuple_New(15);
    if (!row) goto end;
    for (int j = 0; j < 15; j++) {
        Py_INCREF(v[j]);
        PyTuple_SET_ITEM(row, j, v[j]);
    }
end:
    Py_XDECREF(str);
    Py_XDECREF(extra);
    Py_XDECREF(idx);
    return row;
}

/* The actions of a lane hand as royalhand.h's: 0, or -1 to decline (a name the catalogue
 * does not know, a Meldung's parameters not the item's, a string no condition names) */
static int rh_lane_actions(const rh_lane_game *g, const unsigned char *s, const ln_hand *h,
                           rh_action *acts) {
    int ni = g->nnames - 3;
    for (int i = 0; i < h->nacts; i++) {
        const ln_action *a = &h->acts[i];
        rh_action *x = &acts[i];
        memset(x, 0, sizeof *x);
        x->seat = a->seat;
        x->item = x->card = x->raises = -1;
        if (a->seat > 3) return -1;
        switch (a->type) {
        case SH_PASS: x->kind = RH_PASS; break;
        case LN_THROW_IN: x->kind = RH_THROW_IN; break;
        case SH_PLAY:
            x->kind = RH_PLAY;
            x->card = a->card;
            break;
        case SH_ANNOUNCE:
            x->kind = RH_ANNOUNCE;
            x->item = rh_lookup(s, a->str, g->name, g->namelen, ni);
            if (x->item < 0) return -1;
            if (a->raises.len) {
                x->raises = rh_lookup(s, a->raises, g->name, g->namelen, ni);
                if (x->raises < 0) x->raises = -2;
            }
            break;
        case SH_KONTRA:
            x->kind = RH_KONTRA;
            x->level = a->level;
            if (!a->str.len) return -1; /* the game: nothing Royal Tarock contras */
            x->item = rh_lookup(s, a->str, g->name, g->namelen, ni);
            if (x->item < 0) return -1;
            break;
        case LN_MELD: {
            x->kind = RH_MELD;
            int it = rh_lookup(s, a->str, g->name, g->namelen, ni);
            if (it < 0 || a->nparams != g->np[it]) return -1;
            x->item = it;
            for (int j = 0; j < a->nparams; j++) {
                int slot = rh_lookup(s, a->pkey[j], g->pname[it], g->pnamelen[it], g->np[it]);
                if (slot < 0) return -1;
                rh_val *v = &x->params[slot];
                if (a->ptag[j] == 3) {
                    v->tag = RH_V_STR;
                    v->v = rh_lookup(s, a->pstr[j], g->str, g->strlen_, g->nstr);
                    if (v->v < 0) return -1;
                } else {
                    v->tag = a->ptag[j] == 2 ? RH_V_BOOL : RH_V_INT;
                    v->v = (int)a->pint[j];
                }
            }
            break;
        }
        default: return -1;
        }
    }
    return 0;
}

/* One Royal Tarock hand through the lane (zr_hand_py's twin for royalhand.h): the session's
 * checks (the rotation of the deal, the Eintreibers' seats, the cut), the whole game, the
 * score_items rows of both sheets, the canonical JSON and its hash; its rows appended to
 * ln_cols. NULL with an exception set, Py_None to decline, else the hand's entry. */
static PyObject *rh_hand_py(void *game, const unsigned char *s, const ln_hand *h,
                            const ln_env *e) {
    rh_lane_game *g = game;
    const int n = 4;
    if (h->nseats != n || h->dealer >= n || h->nscores != n || h->nrad >= 0 || h->ntalon ||
        h->nacts > RH_MAX_ACTIONS)
        Py_RETURN_NONE;
    int d = h->dealer;
    /* the rotation (the reader's deal.dealer_rotation): two seats on, the same after a
     * throw-in; hand 1 by the recorded first dealer */
    int expected = -1;
    if (g->have_prev && h->number == g->prev_number + 1)
        expected = g->prev_thrown ? g->prev_dealer : (g->prev_dealer + 2) % n;
    else if (!g->have_prev && g->first_dealer >= 0 && h->number == 1)
        expected = g->first_dealer;
    if (expected >= 0 && d != expected) Py_RETURN_NONE;
    /* the parties: the dealer's pair defends (RoyalSession.parties) */
    int parties[2][2];
    if (g->has_pairs) {
        int def = (g->pairs[0][0] == d || g->pairs[0][1] == d) ? 0 : 1;
        if (g->pairs[def][0] != d && g->pairs[def][1] != d) Py_RETURN_NONE;
        memcpy(parties[0], g->pairs[1 - def], sizeof parties[0]);
        memcpy(parties[1], g->pairs[def], sizeof parties[1]);
    } else {
        if (g->parity >= 0 && d % 2 != g->parity) Py_RETURN_NONE; /* the Eintreibers' seats */
        parties[0][0] = (d + 1) % n;
        parties[0][1] = (d + 2) % n;
        parties[1][0] = (d + 3) % n;
        parties[1][1] = d;
    }
    if (h->cut_by >= 0 && h->cut_by != parties[0][1]) Py_RETURN_NONE; /* deal.wrong_cutter */
    static rh_action acts[RH_MAX_ACTIONS];
    if (rh_lane_actions(g, s, h, acts) < 0) Py_RETURN_NONE;
    static rh_result r;
    if (rh_hand(g->c, d, (const int(*)[2])parties, h->hand, acts, h->nacts, &r) < 0)
        Py_RETURN_NONE;
    /* the score_items rows: both sheets' lines by (item, seat) */
    ln_item_key keys[LN_MAX_ROWS];
    int nk = 0, ni = g->nnames - 3;
    for (int j = 0; j < h->nitems; j++) {
        int code = rh_lookup(s, h->items[j].item, g->name, g->namelen, g->nnames);
        if (code < 0 || h->items[j].seat < 0 || h->items[j].seat >= n) Py_RETURN_NONE;
        if (ln_add_key(keys, &nk, code, h->items[j].seat, (int)h->items[j].value, 1) < 0)
            Py_RETURN_NONE;
    }
    for (int j = 0; j < r.nlines; j++) {
        int it = r.lines[j].item, code = it >= 0 ? it : ni + (-it - 1);
        if (ln_add_key(keys, &nk, code, r.lines[j].seat, r.lines[j].value, 0) < 0)
            Py_RETURN_NONE;
    }
    for (int a = 1; a < nk; a++) {
        ln_item_key x = keys[a];
        int b = a - 1;
        while (b >= 0 && (g->rank[keys[b].item] > g->rank[x.item] ||
                          (keys[b].item == x.item && keys[b].seat > x.seat))) {
            keys[b + 1] = keys[b];
            b--;
        }
        keys[b + 1] = x;
    }
    if (ln_cols.nh >= LN_MAX_HANDS) Py_RETURN_NONE;
    if (ln_cols_reserve(ln_cols.nh + 1) < 0) return PyErr_NoMemory();
    ln_span deal, result;
    ln_parser lp = {s, 0, 0, 0, 1};
    PyObject *hand_id = NULL;
    int got = ln_hand_id(e, &lp, h, &deal, &result, &hand_id);
    if (got < 0) return NULL;
    if (!got) Py_RETURN_NONE;
    const char *buf = e->canon;
    PyObject *out = NULL, *score = NULL, *deal_s = NULL, *result_s = NULL, *notes = NULL;
    PyObject *scores = NULL, *items = NULL, *details = NULL, *lines = NULL, *totals = NULL;
    deal_s = PyUnicode_DecodeASCII(buf + deal.off, deal.len, NULL);
    result_s = PyUnicode_DecodeASCII(buf + result.off, result.len, NULL);
    notes = h->has_notes ? ln_pytext(s, h->notes) : (Py_INCREF(Py_None), Py_None);
    scores = PyTuple_New(n);
    items = PyTuple_New(h->nitems);
    lines = PyTuple_New(r.nlines);
    totals = PyTuple_New(n);
    details = PyList_New(0);
    if (!deal_s || !result_s || !notes || !scores || !items || !details || !lines || !totals)
        goto done;
    for (int j = 0; j < r.nlines; j++) {
        int it = r.lines[j].item, code = it >= 0 ? it : ni + (-it - 1);
        PyObject *e2 = Py_BuildValue("(Oii)", PyTuple_GET_ITEM(g->names, code), r.lines[j].seat,
                                     r.lines[j].value);
        if (!e2) goto done;
        PyTuple_SET_ITEM(lines, j, e2);
    }
    for (int t = 0; t < n; t++) {
        PyObject *v = PyLong_FromLongLong(h->scores[t]), *w = PyLong_FromLong(r.totals[t]);
        if (!v || !w) {
            Py_XDECREF(v);
            Py_XDECREF(w);
            goto done;
        }
        PyTuple_SET_ITEM(scores, t, v);
        PyTuple_SET_ITEM(totals, t, w);
    }
    score = Py_BuildValue("(OOOOOOO)", Py_None, Py_None, Py_None, Py_None, lines, totals,
                          Py_None);
    if (!score) goto done;
    for (int j = 0; j < h->nitems; j++) {
        PyObject *name = ln_pystr(s, h->items[j].item);
        if (!name) goto done;
        PyObject *e2 = Py_BuildValue("(NiL)", name, h->items[j].seat, h->items[j].value);
        if (!e2) goto done;
        PyTuple_SET_ITEM(items, j, e2);
    }
    for (int i = 0; i < h->nacts; i++) {
        PyObject *row = rh_details(s, &h->acts[i], i, hand_id, e->tokens);
        if (!row) goto done;
        if (row != Py_None && PyList_Append(details, row) < 0) {
            Py_DECREF(row);
            goto done;
        }
        Py_DECREF(row);
    }
    out = Py_BuildValue("(OOOiiOiOOOOO)", hand_id, deal_s, result_s, h->number, d, notes,
                        h->nacts, score, scores, items, Py_None, details);
    if (out) { /* the session's carry, then the columns */
        if (g->parity < 0) g->parity = d % 2;
        g->have_prev = 1;
        g->prev_number = h->number;
        g->prev_dealer = d;
        g->prev_thrown = r.thrown_in;
        g->games += !r.thrown_in;
        for (int t = 0; t < n; t++) {
            int q = ln_cols.nhs++;
            ln_cols.h_seat[q] = (unsigned char)t;
            ln_cols.h_role[q] = LN_ROLE_UNKNOWN; /* no declarer: process._role's "unknown" */
            ln_cols.h_rec[q] = (int32_t)h->scores[t];
            ln_cols.h_rcp[q] = r.totals[t];
            ln_cols.h_before[q] = -1; /* (no radelci in this game: null) */
            ln_cols.h_after[q] = -1;
        }
        ln_cols.s_count[ln_cols.nh] = (unsigned char)nk;
        for (int j = 0; j < nk; j++) {
            int q = ln_cols.nsi++;
            ln_cols.s_item[q] = (unsigned char)keys[j].item;
            ln_cols.s_seat[q] = (unsigned char)keys[j].seat;
            ln_cols.s_has_seat[q] = 1;
            ln_cols.s_rec[q] = keys[j].rec;
            ln_cols.s_has_rec[q] = h->nitems > 0;
            ln_cols.s_rcp[q] = keys[j].rcp;
            ln_cols.s_has_rcp[q] = r.nlines > 0;
        }
        ln_cols.a_count[ln_cols.nh] = (unsigned char)h->nacts;
        ln_cols.t_count[ln_cols.nh] = (unsigned char)r.ntricks;
        ln_cols.nh++;
        for (int i = 0; i < h->nacts; i++) {
            const ln_action *a = &h->acts[i];
            int q = ln_cols.na++;
            ln_cols.a_idx[q] = (uint16_t)i;
            ln_cols.a_seat[q] = a->seat;
            ln_cols.a_type[q] = a->type;
            ln_cols.a_card[q] = a->type == SH_PLAY ? (unsigned char)a->card : 255;
        }
        for (int t = 0; t < r.ntricks; t++) {
            const rt_trick *tr = &r.tricks[t];
            int q = ln_cols.nt++;
            ln_cols.t_no[q] = (uint16_t)(t + 1);
            ln_cols.t_leader[q] = (unsigned char)tr->seats[0];
            ln_cols.t_winner[q] = (unsigned char)tr->winner;
            ln_cols.t_points[q] = 0; /* (Royal Tarock counts no card points) */
            ln_cols.t_n[q] = 4;
            for (int j = 0; j < 4; j++) {
                ln_cols.t_seat[ln_cols.nc] = (unsigned char)tr->seats[j];
                ln_cols.t_card[ln_cols.nc++] = (unsigned char)tr->cards[j];
            }
        }
    }
done:
    Py_DECREF(hand_id);
    Py_XDECREF(deal_s);
    Py_XDECREF(result_s);
    Py_XDECREF(notes);
    Py_XDECREF(score);
    Py_XDECREF(scores);
    Py_XDECREF(items);
    Py_XDECREF(details);
    Py_XDECREF(lines);
    Py_XDECREF(totals);
    return out;
}

/* The lane table of native.py (``score_config`` of the lane): per catalogue item its
 * Meldung parameters' names, then the conditions' strings: names separated by 0x1f, items by
 * 0x1e, the strings after a 0x1d. 0, or -1 with an exception set. */
static int rh_lane_table(rh_lane_game *g, const char *t, int len, int nitems) {
    int item = 0, i = 0, in_strings = 0;
    g->nstr = 0;
    for (int j = 0; j < RH_MAX_ITEMS; j++) g->np[j] = 0;
    while (i < len) {
        int k = i;
        while (k < len && t[k] != 0x1f && t[k] != 0x1e && t[k] != 0x1d) k++;
        if (k > i || (in_strings && k < len && t[k] == 0x1f)) {
            if (in_strings) {
                if (g->nstr >= RH_MAX_STRINGS) goto bad;
                g->str[g->nstr] = t + i;
                g->strlen_[g->nstr++] = k - i;
            } else {
                if (item >= nitems || g->np[item] >= RH_MAX_PARAMS) goto bad;
                g->pname[item][g->np[item]] = t + i;
                g->pnamelen[item][g->np[item]++] = k - i;
            }
        }
        if (k < len && t[k] == 0x1e) item++;
        if (k < len && t[k] == 0x1d) in_strings = 1;
        i = k + 1;
    }
    return 0;
bad:
    PyErr_SetString(PyExc_ValueError, "royal_lane_hands: a bad lane table");
    return -1;
}

/* royal_lane_hands(line, start, stop, config, table, names, tokens, prefix, suffix, sha256,
 * pairs, first_dealer, match_length) -> None (decline: the careful path reads the session) or (hands,
 * columns): lane_hands for a Royal Tarock record, each game played by royalhand.h. `names`:
 * the catalogue's ids in its order, then "consolation", "kontra", "cap" (the score items by
 * the columns' codes); `table`: native.py's lane table; `pairs`: the recorded pairs
 * ((Abfänger, Eintreiber) of A, of B) or None; `first_dealer`: the recorded one or -1;
 * `match_length`: a session of fewer games is declined (the reference notes an incomplete
 * match: RoyalEngine.session_notes). An entry per hand as lane_hands' (no contract,
 * declarer or radelci: None). */
static PyObject *py_royal_lane_hands(PyObject *self, PyObject *args) {
    Py_buffer buf;
    int hs, he, first_dealer, match_length;
    PyObject *config_o, *table_o, *names, *tokens, *sha256, *pairs_o;
    Py_buffer prefix, suffix;
    if (!PyArg_ParseTuple(args, "y*iiO!O!O!O!y*y*OOii", &buf, &hs, &he, &PyBytes_Type,
                          &config_o, &PyBytes_Type, &table_o, &PyTuple_Type, &names,
                          &PyTuple_Type, &tokens, &prefix, &suffix, &sha256, &pairs_o,
                          &first_dealer, &match_length))
        return NULL;
    PyObject *out = NULL;
    static rh_lane_game g;
    memset(&g, 0, sizeof g);
    if (PyBytes_GET_SIZE(config_o) != (Py_ssize_t)sizeof(rh_config)) {
        PyErr_SetString(PyExc_ValueError, "not a royal_config");
        goto end;
    }
    g.c = (const rh_config *)PyBytes_AS_STRING(config_o);
    Py_ssize_t nn = PyTuple_GET_SIZE(names);
    if (nn != g.c->nitems + 3) {
        PyErr_SetString(PyExc_ValueError, "royal_lane_hands: a name per item, then three");
        goto end;
    }
    g.nnames = (int)nn;
    g.names = names;
    for (int j = 0; j < g.nnames; j++) {
        Py_ssize_t len;
        g.name[j] = PyUnicode_AsUTF8AndSize(PyTuple_GET_ITEM(names, j), &len);
        if (!g.name[j]) goto end;
        g.namelen[j] = (int)len;
    }
    for (int j = 0; j < g.nnames; j++) { /* each name's place in alphabetical order */
        int r = 0;
        for (int m = 0; m < g.nnames; m++) r += strcmp(g.name[m], g.name[j]) < 0;
        g.rank[j] = r;
    }
    if (rh_lane_table(&g, PyBytes_AS_STRING(table_o), (int)PyBytes_GET_SIZE(table_o),
                      g.c->nitems) < 0)
        goto end;
    if (g.nstr != g.c->nstrings) {
        PyErr_SetString(PyExc_ValueError, "royal_lane_hands: the strings are not the config's");
        goto end;
    }
    if (pairs_o != Py_None) {
        if (!PyArg_ParseTuple(pairs_o, "(ii)(ii)", &g.pairs[0][0], &g.pairs[0][1],
                              &g.pairs[1][0], &g.pairs[1][1]))
            goto end;
        g.has_pairs = 1;
    }
    g.first_dealer = first_dealer;
    g.match_length = match_length;
    g.parity = -1;
    ln_parser mode = {NULL, 0, 0, 0, 1};
    out = ln_game_session(&buf, hs, he, mode, names, tokens, &prefix, &suffix, sha256,
                          rh_hand_py, &g, NULL);
    if (out && out != Py_None && g.games < g.match_length) { /* an incomplete match */
        Py_DECREF(out);
        out = (Py_INCREF(Py_None), Py_None);
    }
end:
    PyBuffer_Release(&buf);
    PyBuffer_Release(&prefix);
    PyBuffer_Release(&suffix);
    return out;
}

/* the interned names of the Zwanzigerrufen lane (at import); -1 when memory ran out */
static int zr_lane_init(void) {
    for (int j = 0; j < ZR_NITEMS; j++) {
        zr_item_names[j] = PyUnicode_InternFromString(ZR_ITEM_NAMES[j]);
        if (!zr_item_names[j]) return -1;
        zr_item_rank[j] = 0;
        for (int i = 0; i < ZR_NITEMS; i++)
            if (strcmp(ZR_ITEM_NAMES[i], ZR_ITEM_NAMES[j]) < 0) zr_item_rank[j]++;
    }
    return 0;
}

/* ======================================================================================
 * Royal Tarock: the native engine (royalhand.h), its codec by field name, and its binding.
 * ====================================================================================== */

/* the kinds of rh_config's fields: one int, or an int per catalogue item, per binding, per
 * int of the compiled conditions, per string of the conditions (each list's length sets its
 * count: nitems, nbindings, ncode, nstrings; every field of one kind the same length) */
enum { RF_INT, RF_ITEMS, RF_ITEM_MASKS, RF_BINDINGS, RF_CODE, RF_STRINGS, RF_NKINDS };
static const char *const RF_KIND[RF_NKINDS] = {"int",      "items", "item_masks",
                                               "bindings", "code",  "strings"};
static const int RF_MAX[RF_NKINDS] = {1, RH_MAX_ITEMS, RH_MAX_ITEMS, RH_MAX_BINDINGS, RH_MAX_CODE,
                                      RH_MAX_STRINGS};
/* the count each kind sets (item masks: one per item too) */
static const int RF_COUNTS_AS[RF_NKINDS] = {RF_INT, RF_ITEMS, RF_ITEMS, RF_BINDINGS, RF_CODE,
                                            RF_STRINGS};
static const size_t RF_COUNT[RF_NKINDS] = {0,
                                           offsetof(rh_config, nitems),
                                           offsetof(rh_config, nitems),
                                           offsetof(rh_config, nbindings),
                                           offsetof(rh_config, ncode),
                                           offsetof(rh_config, nstrings)};

/* a sequence of at most `max` ints as 64-bit masks (an int's low 64 bits); the count or -1 */
static int read_masks(PyObject *seq, uint64_t *out, int max, const char *what) {
    PyObject *f = PySequence_Fast(seq, what);
    if (!f) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(f);
    if (n > max) {
        Py_DECREF(f);
        PyErr_Format(PyExc_ValueError, "%s: at most %d masks", what, max);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *x = PySequence_Fast_GET_ITEM(f, i);
        if (!PyLong_Check(x)) {
            Py_DECREF(f);
            PyErr_Format(PyExc_TypeError, "%s: an int mask expected", what);
            return -1;
        }
        out[i] = (uint64_t)PyLong_AsUnsignedLongLongMask(x);
        if (PyErr_Occurred()) {
            Py_DECREF(f);
            return -1;
        }
    }
    Py_DECREF(f);
    return (int)n;
}

static const cf_field RH_CONFIG_FIELDS[] = {
    CF(rh_config, xix_recipient, RF_INT),
    CF(rh_config, raise_voids_contra, RF_INT),
    CF(rh_config, contra_limit, RF_INT),
    CF(rh_config, contra_limit_mode, RF_INT),
    CF(rh_config, cap, RF_INT),
    CF(rh_config, trophy_cap_order, RF_INT),
    CF(rh_config, lauer_rule, RF_INT),
    CF(rh_config, meld_only_turn_resets, RF_INT),
    CF(rh_config, consolation_known, RF_INT),
    CF(rh_config, consolation_att_value, RF_INT),
    CF(rh_config, consolation_def_value, RF_INT),
    CF(rh_config, obscur_item, RF_INT),
    CF(rh_config, lauer_item, RF_INT),
    CF(rh_config, group, RF_ITEMS),
    CF(rh_config, announceable, RF_ITEMS),
    CF(rh_config, direct_announcement_allowed, RF_ITEMS),
    CF(rh_config, silent, RF_ITEMS),
    CF(rh_config, contra_allowed, RF_ITEMS),
    CF(rh_config, exclusive, RF_ITEMS),
    CF(rh_config, disables_obscur, RF_ITEMS),
    CF(rh_config, value_known, RF_ITEMS),
    CF(rh_config, value, RF_ITEMS),
    CF(rh_config, contra_value_known, RF_ITEMS),
    CF(rh_config, contra_value, RF_ITEMS),
    CF(rh_config, raises, RF_ITEM_MASKS),
    CF(rh_config, suppresses, RF_ITEM_MASKS),
    CF(rh_config, replaced_by, RF_ITEM_MASKS),
    CF(rh_config, names_lauer_card, RF_ITEMS),
    CF(rh_config, param_kinds, RF_ITEMS),
    CF(rh_config, distinct_by, RF_ITEMS),
    CF(rh_config, cond_start, RF_ITEMS),
    CF(rh_config, cond_len, RF_ITEMS),
    CF(rh_config, bind_start, RF_ITEMS),
    CF(rh_config, bind_count, RF_ITEMS),
    CF(rh_config, bind_card, RF_BINDINGS),
    CF(rh_config, bind_trick, RF_BINDINGS),
    CF(rh_config, code, RF_CODE),
    CF(rh_config, str_suit, RF_STRINGS),
    CF(rh_config, str_size, RF_STRINGS),
    {NULL, 0, 0}};

/* the names royalhand.h numbers (native.py checks them at import) */
static const char *const RH_GROUP_NAMES[RH_NGROUPS] = {
    "meldung", "material", "silent", "free_tricks", "bound", "trophy", "schlemm"};
static const char *const RH_KIND_NAMES[RH_NKINDS] = {"pass", "meld", "announce", "kontra",
                                                     "play", "throw_in"};
static const char *const RH_OP_NAMES[RH_NOPS] = {
    "true", "false", "none", "int", "str", "param", "hand_count", "suit_size", "home_all",
    "home_any", "home_from_opponents", "tricks_at_least", "first_to_tricks", "first_n_tricks",
    "trick_won_with", "hand_all", "hand_any", "cmp", "and", "or", "not"};
static const char *const RH_PARAM_KINDS[] = {"", "suit", "int", "bool", "str"};
static const char *const RH_TAGS[] = {"none", "int", "bool", "str"};
static const char *const RH_SPECIAL_LINES[] = {"consolation", "kontra", "cap"};

static PyObject *rh_names(const cf_field *spec) {
    Py_ssize_t n = 0;
    while (spec[n].name) n++;
    PyObject *out = PyTuple_New(n);
    if (!out) return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *pair = Py_BuildValue("(ss)", spec[i].name, RF_KIND[spec[i].kind]);
        if (!pair) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, i, pair);
    }
    return out;
}

/* royal_config_fields() -> {"config": ((name, kind), ...), "groups", "kinds", "ops",
 * "param_kinds", "tags", "lines": the names royalhand.h numbers} */
static PyObject *py_royal_config_fields(PyObject *self, PyObject *noargs) {
    PyObject *a = rh_names(RH_CONFIG_FIELDS), *g = zr_strings(RH_GROUP_NAMES, RH_NGROUPS),
             *k = zr_strings(RH_KIND_NAMES, RH_NKINDS), *o = zr_strings(RH_OP_NAMES, RH_NOPS),
             *p = zr_strings(RH_PARAM_KINDS, 5), *t = zr_strings(RH_TAGS, 4),
             *l = zr_strings(RH_SPECIAL_LINES, 3);
    PyObject *out = (a && g && k && o && p && t && l)
                        ? Py_BuildValue("{sOsOsOsOsOsOsO}", "config", a, "groups", g, "kinds", k,
                                        "ops", o, "param_kinds", p, "tags", t, "lines", l)
                        : NULL;
    Py_XDECREF(a);
    Py_XDECREF(g);
    Py_XDECREF(k);
    Py_XDECREF(o);
    Py_XDECREF(p);
    Py_XDECREF(t);
    Py_XDECREF(l);
    return out;
}

/* royal_config(fields) -> bytes: the rh_config, from a dict of the fields RH_CONFIG_FIELDS
 * names (rules/royal/native.py): every field present, no other key */
static PyObject *py_royal_config(PyObject *self, PyObject *fields) {
    static rh_config c;
    memset(&c, 0, sizeof c);
    if (!PyDict_Check(fields)) {
        PyErr_SetString(PyExc_TypeError, "royal_config: a dict of fields by name expected");
        return NULL;
    }
    int count[RF_NKINDS] = {1, -1, -1, -1, -1, -1};
    Py_ssize_t nfields = 0;
    for (const cf_field *f = RH_CONFIG_FIELDS; f->name; f++, nfields++) {
        PyObject *v = PyDict_GetItemString(fields, f->name); /* borrowed */
        if (!v) {
            PyErr_Format(PyExc_KeyError, "royal_config: field %s missing", f->name);
            return NULL;
        }
        int *dst = (int *)((char *)&c + f->offset);
        if (f->kind == RF_INT) {
            if (cf_int(v, dst, "royal_config", f->name) < 0) return NULL;
            continue;
        }
        int m = f->kind == RF_ITEM_MASKS
                    ? read_masks(v, (uint64_t *)dst, RF_MAX[f->kind], f->name)
                    : read_ints(v, dst, RF_MAX[f->kind], f->name);
        if (m < 0) return NULL;
        int as = RF_COUNTS_AS[f->kind];
        if (count[as] >= 0 && count[as] != m) {
            PyErr_Format(PyExc_ValueError, "royal_config: field %s has %d entries, not %d",
                         f->name, m, count[as]);
            return NULL;
        }
        count[as] = m;
        *(int *)((char *)&c + RF_COUNT[f->kind]) = m;
    }
    if (PyDict_GET_SIZE(fields) != nfields) {
        PyErr_SetString(PyExc_KeyError, "royal_config: a field the engine does not read");
        return NULL;
    }
    for (int i = 0; i < c.nitems; i++) {
        int bad = c.group[i] < 0 || c.group[i] >= RH_NGROUPS || c.bind_start[i] < 0 ||
                  c.bind_count[i] < 0 || c.bind_start[i] + c.bind_count[i] > c.nbindings ||
                  (c.cond_len[i] >= 0 &&
                   (c.cond_start[i] < 0 || c.cond_start[i] + c.cond_len[i] > c.ncode));
        if (bad) {
            PyErr_Format(PyExc_ValueError, "royal_config: item %d out of its tables", i);
            return NULL;
        }
    }
    for (int i = 0; i < c.nbindings; i++)
        if (c.bind_card[i] < 0 || c.bind_card[i] >= TK_NCARDS) {
            PyErr_SetString(PyExc_ValueError, "royal_config: a bound card is no card id");
            return NULL;
        }
    if (c.obscur_item >= c.nitems || c.lauer_item >= c.nitems) {
        PyErr_SetString(PyExc_ValueError, "royal_config: obscur_item/lauer_item out of range");
        return NULL;
    }
    return PyBytes_FromStringAndSize((const char *)&c, sizeof c);
}

/* royal_hand(config, dealer, parties, hands, actions) -> None (the reference takes the game)
 * or (thrown_in, opener, tricks ((seats, cards, winner), ...), (tricks of the attackers, of
 * the defenders), totals, lines ((item, seat, value), ...)): one whole clean game through
 * royalhand.h. parties: ((Abfänger, Eintreiber) of the attackers, of the defenders); hands:
 * four sequences of card ids; actions: (kind, seat, item, card, raises, level, then per
 * parameter slot tag and value) per action (rules/royal/native.py encodes them); a line's
 * item is the catalogue index, or -1 consolation, -2 kontra, -3 cap. */
static PyObject *py_royal_hand(PyObject *self, PyObject *args) {
    PyObject *config_o, *parties_o, *hands_o, *actions_o;
    int dealer;
    if (!PyArg_ParseTuple(args, "OiOOO", &config_o, &dealer, &parties_o, &hands_o, &actions_o))
        return NULL;
    if (!PyBytes_Check(config_o) || PyBytes_GET_SIZE(config_o) != (Py_ssize_t)sizeof(rh_config)) {
        PyErr_SetString(PyExc_ValueError, "not a royal_config");
        return NULL;
    }
    const rh_config *c = (const rh_config *)PyBytes_AS_STRING(config_o);
    int pv[4], parties[2][2];
    if (!PyArg_ParseTuple(parties_o, "(ii)(ii)", &pv[0], &pv[1], &pv[2], &pv[3])) return NULL;
    parties[0][0] = pv[0];
    parties[0][1] = pv[1];
    parties[1][0] = pv[2];
    parties[1][1] = pv[3];
    tk_set dealt[4];
    int got = read_four_id_hands(hands_o, dealt);
    if (got < 0) return NULL;
    if (got == 0) Py_RETURN_NONE;
    PyObject *af = PySequence_Fast(actions_o, "actions");
    if (!af) return NULL;
    Py_ssize_t na = PySequence_Fast_GET_SIZE(af);
    if (na > RH_MAX_ACTIONS) {
        Py_DECREF(af);
        Py_RETURN_NONE;
    }
    static rh_action acts[RH_MAX_ACTIONS];
    for (Py_ssize_t i = 0; i < na; i++) {
        int v[6 + 2 * RH_MAX_PARAMS];
        int want = 6 + 2 * RH_MAX_PARAMS;
        if (read_ints(PySequence_Fast_GET_ITEM(af, i), v, want, "action") != want) {
            Py_DECREF(af);
            if (!PyErr_Occurred()) PyErr_Format(PyExc_ValueError, "an action has %d ints", want);
            return NULL;
        }
        rh_action *x = &acts[i];
        x->kind = v[0];
        x->seat = v[1];
        x->item = v[2];
        x->card = v[3];
        x->raises = v[4];
        x->level = v[5];
        for (int k = 0; k < RH_MAX_PARAMS; k++) {
            x->params[k].tag = v[6 + 2 * k];
            x->params[k].v = v[7 + 2 * k];
        }
        if (x->kind < 0 || x->kind >= RH_NKINDS || x->seat < 0 || x->seat > 3) {
            Py_DECREF(af);
            Py_RETURN_NONE;
        }
    }
    Py_DECREF(af);
    static rh_result r;
    if (rh_hand(c, dealer, (const int(*)[2])parties, dealt, acts, (int)na, &r) < 0)
        Py_RETURN_NONE;
    PyObject *tricks = PyTuple_New(r.ntricks), *lines = PyTuple_New(r.nlines);
    if (!tricks || !lines) goto fail;
    for (int t = 0; t < r.ntricks; t++) {
        const rt_trick *tr = &r.tricks[t];
        PyObject *e = Py_BuildValue("((iiii)(iiii)i)", tr->seats[0], tr->seats[1], tr->seats[2],
                                    tr->seats[3], tr->cards[0], tr->cards[1], tr->cards[2],
                                    tr->cards[3], tr->winner);
        if (!e) goto fail;
        PyTuple_SET_ITEM(tricks, t, e);
    }
    for (int j = 0; j < r.nlines; j++) {
        PyObject *e = Py_BuildValue("(iii)", r.lines[j].item, r.lines[j].seat, r.lines[j].value);
        if (!e) goto fail;
        PyTuple_SET_ITEM(lines, j, e);
    }
    return Py_BuildValue("(OiN(ii)(iiii)N)", r.thrown_in ? Py_True : Py_False, r.opener, tricks,
                         r.tricks_won[0], r.tricks_won[1], r.totals[0], r.totals[1], r.totals[2],
                         r.totals[3], lines);
fail:
    Py_XDECREF(tricks);
    Py_XDECREF(lines);
    return NULL;
}


/* ======================================================================================
 * (end of the Zwanzigerrufen section)
 * ====================================================================================== */

static PyMethodDef module_methods[] = {
    {"legal", py_legal, METH_VARARGS, "legal(hand, trick, rules) -> mask of the legal cards"},
    {"winner", py_winner, METH_VARARGS, "winner(trick, colour_valat) -> index of the winner"},
    {"thirds", py_thirds, METH_VARARGS, "thirds(mask) -> card points of the pile in thirds"},
    {"tables", py_tables, METH_NOARGS, "tables() -> per card id (suit, strength, points)"},
    {"openspiel_returns", py_openspiel_returns, METH_VARARGS,
     "openspiel_returns(n, kind, value, k, declarer, partner, called_king, talon, talon_group, "
     "discards, tricks, cid) -> None or OpenSpiel's returns per seat"},
    {"zr_play_cards", py_zr_play_cards, METH_VARARGS,
     "zr_play_cards(hands, actions, start, leader, rules, cid) -> None or the ten tricks of a "
     "Zwanzigerrufen hand: the card loop of zrloop.h"},
    {"royal_play_cards", py_royal_play_cards, METH_VARARGS,
     "royal_play_cards(hands, actions, start, leader, bound, cid) -> None or the ten tricks of "
     "a Royal Tarock hand: the card loop of royalloop.h"},
    {"slovenian_config_fields", py_slovenian_config_fields, METH_NOARGS,
     "slovenian_config_fields() -> {'config': ((name, kind), ...), 'score_config': ..., "
     "'play_rules': ...}: the fields the two configs read by name"},
    {"slovenian_config", py_slovenian_config, METH_O,
     "slovenian_config(fields: dict) -> bytes: the ruleset's side of slovenian_hand, by field "
     "name"},
    {"slovenian_score_config", py_slovenian_score_config, METH_O,
     "slovenian_score_config(fields: dict) -> bytes: the ruleset's side of the lane's scoring "
     "(sloscore.h), by field name"},
    {"slovenian_hand", py_slovenian_hand, METH_VARARGS,
     "slovenian_hand(config, dealer, hands, talon, actions, kinds, contracts, cid) -> None or "
     "one whole clean hand's result: slohand.h"},
    {"slovenian_score", py_slovenian_score, METH_VARARGS,
     "slovenian_score(config, score_config, dealer, hands, talon, actions, kinds, contracts, cid, "
     "names, radelci) -> None or one clean hand's itemised score: slohand.h and sloscore.h"},
    {"lane_envelope", py_lane_envelope, METH_VARARGS,
     "lane_envelope(line) -> None or (start, stop) of the record's hands array: lane.h"},
    {"lane_hands", py_lane_hands, METH_VARARGS,
     "lane_hands(line, start, stop, config, score_config, contracts, tokens, prefix, suffix, "
     "sha256[, carry]) -> None or the hands of the record read, replayed and hashed, and their "
     "columns[, the stop at a hand the engine declines]: lane.h"},
    /* Zwanzigerrufen's native engine (zrhand.h) */
    {"zwanzigerrufen_config_fields", py_zwanzigerrufen_config_fields, METH_NOARGS,
     "zwanzigerrufen_config_fields() -> {'config': ((name, kind), ...), 'bonuses': ..., "
     "'items': ..., 'claims': ..., 'kinds': ...}: what zrhand.h reads by name"},
    {"zwanzigerrufen_config", py_zwanzigerrufen_config, METH_O,
     "zwanzigerrufen_config(fields: dict) -> bytes: the ruleset's side of zrhand.h"},
    {"zwanzigerrufen_lane_hands", py_zwanzigerrufen_lane_hands, METH_VARARGS,
     "zwanzigerrufen_lane_hands(line, start, stop, config, score_config, contracts, tokens, "
     "prefix, suffix, sha256[, carry]) -> None or the hands of a Zwanzigerrufen record read, "
     "replayed and hashed, and their columns[, the stop at a hand zrhand.h declines]: lane.h and "
     "zrhand.h"},
    {"zwanzigerrufen_hand", py_zwanzigerrufen_hand, METH_VARARGS,
     "zwanzigerrufen_hand(config, dealer, hands, actions, carry) -> None or one whole clean "
     "hand's result: zrhand.h"},
    {"prepare_actions", py_prepare_actions, METH_VARARGS,
     "prepare_actions(actions, pack, plays, shared, scalar) -> None or (actions, places): the "
     "reader's cached action models (log/validate.py, prepare_actions_py)"},
    {"royal_config_fields", py_royal_config_fields, METH_NOARGS,
     "royal_config_fields() -> {'config': ((name, kind), ...), 'groups': ..., 'kinds': ..., "
     "'ops': ...}: the fields and names of royalhand.h"},
    {"royal_config", py_royal_config, METH_O,
     "royal_config(fields: dict) -> bytes: the ruleset's and catalogue's side of royalhand.h"},
    {"royal_lane_hands", py_royal_lane_hands, METH_VARARGS,
     "royal_lane_hands(line, start, stop, config, table, names, tokens, prefix, suffix, sha256, "
     "pairs, first_dealer, match_length) -> None or lane_hands for a Royal Tarock record (royalhand.h)"},
    {"royal_hand", py_royal_hand, METH_VARARGS,
     "royal_hand(config, dealer, parties, hands, actions) -> None or one whole clean Royal "
     "Tarock game through royalhand.h"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT, "_core",
    "The native core: card sets as 64-bit masks and the perfect-information solver.", -1,
    module_methods,
};

PyMODINIT_FUNC PyInit__core(void) {
    if (PyType_Ready(&SolverType) < 0) return NULL;
    s_type = PyUnicode_InternFromString("type");
    s_seat = PyUnicode_InternFromString("seat");
    s_card = PyUnicode_InternFromString("card");
    s_contract = PyUnicode_InternFromString("contract");
    s_group = PyUnicode_InternFromString("group");
    s_cards = PyUnicode_InternFromString("cards");
    s_shown = PyUnicode_InternFromString("shown");
    s_note = PyUnicode_InternFromString("note");
    s_bonus = PyUnicode_InternFromString("bonus");
    s_target = PyUnicode_InternFromString("target");
    s_level = PyUnicode_InternFromString("level");
    sh_names[0] = PyUnicode_InternFromString("game");
    for (int b = 0; b < SH_NBONUS; b++) {
        sh_names[1 + b] = PyUnicode_InternFromString(SH_BONUS_NAMES[b]);
        if (!sh_names[1 + b]) return NULL;
    }
    s_side_m = PyUnicode_InternFromString("M");
    s_side_o = PyUnicode_InternFromString("O");
    for (int j = 0; j < SI_NITEMS; j++) {
        si_names[j] = PyUnicode_InternFromString(SI_NAMES[j]);
        if (!si_names[j]) return NULL;
    }
    for (int j = 0; j < LN_NITEMS; j++) { /* alphabetical places */
        ln_item_rank[j] = 0;
        for (int i = 0; i < LN_NITEMS; i++)
            if (strcmp(LN_ITEM_NAMES[i], LN_ITEM_NAMES[j]) < 0) ln_item_rank[j]++;
    }
    if (!sh_names[0] || !s_side_m || !s_side_o) return NULL;
    if (zr_lane_init() < 0) return NULL; /* (Zwanzigerrufen's lane) */
    if (!s_type || !s_seat || !s_card || !s_contract || !s_group || !s_cards || !s_shown ||
        !s_note || !s_bonus || !s_target || !s_level)
        return NULL;
    PyObject *m = PyModule_Create(&core_module);
    if (!m) return NULL;
    Py_INCREF(&SolverType);
    if (PyModule_AddObject(m, "Solver", (PyObject *)&SolverType) < 0) {
        Py_DECREF(&SolverType);
        Py_DECREF(m);
        return NULL;
    }
    PyModule_AddIntConstant(m, "OBJECTIVE_INTS", TK_OBJECTIVE_INTS);
    return m;
}
