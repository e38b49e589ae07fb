/* Haven's path searches (path_search.h): plain C over arrays the binding has checked. Weights
 * are >= 0, so Dijkstra settles each cell once and, as no (d, cell) entry is pushed twice, its
 * heap never holds more than n + edges entries. Both searches give the least cost of every
 * cell, which does not depend on the order cells are visited in, so no tie can make them differ
 * from the Python reference. */
#include "path_search.h"

void hp_mover_cells(const HpBoard *b, int walk, const unsigned char *enemy,
                    const unsigned char *other, unsigned char *passable, unsigned char *endable)
{
    for (int c = 0; c < b->n; c++) {
        passable[c] = walk ? b->floor[c] && !enemy[c] : !b->walls[c];
        endable[c] = b->floor[c] && !other[c];
    }
}

void hp_bfs(const HpBoard *b, const unsigned char *passable, const int *sources, int n_sources,
            long long *dist, int *queue)
{
    int head = 0, tail = 0;
    for (int i = 0; i < n_sources; i++) {
        int s = sources[i];
        if (dist[s] == HP_UNREACHED) {
            dist[s] = 0;
            queue[tail++] = s;
        }
    }
    while (head < tail) {
        int cell = queue[head++];
        long long next_d = dist[cell] + 1;
        for (int k = b->start[cell]; k < b->start[cell + 1]; k++) {
            int nxt = b->nbr[k];
            if (dist[nxt] == HP_UNREACHED && passable[nxt]) {
                dist[nxt] = next_d;
                queue[tail++] = nxt;
            }
        }
    }
}

static int entry_less(HpEntry a, HpEntry b)
{
    return a.d < b.d || (a.d == b.d && a.cell < b.cell);
}

static void heap_push(HpEntry *heap, int *size, HpEntry e)
{
    int i = (*size)++;
    while (i > 0) {
        int parent = (i - 1) / 2;
        if (!entry_less(e, heap[parent]))
            break;
        heap[i] = heap[parent];
        i = parent;
    }
    heap[i] = e;
}

static HpEntry heap_pop(HpEntry *heap, int *size)
{
    HpEntry top = heap[0], last = heap[--(*size)];
    int i = 0, n = *size;
    for (;;) {
        int child = 2 * i + 1;
        if (child >= n)
            break;
        if (child + 1 < n && entry_less(heap[child + 1], heap[child]))
            child++;
        if (!entry_less(heap[child], last))
            break;
        heap[i] = heap[child];
        i = child;
    }
    if (n > 0)
        heap[i] = last;
    return top;
}

/* Dijkstra's start: each source at cost 0 on the heap, once; the heap's size. */
static int seed(HpEntry *heap, long long *dist, const int *sources, int n_sources)
{
    int size = 0;
    for (int i = 0; i < n_sources; i++) {
        int s = sources[i];
        if (dist[s] != 0) {
            dist[s] = 0;
            heap_push(heap, &size, (HpEntry){0, s});
        }
    }
    return size;
}

void hp_dijkstra(const HpBoard *b, const unsigned char *passable, const int *sources,
                 int n_sources, const long long *weights, int reverse, long long *dist,
                 HpEntry *heap)
{
    int size = seed(heap, dist, sources, n_sources);
    while (size > 0) {
        HpEntry e = heap_pop(heap, &size);
        int cell = e.cell;
        if (e.d != dist[cell])
            continue;
        for (int k = b->start[cell]; k < b->start[cell + 1]; k++) {
            int nxt = b->nbr[k];
            if (!passable[nxt])
                continue;
            long long nd = e.d + (reverse ? weights[cell] : weights[nxt]);
            if (dist[nxt] == HP_UNREACHED || nd < dist[nxt]) {
                dist[nxt] = nd;
                heap_push(heap, &size, (HpEntry){nd, nxt});
            }
        }
    }
}

long long hp_points(long long x, long long modulus)
{
    return modulus > 0 ? ((x % modulus) + modulus) % modulus : x;
}

/* The cell a walk's step along ray r stops on (HV-ICE-2), or -1 where it cannot step into the
 * ray's first cell. */
static int slide_end(const HpBoard *b, int r, const unsigned char *passable,
                     const unsigned char *other)
{
    const int *ray = b->ray_cells + b->ray_start[r];
    int len = b->ray_start[r + 1] - b->ray_start[r];
    if (len < 1 || !passable[ray[0]])
        return -1;
    int end = 0;
    while (b->icy[ray[end]] && end + 1 < len) {
        int after = ray[end + 1];
        if (!passable[after] || other[after])
            break;
        end++;
    }
    return ray[end];
}

/* HV-ICE-3 (rules/ice.py's step_weight): 1 point into an icy hex, else the hex's weight; plus
 * the negative part of the hex it stops on. */
static long long slide_weight(const HpBoard *b, int first, int end, const long long *weights)
{
    if (!weights)
        return 1;
    if (!b->icy[first])
        return weights[end];
    return 1 + weights[end] - hp_points(weights[end], b->modulus);
}

void hp_slide_costs(const HpBoard *b, const unsigned char *passable, const unsigned char *other,
                    const long long *weights, const int *sources, int n_sources, int reverse,
                    long long *dist, HpEntry *heap, long long *edges, int *order)
{
    int n = b->n, m = 0;
    /* every step: (origin, end, weight) */
    for (int c = 0; c < n; c++) {
        if (!passable[c])
            continue;
        for (int r = b->cell_rays[c]; r < b->cell_rays[c + 1]; r++) {
            int end = slide_end(b, r, passable, other);
            if (end < 0)
                continue;
            int first = b->ray_cells[b->ray_start[r]];
            edges[3 * m] = c;
            edges[3 * m + 1] = end;
            edges[3 * m + 2] = slide_weight(b, first, end, weights);
            m++;
        }
    }
    /* the steps grouped by the cell a search leaves (origin, or end when reverse) */
    int *start = order + m, *at = order; /* start: n + 1 offsets; at: m step indices */
    for (int c = 0; c <= n; c++)
        start[c] = 0;
    for (int k = 0; k < m; k++)
        start[edges[3 * k + (reverse ? 1 : 0)] + 1]++;
    for (int c = 0; c < n; c++)
        start[c + 1] += start[c];
    for (int k = 0; k < m; k++) {
        int from = (int)edges[3 * k + (reverse ? 1 : 0)];
        at[start[from]++] = k;
    }
    for (int c = n; c > 0; c--) /* back to the first index of each group */
        start[c] = start[c - 1];
    start[0] = 0;
    int size = seed(heap, dist, sources, n_sources);
    while (size > 0) {
        HpEntry e = heap_pop(heap, &size);
        int cell = e.cell;
        if (e.d != dist[cell])
            continue;
        for (int i = start[cell]; i < start[cell + 1]; i++) {
            int k = at[i];
            int nxt = (int)edges[3 * k + (reverse ? 0 : 1)];
            long long nd = e.d + edges[3 * k + 2];
            if (dist[nxt] == HP_UNREACHED || nd < dist[nxt]) {
                dist[nxt] = nd;
                heap_push(heap, &size, (HpEntry){nd, nxt});
            }
        }
    }
}
