/* A persistent pool of worker threads for Games.step: started lazily, grown to the largest
 * number of threads asked, parked on a condition variable between calls, joined when freed, and
 * rebuilt in a child process after fork (its threads do not exist there).
 *
 * pool_run splits [0, n) into chunks claimed one at a time from a shared counter; the calling
 * thread takes chunks too and only waits for chunks a helper has already claimed, so a helper
 * that is slow to wake costs little more than the wake-up call; and while the helpers do not
 * pay for that (no core to spare), calls run on the caller alone for a while (pool.c). Which
 * thread runs a chunk must not matter to fn: the results are then the same for any number of
 * threads.
 */
#ifndef ER_POOL_H
#define ER_POOL_H

typedef void (*PoolFn)(void *ctx, int lo, int hi);

typedef struct Pool Pool;

/* fn(ctx, lo, hi) over every chunk of [0, n), by the caller and up to threads - 1 helpers of
 * *pool (created or grown here; *pool may be NULL, and a pool left by the parent of a forked
 * process is replaced). Never fails: without helpers (none could be started) the caller runs
 * every chunk. Call it without the GIL, from one thread at a time per pool. */
void pool_run(Pool **pool, int threads, int n, PoolFn fn, void *ctx);

/* The helpers stopped and joined, the pool freed (NULL is allowed). */
void pool_free(Pool *pool);

#endif
