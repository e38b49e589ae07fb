/* The persistent worker pool of every compiled core's vector step (see rb_pool.h): helpers parked on a condition variable,
 * work handed out in chunks from an atomic counter, a fork epoch so that a child rebuilds it.
 * The caller spins a little for the helpers' last chunks before it sleeps: they take a few
 * microseconds, and a sleeping caller can take longer than that to be woken.
 *
 * Helpers only pay when they have a core: on a machine with none to spare a woken helper
 * takes the caller's own core (the caller waits for it), or is preempted holding a chunk, and
 * a call can then take milliseconds instead of microseconds. So a pool keeps two paces, moving
 * averages of seconds per slot: of calls on the caller alone (its first call, every REFRESH-th
 * and every call skipped run so) and of calls with helpers. While the second is not below the
 * first, calls run on the caller alone, twice as many each time (up to MAX_BACKOFF) between two
 * tries with helpers. Both are averages of times (each capped at MAX_RATIO times the pace
 * alone, as a preempted caller is no measure of anything), so a call with helpers that waits
 * milliseconds weighs what it costs. Which thread runs a slot never changes a result. */
#define _POSIX_C_SOURCE 200809L
#include "rb_pool.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>

/* Chunks per thread of a call (the caller never waits for more than one chunk of a helper). */
#define CHUNKS_PER_THREAD 16
#define MAX_CHUNK 64
/* Seconds the caller spins for the helpers still in a job before it sleeps (about a chunk). */
#define SPIN_SECONDS 20e-6

/* Calls run on the caller alone after helpers did not pay, at most (the next try doubles it). */
#define MAX_BACKOFF 1024
/* One call in REFRESH runs on the caller alone to keep its pace current. */
#define REFRESH 32
/* A call counts for at most MAX_RATIO times the pace alone in the averages. */
#define MAX_RATIO 8.0

#if defined(__x86_64__) || defined(__i386__)
#define CPU_RELAX() __builtin_ia32_pause()
#elif defined(__aarch64__)
#define CPU_RELAX() __asm__ __volatile__("yield")
#else
#define CPU_RELAX() ((void)0)
#endif

struct RbPool {
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
    unsigned calls;
    double alone;          /* seconds per slot on the caller alone (a moving average), 0: none */
    double helped;         /* seconds per slot with helpers (a moving average), 0: none */
    RbPoolFn fn;
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

/* Chunks claimed and run until none is left. */
static void run_chunks(RbPool *p, RbPoolFn fn, void *ctx, int n, int chunk)
{
    for (;;) {
        int lo = atomic_fetch_add_explicit(&p->next, chunk, memory_order_relaxed);
        if (lo >= n)
            return;
        fn(ctx, lo, n - lo < chunk ? n : lo + chunk);
    }
}

static double seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The moving average *pace with the pace of a call that ran n slots in `took` seconds. */
static void average(const RbPool *p, double *pace, int n, double took)
{
    double sample = took / n;
    if (p->alone > 0.0 && sample > MAX_RATIO * p->alone)
        sample = MAX_RATIO * p->alone;
    *pace = *pace == 0.0 ? sample : 0.75 * *pace + 0.25 * sample;
}

/* A call on the caller alone, timed. */
static void run_alone(RbPool *p, int n, RbPoolFn fn, void *ctx)
{
    double start = seconds();
    fn(ctx, 0, n);
    average(p, &p->alone, n, seconds() - start);
}

/* After a call with helpers that took `took` seconds: are they worth it? */
static void weigh(RbPool *p, int n, double took)
{
    average(p, &p->helped, n, took);
    if (p->helped < p->alone) {
        p->backoff = 1;
    } else {
        p->skip = p->backoff;
        p->backoff = p->backoff * 2 > MAX_BACKOFF ? MAX_BACKOFF : p->backoff * 2;
    }
}

static void *helper(void *arg)
{
    RbPool *p = arg;
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
        RbPoolFn fn = p->fn;
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

static RbPool *rb_pool_new(void)
{
    RbPool *p = calloc(1, sizeof(RbPool));
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
static void grow(RbPool *p, int helpers)
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

void rb_pool_run(RbPool **pool, int threads, int n, RbPoolFn fn, void *ctx)
{
    pthread_once(&atfork_once, register_atfork);
    RbPool *p = *pool;
    if (p && p->epoch != fork_epoch) {
        rb_pool_free(p);   /* the parent's: only its memory is here */
        p = *pool = NULL;
    }
    if (threads > 1 && !p)
        p = *pool = rb_pool_new();
    if (p)
        grow(p, threads - 1);
    int helpers = p ? (threads - 1 < p->n_helpers ? threads - 1 : p->n_helpers) : 0;
    if (helpers == 0) {
        fn(ctx, 0, n);
        return;
    }
    if (p->skip > 0 || p->alone == 0.0 || ++p->calls % REFRESH == 0) {
        p->skip -= p->skip > 0;
        run_alone(p, n, fn, ctx);
        return;
    }
    int chunk = n / ((helpers + 1) * CHUNKS_PER_THREAD);
    chunk = chunk < 1 ? 1 : chunk > MAX_CHUNK ? MAX_CHUNK : chunk;
    double start = seconds();
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
    run_chunks(p, fn, ctx, n, chunk);
    double caller_done = seconds();
    pthread_mutex_lock(&p->lock);
    p->open = 0;   /* no helper joins from here on */
    pthread_mutex_unlock(&p->lock);
    for (int k = 0; atomic_load(&p->active) > 0; k++) {
        CPU_RELAX();
        if (k % 64 == 63 && seconds() - caller_done > SPIN_SECONDS)
            break;
    }
    if (atomic_load(&p->active) > 0) {
        pthread_mutex_lock(&p->lock);
        p->caller_sleeps = 1;
        while (atomic_load(&p->active) > 0)
            pthread_cond_wait(&p->done, &p->lock);
        p->caller_sleeps = 0;
        pthread_mutex_unlock(&p->lock);
    }
    weigh(p, n, seconds() - start);
}

void rb_pool_free(RbPool *p)
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
