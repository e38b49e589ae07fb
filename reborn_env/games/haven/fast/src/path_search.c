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

void hp_dijkstra(const HpBoard *b, const unsigned char *passable, const int *sources,
                 int n_sources, const long long *weights, int reverse, long long *dist,
                 HpEntry *heap)
{
    int size = 0;
    for (int i = 0; i < n_sources; i++) {
        int s = sources[i];
        if (dist[s] != 0) {
            dist[s] = 0;
            heap_push(heap, &size, (HpEntry){0, s});
        }
    }
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
