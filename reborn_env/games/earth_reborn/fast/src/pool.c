/* The persistent worker pool of Games.step (see pool.h): helpers parked on a condition variable,
 * work handed out in chunks from an atomic counter, a fork epoch so that a child rebuilds it.
 * The caller spins a little for the helpers' last chunks before it sleeps: they take a few
 * microseconds, and a sleeping caller can take longer than that to be woken.
 *
 * Helpers only pay when they have a core: on a machine with none to spare a helper wakes late
 * or is preempted holding a chunk, and the caller then waits milliseconds for work it could
 * have done in microseconds. So each call weighs what the helpers saved (their slots at the
 * caller's own pace) against what waiting for them cost; after a call where they did not pay,
 * the next calls run on the caller alone, twice as many each time (up to MAX_BACKOFF), until a
 * call where they pay again. Which thread runs a slot never changes a result. */
#define _POSIX_C_SOURCE 200809L
#include "pool.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>

/* Chunks per thread of a call (the caller never waits for more than one chunk of a helper). */
#define CHUNKS_PER_THREAD 16
#define MAX_CHUNK 64
/* Pauses the caller spins for the helpers still in a job before it sleeps (tens of us). */
#define SPINS 4096

/* Calls run on the caller alone after helpers did not pay, at most (the next try doubles it). */
#define MAX_BACKOFF 64

#if defined(__x86_64__) || defined(__i386__)
#define CPU_RELAX() __builtin_ia32_pause()
#elif defined(__aarch64__)
#define CPU_RELAX() __asm__ __volatile__("yield")
#else
#define CPU_RELAX() ((void)0)
#endif

struct Pool {
    pthread_mutex_t lock;
    pthread_cond_t wake;   /* helpers wait here for a new job (or stop) */
    pthread_cond_t done;   /* the caller waits here for the last helper to leave the job */
    pthread_t *tids;
    int n_helpers;         /* threads started */
    unsigned epoch;        /* fork_epoch when the pool was made */
    /* The job, written under the lock: */
    unsigned long job;     /* incremented by each call */
    int open;              /* helpers may still join the job */
    int wanted;            /* helpers the job may take */
    atomic_int active;     /* helpers inside the job (changed under the lock, read without) */
    int caller_sleeps;     /* the caller waits on `done` */
    int stop;
    int skip;              /* calls left to run on the caller alone */
    int backoff;           /* the skip after the next call where helpers do not pay */
    PoolFn fn;
    void *ctx;
    int n, chunk;
    atomic_int next;       /* the first slot of the next unclaimed chunk */
};

/* Incremented in the child of every fork: a pool of another epoch has no threads here. */
static unsigned fork_epoch;
static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;

static void in_child(void)
{
    fork_epoch++;
}

static void register_atfork(void)
{
    pthread_atfork(NULL, NULL, in_child);
}

/* Chunks claimed and run until none is left; the number of slots this thread ran. */
static int run_chunks(Pool *p, PoolFn fn, void *ctx, int n, int chunk)
{
    int ran = 0;
    for (;;) {
        int lo = atomic_fetch_add_explicit(&p->next, chunk, memory_order_relaxed);
        if (lo >= n)
            return ran;
        int hi = n - lo < chunk ? n : lo + chunk;
        fn(ctx, lo, hi);
        ran += hi - lo;
    }
}

static double seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* After a call: did the helpers save more than the caller spent waking and waiting for them?
 * (times: the call's start, the helpers woken, the caller's last chunk done, the call's end) */
static void weigh(Pool *p, int n, int caller_slots, const double at[4])
{
    double pace = caller_slots ? (at[2] - at[1]) / caller_slots : 0.0;
    double saved = (double)(n - caller_slots) * pace, waited = at[1] - at[0] + at[3] - at[2];
    if (caller_slots < n && saved > waited) {
        p->backoff = 1;
    } else {
        p->skip = p->backoff;
        p->backoff = p->backoff * 2 > MAX_BACKOFF ? MAX_BACKOFF : p->backoff * 2;
    }
}

static void *helper(void *arg)
{
    Pool *p = arg;
    pthread_mutex_lock(&p->lock);
    unsigned long seen = p->job;
    for (;;) {
        while (!p->stop && p->job == seen)
            pthread_cond_wait(&p->wake, &p->lock);
        if (p->stop)
            break;
        seen = p->job;
        if (!p->open || atomic_load(&p->active) >= p->wanted)
            continue;
        atomic_fetch_add(&p->active, 1);
        PoolFn fn = p->fn;
        void *ctx = p->ctx;
        int n = p->n, chunk = p->chunk;
        pthread_mutex_unlock(&p->lock);
        run_chunks(p, fn, ctx, n, chunk);
        pthread_mutex_lock(&p->lock);
        if (atomic_fetch_sub(&p->active, 1) == 1 && p->caller_sleeps)
            pthread_cond_signal(&p->done);
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

static Pool *pool_new(void)
{
    Pool *p = calloc(1, sizeof(Pool));
    if (!p)
        return NULL;
    if (pthread_mutex_init(&p->lock, NULL) != 0) {
        free(p);
        return NULL;
    }
    if (pthread_cond_init(&p->wake, NULL) != 0) {
        pthread_mutex_destroy(&p->lock);
        free(p);
        return NULL;
    }
    if (pthread_cond_init(&p->done, NULL) != 0) {
        pthread_cond_destroy(&p->wake);
        pthread_mutex_destroy(&p->lock);
        free(p);
        return NULL;
    }
    p->epoch = fork_epoch;
    p->backoff = 1;
    return p;
}

/* Up to `helpers` threads started (fewer if the system refuses more). */
static void grow(Pool *p, int helpers)
{
    if (helpers <= p->n_helpers)
        return;
    pthread_t *tids = realloc(p->tids, (size_t)helpers * sizeof(pthread_t));
    if (!tids)
        return;
    p->tids = tids;
    while (p->n_helpers < helpers && pthread_create(&tids[p->n_helpers], NULL, helper, p) == 0)
        p->n_helpers++;
}

void pool_run(Pool **pool, int threads, int n, PoolFn fn, void *ctx)
{
    pthread_once(&atfork_once, register_atfork);
    Pool *p = *pool;
    if (p && p->epoch != fork_epoch) {
        pool_free(p);   /* the parent's: only its memory is here */
        p = *pool = NULL;
    }
    if (threads > 1 && !p)
        p = *pool = pool_new();
    if (p)
        grow(p, threads - 1);
    int helpers = p ? (threads - 1 < p->n_helpers ? threads - 1 : p->n_helpers) : 0;
    if (helpers > 0 && p->skip > 0) {
        p->skip--;
        helpers = 0;
    }
    if (helpers == 0) {
        fn(ctx, 0, n);
        return;
    }
    int chunk = n / ((helpers + 1) * CHUNKS_PER_THREAD);
    chunk = chunk < 1 ? 1 : chunk > MAX_CHUNK ? MAX_CHUNK : chunk;
    double at[4] = {seconds(), 0.0, 0.0, 0.0};
    pthread_mutex_lock(&p->lock);
    p->fn = fn;
    p->ctx = ctx;
    p->n = n;
    p->chunk = chunk;
    atomic_store_explicit(&p->next, 0, memory_order_relaxed);
    p->wanted = helpers;
    p->open = 1;
    p->job++;
    pthread_mutex_unlock(&p->lock);
    for (int k = 0; k < helpers; k++)
        pthread_cond_signal(&p->wake);
    at[1] = seconds();
    int caller_slots = run_chunks(p, fn, ctx, n, chunk);
    at[2] = seconds();
    pthread_mutex_lock(&p->lock);
    p->open = 0;   /* no helper joins from here on */
    pthread_mutex_unlock(&p->lock);
    for (int k = 0; k < SPINS && atomic_load(&p->active) > 0; k++)
        CPU_RELAX();
    if (atomic_load(&p->active) > 0) {
        pthread_mutex_lock(&p->lock);
        p->caller_sleeps = 1;
        while (atomic_load(&p->active) > 0)
            pthread_cond_wait(&p->done, &p->lock);
        p->caller_sleeps = 0;
        pthread_mutex_unlock(&p->lock);
    }
    at[3] = seconds();
    weigh(p, n, caller_slots, at);
}

void pool_free(Pool *p)
{
    if (!p)
        return;
    if (p->epoch == fork_epoch) {
        pthread_mutex_lock(&p->lock);
        p->stop = 1;
        pthread_cond_broadcast(&p->wake);
        pthread_mutex_unlock(&p->lock);
        for (int k = 0; k < p->n_helpers; k++)
            pthread_join(p->tids[k], NULL);
        pthread_cond_destroy(&p->done);
        pthread_cond_destroy(&p->wake);
        pthread_mutex_destroy(&p->lock);
    }
    /* else: made before a fork; its helpers and any lock they held stayed in the parent */
    free(p->tids);
    free(p);
}
