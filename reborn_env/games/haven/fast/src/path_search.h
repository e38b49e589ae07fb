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

/* x mod modulus as Python's % (never negative); x itself when modulus is 0. */
long long hp_points(long long x, long long modulus);

#endif
