// CComputedAtomics: the few atomics the ComputedRuntime hot path needs.
//
// Swift cannot import C11 `_Atomic` types, so every atomic here is a plain integer field that is
// only ever accessed through the GCC/Clang `__atomic_*` builtins in `static inline` functions.
// Swift imports and inlines these, so the hot paths compile down to single instructions.

#ifndef C_COMPUTED_ATOMICS_H
#define C_COMPUTED_ATOMICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// MARK: - Version stamps

/// How many stamps a thread takes from the global counter at a time.
#define CG_VERSION_BLOCK_SIZE 1024u

/// The calling thread's block of stamps: `next` is the next stamp to hand out, `limit` the end of
/// the block (exclusive). Both 0 until the thread takes its first stamp.
typedef struct cg_version_block {
    uint64_t next;
    uint64_t limit;
} cg_version_block;

// On ELF platforms, the initial-exec model makes the access from the inlined fast path a load
// relative to the thread pointer (`%fs` on x86-64), with no `__tls_get_addr` call, even from
// position-independent code; the block is 16 bytes of the static TLS area. Darwin reaches
// thread-locals through a `tlv_get_addr` thunk call whatever the model.
#if defined(__ELF__)
#define CG_TLS_MODEL __attribute__((tls_model("initial-exec")))
#else
#define CG_TLS_MODEL
#endif

/// The calling thread's block. Defined in CComputedAtomics.c; only `cg_version_next` touches it.
extern _Thread_local cg_version_block cg_version_thread_block CG_TLS_MODEL;

/// Slow part of `cg_version_next`: takes a new block of `CG_VERSION_BLOCK_SIZE` stamps from the
/// global counter (one relaxed atomic fetch-add) for the calling thread and returns its first
/// stamp.
uint64_t cg_version_refill(void);

/// Returns a new stamp, unique in the process (no other call, on any thread, ever returns it) and
/// greater than every stamp returned before it *on the calling thread*. Never 0.
///
/// Each thread hands out the stamps of its own block (two thread-local loads and a store, no
/// atomic read-modify-write) and takes a new block from the global counter every
/// `CG_VERSION_BLOCK_SIZE` stamps. Blocks are disjoint, so stamps are unique; a thread's blocks
/// come from an increasing counter, so its stamps increase. Across threads stamps are *not*
/// ordered: a thread still using an early block hands out stamps smaller than those another
/// thread handed out before.
static inline uint64_t cg_version_next(void) {
    uint64_t next = cg_version_thread_block.next;
    if (__builtin_expect(next != cg_version_thread_block.limit, 1)) {
        cg_version_thread_block.next = next + 1;
        return next;
    }
    return cg_version_refill();
}

/// Tests only: the calling thread hands out `next`, `next + 1`, … up to `limit` (exclusive), then
/// takes blocks from the global counter again. Stamps are unique only if the range is used by
/// nobody else: pick one far above the global counter (e.g. from 2^62), and do not reuse it.
void cg_version_testing_use_block(uint64_t next, uint64_t limit);

// MARK: - Sequence locks (cells read without a lock)

// A sequence counter guards words that one writer at a time (serialized by a lock) changes and
// any number of readers read without a lock: the writer makes the counter odd, writes, and makes
// it even again; a reader that saw the same even counter before and after reading the words read
// a consistent snapshot. Every guarded word is accessed through the relaxed atomics below, so a
// reader racing with the writer reads torn *snapshots* (which it then discards), never torn
// words, and there is no data race in the C11 sense (nor for TSan).

/// Reader: the counter before reading (acquire). Odd means a write is in progress.
static inline uint64_t cg_seq_read_begin(const uint64_t *seq) {
    return __atomic_load_n(seq, __ATOMIC_ACQUIRE);
}

/// Reader: whether the words read since `cg_seq_read_begin` returned `begin` form a consistent
/// snapshot (no write began in between). An acquire fence orders the reads before the check.
static inline bool cg_seq_read_validate(const uint64_t *seq, uint64_t begin) {
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    return __atomic_load_n(seq, __ATOMIC_RELAXED) == begin;
}

/// Writer (holding the writers' lock): makes the counter odd before the guarded writes.
static inline void cg_seq_write_begin(uint64_t *seq) {
    uint64_t current = __atomic_load_n(seq, __ATOMIC_RELAXED);
    __atomic_store_n(seq, current + 1, __ATOMIC_RELAXED);
    __atomic_thread_fence(__ATOMIC_RELEASE);
}

/// Writer: makes the counter even again, publishing the guarded writes (release).
static inline void cg_seq_write_end(uint64_t *seq) {
    uint64_t current = __atomic_load_n(seq, __ATOMIC_RELAXED);
    __atomic_store_n(seq, current + 1, __ATOMIC_RELEASE);
}

/// Relaxed atomic load of a guarded word.
static inline uint64_t cg_atomic_u64_load(const uint64_t *p) {
    return __atomic_load_n(p, __ATOMIC_RELAXED);
}

/// Relaxed atomic store of a guarded word.
static inline void cg_atomic_u64_store(uint64_t *p, uint64_t v) {
    __atomic_store_n(p, v, __ATOMIC_RELAXED);
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

// MARK: - Change traces

/// How many change traces record in the process (task scopes and the process-wide trace).
/// Defined in CComputedAtomics.c; never touch it directly.
extern int64_t cg_change_traces;

/// Whether any change trace records (relaxed): the one check a memo cell's refresh and a
/// store's commit pay for tracing while none does.
static inline bool cg_change_trace_active(void) {
    return __atomic_load_n(&cg_change_traces, __ATOMIC_RELAXED) != 0;
}

/// Starts (+1) or stops (-1) a change trace.
static inline void cg_change_traces_add(int64_t delta) {
    __atomic_add_fetch(&cg_change_traces, delta, __ATOMIC_RELAXED);
}

/// The innermost traced refresh of the calling thread (an opaque Swift object), or NULL.
void *cg_trace_frame_get(void);

/// Sets the innermost traced refresh of the calling thread.
void cg_trace_frame_set(void *frame);

/// The calling thread's number in change traces: 1 for the first thread that asked, 2 for the
/// next, and so on (never reused).
uint64_t cg_trace_thread_number(void);

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

/// Gives up a cell claimed with `cg_once_try_begin` without publishing (→ EMPTY, release), and
/// wakes the threads waiting on it, which then try again. For a state's memo table being copied:
/// it claims a stale cell only to read its value and recorded inputs.
static inline void cg_once_abandon(cg_once *o) {
    uint32_t old = __atomic_exchange_n(&o->state, CG_ONCE_EMPTY, __ATOMIC_ACQ_REL);
    if (__builtin_expect(old == CG_ONCE_WAITING, 0)) {
        cg_once_wake_waiters(o);
    }
}

// MARK: - Per-thread slots (lock-free cache hits)

/// How many threads can have a slot of their own at a time. A thread beyond that has none
/// (`cg_thread_slot` returns `CG_THREAD_SLOTS`) and takes the caches' locked paths.
#define CG_THREAD_SLOTS 16u

/// The calling thread's slot plus one; 0 until it asks for one. Defined in CComputedAtomics.c.
extern _Thread_local uint32_t cg_thread_slot_plus_one CG_TLS_MODEL;

/// Slow part of `cg_thread_slot`: takes a free slot for the calling thread (under a mutex), which
/// it owns until it exits (then the slot is free for another thread), or `CG_THREAD_SLOTS` when
/// every slot is taken (asked again later, at most once per 1,024 calls).
uint32_t cg_thread_slot_take(void);

/// The calling thread's slot, `0 ..< CG_THREAD_SLOTS`, or `CG_THREAD_SLOTS` for none.
///
/// One live thread at a time owns a slot: a per-slot cache entry is read and written only by its
/// owner, with no atomics. A slot passes from an exited thread to a new one through the mutex
/// of `cg_thread_slot_take`, which orders the old owner's writes before the new owner's reads.
static inline uint32_t cg_thread_slot(void) {
    uint32_t slot = cg_thread_slot_plus_one;
    if (__builtin_expect(slot != 0 && slot <= CG_THREAD_SLOTS, 1)) {
        return slot - 1;
    }
    return cg_thread_slot_take();
}

// MARK: - Commits in progress on this thread

/// A store commit in progress on the calling thread: a frame on that thread's stack, linked to the
/// commit it is nested in (a mutation may commit to another store).
typedef struct cg_commit_frame {
    const void *store;
    const struct cg_commit_frame *outer;
} cg_commit_frame;

/// The innermost commit in progress on the calling thread, or NULL. Defined in
/// CComputedAtomics.c; only the functions below touch it.
extern _Thread_local const cg_commit_frame *cg_commit_frames CG_TLS_MODEL;

/// Enters a commit: `frame` (on the caller's stack, alive until `cg_commit_pop`) records `store`.
static inline void cg_commit_push(cg_commit_frame *frame, const void *store) {
    frame->store = store;
    frame->outer = cg_commit_frames;
    cg_commit_frames = frame;
}

/// Leaves the commit `frame` entered.
static inline void cg_commit_pop(const cg_commit_frame *frame) {
    cg_commit_frames = frame->outer;
}

/// Whether the calling thread is inside a commit to `store` (so holds its lock).
static inline bool cg_commit_is_active(const void *store) {
    for (const cg_commit_frame *frame = cg_commit_frames; frame != NULL; frame = frame->outer) {
        if (frame->store == store) {
            return true;
        }
    }
    return false;
}

// MARK: - The id index's hash key

/// The key `_IDKey.mix` mixes into integer ids' hashes, 0 until the first id index is made.
/// Defined in CComputedAtomics.c; never touch it directly.
extern uint64_t cg_id_hash_key_value;

/// The id index's hash key (relaxed): one load, where a Swift global would be a `swift_once`
/// check on every hash. Final once any id index exists (see `cg_id_hash_key_publish`).
static inline uint64_t cg_id_hash_key(void) {
    return __atomic_load_n(&cg_id_hash_key_value, __ATOMIC_RELAXED);
}

/// Sets the id index's hash key (relaxed). Called once per process, inside a Swift `once` that
/// every id index's initializer passes through, so that every hash of an index happens after
/// the store (the `once` orders them).
static inline void cg_id_hash_key_publish(uint64_t key) {
    __atomic_store_n(&cg_id_hash_key_value, key, __ATOMIC_RELAXED);
}

// MARK: - Prefetch

/// Asks for the cache line at `p` to be brought in, for a read soon: a hint, which neither
/// faults nor waits (a loop over elements at scattered places asks for the next ones while it
/// works on this one, instead of stalling on each).
static inline void cg_prefetch(const void *p) {
    __builtin_prefetch(p, 0, 3);
}

#ifdef __cplusplus
}
#endif

#endif // C_COMPUTED_ATOMICS_H
