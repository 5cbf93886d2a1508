/*
 * Common Carrier's inner loop in C: count the plays of a two-card hand and draw one of them.
 *
 * An optional speed-up of cardgen/games/common_carrier.py, which has the same code in Python and
 * uses it wherever this module did not build. Each function here is a line-for-line copy of one
 * there, named in its comment; tests/test_common_carrier_fast.py holds the two to the same counts,
 * the same draws from the same random generator, and so the same games.
 *
 * Boards are the Python code's bit sets: bit r * W + c for the padded 11 x 11 grid, 121 cells, so
 * one unsigned __int128 holds a board. A left shift here drops the bits past 128 that Python's
 * would keep; none of them matters, since every set is cut to the inner 9 x 9 board (cells 12 to
 * 108) before it is counted. The sizes below are common_carrier.py's INNER, W and SPAN.
 *
 * Built against the stable ABI of Python 3.10, so one wheel serves every later Python.
 */
#define Py_LIMITED_API 0x030A0000
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

typedef unsigned __int128 u128;

#define INNER 9
#define W (INNER + 2)
#define SPAN 5
#define CENTER ((INNER / 2 + 1) * W + INNER / 2 + 1)

static const int SIDE_STEP[4] = {-W, 1, W, -1};
static const int DIAG_STEP[4] = {-W - 1, -W + 1, W - 1, W + 1};

static u128 ROW_SET[INNER], COL_SET[INNER], INNER_SET;
static PyObject *SIXTY_FOUR;

static inline int pc(u128 x) {
    return __builtin_popcountll((uint64_t)x) + __builtin_popcountll((uint64_t)(x >> 64));
}

/* x << s for s > 0, x >> -s otherwise */
static inline u128 shift(u128 x, int s) { return s >= 0 ? x << s : x >> -s; }

static int to_u128(PyObject *o, u128 *out) {
    uint64_t lo = PyLong_AsUnsignedLongLongMask(o);
    if (lo == (uint64_t)-1 && PyErr_Occurred()) return -1;
    PyObject *high = PyNumber_Rshift(o, SIXTY_FOUR);
    if (high == NULL) return -1;
    uint64_t hi = PyLong_AsUnsignedLongLongMask(high);
    Py_DECREF(high);
    if (hi == (uint64_t)-1 && PyErr_Occurred()) return -1;
    *out = ((u128)hi << 64) | lo;
    return 0;
}

/* _row, _col, _rows, _cols */
static u128 row_set(int r) { return r >= 0 && r < INNER ? ROW_SET[r] : 0; }
static u128 col_set(int c) { return c >= 0 && c < INNER ? COL_SET[c] : 0; }
static u128 rows(int lo, int hi, const u128 *sets) {
    u128 out = 0;
    for (int r = lo < 0 ? 0 : lo; r <= (hi < INNER - 1 ? hi : INNER - 1); r++) out |= sets[r];
    return out;
}

/* _near_set: where one oriented mask fits */
typedef struct {
    int mask, n, corner;
    u128 near, ex[4];
} Near;

/* _board_sets, and the state's _away and _fronts */
typedef struct {
    u128 occ, frontier, window, bad[8], away[4], fronts[4];
    int conflicts, box[4];
    int n_a, n_b;
    Near a[2], b[2];
    int64_t apart[2][2]; /* count_near's apart part per (a, b) orientation; -1 where not counted */
} Board;

static void board_sets(Board *s, u128 line[4], u128 halo, const int *box) {
    u128 occ = s->occ;
    s->conflicts = 0;
    if (!occ) {
        s->frontier = (u128)1 << CENTER;
        s->window = INNER_SET;
        memset(s->bad, 0, sizeof s->bad);
    } else {
        int r0 = box[0], r1 = box[1], c0 = box[2], c1 = box[3];
        s->window = rows(r1 - SPAN + 1, r0 + SPAN - 1, ROW_SET) & rows(c1 - SPAN + 1, c0 + SPAN - 1, COL_SET);
        s->frontier = halo & s->window;
        u128 f0 = line[2] << W, f1 = line[3] >> 1, f2 = line[0] >> W, f3 = line[1] << 1;
        s->bad[0] = f0;
        s->bad[1] = (occ << W) & ~f0;
        s->bad[2] = f1;
        s->bad[3] = (occ >> 1) & ~f1;
        s->bad[4] = f2;
        s->bad[5] = (occ >> W) & ~f2;
        s->bad[6] = f3;
        s->bad[7] = (occ << 1) & ~f3;
        s->conflicts = r1 - r0 == SPAN - 2 || c1 - c0 == SPAN - 2;
        memcpy(s->box, box, sizeof s->box);
    }
    u128 away = s->window & ~s->frontier, fr = s->frontier;
    s->away[0] = away << (W + 1);
    s->away[1] = away << (W - 1);
    s->away[2] = away >> (W - 1);
    s->away[3] = away >> (W + 1);
    s->fronts[0] = fr | fr << W;
    s->fronts[1] = fr | fr >> 1;
    s->fronts[2] = fr | fr >> W;
    s->fronts[3] = fr | fr << 1;
}

static void near_set(const Board *s, int mask, Near *out) {
    u128 b0 = s->bad[0 + (mask & 1)], b1 = s->bad[2 + (mask >> 1 & 1)];
    u128 b2 = s->bad[4 + (mask >> 2 & 1)], b3 = s->bad[6 + (mask >> 3 & 1)];
    u128 b01 = b0 | b1, b23 = b2 | b3, window = s->window;
    u128 fit = window & ~(b01 | b23);
    u128 near = fit & s->frontier, free = near & ~s->occ;
    out->mask = mask;
    out->near = near;
    out->n = pc(near);
    out->corner = 0;
    if (free)
        out->corner = pc(free & s->away[0]) + pc(free & s->away[1]) + pc(free & s->away[2]) + pc(free & s->away[3]);
    out->ex[0] = window & ~(b1 | b23);
    out->ex[1] = window & ~(b0 | b23);
    out->ex[2] = window & ~(b01 | b3);
    out->ex[3] = window & ~(b01 | b2);
}

/* CommonCarrierState._span_conflicts */
static int64_t span_conflicts(u128 pa, u128 pb, const int *box) {
    int r0 = box[0], r1 = box[1], c0 = box[2], c1 = box[3];
    int by_rows = r1 - r0 == SPAN - 2, by_cols = c1 - c0 == SPAN - 2;
    u128 v[2] = {row_set(r0 - 1), row_set(r1 + 1)}, h[2] = {col_set(c0 - 1), col_set(c1 + 1)};
    int64_t n = 0;
    if (by_rows) n += (int64_t)pc(pa & v[0]) * pc(pb & v[1]) + (int64_t)pc(pa & v[1]) * pc(pb & v[0]);
    if (by_cols) n += (int64_t)pc(pa & h[0]) * pc(pb & h[1]) + (int64_t)pc(pa & h[1]) * pc(pb & h[0]);
    if (by_rows && by_cols)
        for (int i = 0; i < 2; i++)
            for (int j = 0; j < 2; j++) n -= (int64_t)pc(pa & v[i] & h[j]) * pc(pb & v[1 - i] & h[1 - j]);
    return n;
}

/* CommonCarrierState._count_near, keeping the apart part as _apart does */
static int64_t count_near(Board *s, int ia, int ib) {
    const Near *A = &s->a[ia], *B = &s->b[ib];
    u128 pa = A->near, pb = B->near;
    int ma = A->mask, mb = B->mask;
    int64_t n = (int64_t)A->n * B->n - pc(pa & pb) - pc(pa & pb << W) - pc(pa & pb >> 1) - pc(pa & pb >> W)
                - pc(pa & pb << 1);
    if (s->conflicts) n -= span_conflicts(pa, pb, s->box);
    s->apart[ia][ib] = n;
    n += A->corner + B->corner;
    if (!((ma ^ (mb >> 2)) & 1)) n += pc(A->ex[0] & B->ex[2] << W & s->fronts[0]);
    if (!(((ma >> 1) ^ (mb >> 3)) & 1)) n += pc(A->ex[1] & B->ex[3] >> 1 & s->fronts[1]);
    if (!(((ma >> 2) ^ mb) & 1)) n += pc(A->ex[2] & B->ex[0] >> W & s->fronts[2]);
    if (!(((ma >> 3) ^ (mb >> 1)) & 1)) n += pc(A->ex[3] & B->ex[1] << 1 & s->fronts[3]);
    return n;
}

static int masks_of(PyObject *tuple, int *masks) {
    Py_ssize_t n = PyTuple_Size(tuple);
    if (n < 1 || n > 2) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "one or two orientations");
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        masks[i] = (int)PyLong_AsLong(PyTuple_GetItem(tuple, i));
        if (masks[i] == -1 && PyErr_Occurred()) return -1;
    }
    return (int)n;
}

/*
 * count(lines, occ, halo, box, a, b, pairs) -> (counts, board)
 *
 * The two-card part of CommonCarrierState._two_card_combos: lines the state's four line sets,
 * box its bounding box (None on an empty board), a and b the two cards' orientations, pairs the
 * (index into a, index into b) to count. board keeps what ``draw`` needs.
 */
static PyObject *count(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *lines, *occ_o, *halo_o, *box_o, *a_o, *b_o, *pairs;
    if (!PyArg_ParseTuple(args, "O!OOOO!O!O!", &PyList_Type, &lines, &occ_o, &halo_o, &box_o, &PyTuple_Type, &a_o,
                          &PyTuple_Type, &b_o, &PyTuple_Type, &pairs))
        return NULL;
    if (PyList_Size(lines) != 4 || (box_o != Py_None && (!PyTuple_Check(box_o) || PyTuple_Size(box_o) != 4))) {
        PyErr_SetString(PyExc_TypeError, "four line sets, and a box of four or None");
        return NULL;
    }
    PyObject *ctx = PyBytes_FromStringAndSize(NULL, sizeof(Board));
    if (ctx == NULL) return NULL;
    Board *s = (Board *)PyBytes_AsString(ctx);
    memset(s, 0, sizeof *s);
    u128 line[4], halo;
    int box[4] = {0, 0, 0, 0}, ma[2], mb[2];
    for (int i = 0; i < 4; i++)
        if (to_u128(PyList_GetItem(lines, i), &line[i]) < 0) goto fail;
    if (to_u128(occ_o, &s->occ) < 0 || to_u128(halo_o, &halo) < 0) goto fail;
    if (box_o != Py_None) {
        for (int i = 0; i < 4; i++) {
            box[i] = (int)PyLong_AsLong(PyTuple_GetItem(box_o, i));
            if (box[i] == -1 && PyErr_Occurred()) goto fail;
        }
    }
    if ((s->n_a = masks_of(a_o, ma)) < 0 || (s->n_b = masks_of(b_o, mb)) < 0) goto fail;
    memset(s->apart, 0xff, sizeof s->apart); /* -1: not counted */
    board_sets(s, line, halo, box);
    for (int i = 0; i < s->n_a; i++) near_set(s, ma[i], &s->a[i]);
    for (int i = 0; i < s->n_b; i++) near_set(s, mb[i], &s->b[i]);
    Py_ssize_t n = PyTuple_Size(pairs);
    PyObject *counts = PyTuple_New(n);
    if (counts == NULL) goto fail;
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *pair = PyTuple_GetItem(pairs, k);
        if (!PyTuple_Check(pair) || PyTuple_Size(pair) != 2) {
            PyErr_SetString(PyExc_TypeError, "pairs holds (index into a, index into b) pairs");
            Py_DECREF(counts);
            goto fail;
        }
        int ia = (int)PyLong_AsLong(PyTuple_GetItem(pair, 0)), ib = (int)PyLong_AsLong(PyTuple_GetItem(pair, 1));
        if (PyErr_Occurred() || ia < 0 || ia >= s->n_a || ib < 0 || ib >= s->n_b) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_IndexError, "orientation index out of range");
            Py_DECREF(counts);
            goto fail;
        }
        PyTuple_SetItem(counts, k, PyLong_FromLongLong(count_near(s, ia, ib)));
    }
    PyObject *out = PyTuple_New(2);
    if (out == NULL) {
        Py_DECREF(counts);
        goto fail;
    }
    PyTuple_SetItem(out, 0, counts);
    PyTuple_SetItem(out, 1, ctx);
    return out;
fail:
    Py_DECREF(ctx);
    return NULL;
}

/* _nth_bit: the n-th cell of x in increasing order */
static int nth_bit(u128 x, int n) {
    uint64_t lo = (uint64_t)x;
    int base = 0, k = __builtin_popcountll(lo);
    if (n >= k) {
        n -= k;
        lo = (uint64_t)(x >> 64);
        base = 64;
    }
    while (n--) lo &= lo - 1;
    return base + __builtin_ctzll(lo);
}

/* _below: rng.randrange(n), the same draw */
static int below(PyObject *getrandbits, int64_t n, int64_t *out) {
    int k = 64 - __builtin_clzll((uint64_t)n);
    PyObject *bits = PyLong_FromLong(k);
    if (bits == NULL) return -1;
    for (;;) {
        PyObject *r = PyObject_CallFunctionObjArgs(getrandbits, bits, NULL);
        if (r == NULL) break;
        int64_t v = PyLong_AsLongLong(r);
        Py_DECREF(r);
        if (v == -1 && PyErr_Occurred()) break;
        if (v < n) {
            Py_DECREF(bits);
            *out = v;
            return 0;
        }
    }
    Py_DECREF(bits);
    return -1;
}

/* CommonCarrierState._stretching */
static u128 stretching(int cell, const int *box) {
    int r0 = box[0], r1 = box[1], c0 = box[2], c1 = box[3];
    int r = cell / W - 1, c = cell % W - 1;
    u128 out = 0;
    if (r1 - r0 == SPAN - 2) {
        if (r == r0 - 1) out |= row_set(r1 + 1);
        else if (r == r1 + 1) out |= row_set(r0 - 1);
    }
    if (c1 - c0 == SPAN - 2) {
        if (c == c0 - 1) out |= col_set(c1 + 1);
        else if (c == c1 + 1) out |= col_set(c0 - 1);
    }
    return out;
}

/* CommonCarrierState._counted_pair */
static int counted_pair(const Board *s, const Near *A, const Near *B, int64_t index, int *x, int *y) {
    for (int held = 0; held < 2; held++) {
        u128 near = (held ? B->near : A->near) & ~s->occ;
        for (int k = 0; k < 4; k++) {
            u128 cells = near & s->away[k];
            int n = pc(cells);
            if (index < n) {
                int cell = nth_bit(cells, (int)index);
                *x = held ? cell + DIAG_STEP[k] : cell;
                *y = held ? cell : cell + DIAG_STEP[k];
                return 0;
            }
            index -= n;
        }
    }
    for (int side = 0; side < 4; side++) {
        int opp = (side + 2) % 4, step = SIDE_STEP[side];
        if (((A->mask >> side) & 1) != ((B->mask >> opp) & 1)) continue;
        u128 ones = A->ex[side] & shift(B->ex[opp], -step) & s->fronts[side];
        int n = pc(ones);
        if (index < n) {
            *x = nth_bit(ones, (int)index);
            *y = *x + step;
            return 0;
        }
        index -= n;
    }
    PyErr_SetString(PyExc_AssertionError, "index beyond the combination's count");
    return -1;
}

static int index_of(const Near *near, int n, int mask) {
    for (int i = 0; i < n; i++)
        if (near[i].mask == mask) return i;
    PyErr_SetString(PyExc_ValueError, "no such orientation was counted");
    return -1;
}

/*
 * draw(board, ma, mb, pick, getrandbits) -> (x, y)
 *
 * CommonCarrierState._sample_pair's cells for a on ma and b on mb, given a board from ``count``
 * that counted them: the same draws from getrandbits (a random.Random's), the same cells.
 */
static PyObject *draw(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *ctx, *getrandbits;
    int ma, mb;
    long long pick;
    if (!PyArg_ParseTuple(args, "SiiLO", &ctx, &ma, &mb, &pick, &getrandbits)) return NULL;
    if (PyBytes_Size(ctx) != (Py_ssize_t)sizeof(Board)) {
        PyErr_SetString(PyExc_ValueError, "not a board from count()");
        return NULL;
    }
    const Board *s = (const Board *)PyBytes_AsString(ctx);
    int ia = index_of(s->a, s->n_a, ma), ib;
    if (ia < 0 || (ib = index_of(s->b, s->n_b, mb)) < 0) return NULL;
    const Near *A = &s->a[ia], *B = &s->b[ib];
    /* two cards of a kind counted as (b, a) only: the same count, the two cells swapped */
    int64_t apart = s->apart[ia][ib] >= 0 ? s->apart[ia][ib] : s->apart[ib][ia];
    if (apart < 0) {
        PyErr_SetString(PyExc_ValueError, "this pair of orientations was not counted");
        return NULL;
    }
    int x, y;
    if (pick < apart) {
        int64_t na = A->n, nb = B->n, r;
        /* at least 1 in na * nb <= 81 * 81 draws is apart, so a million misses mean a wrong count */
        for (int tries = 0;; tries++) {
            if (tries == 1000000) {
                PyErr_SetString(PyExc_AssertionError, "no two cells apart: the count is wrong");
                return NULL;
            }
            if (below(getrandbits, na * nb, &r) < 0) return NULL;
            x = nth_bit(A->near, (int)(r / nb));
            y = nth_bit(B->near, (int)(r % nb));
            int d = y - x;
            if (d == 0 || d == 1 || d == -1 || d == W || d == -W) continue;
            if (s->conflicts && (stretching(x, s->box) >> y & 1)) continue;
            break;
        }
    } else if (counted_pair(s, A, B, pick - apart, &x, &y) < 0) {
        return NULL;
    }
    return Py_BuildValue("(ii)", x, y);
}

static PyMethodDef methods[] = {
    {"count", count, METH_VARARGS, "Count a two-card hand's plays: (counts, board)."},
    {"draw", draw, METH_VARARGS, "Draw the cells of one counted combination: (x, y)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_cc_fast", NULL, -1, methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__cc_fast(void) {
    INNER_SET = 0;
    for (int r = 0; r < INNER; r++) {
        ROW_SET[r] = COL_SET[r] = 0;
    }
    for (int r = 0; r < INNER; r++)
        for (int c = 0; c < INNER; c++) {
            u128 bit = (u128)1 << ((r + 1) * W + c + 1);
            INNER_SET |= bit;
            ROW_SET[r] |= bit;
            COL_SET[c] |= bit;
        }
    SIXTY_FOUR = PyLong_FromLong(64);
    if (SIXTY_FOUR == NULL) return NULL;
    return PyModule_Create(&module);
}
