// CComputedAtomics: the version stamp blocks, the open counting scopes, the commits in progress
// on each thread and the blocking part of the memo-cell "once".

#include "CComputedAtomics.h"

#include <pthread.h>

/// The end of the last block of stamps handed to a thread (the first block is 1...1024: 0 is
/// never a stamp).
static uint64_t cg_version_counter = 0;

_Thread_local cg_version_block cg_version_thread_block CG_TLS_MODEL = { 0, 0 };

uint64_t cg_version_refill(void) {
    uint64_t end = __atomic_add_fetch(&cg_version_counter, CG_VERSION_BLOCK_SIZE, __ATOMIC_RELAXED);
    uint64_t first = end - CG_VERSION_BLOCK_SIZE + 1;
    cg_version_thread_block.next = first + 1;
    cg_version_thread_block.limit = end + 1;
    return first;
}

void cg_version_testing_use_block(uint64_t next, uint64_t limit) {
    cg_version_thread_block.next = next;
    cg_version_thread_block.limit = limit;
}

int64_t cg_recomputation_scopes = 0;

int64_t cg_change_traces = 0;

uint64_t cg_id_hash_key_value = 0;

static _Thread_local void *cg_trace_frame = NULL;

void *cg_trace_frame_get(void) {
    return cg_trace_frame;
}

void cg_trace_frame_set(void *frame) {
    cg_trace_frame = frame;
}

static _Thread_local uint64_t cg_trace_thread = 0;
static uint64_t cg_trace_threads = 0;

uint64_t cg_trace_thread_number(void) {
    if (cg_trace_thread == 0) {
        cg_trace_thread = __atomic_add_fetch(&cg_trace_threads, 1, __ATOMIC_RELAXED);
    }
    return cg_trace_thread;
}

_Thread_local const cg_commit_frame *cg_commit_frames CG_TLS_MODEL = NULL;

// Per-thread slots: a bit per slot taken, under a mutex; a thread-specific key whose destructor
// frees the slot of an exiting thread.
_Thread_local uint32_t cg_thread_slot_plus_one CG_TLS_MODEL = 0;
static pthread_mutex_t cg_thread_slots_mutex = PTHREAD_MUTEX_INITIALIZER;
static uint32_t cg_thread_slots_taken = 0;
static pthread_key_t cg_thread_slot_key;
static pthread_once_t cg_thread_slot_key_once = PTHREAD_ONCE_INIT;

static void cg_thread_slot_release(void *value) {
    uint32_t slot = (uint32_t)(uintptr_t)value - 1;
    pthread_mutex_lock(&cg_thread_slots_mutex);
    cg_thread_slots_taken &= ~(1u << slot);
    pthread_mutex_unlock(&cg_thread_slots_mutex);
}

static void cg_thread_slot_make_key(void) {
    pthread_key_create(&cg_thread_slot_key, cg_thread_slot_release);
}

_Static_assert(CG_THREAD_SLOTS <= 32, "the taken slots are bits of a uint32_t");

uint32_t cg_thread_slot_take(void) {
    // A thread that found none retries every 1,024 calls (counting down above the range).
    uint32_t state = cg_thread_slot_plus_one;
    if (state > CG_THREAD_SLOTS + 1) {
        cg_thread_slot_plus_one = state - 1;
        return CG_THREAD_SLOTS;
    }
    pthread_once(&cg_thread_slot_key_once, cg_thread_slot_make_key);
    pthread_mutex_lock(&cg_thread_slots_mutex);
    uint32_t slot = CG_THREAD_SLOTS;
    for (uint32_t index = 0; index < CG_THREAD_SLOTS; index++) {
        if ((cg_thread_slots_taken & (1u << index)) == 0) {
            cg_thread_slots_taken |= 1u << index;
            slot = index;
            break;
        }
    }
    pthread_mutex_unlock(&cg_thread_slots_mutex);
    if (slot == CG_THREAD_SLOTS) {
        cg_thread_slot_plus_one = CG_THREAD_SLOTS + 1 + 1024;
        return CG_THREAD_SLOTS;
    }
    cg_thread_slot_plus_one = slot + 1;
    pthread_setspecific(cg_thread_slot_key, (void *)(uintptr_t)(slot + 1));
    return slot;
}

// Waiters block on one of a few striped mutex/condition pairs chosen by the cell's address.
// Wake-ups are broadcast, and every waiter re-checks its own cell, so sharing a stripe between
// cells is harmless (at worst a spurious wake-up).
#define CG_STRIPE_COUNT 64

typedef struct cg_stripe {
    pthread_mutex_t mutex;
    pthread_cond_t cond;
} cg_stripe;

#define CG_STRIPE_INIT { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER }
#define CG_STRIPE_INIT_8 CG_STRIPE_INIT, CG_STRIPE_INIT, CG_STRIPE_INIT, CG_STRIPE_INIT, \
                         CG_STRIPE_INIT, CG_STRIPE_INIT, CG_STRIPE_INIT, CG_STRIPE_INIT

static cg_stripe cg_stripes[CG_STRIPE_COUNT] = {
    CG_STRIPE_INIT_8, CG_STRIPE_INIT_8, CG_STRIPE_INIT_8, CG_STRIPE_INIT_8,
    CG_STRIPE_INIT_8, CG_STRIPE_INIT_8, CG_STRIPE_INIT_8, CG_STRIPE_INIT_8,
};

static cg_stripe *cg_stripe_for(const cg_once *o) {
    uintptr_t address = (uintptr_t)o;
    // Fibonacci hashing of the address; the low bits are alignment and carry no information.
    uint64_t hash = (uint64_t)(address >> 4) * 0x9E3779B97F4A7C15ull;
    return &cg_stripes[hash >> 58]; // top 6 bits: 0..63
}

void cg_once_wake_waiters(cg_once *o) {
    cg_stripe *stripe = cg_stripe_for(o);
    pthread_mutex_lock(&stripe->mutex);
    pthread_cond_broadcast(&stripe->cond);
    pthread_mutex_unlock(&stripe->mutex);
}

uint32_t cg_once_wait(cg_once *o) {
    cg_stripe *stripe = cg_stripe_for(o);
    pthread_mutex_lock(&stripe->mutex);
    uint32_t state = __atomic_load_n(&o->state, __ATOMIC_ACQUIRE);
    for (;;) {
        if (state == CG_ONCE_READY || state == CG_ONCE_EMPTY) {
            break;
        }
        if (state == CG_ONCE_COMPUTING) {
            // Announce a waiter so the computing thread knows it must broadcast. On failure
            // `state` holds the current value and we re-examine it.
            if (!__atomic_compare_exchange_n(&o->state, &state, CG_ONCE_WAITING, false,
                                             __ATOMIC_ACQUIRE, __ATOMIC_ACQUIRE)) {
                continue;
            }
        }
        // State is WAITING: the computing thread will take this stripe's mutex and broadcast
        // after publishing, so the wake-up cannot be lost (we hold the mutex until we wait).
        pthread_cond_wait(&stripe->cond, &stripe->mutex);
        state = __atomic_load_n(&o->state, __ATOMIC_ACQUIRE);
    }
    pthread_mutex_unlock(&stripe->mutex);
    return state;
}
