// CComputedAtomics: the few atomics the ComputedRuntime hot path needs.
//
// Swift cannot import C11 `_Atomic` types, so every atomic here is a plain integer field that is
// only ever accessed through the GCC/Clang `__atomic_*` builtins in `static inline` functions.
// Swift imports and inlines these, so the hot paths compile down to single instructions.

#ifndef C_COMPUTED_ATOMICS_H
#define C_COMPUTED_ATOMICS_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// MARK: - Version stamps

/// The one global version counter. Defined in CComputedAtomics.c; never touch it directly.
extern uint64_t cg_version_counter;

/// Returns a new, globally unique version stamp, greater than every stamp returned before it on
/// the calling thread (and unique across all threads). The first stamp is 1; 0 is never returned.
static inline uint64_t cg_version_next(void) {
    return __atomic_add_fetch(&cg_version_counter, 1, __ATOMIC_RELAXED);
}

/// The most recently issued stamp (0 when none was issued yet).
static inline uint64_t cg_version_current(void) {
    return __atomic_load_n(&cg_version_counter, __ATOMIC_RELAXED);
}

// MARK: - Plain 64-bit atomic integers

/// Relaxed atomic load.
static inline int64_t cg_atomic_i64_load(const int64_t *p) {
    return __atomic_load_n(p, __ATOMIC_RELAXED);
}

/// Relaxed atomic store.
static inline void cg_atomic_i64_store(int64_t *p, int64_t v) {
    __atomic_store_n(p, v, __ATOMIC_RELAXED);
}

/// Relaxed atomic add; returns the new value.
static inline int64_t cg_atomic_i64_add(int64_t *p, int64_t v) {
    return __atomic_add_fetch(p, v, __ATOMIC_RELAXED);
}

// MARK: - Recomputation counting scopes

/// How many `RecomputationCounter.counting { … }` scopes are open in the process. Defined in
/// CComputedAtomics.c; never touch it directly.
extern int64_t cg_recomputation_scopes;

/// Whether any counting scope is open (relaxed: a task that opened one sees its own increment).
/// The one check a recomputation pays when no scope is open.
static inline bool cg_recomputation_scopes_open(void) {
    return __atomic_load_n(&cg_recomputation_scopes, __ATOMIC_RELAXED) != 0;
}

/// Opens (+1) or closes (-1) a counting scope.
static inline void cg_recomputation_scopes_add(int64_t delta) {
    __atomic_add_fetch(&cg_recomputation_scopes, delta, __ATOMIC_RELAXED);
}

// MARK: - Resettable once (memo cells)

/// The state word of a memo cell.
///
/// States: `CG_ONCE_EMPTY` (0) nothing cached; `CG_ONCE_COMPUTING` (1) one thread computes;
/// `CG_ONCE_READY` (2) the value is published; `CG_ONCE_WAITING` (3) one thread computes and at
/// least one other thread waits for it (the computing thread must wake them).
typedef struct cg_once {
    uint32_t state;
} cg_once;

#define CG_ONCE_EMPTY 0u
#define CG_ONCE_COMPUTING 1u
#define CG_ONCE_READY 2u
#define CG_ONCE_WAITING 3u

/// The hit path: one acquire load. True when the value is published and may be read.
static inline bool cg_once_is_ready(const cg_once *o) {
    return __atomic_load_n(&o->state, __ATOMIC_ACQUIRE) == CG_ONCE_READY;
}

/// Tries to become the one computing thread (EMPTY → COMPUTING). True on success.
static inline bool cg_once_try_begin(cg_once *o) {
    uint32_t expected = CG_ONCE_EMPTY;
    return __atomic_compare_exchange_n(&o->state, &expected, CG_ONCE_COMPUTING, false,
                                       __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

/// Slow part of `cg_once_finish`: wakes the threads waiting on `o`.
void cg_once_wake_waiters(cg_once *o);

/// Publishes the value written by the computing thread (→ READY, release) and wakes waiters.
static inline void cg_once_finish(cg_once *o) {
    uint32_t old = __atomic_exchange_n(&o->state, CG_ONCE_READY, __ATOMIC_ACQ_REL);
    if (__builtin_expect(old == CG_ONCE_WAITING, 0)) {
        cg_once_wake_waiters(o);
    }
}

/// Blocks (no busy spinning) until the cell is READY, or EMPTY again. Returns the state seen.
uint32_t cg_once_wait(cg_once *o);

/// Resets the cell to EMPTY. Only for an owner that knows no other thread can access the cell.
static inline void cg_once_reset(cg_once *o) {
    __atomic_store_n(&o->state, CG_ONCE_EMPTY, __ATOMIC_RELEASE);
}

#ifdef __cplusplus
}
#endif

#endif // C_COMPUTED_ATOMICS_H
