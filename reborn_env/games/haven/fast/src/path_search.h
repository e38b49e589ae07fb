/* Haven's path searches as plain C (HV-AI-2, HV-AI-10, HV-JMP-2, HV-FLY-2): breadth-first steps
 * and Dijkstra over one map's neighbour table, and the cells a mover may pass and end on. The
 * binding paths.c reads Python's lists into these arrays and turns the results back into lists;
 * rules/path_graph.py's PathGraph is the reference and says what each value means. */
#ifndef HAVEN_PATH_SEARCH_H
#define HAVEN_PATH_SEARCH_H

#define HP_MAX_CELLS (1 << 24)
#define HP_MAX_WEIGHT 2147483647LL /* 2**31 - 1: no path sum of a board's cells overflows */
#define HP_UNREACHED (-1)

/* One map's static data: the neighbours of c are nbr[start[c]..start[c + 1]) (HV-MAP-2). */
typedef struct {
    int n;             /* cells, 1..HP_MAX_CELLS */
    int edges;         /* neighbour entries in all */
    int *start;        /* n + 1 offsets into nbr */
    int *nbr;
    unsigned char *floor;
    unsigned char *walls;
    long long modulus; /* points = dist mod modulus (HV-AI-10); 0: points are dist */
    /* HV-ICE-2, on a map with ice (else icy is NULL): the lines a walk's step from c may follow
     * are rays cell_rays[c]..cell_rays[c + 1]; ray r is ray_cells[ray_start[r]..ray_start[r + 1])
     * (its first cell the hex stepped into; one cell long where that hex is not icy). */
    unsigned char *icy;
    int *cell_rays;
    int *ray_start;
    int *ray_cells;
} HpBoard;

/* A heap entry of Dijkstra's: a cost and its cell. */
typedef struct {
    long long d;
    int cell;
} HpEntry;

/* HV-AI-2: a walk passes floor not held by an enemy; HV-JMP-2/HV-FLY-2: a jump or flight any
 * cell but a wall. Endable: floor holding no other figure. enemy[], other[]: one flag a cell. */
void hp_mover_cells(const HpBoard *b, int walk, const unsigned char *enemy,
                    const unsigned char *other, unsigned char *passable, unsigned char *endable);

/* Breadth-first steps from the sources through passable cells (PathGraph.steps_from without
 * weights). dist[] starts at HP_UNREACHED; queue has room for n cells. */
void hp_bfs(const HpBoard *b, const unsigned char *passable, const int *sources, int n_sources,
            long long *dist, int *queue);

/* Dijkstra through passable cells with entry weights (PathGraph._weighted): entering cell x
 * costs weights[x]; reverse: the costs towards the sources, a step from nxt into cell costing
 * weights[cell]. dist[] starts at HP_UNREACHED; heap has room for n + edges + 1 entries. */
void hp_dijkstra(const HpBoard *b, const unsigned char *passable, const int *sources,
                 int n_sources, const long long *weights, int reverse, long long *dist,
                 HpEntry *heap);

/* HV-ICE-2/3 (rules/ice.py's StepGraph.costs): the least cost over a walk's steps, each of which
 * slides on over icy hexes, from the sources (reverse: from every cell towards them). passable,
 * other: one flag a cell (other: held by a figure but the mover); weights: entry weights, or
 * NULL for 1 each. dist[] starts at HP_UNREACHED. Scratch, for R = b->cell_rays[n] rays: heap
 * with room for R + n entries, edges for R triples (origin, end, weight) and order for R + n + 1
 * ints. Needs b->icy. */
void hp_slide_costs(const HpBoard *b, const unsigned char *passable, const unsigned char *other,
                    const long long *weights, const int *sources, int n_sources, int reverse,
                    long long *dist, HpEntry *heap, long long *edges, int *order);

/* x mod modulus as Python's % (never negative); x itself when modulus is 0. */
long long hp_points(long long x, long long modulus);

#endif
