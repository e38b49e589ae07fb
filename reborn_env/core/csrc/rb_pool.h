/* A persistent pool of worker threads for a compiled core's vector step (Earth Reborn's
 * Games.step), shared by every core: started lazily, grown to the largest
 * number of threads asked, parked on a condition variable between calls, joined when freed, and
 * rebuilt in a child process after fork (its threads do not exist there).
 *
 * rb_pool_run splits [0, n) into chunks claimed one at a time from a shared counter; the calling
 * thread takes chunks too and only waits for chunks a helper has already claimed, so a helper
 * that is slow to wake costs little more than the wake-up call; and while the helpers do not
 * pay for that (no core to spare), calls run on the caller alone for a while (rb_pool.c). Which
 * thread runs a chunk must not matter to fn: the results are then the same for any number of
 * threads.
 */
#ifndef RB_POOL_H
#define RB_POOL_H

typedef void (*RbPoolFn)(void *ctx, int lo, int hi);

typedef struct RbPool RbPool;

/* fn(ctx, lo, hi) over every chunk of [0, n), by the caller and up to threads - 1 helpers of
 * *pool (created or grown here; *pool may be NULL, and a pool left by the parent of a forked
 * process is replaced). Never fails: without helpers (none could be started) the caller runs
 * every chunk. Call it without the GIL, from one thread at a time per pool. */
void rb_pool_run(RbPool **pool, int threads, int n, RbPoolFn fn, void *ctx);

/* The helpers stopped and joined, the pool freed (NULL is allowed). */
void rb_pool_free(RbPool *pool);

#endif
