/* The compiled twin of standgen.pairing.blossom.IncrementalMatching.
 *
 * The same algorithm, statement for statement (Galil's primal-dual blossom algorithm
 * with the incremental repairs of the Python class), so that every search visits the
 * same vertices in the same order and ends at the same matching and the same duals:
 * tests/test_blossom_compiled.py holds the two equal after every solve, duals and
 * blossoms included. Weights and duals are exact integers of L 64-bit limbs (two's
 * complement, limb 0 the lowest), L growing with the largest weight set: the Dutch
 * engine's weights hold its criteria one above the other and run to hundreds of bits.
 *
 * Vertices 0..n-1, blossoms n..2n-1; the graph is complete, edge k = (i, j), i < j,
 * numbered j(j-1)/2 + i; endpoint 2k is i, 2k+1 is j; vertex v's edges are scanned in
 * the order of the other end, 0..n-1 (the Python class's neighbend).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t limb;
typedef int64_t idx;  /* edge indices and endpoints */

#define MAXL 64      /* 4,096 bits: above that, the Python class */
#define HEADROOM 8   /* bits kept free above the largest doubled weight */

typedef struct {
    int *v;
    Py_ssize_t len, cap;
} ivec;

typedef struct {
    idx *v;
    Py_ssize_t len, cap;  /* len -1: None (bestedges) */
} evec;

typedef struct {
    PyObject_HEAD
    int n;
    int L;
    idx E;
    int scale_log;
    int maxbits;  /* of every weight stored or pending */
    limb *doubled;  /* E * L */
    limb *dual;     /* 2n * L */
    int *ei, *ej;
    idx *mate;      /* n */
    int *label;     /* 2n */
    idx *labelend;  /* 2n */
    int *inblossom; /* n */
    int *parent;    /* 2n */
    int *base;      /* 2n */
    idx *bestedge;  /* 2n */
    ivec *childs;   /* 2n */
    evec *endps;    /* 2n */
    evec *bestedges;/* 2n */
    ivec unused;
    ivec queue;
    uint32_t *allowed;      /* E: allowed in this stage when equal to stamp */
    uint32_t stamp;
    limb *bslack;           /* 2n * L: grow's slack of bestedge[x], kept while */
    idx *bslack_edge;       /* ... the edge is the same and ... */
    uint32_t *bslack_epoch; /* ... no dual changed (epoch) */
    uint32_t epoch;
    unsigned char *dirty;   /* n */
    unsigned char *dead;    /* n */
    int32_t *pendpos;       /* E: position in pending, or -1 */
    idx *pendk;             /* pending edges */
    limb *pendval;          /* pending weights, L each */
    Py_ssize_t npend, cappend;
    int keep_tight;
    ivec prime;
    limb *scratch;          /* 2n * L: add_blossom's least slacks */
} Matching;

/* ----- vectors ---------------------------------------------------------------------- */

static int ivec_push(ivec *a, int x) {
    if (a->len == a->cap) {
        Py_ssize_t cap = a->cap ? 2 * a->cap : 8;
        int *v = realloc(a->v, cap * sizeof(int));
        if (!v) return -1;
        a->v = v; a->cap = cap;
    }
    a->v[a->len++] = x;
    return 0;
}

static int evec_push(evec *a, idx x) {
    if (a->len < 0) a->len = 0;
    if (a->len == a->cap) {
        Py_ssize_t cap = a->cap ? 2 * a->cap : 8;
        idx *v = realloc(a->v, cap * sizeof(idx));
        if (!v) return -1;
        a->v = v; a->cap = cap;
    }
    a->v[a->len++] = x;
    return 0;
}

/* ----- L-limb integers -------------------------------------------------------------- */

#define VAL(arr, i) ((arr) + (size_t)(i) * (size_t)L)

static inline void v_copy(limb *d, const limb *a, int L) { memcpy(d, a, L * sizeof(limb)); }
static inline void v_zero(limb *d, int L) { memset(d, 0, L * sizeof(limb)); }
static inline int v_iszero(const limb *a, int L) {
    for (int i = 0; i < L; i++) if (a[i]) return 0;
    return 1;
}
static inline int v_neg(const limb *a, int L) { return (int)(a[L - 1] >> 63); }
static inline void v_add(limb *d, const limb *a, const limb *b, int L) {
    limb carry = 0;
    for (int i = 0; i < L; i++) {
        limb s = a[i] + carry;
        limb c1 = s < carry;
        limb t = s + b[i];
        limb c2 = t < s;
        d[i] = t;
        carry = c1 | c2;
    }
}
static inline void v_sub(limb *d, const limb *a, const limb *b, int L) {
    limb borrow = 0;
    for (int i = 0; i < L; i++) {
        limb x = a[i], y = b[i];
        limb t = x - y;
        limb b1 = x < y;
        limb t2 = t - borrow;
        limb b2 = t < borrow;
        d[i] = t2;
        borrow = b1 | b2;
    }
}
/* signed comparison: -1, 0, 1 */
static inline int v_cmp(const limb *a, const limb *b, int L) {
    int na = v_neg(a, L), nb = v_neg(b, L);
    if (na != nb) return na ? -1 : 1;
    for (int i = L - 1; i >= 0; i--) {
        if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
    }
    return 0;
}
static inline int v_sign(const limb *a, int L) {
    if (v_neg(a, L)) return -1;
    return v_iszero(a, L) ? 0 : 1;
}
/* arithmetic shift right by one (floor division by 2) */
static inline void v_half(limb *d, const limb *a, int L) {
    for (int i = 0; i < L; i++) {
        limb hi = (i + 1 < L) ? a[i + 1] : (limb)((int64_t)a[i] >> 63);
        d[i] = (a[i] >> 1) | (hi << 63);
    }
}
static inline void v_twice(limb *d, const limb *a, int L) {
    for (int i = L - 1; i >= 0; i--) {
        d[i] = (a[i] << 1) | (i ? a[i - 1] >> 63 : 0);
    }
}
static int v_bits(const limb *a, int L) {
    for (int i = L - 1; i >= 0; i--) {
        if (a[i]) return 64 * i + 64 - __builtin_clzll(a[i]);
    }
    return 0;
}
/* d = a << s (s small, a nonnegative) */
static void v_shl(limb *d, const limb *a, int s, int L) {
    limb t[MAXL];
    v_copy(t, a, L);
    for (int r = 0; r < s; r++) v_twice(t, t, L);
    v_copy(d, t, L);
}

/* ----- graph ------------------------------------------------------------------------ */

static inline idx edge_index(int u, int v) {
    if (u > v) { int t = u; u = v; v = t; }
    return (idx)v * (v - 1) / 2 + u;
}
static inline int endpoint(const Matching *m, idx p) {
    return (p & 1) ? m->ej[p >> 1] : m->ei[p >> 1];
}
/* the endpoint of v's edge to u, at u's end */
static inline idx end_at(int v, int u) {
    idx k = edge_index(u, v);
    return u < v ? 2 * k : 2 * k + 1;
}

static inline void slack(const Matching *m, idx k, limb *out) {
    int L = m->L;
    v_add(out, VAL(m->dual, m->ei[k]), VAL(m->dual, m->ej[k]), L);
    v_sub(out, out, VAL(m->doubled, k), L);
}

/* the vertices of blossom b (the Python class's leaves: a stack, children pushed in
   order, popped from the end); returns the count, or -1 (no memory) */
static Py_ssize_t leaves(const Matching *m, int b, int **out) {
    int n = m->n;
    int *res = malloc(sizeof(int) * (n ? n : 1));
    if (!res) return -1;
    if (b < n) { res[0] = b; *out = res; return 1; }
    int *stack = malloc(sizeof(int) * 2 * n);
    if (!stack) { free(res); return -1; }
    Py_ssize_t top = 0, cnt = 0;
    stack[top++] = b;
    while (top) {
        int t = stack[--top];
        if (t < n) res[cnt++] = t;
        else {
            ivec *c = &m->childs[t];
            for (Py_ssize_t i = 0; i < c->len; i++) stack[top++] = c->v[i];
        }
    }
    free(stack);
    *out = res;
    return cnt;
}

#define CHECK(x) do { if ((x) < 0) return -1; } while (0)

static int assign_label(Matching *m, int w, int t, idx p) {
    for (;;) {
        int b = m->inblossom[w];
        m->label[w] = m->label[b] = t;
        m->labelend[w] = m->labelend[b] = p;
        m->bestedge[w] = m->bestedge[b] = -1;
        if (t == 1) {
            int *lv; Py_ssize_t c = leaves(m, b, &lv);
            CHECK(c);
            for (Py_ssize_t i = 0; i < c; i++) {
                if (ivec_push(&m->queue, lv[i]) < 0) { free(lv); return -1; }
            }
            free(lv);
            return 0;
        }
        int base = m->base[b];
        idx mb = m->mate[base];
        w = endpoint(m, mb);
        t = 1;
        p = mb ^ 1;
    }
}

static int scan_blossom(Matching *m, int v, int w) {
    ivec path = {0};
    int base = -1;
    while (v != -1 || w != -1) {
        int b = m->inblossom[v];
        if (m->label[b] & 4) { base = m->base[b]; break; }
        if (ivec_push(&path, b) < 0) { free(path.v); return -2; }
        m->label[b] = 5;
        if (m->labelend[b] == -1) v = -1;
        else {
            v = endpoint(m, m->labelend[b]);
            b = m->inblossom[v];
            v = endpoint(m, m->labelend[b]);
        }
        if (w != -1) { int t = v; v = w; w = t; }
    }
    for (Py_ssize_t i = 0; i < path.len; i++) m->label[path.v[i]] = 1;
    free(path.v);
    return base;
}

static int add_blossom(Matching *m, int base, idx k) {
    int n = m->n, L = m->L;
    int v = m->ei[k], w = m->ej[k];
    int bb = m->inblossom[base];
    int bv = m->inblossom[v];
    int bw = m->inblossom[w];
    int b = m->unused.v[--m->unused.len];
    m->base[b] = base;
    m->parent[b] = -1;
    m->parent[bb] = b;
    ivec path = {0};
    evec endps = {0};
    while (bv != bb) {
        m->parent[bv] = b;
        CHECK(ivec_push(&path, bv));
        CHECK(evec_push(&endps, m->labelend[bv]));
        v = endpoint(m, m->labelend[bv]);
        bv = m->inblossom[v];
    }
    CHECK(ivec_push(&path, bb));
    for (Py_ssize_t i = 0, j = path.len - 1; i < j; i++, j--) {
        int t = path.v[i]; path.v[i] = path.v[j]; path.v[j] = t;
    }
    for (Py_ssize_t i = 0, j = endps.len - 1; i < j; i++, j--) {
        idx t = endps.v[i]; endps.v[i] = endps.v[j]; endps.v[j] = t;
    }
    CHECK(evec_push(&endps, 2 * k));
    while (bw != bb) {
        m->parent[bw] = b;
        CHECK(ivec_push(&path, bw));
        CHECK(evec_push(&endps, m->labelend[bw] ^ 1));
        w = endpoint(m, m->labelend[bw]);
        bw = m->inblossom[w];
    }
    free(m->childs[b].v);
    m->childs[b] = path;
    free(m->endps[b].v);
    m->endps[b] = endps;
    m->label[b] = 1;
    m->labelend[b] = m->labelend[bb];
    v_zero(VAL(m->dual, b), L);
    {
        int *lv; Py_ssize_t c = leaves(m, b, &lv);
        CHECK(c);
        for (Py_ssize_t i = 0; i < c; i++) {
            int x = lv[i];
            if (m->label[m->inblossom[x]] == 2) {
                if (ivec_push(&m->queue, x) < 0) { free(lv); return -1; }
            }
            m->inblossom[x] = b;
        }
        free(lv);
    }
    /* the least-slack edges from the new blossom to every other S-blossom */
    idx *best_to = malloc(sizeof(idx) * 2 * n);
    if (!best_to) return -1;
    for (int i = 0; i < 2 * n; i++) best_to[i] = -1;
    limb *bs = m->scratch;  /* least slack found, per blossom */
    limb sl[MAXL];
    ivec *pth = &m->childs[b];
    for (Py_ssize_t pi = 0; pi < pth->len; pi++) {
        int bvv = pth->v[pi];
        evec *known = &m->bestedges[bvv];
        int *lv = NULL; Py_ssize_t c;
        if (known->len < 0) {
            c = leaves(m, bvv, &lv);
            if (c < 0) { free(best_to); return -1; }
        } else {
            c = 1;
        }
        for (Py_ssize_t li = 0; li < c; li++) {
            Py_ssize_t cnt = (known->len < 0) ? n : known->len;
            int u = (known->len < 0) ? lv[li] : -1;
            for (Py_ssize_t q = 0; q < cnt; q++) {
                idx kk;
                if (known->len < 0) {
                    if (q == u) continue;
                    kk = edge_index(u, (int)q);
                } else {
                    kk = known->v[q];
                }
                int i = m->ei[kk], j = m->ej[kk];
                if (m->inblossom[j] == b) { int t = i; i = j; j = t; }
                int bj = m->inblossom[j];
                if (bj != b && m->label[bj] == 1) {
                    slack(m, kk, sl);
                    if (best_to[bj] == -1 || v_cmp(sl, VAL(bs, bj), L) < 0) {
                        best_to[bj] = kk;
                        v_copy(VAL(bs, bj), sl, L);
                    }
                }
            }
        }
        free(lv);
        known->len = -1;
        m->bestedge[bvv] = -1;
    }
    evec *chosen = &m->bestedges[b];
    chosen->len = 0;
    for (int i = 0; i < 2 * n; i++) {
        if (best_to[i] != -1) {
            if (evec_push(chosen, best_to[i]) < 0) { free(best_to); return -1; }
        }
    }
    m->bestedge[b] = -1;
    limb cur[MAXL];
    for (Py_ssize_t q = 0; q < chosen->len; q++) {
        idx kk = chosen->v[q];
        slack(m, kk, sl);
        if (m->bestedge[b] == -1 || v_cmp(sl, cur, L) < 0) {
            m->bestedge[b] = kk;
            v_copy(cur, sl, L);
        }
    }
    free(best_to);
    return 0;
}

static inline Py_ssize_t wrap(Py_ssize_t j, Py_ssize_t len) {
    j %= len;
    return j < 0 ? j + len : j;
}

static int expand_blossom(Matching *m, int b, int endstage) {
    int n = m->n, L = m->L;
    ivec *ch = &m->childs[b];
    for (Py_ssize_t i = 0; i < ch->len; i++) {
        int s = ch->v[i];
        m->parent[s] = -1;
        if (s < n) m->inblossom[s] = s;
        else if (endstage && v_iszero(VAL(m->dual, s), L)) {
            CHECK(expand_blossom(m, s, endstage));
        } else {
            int *lv; Py_ssize_t c = leaves(m, s, &lv);
            CHECK(c);
            for (Py_ssize_t q = 0; q < c; q++) m->inblossom[lv[q]] = s;
            free(lv);
        }
    }
    if (!endstage && m->label[b] == 2) {
        int entrychild = m->inblossom[endpoint(m, m->labelend[b] ^ 1)];
        int *childs = ch->v;
        idx *endps = m->endps[b].v;
        Py_ssize_t len = ch->len;
        Py_ssize_t j = 0;
        while (childs[j] != entrychild) j++;
        Py_ssize_t jstep; int endptrick;
        if (j & 1) { j -= len; jstep = 1; endptrick = 0; }
        else { jstep = -1; endptrick = 1; }
        idx p = m->labelend[b];
        while (j != 0) {
            m->label[endpoint(m, p ^ 1)] = 0;
            m->label[endpoint(m, endps[wrap(j - endptrick, len)] ^ endptrick ^ 1)] = 0;
            CHECK(assign_label(m, endpoint(m, p ^ 1), 2, p));
            m->allowed[endps[wrap(j - endptrick, len)] >> 1] = m->stamp;
            j += jstep;
            p = endps[wrap(j - endptrick, len)] ^ endptrick;
            m->allowed[p >> 1] = m->stamp;
            j += jstep;
        }
        int bv = childs[wrap(j, len)];
        m->label[endpoint(m, p ^ 1)] = m->label[bv] = 2;
        m->labelend[endpoint(m, p ^ 1)] = m->labelend[bv] = p;
        m->bestedge[bv] = -1;
        j += jstep;
        while (childs[wrap(j, len)] != entrychild) {
            bv = childs[wrap(j, len)];
            if (m->label[bv] == 1) { j += jstep; continue; }
            int *lv; Py_ssize_t c = leaves(m, bv, &lv);
            CHECK(c);
            int found = -1;
            for (Py_ssize_t q = 0; q < c; q++) {
                if (m->label[lv[q]] != 0) { found = lv[q]; break; }
            }
            free(lv);
            if (found < 0) { j += jstep; continue; }
            int v = found;
            m->label[v] = 0;
            m->label[endpoint(m, m->mate[m->base[bv]])] = 0;
            CHECK(assign_label(m, v, 2, m->labelend[v]));
            j += jstep;
        }
    }
    m->label[b] = -1;
    m->labelend[b] = -1;
    ch->len = 0;
    m->endps[b].len = 0;
    m->base[b] = -1;
    m->bestedges[b].len = -1;
    m->bestedge[b] = -1;
    CHECK(ivec_push(&m->unused, b));
    return 0;
}

static int augment_blossom(Matching *m, int b, int v) {
    int n = m->n;
    int t = v;
    while (m->parent[t] != b) t = m->parent[t];
    if (t >= n) CHECK(augment_blossom(m, t, v));
    ivec *ch = &m->childs[b];
    evec *ep = &m->endps[b];
    Py_ssize_t len = ch->len;
    Py_ssize_t i = 0;
    while (ch->v[i] != t) i++;
    Py_ssize_t j = i, jstep; int endptrick;
    if (i & 1) { j -= len; jstep = 1; endptrick = 0; }
    else { jstep = -1; endptrick = 1; }
    while (j != 0) {
        j += jstep;
        t = ch->v[wrap(j, len)];
        idx p = ep->v[wrap(j - endptrick, len)] ^ endptrick;
        if (t >= n) CHECK(augment_blossom(m, t, endpoint(m, p)));
        j += jstep;
        t = ch->v[wrap(j, len)];
        if (t >= n) CHECK(augment_blossom(m, t, endpoint(m, p ^ 1)));
        m->mate[endpoint(m, p)] = p ^ 1;
        m->mate[endpoint(m, p ^ 1)] = p;
    }
    /* rotate: childs[i:] + childs[:i] */
    int *nc = malloc(sizeof(int) * (len ? len : 1));
    idx *ne = malloc(sizeof(idx) * (ep->len ? ep->len : 1));
    if (!nc || !ne) { free(nc); free(ne); return -1; }
    for (Py_ssize_t q = 0; q < len; q++) nc[q] = ch->v[(i + q) % len];
    for (Py_ssize_t q = 0; q < ep->len; q++) ne[q] = ep->v[(i + q) % ep->len];
    memcpy(ch->v, nc, sizeof(int) * len);
    memcpy(ep->v, ne, sizeof(idx) * ep->len);
    free(nc); free(ne);
    m->base[b] = m->base[ch->v[0]];
    return 0;
}

/* matches s through endpoint p and flips the alternating path from s's blossom to the
   root of its search tree (augment_matching's two halves; free_along_path) */
static int flip_path(Matching *m, int s, idx p) {
    int n = m->n;
    for (;;) {
        int bs = m->inblossom[s];
        if (bs >= n) CHECK(augment_blossom(m, bs, s));
        m->mate[s] = p;
        if (m->labelend[bs] == -1) break;
        int t = endpoint(m, m->labelend[bs]);
        int bt = m->inblossom[t];
        s = endpoint(m, m->labelend[bt]);
        int j = endpoint(m, m->labelend[bt] ^ 1);
        if (bt >= n) CHECK(augment_blossom(m, bt, j));
        m->mate[j] = m->labelend[bt];
        p = m->labelend[bt] ^ 1;
    }
    return 0;
}

static int augment_matching(Matching *m, idx k) {
    CHECK(flip_path(m, m->ei[k], 2 * k + 1));
    return flip_path(m, m->ej[k], 2 * k);
}

/* lowers (delta, type) to the dual of a top-level T-blossom where smaller */
static void t_blossom_delta(Matching *m, limb *delta, int *deltatype, int *deltablossom) {
    int n = m->n, L = m->L;
    for (int b = n; b < 2 * n; b++) {
        if (m->base[b] >= 0 && m->parent[b] == -1 && m->label[b] == 2
                && v_cmp(VAL(m->dual, b), delta, L) < 0) {
            v_copy(delta, VAL(m->dual, b), L);
            *deltatype = 4;
            *deltablossom = b;
        }
    }
}

static void shift_duals(Matching *m, const limb *delta) {
    int n = m->n, L = m->L;
    if (v_iszero(delta, L)) return;
    m->epoch++;
    for (int v = 0; v < n; v++) {
        int lab = m->label[m->inblossom[v]];
        if (lab == 1) v_sub(VAL(m->dual, v), VAL(m->dual, v), delta, L);
        else if (lab == 2) v_add(VAL(m->dual, v), VAL(m->dual, v), delta, L);
    }
    for (int b = n; b < 2 * n; b++) {
        if (m->base[b] >= 0 && m->parent[b] == -1) {
            if (m->label[b] == 1) v_add(VAL(m->dual, b), VAL(m->dual, b), delta, L);
            else if (m->label[b] == 2) v_sub(VAL(m->dual, b), VAL(m->dual, b), delta, L);
        }
    }
}

static void reset_labels(Matching *m) {
    int n = m->n;
    memset(m->label, 0, sizeof(int) * 2 * n);
    for (int i = 0; i < 2 * n; i++) m->bestedge[i] = -1;
    for (int b = n; b < 2 * n; b++) m->bestedges[b].len = -1;
    if (++m->stamp == 0) {  /* every edge not allowed: a new stamp, rarely a clean slate */
        memset(m->allowed, 0, (size_t)m->E * sizeof(uint32_t));
        m->stamp = 1;
    }
    m->queue.len = 0;
}

/* 1 augmented, 0 a blossom made, -1 error */
static int close_cycle(Matching *m, int v, int w, idx k) {
    int base = scan_blossom(m, v, w);
    if (base == -2) return -1;
    if (base >= 0) {
        CHECK(add_blossom(m, base, k));
        return 0;
    }
    CHECK(augment_matching(m, k));
    return 1;
}

/* 1 found (delta etc. set), 0 an odd slack */
static int edge_delta(Matching *m, limb *delta, int *deltatype, idx *deltaedge) {
    int n = m->n, L = m->L;
    limb d[MAXL];
    *deltatype = 1;
    *deltaedge = -1;
    for (int v = 0; v < n; v++) {
        idx k = m->bestedge[v];
        if (k != -1 && m->label[m->inblossom[v]] == 0) {
            slack(m, k, d);
            if (v_cmp(d, delta, L) < 0) {
                v_copy(delta, d, L); *deltatype = 2; *deltaedge = k;
            }
        }
    }
    for (int b = 0; b < 2 * n; b++) {
        idx k = m->bestedge[b];
        if (k != -1 && m->parent[b] == -1 && m->label[b] == 1) {
            slack(m, k, d);
            if (d[0] & 1) return 0;
            v_half(d, d, L);
            if (v_cmp(d, delta, L) < 0) {
                v_copy(delta, d, L); *deltatype = 3; *deltaedge = k;
            }
        }
    }
    return 1;
}

static int use_delta(Matching *m, int deltatype, idx deltaedge, int deltablossom) {
    if (deltatype == 2) {
        m->allowed[deltaedge] = m->stamp;
        int i = m->ei[deltaedge], j = m->ej[deltaedge];
        if (m->label[m->inblossom[i]] == 0) { int t = i; i = j; j = t; }
        return ivec_push(&m->queue, i);
    } else if (deltatype == 3) {
        m->allowed[deltaedge] = m->stamp;
        return ivec_push(&m->queue, m->ei[deltaedge]);
    }
    return expand_blossom(m, deltablossom, 0);
}

static int end_stage(Matching *m) {
    int n = m->n, L = m->L;
    for (int b = n; b < 2 * n; b++) {
        if (m->parent[b] == -1 && m->base[b] >= 0 && m->label[b] == 1
                && v_iszero(VAL(m->dual, b), L)) {
            CHECK(expand_blossom(m, b, 1));
        }
    }
    return 0;
}

/* ----- the incremental part --------------------------------------------------------- */

static int dissolve(Matching *m, int b) {
    int L = m->L;
    limb z[MAXL];
    v_copy(z, VAL(m->dual, b), L);
    int *lv; Py_ssize_t c = leaves(m, b, &lv);
    CHECK(c);
    for (Py_ssize_t i = 0; i < c; i++) v_add(VAL(m->dual, lv[i]), VAL(m->dual, lv[i]), z, L);
    free(lv);
    int base = m->base[b];
    if (!v_iszero(z, L) && m->mate[base] != -1) {
        int u = endpoint(m, m->mate[base]);
        m->mate[u] = m->mate[base] = -1;
    }
    ivec *ch = &m->childs[b];
    for (Py_ssize_t i = 0; i < ch->len; i++) {
        int s = ch->v[i];
        m->parent[s] = -1;
        c = leaves(m, s, &lv);
        CHECK(c);
        for (Py_ssize_t q = 0; q < c; q++) m->inblossom[lv[q]] = s;
        free(lv);
    }
    v_zero(VAL(m->dual, b), L);
    m->label[b] = -1;
    m->labelend[b] = -1;
    ch->len = 0;
    m->endps[b].len = 0;
    m->base[b] = -1;
    m->bestedges[b].len = -1;
    m->bestedge[b] = -1;
    return ivec_push(&m->unused, b);
}

static int extract(Matching *m, int v) {
    while (m->inblossom[v] != v) {
        int b = m->inblossom[v];
        while (m->parent[b] != -1) b = m->parent[b];
        CHECK(dissolve(m, b));
    }
    if (m->mate[v] != -1) {
        int u = endpoint(m, m->mate[v]);
        m->mate[u] = m->mate[v] = -1;
    }
    return 0;
}

static int fresh(Matching *m) {
    int n = m->n, L = m->L;
    if (m->unused.len != n) return 0;
    for (int i = 0; i < 2 * n; i++) if (!v_iszero(VAL(m->dual, i), L)) return 0;
    for (int v = 0; v < n; v++) if (m->mate[v] != -1) return 0;
    return 1;
}

static void pair_within(Matching *m, const ivec *group) {
    int n = m->n, L = m->L;
    unsigned char *inside = calloc(n ? n : 1, 1);
    for (Py_ssize_t g = 0; g < group->len; g++) inside[group->v[g]] = 1;
    for (Py_ssize_t g = 0; g < group->len; g++) {
        int v = group->v[g];
        limb best[MAXL];
        v_zero(best, L);
        for (int u = 0; u < n; u++) {
            if (u == v || !inside[u]) continue;
            limb *w = VAL(m->doubled, edge_index(u, v));
            if (v_cmp(w, best, L) > 0) v_copy(best, w, L);
        }
        v_half(VAL(m->dual, v), best, L);
    }
    limb s[MAXL];
    for (Py_ssize_t g = 0; g < group->len; g++) {
        int v = group->v[g];
        if (m->mate[v] != -1 || v_iszero(VAL(m->dual, v), L)) continue;
        for (int u = 0; u < n; u++) {
            if (u == v) continue;
            idx k = edge_index(u, v);
            limb *w = VAL(m->doubled, k);
            if (v_iszero(w, L) || !inside[u] || m->mate[u] != -1) continue;
            v_add(s, VAL(m->dual, v), VAL(m->dual, u), L);
            if (v_cmp(s, w, L) == 0) {
                idx p = end_at(v, u);
                m->mate[v] = p;
                m->mate[u] = p ^ 1;
                break;
            }
        }
    }
    free(inside);
}

static void match_tight(Matching *m, const int *vertices, Py_ssize_t cnt) {
    int n = m->n, L = m->L;
    limb s[MAXL];
    for (Py_ssize_t q = 0; q < cnt; q++) {
        int v = vertices[q];
        if (m->mate[v] != -1 || m->inblossom[v] != v || m->dead[v]
                || v_sign(VAL(m->dual, v), L) <= 0) continue;
        for (int u = 0; u < n; u++) {
            if (u == v) continue;
            idx k = edge_index(u, v);
            limb *w = VAL(m->doubled, k);
            if (v_iszero(w, L)) continue;
            if (m->mate[u] == -1 && m->inblossom[u] == u) {
                v_add(s, VAL(m->dual, v), VAL(m->dual, u), L);
                if (v_cmp(s, w, L) == 0) {
                    idx p = end_at(v, u);
                    m->mate[v] = p;
                    m->mate[u] = p ^ 1;
                    break;
                }
            }
        }
    }
}

static int widen(Matching *m, int L2);

static int rescale(Matching *m) {
    if (m->maxbits + m->scale_log + 2 + HEADROOM > 64 * m->L) {
        if (m->L + 1 > MAXL) { PyErr_SetString(PyExc_OverflowError, "weights too large"); return -1; }
        CHECK(widen(m, m->L + 1));
    }
    int L = m->L;
    for (idx k = 0; k < m->E; k++) v_twice(VAL(m->doubled, k), VAL(m->doubled, k), L);
    for (int i = 0; i < 2 * m->n; i++) v_twice(VAL(m->dual, i), VAL(m->dual, i), L);
    m->scale_log += 1;
    m->epoch++;
    return 0;
}

/* 1 roots, 0 none, -1 error */
static int label_roots(Matching *m) {
    int n = m->n, L = m->L;
    reset_labels(m);
    int roots = 0;
    for (int v = 0; v < n; v++) {
        if (m->dead[v] || m->mate[v] != -1) continue;
        int b = m->inblossom[v];
        if (m->label[b] != 0) continue;
        if (v_sign(VAL(m->dual, v), L) > 0) {
            CHECK(assign_label(m, v, 1, -1));
            roots = 1;
        } else {
            m->labelend[v] = m->labelend[b] = -1;
        }
    }
    return roots;
}

/* 1 augmented, 0 not, -1 error */
static int grow(Matching *m) {
    int n = m->n, L = m->L;
    int *label = m->label, *inblossom = m->inblossom;
    uint32_t *allowed = m->allowed;
    const uint32_t stamp = m->stamp;
    limb kslack[MAXL], tmp[MAXL];
    while (m->queue.len) {
        int v = m->queue.v[--m->queue.len];
        int bv = inblossom[v];
        for (int w = 0; w < n; w++) {
            if (w == v) continue;
            idx k = edge_index(v, w);
            limb *dk = VAL(m->doubled, k);
            if (v_iszero(dk, L)) continue;
            idx p = end_at(v, w);
            int bw = inblossom[w];
            if (bv == bw) continue;
            int have_slack = 0;
            if (allowed[k] != stamp) {
                v_add(kslack, VAL(m->dual, v), VAL(m->dual, w), L);
                v_sub(kslack, kslack, dk, L);
                have_slack = 1;
                if (v_sign(kslack, L) <= 0) allowed[k] = stamp;
            }
            if (allowed[k] == stamp) {
                if (label[bw] == 0) {
                    if (m->mate[m->base[bw]] == -1) {
                        CHECK(augment_matching(m, k));
                        return 1;
                    }
                    CHECK(assign_label(m, w, 2, p ^ 1));
                } else if (label[bw] == 1) {
                    int r = close_cycle(m, v, w, k);
                    CHECK(r);
                    if (r) return 1;
                    bv = inblossom[v];
                } else if (label[w] == 0) {
                    label[w] = 2;
                    m->labelend[w] = p ^ 1;
                }
            } else {
                int x = label[bw] == 1 ? bv : (label[w] == 0 ? w : -1);
                if (x != -1) {
                    (void)have_slack;
                    limb *known = VAL(m->bslack, x);
                    int better = m->bestedge[x] == -1;
                    if (!better) {
                        if (m->bslack_edge[x] != m->bestedge[x]
                                || m->bslack_epoch[x] != m->epoch) {
                            slack(m, m->bestedge[x], tmp);
                            v_copy(known, tmp, L);
                            m->bslack_edge[x] = m->bestedge[x];
                            m->bslack_epoch[x] = m->epoch;
                        }
                        better = v_cmp(kslack, known, L) < 0;
                    }
                    if (better) {
                        m->bestedge[x] = k;
                        v_copy(known, kslack, L);
                        m->bslack_edge[x] = k;
                        m->bslack_epoch[x] = m->epoch;
                    }
                }
            }
        }
    }
    return 0;
}

/* 1 another stage may be needed, 0 done, -1 error */
static int stage(Matching *m) {
    m->epoch++;  /* duals may have changed since the last stage (solve, remove) */
    int r = label_roots(m);
    CHECK(r);
    if (!r) return 0;
    int n = m->n;
    limb delta[MAXL];
    for (;;) {
        int L = m->L;
        r = grow(m);
        CHECK(r);
        if (r) { CHECK(end_stage(m)); return 1; }
        int first = 1;
        for (int v = 0; v < n; v++) {
            if (m->label[m->inblossom[v]] == 1) {
                if (first || v_cmp(VAL(m->dual, v), delta, L) < 0) {
                    v_copy(delta, VAL(m->dual, v), L);
                    first = 0;
                }
            }
        }
        int deltatype; idx deltaedge; int deltablossom = -1;
        if (!edge_delta(m, delta, &deltatype, &deltaedge)) {
            CHECK(rescale(m));
            continue;
        }
        t_blossom_delta(m, delta, &deltatype, &deltablossom);
        shift_duals(m, delta);
        if (deltatype == 1) {
            int x = -1;
            for (int v = 0; v < n; v++) {
                if (m->label[m->inblossom[v]] == 1 && v_iszero(VAL(m->dual, v), L)) {
                    x = v; break;
                }
            }
            if (x < 0) {
                PyErr_SetString(PyExc_RuntimeError, "no S-vertex of dual 0");
                return -1;
            }
            CHECK(flip_path(m, x, -1));  /* free_along_path */
            CHECK(end_stage(m));
            return 1;
        }
        CHECK(use_delta(m, deltatype, deltaedge, deltablossom));
    }
}

/* ----- memory ----------------------------------------------------------------------- */

static limb *widen_array(limb *a, size_t count, int L, int L2) {
    limb *b = malloc(count * L2 * sizeof(limb) + 8);
    if (!b) return NULL;
    for (size_t i = 0; i < count; i++) {
        limb *src = a + i * L, *dst = b + i * L2;
        limb fill = (limb)((int64_t)src[L - 1] >> 63);
        memcpy(dst, src, L * sizeof(limb));
        for (int q = L; q < L2; q++) dst[q] = fill;
    }
    return b;
}

static int widen(Matching *m, int L2) {
    int L = m->L;
    limb *d = widen_array(m->doubled, (size_t)m->E, L, L2);
    limb *u = widen_array(m->dual, 2 * (size_t)m->n, L, L2);
    limb *p = widen_array(m->pendval, (size_t)m->cappend, L, L2);
    limb *s = malloc(2 * (size_t)m->n * L2 * sizeof(limb) + 8);
    limb *b = malloc(2 * (size_t)m->n * L2 * sizeof(limb) + 8);
    if (!d || !u || !p || !s || !b) {
        free(d); free(u); free(p); free(s); free(b);
        PyErr_NoMemory();
        return -1;
    }
    free(m->doubled); free(m->dual); free(m->pendval); free(m->scratch); free(m->bslack);
    m->doubled = d; m->dual = u; m->pendval = p; m->scratch = s; m->bslack = b;
    m->epoch++;
    m->L = L2;
    return 0;
}

static PyObject *zero;  /* the int 0 */

/* reads max(w, 0) into out (MAXL limbs), widening the graph's numbers so that it fits
   with room for the duals; 0 ok, -1 error */
static int convert(Matching *m, PyObject *w, limb *out, int *bits) {
    int positive = PyObject_RichCompareBool(w, zero, Py_GT);
    if (positive < 0) return -1;
    memset(out, 0, MAXL * sizeof(limb));
    *bits = 0;
    if (!positive) return 0;
    /* the present width and a limb more first: the conversion writes every byte */
    int width = m->L + 1 < MAXL ? m->L + 1 : MAXL;
#if PY_VERSION_HEX >= 0x030D0000
    Py_ssize_t r = PyLong_AsNativeBytes(w, out, width * 8, Py_ASNATIVEBYTES_LITTLE_ENDIAN);
    if (r < 0) return -1;
    if (r > width * 8) {
        width = MAXL;
        r = PyLong_AsNativeBytes(w, out, MAXL * 8, Py_ASNATIVEBYTES_LITTLE_ENDIAN);
        if (r < 0) return -1;
        if (r > MAXL * 8) {
            PyErr_SetString(PyExc_OverflowError, "weights too large");
            return -1;
        }
    }
#else
    if (_PyLong_AsByteArray((PyLongObject *)w, (unsigned char *)out, width * 8, 1, 1) < 0) {
        if (!PyErr_ExceptionMatches(PyExc_OverflowError)) return -1;
        PyErr_Clear();
        width = MAXL;
        memset(out, 0, MAXL * sizeof(limb));
        if (_PyLong_AsByteArray((PyLongObject *)w, (unsigned char *)out, MAXL * 8, 1, 1) < 0)
            return -1;
    }
#endif
    int nb = v_bits(out, width);
    *bits = nb;
    int need = (nb + m->scale_log + 2 + HEADROOM + 63) / 64;
    if (need > m->L) {
        if (need > MAXL) {
            PyErr_SetString(PyExc_OverflowError, "weights too large");
            return -1;
        }
        CHECK(widen(m, need));
    }
    return 0;
}

static PyObject *from_limbs(const limb *a, int L) {
#if PY_VERSION_HEX >= 0x030D0000
    return PyLong_FromNativeBytes(a, (size_t)L * 8, Py_ASNATIVEBYTES_LITTLE_ENDIAN);
#else
    return _PyLong_FromByteArray((const unsigned char *)a, (size_t)L * 8, 1, 1);
#endif
}

/* pending[k] = val (a converted weight of bits bits); 0 ok, -1 error */
static int pend(Matching *m, idx k, const limb *val, int bits) {
    int L = m->L;
    Py_ssize_t pos = m->pendpos[k];
    if (pos < 0) {
        if (m->npend == m->cappend) {
            Py_ssize_t cap = m->cappend ? 2 * m->cappend : 64;
            idx *nk = realloc(m->pendk, cap * sizeof(idx));
            if (!nk) { PyErr_NoMemory(); return -1; }
            m->pendk = nk;
            limb *nv = realloc(m->pendval, cap * L * sizeof(limb) + 8);
            if (!nv) { PyErr_NoMemory(); return -1; }
            m->pendval = nv;
            m->cappend = cap;
        }
        pos = m->npend++;
        m->pendk[pos] = k;
        m->pendpos[k] = (int32_t)pos;
    }
    v_copy(VAL(m->pendval, pos), val, L);
    if (bits > m->maxbits) m->maxbits = bits;
    return 0;
}

/* whether the pending (else the stored) weight of k differs from val */
static int differs(Matching *m, idx k, const limb *val) {
    int L = m->L;
    Py_ssize_t pos = m->pendpos[k];
    if (pos >= 0) return v_cmp(VAL(m->pendval, pos), val, L) != 0;
    limb dv[MAXL];
    v_shl(dv, val, m->scale_log + 1, L);
    return v_cmp(dv, VAL(m->doubled, k), L) != 0;
}

/* ----- the Python type -------------------------------------------------------------- */

static void Matching_dealloc(Matching *m) {
    if (m->childs) for (int i = 0; i < 2 * m->n; i++) free(m->childs[i].v);
    if (m->endps) for (int i = 0; i < 2 * m->n; i++) free(m->endps[i].v);
    if (m->bestedges) for (int i = 0; i < 2 * m->n; i++) free(m->bestedges[i].v);
    free(m->childs); free(m->endps); free(m->bestedges);
    free(m->doubled); free(m->dual); free(m->ei); free(m->ej); free(m->mate);
    free(m->label); free(m->labelend); free(m->inblossom); free(m->parent); free(m->base);
    free(m->bestedge); free(m->unused.v); free(m->queue.v); free(m->allowed);
    free(m->dirty); free(m->dead); free(m->pendpos); free(m->pendk); free(m->pendval);
    free(m->prime.v); free(m->scratch); free(m->bslack); free(m->bslack_edge);
    free(m->bslack_epoch);
    Py_TYPE(m)->tp_free((PyObject *)m);
}

static int Matching_init(Matching *m, PyObject *args, PyObject *kw) {
    int n, bits = 0;  /* bits: the weights' expected size (the numbers start that wide) */
    if (!PyArg_ParseTuple(args, "i|i", &n, &bits)) return -1;
    if (n < 2) {
        PyErr_SetString(PyExc_ValueError, "at least two vertices");
        return -1;
    }
    int L = (bits + 2 + HEADROOM + 63) / 64;
    if (L < 2) L = 2;
    if (L > MAXL) L = MAXL;
    m->n = n;
    m->L = L;
    m->E = (idx)n * (n - 1) / 2;
    m->scale_log = 0;
    m->maxbits = 0;
    size_t E = (size_t)m->E, N2 = 2 * (size_t)n;
    m->doubled = calloc(E * L + 1, sizeof(limb));
    m->dual = calloc(N2 * L, sizeof(limb));
    m->scratch = calloc(N2 * L, sizeof(limb));
    m->ei = malloc(E * sizeof(int) + 4);
    m->ej = malloc(E * sizeof(int) + 4);
    m->mate = malloc(n * sizeof(idx));
    m->label = calloc(N2, sizeof(int));
    m->labelend = malloc(N2 * sizeof(idx));
    m->inblossom = malloc(n * sizeof(int));
    m->parent = malloc(N2 * sizeof(int));
    m->base = malloc(N2 * sizeof(int));
    m->bestedge = malloc(N2 * sizeof(idx));
    m->childs = calloc(N2, sizeof(ivec));
    m->endps = calloc(N2, sizeof(evec));
    m->bestedges = calloc(N2, sizeof(evec));
    m->allowed = calloc(E + 1, sizeof(uint32_t));
    m->stamp = 1;
    m->bslack = calloc(N2 * L, sizeof(limb));
    m->bslack_edge = malloc(N2 * sizeof(idx));
    m->bslack_epoch = calloc(N2, sizeof(uint32_t));
    m->epoch = 1;
    m->dirty = calloc(n, 1);
    m->dead = calloc(n, 1);
    m->pendpos = malloc(E * sizeof(int32_t) + 4);
    m->pendval = malloc(8);
    if (!m->doubled || !m->dual || !m->scratch || !m->ei || !m->ej || !m->mate || !m->label
            || !m->labelend || !m->inblossom || !m->parent || !m->base || !m->bestedge
            || !m->childs || !m->endps || !m->bestedges || !m->allowed || !m->dirty
            || !m->dead || !m->pendpos || !m->pendval || !m->bslack || !m->bslack_edge
            || !m->bslack_epoch) {
        PyErr_NoMemory();
        return -1;
    }
    idx k = 0;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < j; i++) { m->ei[k] = i; m->ej[k] = j; m->pendpos[k] = -1; k++; }
    for (int v = 0; v < n; v++) { m->mate[v] = -1; m->inblossom[v] = v; }
    for (size_t i = 0; i < N2; i++) {
        m->labelend[i] = -1; m->parent[i] = -1; m->bestedge[i] = -1;
        m->bslack_edge[i] = -1;
        m->base[i] = i < (size_t)n ? (int)i : -1;
        m->bestedges[i].len = -1;
    }
    for (int b = n; b < 2 * n; b++) CHECK(ivec_push(&m->unused, b));
    (void)kw;
    return 0;
}

static int vertex_arg(Matching *m, int v) {
    if (v < 0 || v >= m->n) {
        PyErr_SetString(PyExc_IndexError, "no such vertex");
        return -1;
    }
    return 0;
}

static PyObject *Matching_set_weight(Matching *m, PyObject *args) {
    int u, v; PyObject *w;
    if (!PyArg_ParseTuple(args, "iiO!", &u, &v, &PyLong_Type, &w)) return NULL;
    if (vertex_arg(m, u) < 0 || vertex_arg(m, v) < 0) return NULL;
    if (u == v) { PyErr_SetString(PyExc_ValueError, "a loop"); return NULL; }
    idx k = edge_index(u, v);
    limb val[MAXL];
    int bits;
    if (convert(m, w, val, &bits) < 0) return NULL;
    if (differs(m, k, val)) {
        m->dirty[u] = 1;
        if (pend(m, k, val, bits) < 0) return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *Matching_set_weights(Matching *m, PyObject *arg) {
    PyObject *seq = PySequence_Fast(arg, "a list of (u, v, w)");
    if (!seq) return NULL;
    Py_ssize_t cnt = PySequence_Fast_GET_SIZE(seq);
    for (Py_ssize_t i = 0; i < cnt; i++) {
        PyObject *r = Matching_set_weight(m, PySequence_Fast_GET_ITEM(seq, i));
        if (!r) { Py_DECREF(seq); return NULL; }
        Py_DECREF(r);
    }
    Py_DECREF(seq);
    Py_RETURN_NONE;
}

static PyObject *Matching_load(Matching *m, PyObject *arg) {
    PyObject *seq = PySequence_Fast(arg, "a list of (u, v, w)");
    if (!seq) return NULL;
    Py_ssize_t cnt = PySequence_Fast_GET_SIZE(seq);
    PyObject *last = NULL;  /* the weight converted last: many pairs share one */
    limb val[MAXL];
    int bits = 0;
    for (Py_ssize_t i = 0; i < cnt; i++) {
        int u, v; PyObject *w;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(seq, i), "iiO!", &u, &v,
                              &PyLong_Type, &w)
                || vertex_arg(m, u) < 0 || vertex_arg(m, v) < 0) {
            Py_DECREF(seq);
            return NULL;
        }
        if (u == v) { Py_DECREF(seq); PyErr_SetString(PyExc_ValueError, "a loop"); return NULL; }
        if (w != last) {
            if (convert(m, w, val, &bits) < 0) { Py_DECREF(seq); return NULL; }
            last = w;
        }
        if (pend(m, edge_index(u, v), val, bits) < 0) { Py_DECREF(seq); return NULL; }
        m->dirty[u] = 1;
    }
    Py_DECREF(seq);
    Py_RETURN_NONE;
}

static PyObject *Matching_load_row(Matching *m, PyObject *args) {
    int v; PyObject *arg;
    if (!PyArg_ParseTuple(args, "iO", &v, &arg)) return NULL;
    if (vertex_arg(m, v) < 0) return NULL;
    PyObject *seq = PySequence_Fast(arg, "a list of weights");
    if (!seq) return NULL;
    Py_ssize_t cnt = PySequence_Fast_GET_SIZE(seq);
    if (cnt > m->n || (cnt > v && cnt > 0)) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "a row reaches its own vertex");
        return NULL;
    }
    /* the weights converted so far, by object (a row holds a few hundred, shared;
       the list keeps them alive, so an address is one object for the call) */
    enum { SLOTS = 512 };
    PyObject **seen = calloc(SLOTS, sizeof(PyObject *));
    int *seen_bits = malloc(SLOTS * sizeof(int));
    limb *seen_val = malloc((size_t)SLOTS * MAXL * sizeof(limb));
    if (!seen || !seen_bits || !seen_val) {
        free(seen); free(seen_bits); free(seen_val); Py_DECREF(seq);
        return PyErr_NoMemory();
    }
    int ok = 1;
    for (Py_ssize_t u = 0; u < cnt && ok; u++) {
        PyObject *w = PySequence_Fast_GET_ITEM(seq, u);
        if (!PyLong_Check(w)) {
            PyErr_SetString(PyExc_TypeError, "weights are ints");
            ok = 0;
            break;
        }
        size_t slot = ((uintptr_t)w >> 4) % SLOTS;
        limb *val = seen_val + slot * MAXL;
        if (seen[slot] != w) {
            if (convert(m, w, val, &seen_bits[slot]) < 0) { ok = 0; break; }
            seen[slot] = w;
        }
        if (pend(m, edge_index((int)u, v), val, seen_bits[slot]) < 0) { ok = 0; break; }
        m->dirty[u] = 1;
    }
    free(seen); free(seen_bits); free(seen_val);
    Py_DECREF(seq);
    if (!ok) return NULL;
    Py_RETURN_NONE;
}

static void unpend(Matching *m, idx k) {
    Py_ssize_t pos = m->pendpos[k];
    if (pos < 0) return;
    /* keep the order of the others: mark the slot empty */
    m->pendk[pos] = -1;
    m->pendpos[k] = -1;
}

static PyObject *Matching_remove(Matching *m, PyObject *arg) {
    int v = (int)PyLong_AsLong(arg);
    if (v == -1 && PyErr_Occurred()) return NULL;
    if (vertex_arg(m, v) < 0) return NULL;
    if (extract(m, v) < 0) return NULL;
    m->dead[v] = 1;
    int L = m->L;
    for (int u = 0; u < m->n; u++) {
        if (u == v) continue;
        idx k = edge_index(u, v);
        v_zero(VAL(m->doubled, k), L);
        unpend(m, k);
    }
    v_zero(VAL(m->dual, v), L);
    m->dirty[v] = 0;
    Py_RETURN_NONE;
}

static int solve(Matching *m) {
    int n = m->n;
    int *dirty = malloc(sizeof(int) * n), *kept = malloc(sizeof(int) * n);
    if (!dirty || !kept) { free(dirty); free(kept); PyErr_NoMemory(); return -1; }
    Py_ssize_t nd = 0, nk = 0;
    for (int v = 0; v < n; v++) if (m->dirty[v]) dirty[nd++] = v;
    int err = 0;
    for (Py_ssize_t q = 0; q < nd && !err; q++) {
        int v = dirty[q];
        if (m->keep_tight && m->inblossom[v] == v && m->mate[v] != -1) kept[nk++] = v;
        else if (extract(m, v) < 0) err = 1;
    }
    int L = m->L;
    for (Py_ssize_t q = 0; q < m->npend && !err; q++) {
        idx k = m->pendk[q];
        if (k < 0) continue;
        v_shl(VAL(m->doubled, k), VAL(m->pendval, q), m->scale_log + 1, L);
        m->pendpos[k] = -1;
    }
    m->npend = 0;
    if (!err && m->keep_tight && m->prime.len) {
        if (fresh(m)) {
            pair_within(m, &m->prime);
            unsigned char *primed = calloc(n, 1);
            if (!primed) err = 1;
            else {
                for (Py_ssize_t q = 0; q < m->prime.len; q++) primed[m->prime.v[q]] = 1;
                nd = 0;
                for (int v = 0; v < n; v++) if (!m->dead[v] && !primed[v]) dirty[nd++] = v;
                free(primed);
            }
        }
        m->prime.len = 0;
    }
    limb best[MAXL], t[MAXL];
    for (Py_ssize_t q = 0; q < nd && !err; q++) {
        int v = dirty[q];
        v_zero(best, L);
        for (int u = 0; u < n; u++) {
            if (u == v) continue;
            limb *w = VAL(m->doubled, edge_index(u, v));
            if (v_iszero(w, L)) continue;
            v_sub(t, w, VAL(m->dual, u), L);
            if (v_cmp(t, best, L) > 0) v_copy(best, t, L);
        }
        limb *dv = VAL(m->dual, v);
        if (m->mate[v] == -1) { if (v_cmp(best, dv, L) > 0) v_copy(dv, best, L); }
        else v_copy(dv, best, L);
    }
    for (Py_ssize_t q = 0; q < nk && !err; q++) {
        int v = kept[q];
        idx p = m->mate[v];
        if (p == -1) continue;
        int u = endpoint(m, p);
        v_add(t, VAL(m->dual, v), VAL(m->dual, u), L);
        if (v_cmp(t, VAL(m->doubled, p >> 1), L) != 0) m->mate[u] = m->mate[v] = -1;
    }
    if (!err && m->keep_tight) match_tight(m, dirty, nd);
    memset(m->dirty, 0, n);
    free(dirty); free(kept);
    if (err) { if (!PyErr_Occurred()) PyErr_NoMemory(); return -1; }
    for (;;) {
        int r = stage(m);
        if (r < 0) { if (!PyErr_Occurred()) PyErr_NoMemory(); return -1; }
        if (!r) break;
    }
    return 0;
}

static PyObject *Matching_solve(Matching *m, PyObject *noargs) {
    (void)noargs;
    if (solve(m) < 0) return NULL;
    PyObject *out = PyList_New(m->n);
    if (!out) return NULL;
    for (int v = 0; v < m->n; v++) {
        long x = m->mate[v] == -1 ? -1 : endpoint(m, m->mate[v]);
        PyObject *o = PyLong_FromLong(x);
        if (!o) { Py_DECREF(out); return NULL; }
        PyList_SET_ITEM(out, v, o);
    }
    return out;
}

static PyObject *Matching_tight(Matching *m, PyObject *args) {
    int lu, lv;
    if (!PyArg_ParseTuple(args, "ii", &lu, &lv)) return NULL;
    if (vertex_arg(m, lu) < 0 || vertex_arg(m, lv) < 0) return NULL;
    if (lu == lv) Py_RETURN_NONE;
    int L = m->L;
    idx k = edge_index(lu, lv);
    if (m->pendpos[k] >= 0 || v_iszero(VAL(m->doubled, k), L)) Py_RETURN_NONE;
    limb s[MAXL], twice[MAXL];
    v_add(s, VAL(m->dual, lu), VAL(m->dual, lv), L);
    v_sub(s, s, VAL(m->doubled, k), L);
    if (m->parent[lu] != -1 && m->parent[lv] != -1) {
        for (int b = m->parent[lv]; b != -1; b = m->parent[b]) {
            int above = 0;
            for (int c = m->parent[lu]; c != -1; c = m->parent[c]) if (c == b) { above = 1; break; }
            if (above) {
                v_twice(twice, VAL(m->dual, b), L);
                v_add(s, s, twice, L);
            }
        }
    }
    return PyBool_FromLong(v_iszero(s, L));
}

static PyObject *Matching_positive_blossoms(Matching *m, PyObject *noargs) {
    (void)noargs;
    int L = m->L;
    PyObject *out = PyList_New(0);
    if (!out) return NULL;
    for (int b = m->n; b < 2 * m->n; b++) {
        if (m->base[b] < 0 || v_iszero(VAL(m->dual, b), m->L)) continue;
        int *lv; Py_ssize_t c = leaves(m, b, &lv);
        if (c < 0) { Py_DECREF(out); return PyErr_NoMemory(); }
        PyObject *one = PyList_New(c);
        if (!one) { free(lv); Py_DECREF(out); return NULL; }
        for (Py_ssize_t q = 0; q < c; q++) PyList_SET_ITEM(one, q, PyLong_FromLong(lv[q]));
        free(lv);
        if (PyList_Append(out, one) < 0) { Py_DECREF(one); Py_DECREF(out); return NULL; }
        Py_DECREF(one);
    }
    return out;
}

static PyObject *Matching_duals(Matching *m, PyObject *noargs) {
    (void)noargs;
    int L = m->L;
    PyObject *out = PyList_New(2 * m->n);
    if (!out) return NULL;
    for (int i = 0; i < 2 * m->n; i++) {
        PyObject *o = from_limbs(VAL(m->dual, i), m->L);
        if (!o) { Py_DECREF(out); return NULL; }
        PyList_SET_ITEM(out, i, o);
    }
    return out;
}

static PyObject *int_list(const int *a, Py_ssize_t cnt) {
    PyObject *out = PyList_New(cnt);
    if (!out) return NULL;
    for (Py_ssize_t i = 0; i < cnt; i++) PyList_SET_ITEM(out, i, PyLong_FromLong(a[i]));
    return out;
}

static PyObject *Matching_structure(Matching *m, PyObject *noargs) {
    (void)noargs;
    PyObject *one = PyLong_FromLong(1), *by = PyLong_FromLong(m->scale_log);
    PyObject *shifted = (one && by) ? PyNumber_Lshift(one, by) : NULL;
    Py_XDECREF(one);
    Py_XDECREF(by);
    if (!shifted) return NULL;
    return Py_BuildValue("(NNNN)", int_list(m->inblossom, m->n),
                         int_list(m->parent, 2 * m->n), int_list(m->base, 2 * m->n),
                         shifted);
}

static PyObject *get_keep_tight(Matching *m, void *c) {
    (void)c;
    return PyBool_FromLong(m->keep_tight);
}
static int set_keep_tight(Matching *m, PyObject *v, void *c) {
    (void)c;
    int t = PyObject_IsTrue(v);
    if (t < 0) return -1;
    m->keep_tight = t;
    return 0;
}
static PyObject *get_prime(Matching *m, void *c) {
    (void)c;
    return int_list(m->prime.v, m->prime.len);
}
static int set_prime(Matching *m, PyObject *v, void *c) {
    (void)c;
    PyObject *seq = PySequence_Fast(v, "a list of vertices");
    if (!seq) return -1;
    m->prime.len = 0;
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(seq); i++) {
        int x = (int)PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        if ((x == -1 && PyErr_Occurred()) || vertex_arg(m, x) < 0
                || ivec_push(&m->prime, x) < 0) {
            Py_DECREF(seq);
            return -1;
        }
    }
    Py_DECREF(seq);
    return 0;
}
static PyObject *get_n(Matching *m, void *c) {
    (void)c;
    return PyLong_FromLong(m->n);
}

static PyMethodDef Matching_methods[] = {
    {"set_weight", (PyCFunction)Matching_set_weight, METH_VARARGS,
     "Set the weight of edge (u, v); u is re-matched."},
    {"load", (PyCFunction)Matching_load, METH_O,
     "Set the weights (u, v, w) of edges not set since the graph was made."},
    {"load_row", (PyCFunction)Matching_load_row, METH_VARARGS,
     "Set the weights of edges (u, v), u = 0, 1, ..., as load."},
    {"remove", (PyCFunction)Matching_remove, METH_O, "Take v out of the graph for good."},
    {"solve", (PyCFunction)Matching_solve, METH_NOARGS,
     "Return mate (the matched vertex, or -1) for the current weights."},
    {"tight", (PyCFunction)Matching_tight, METH_VARARGS,
     "Whether pair (u, v) is tight under the last optimum's duals, or None."},
    {"set_weights", (PyCFunction)Matching_set_weights, METH_O,
     "set_weight for each (u, v, w) in turn."},
    {"positive_blossoms", (PyCFunction)Matching_positive_blossoms, METH_NOARGS,
     "The vertices of every blossom of positive dual."},
    {"duals", (PyCFunction)Matching_duals, METH_NOARGS, "Every dual (doubled), as ints."},
    {"structure", (PyCFunction)Matching_structure, METH_NOARGS,
     "(inblossom, parent, base, scale), for the equivalence tests."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Matching_getset[] = {
    {"keep_tight", (getter)get_keep_tight, (setter)set_keep_tight, NULL, NULL},
    {"prime", (getter)get_prime, (setter)set_prime, NULL, NULL},
    {"n", (getter)get_n, NULL, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject MatchingType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "standgen.pairing._blossom.Matching",
    .tp_basicsize = sizeof(Matching),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "IncrementalMatching, compiled (see standgen.pairing.blossom).",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Matching_init,
    .tp_dealloc = (destructor)Matching_dealloc,
    .tp_methods = Matching_methods,
    .tp_getset = Matching_getset,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_blossom",
    "The compiled twin of standgen.pairing.blossom.IncrementalMatching.", -1, NULL,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__blossom(void) {
    const uint16_t probe = 1;
    if (*(const unsigned char *)&probe != 1) {
        PyErr_SetString(PyExc_ImportError, "limbs are laid out little-endian only");
        return NULL;
    }
    if (PyType_Ready(&MatchingType) < 0) return NULL;
    zero = PyLong_FromLong(0);
    if (!zero) return NULL;
    PyObject *mod = PyModule_Create(&module);
    if (!mod) return NULL;
    Py_INCREF(&MatchingType);
    if (PyModule_AddObject(mod, "Matching", (PyObject *)&MatchingType) < 0) {
        Py_DECREF(&MatchingType);
        Py_DECREF(mod);
        return NULL;
    }
    return mod;
}
