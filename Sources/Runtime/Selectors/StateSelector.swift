import CComputedAtomics

/// A function from a state (`Root`) to a derived `Value`, possibly memoized and versioned.
///
/// Call it like a function: `selector(state)`. Selectors are immutable, `Sendable` values; a
/// memoized selector shares its cache among all copies.
///
/// - An *unversioned* selector (``init(_:)``) just runs its closure. Used as an input of
///   ``createSelector(_:memoized:name:transform:)`` it is compared by `==` when its value is
///   `Equatable` and counts as always changed otherwise.
/// - A *versioned* selector (``init(version:recomputations:_:)``, or any memoized selector made by
///   ``createSelector(_:memoized:name:transform:)``) also reports a ``VersionStamp`` that changes
///   whenever its value may have changed. Memoized selectors compare versioned inputs by stamp
///   only: O(1) per input, and on a hit the input's value is not even computed.
///
/// Named `StateSelector` rather than `Selector`: on Apple platforms `import Foundation` brings
/// Objective-C's `Selector` into nearly every file, and the two could not be told apart there.
public struct StateSelector<Root, Value>: Sendable {
    /// Everything the selector holds, behind one reference: a selector stored in a global (as
    /// generated `Selectors` are) is copied out of it around every call by a caller in another
    /// module, and each reference it holds costs an atomic retain and release per call.
    @usableFromInline
    let _storage: _SelectorStorage<Root, Value>

    @inlinable
    init(_storage: _SelectorStorage<Root, Value>) {
        self._storage = _storage
    }

    @inlinable
    init(
        _select: @escaping @Sendable (Root) -> Value,
        _version: (@Sendable (Root) -> VersionStamp)?,
        _counter: RecomputationCounter?,
        _versionOffset: Int = -1
    ) {
        self.init(_storage: _SelectorStorage(
            select: _select,
            version: _version,
            counter: _counter,
            isMemo: false,
            versionOffset: _versionOffset
        ))
    }

    /// The selector backed by a memo box.
    @inlinable
    init(_memo box: _MemoizedSelectorBox<Root, Value>) {
        self.init(_storage: box)
    }

    /// Reported as ``recomputations``.
    @inlinable
    var _counter: RecomputationCounter? {
        _storage.recomputationCounter
    }

    /// An unversioned selector that runs `select` on every call.
    @inlinable
    public init(_ select: @escaping @Sendable (Root) -> Value) {
        self.init(_select: select, _version: nil, _counter: nil)
    }

    /// An unversioned selector that runs `select` on every call and reports `counter` as its
    /// ``recomputations`` (e.g. the counter of a memo behind `select`, which increments it).
    @inlinable
    public init(recomputations counter: RecomputationCounter?, _ select: @escaping @Sendable (Root) -> Value) {
        self.init(_select: select, _version: nil, _counter: counter)
    }

    /// A versioned selector: `version` must return a stamp that changes whenever the value
    /// `select` returns may change (typically an ``Edge`` stamp or a generated memo's version),
    /// and that is cheap to read.
    ///
    /// - Parameters:
    ///   - version: the stamp of the value for a root; must not compute the value.
    ///   - counter: reported as ``recomputations`` (e.g. the counter of the memo behind
    ///     `select`); this selector never increments it itself. `nil` reports 0.
    ///   - select: the value for a root.
    @inlinable
    public init(
        version: @escaping @Sendable (Root) -> VersionStamp,
        recomputations counter: RecomputationCounter? = nil,
        _ select: @escaping @Sendable (Root) -> Value
    ) {
        self.init(
            _select: select,
            _version: version,
            _counter: counter
        )
    }

    /// A versioned selector of a field kept in a ``StoredField`` (as generated states keep their
    /// plain fields): the version is the field's stamp, `select` gives the value.
    ///
    /// ```swift
    /// static let todos = StateSelector<TodoState, [Todo]>(field: \TodoState.computed._todos) { state in
    ///     state.computed.todos
    /// }
    /// ```
    ///
    /// When `field` is a path of stored properties, a memoized selector made from this one reads
    /// the stamp straight from the state's memory on its hit path (no call, no copy of the
    /// state); otherwise the stamp is read through the key path.
    ///
    /// - Parameters:
    ///   - field: where the field's storage is in `Root`.
    ///   - counter: reported as ``recomputations``; `nil` reports 0.
    ///   - select: the value for a root (the field's value).
    @inlinable
    public init(
        field: KeyPath<Root, StoredField<Value>> & Sendable,
        recomputations counter: RecomputationCounter? = nil,
        _ select: @escaping @Sendable (Root) -> Value
    ) {
        if let fieldOffset = MemoryLayout<Root>.offset(of: field),
            let stampOffset = MemoryLayout<StoredField<Value>>.offset(of: \StoredField<Value>._version)
        {
            let offset = fieldOffset + stampOffset
            self.init(
                _select: select,
                _version: { root in _stamp(of: root, at: offset) },
                _counter: counter,
                _versionOffset: offset
            )
        } else {
            self.init(_select: select, _version: { $0[keyPath: field]._version }, _counter: counter)
        }
    }

    /// The value for `root` (memoized selectors return their cached value when the inputs did
    /// not change).
    @inlinable
    public func callAsFunction(_ root: Root) -> Value {
        withUnsafePointer(to: root) { root in
            if _storage.isMemo {
                return _storage._memo.evaluate(at: root).value
            }
            // A generated computed value's selector: an up-to-date cell is read in place, as
            // `state.computed.x` reads it (the closure brings a stale one up to date).
            let slot = _storage.slot
            if slot >= 0 {
                let memo = UnsafeRawPointer(root).advanced(by: _storage.memoOffset).assumingMemoryBound(to: MemoTable.self)
                if _fastPath(memo.pointee._isCached(slot)) { return memo.pointee[_borrowed: slot, as: Value.self] }
            }
            return _storage.select.unsafelyUnwrapped(root.pointee)
        }
    }

    /// The version stamp of the value for `root`, or `nil` for an unversioned selector.
    ///
    /// For a memoized selector this evaluates it (a hit when the inputs did not change): the
    /// same stamp as long as it returns its cached value, a new stamp on every recomputation.
    @inlinable
    public func version(_ root: Root) -> VersionStamp? {
        if _storage.isMemo {
            return withUnsafePointer(to: root) { _storage._memo.version(at: $0) }
        }
        let slot = _storage.slot
        if slot >= 0 {
            let version = withUnsafePointer(to: root) { root -> VersionStamp? in
                let memo = UnsafeRawPointer(root).advanced(by: _storage.memoOffset).assumingMemoryBound(to: MemoTable.self)
                let header = memo.pointee._header(slot)
                return cg_once_is_ready(header._once) ? header._changedAt.pointee : nil
            }
            if let version { return version }
        }
        return _storage.version?(root)
    }

    /// Whether this selector reports versions (see ``version(_:)``).
    @inlinable
    public var isVersioned: Bool {
        _storage.isMemo || _storage.version != nil
    }

    /// How many times this selector recomputed its value since creation or the last
    /// ``resetRecomputations()``: every call for `memoized: false`, every cache miss for a
    /// memoized selector, the given counter for ``init(version:recomputations:_:)``, 0 for
    /// ``init(_:)``.
    public var recomputations: Int {
        _counter?.count ?? 0
    }

    /// Resets ``recomputations`` to zero.
    public func resetRecomputations() {
        _counter?.reset()
    }
}

/// What a ``StateSelector`` holds: its closures and counter, or (a `_MemoizedSelectorBox`) its memo.
@usableFromInline
class _SelectorStorage<Root, Value>: @unchecked Sendable {
    // Safety: immutable; subclasses state their own.

    /// The value for a root; `nil` for a memo box, which is called directly.
    @usableFromInline let select: (@Sendable (Root) -> Value)?
    /// The stamp for a root; `nil` when unversioned, or for a memo box.
    @usableFromInline let version: (@Sendable (Root) -> VersionStamp)?
    /// Reported as `recomputations`.
    @usableFromInline let recomputationCounter: RecomputationCounter?
    /// Whether this is a `_MemoizedSelectorBox`: a flag, so that the call is a load and a branch,
    /// then a direct call of the box's code specialized for the caller's types (a dynamic cast
    /// would cost far more, an overridden method would run unspecialized code).
    @usableFromInline let isMemo: Bool
    /// The byte offset in `Root` of the `VersionStamp` that `version` returns, when the value's
    /// stamp is stored there (a generated field's); -1 otherwise.
    @usableFromInline let versionOffset: Int
    /// Where the value is cached when it is a generated computed value's (a hit is read in
    /// place): the byte offset in `Root` of the state's ``MemoTable`` and the value's slot in it;
    /// `slot` is -1 otherwise.
    @usableFromInline let memoOffset: Int
    @usableFromInline let slot: Int
    /// For a value that one stamp cannot key (a generated field holding a nested state whose
    /// `@Shared` values other holders write): records every stamp the value depends on, the
    /// field's first. Such a selector is unversioned (`version` is `nil`), and a memoized
    /// selector over it keys its cache on all these stamps.
    @usableFromInline let stamps: (@Sendable (Root, inout MemoInputs) -> Void)?

    @inlinable
    init(
        select: (@Sendable (Root) -> Value)?,
        version: (@Sendable (Root) -> VersionStamp)?,
        counter: RecomputationCounter?,
        isMemo: Bool,
        versionOffset: Int = -1,
        memoOffset: Int = -1,
        slot: Int = -1,
        stamps: (@Sendable (Root, inout MemoInputs) -> Void)? = nil
    ) {
        self.select = select
        self.version = version
        recomputationCounter = counter
        self.isMemo = isMemo
        self.versionOffset = versionOffset
        self.memoOffset = memoOffset
        self.slot = slot
        self.stamps = stamps
    }

    /// This storage as the memo box it is; only when `isMemo`. Always inlined: a getter would
    /// return it retained.
    @inlinable
    @inline(__always)
    final var _memo: _MemoizedSelectorBox<Root, Value> {
        unsafeDowncast(self, to: _MemoizedSelectorBox<Root, Value>.self)
    }
}

/// The stamp stored `offset` bytes into `root`.
@inlinable
@inline(__always)
func _stamp<Root>(of root: Root, at offset: Int) -> VersionStamp {
    withUnsafePointer(to: root) { _stamp(in: UnsafeRawPointer($0), at: offset) }
}

/// The stamp stored `offset` bytes into the root at `base`.
@inlinable
@inline(__always)
func _stamp(in base: UnsafeRawPointer, at offset: Int) -> VersionStamp {
    VersionStamp(rawValue: base.load(fromByteOffset: offset, as: UInt64.self))
}

// MARK: - createSelector

/// Creates a selector that derives a value from any number of input selectors.
///
/// ```swift
/// let visible = createSelector(todos, filter) { todos, filter in todos.filter(filter.includes) }
/// visible(state)   // computed once, then cached until `todos` or `filter` changes
/// ```
///
/// With `memoized: true` (the default) the selector keeps the inputs' keys of its last
/// computation and the result (a cache of size 1, as Reselect). An input's key is:
/// - its ``VersionStamp`` when the input is versioned (see ``StateSelector/version(_:)``): O(1), and
///   on a hit the input's value is not computed at all;
/// - its value, compared with `==`, when it is unversioned and its type is `Equatable` (checked at
///   run time);
/// - nothing otherwise: an unversioned non-`Equatable` input counts as changed on every call, so
///   the selector recomputes every time.
///
/// The result is versioned: a new stamp on each recomputation, the same stamp on a hit, so
/// selectors built on it check it in O(1).
///
/// **Thread safety:** a memoized selector holds a lock around its memo, and `transform` runs under
/// that lock: concurrent callers that miss at the same time compute once, the others wait and
/// get the same result. Do not call a selector from its own `transform`. Calls with alternating
/// roots whose inputs differ recompute every time (cache size 1); use
/// ``createParameterizedSelector(_:capacity:name:transform:)`` for per-argument caches.
///
/// A hit with versioned inputs reads their stamps and compares them with the ones the cached value
/// was computed from, with no lock: for a trivial value (`Int`, `Bool`, `Double`, a struct of
/// those…) the selector's own copy is read under a sequence counter; any other value (a `String`,
/// an array) comes from the calling thread's own copy, refreshed under the lock when it is out of
/// date. No allocation, and nothing retained but the returned value. (A selector held in a global, as
/// generated `Selectors` are, and called from another module is copied out of the global around
/// the call: one retain and release of its storage, which the compiler adds.)
///
/// With `memoized: false` the selector runs the inputs and `transform` on every call and is
/// unversioned; ``StateSelector/recomputations`` counts every call.
///
/// `name` is what a ``ChangeTrace`` calls the selector's recomputations (`"visibleTodos"`);
/// unnamed, it is `selector → [Todo]`.
@inlinable
public func createSelector<Root, each Input: Sendable, Output: Sendable>(
    _ input: repeat StateSelector<Root, each Input>,
    memoized: Bool = true,
    name: String? = nil,
    transform: @escaping @Sendable (repeat each Input) -> Output
) -> StateSelector<Root, Output> {
    let counter = RecomputationCounter()
    let inputs = (repeat each input)
    guard memoized else {
        return StateSelector(
            _select: { root in
                counter.increment()
                return transform(repeat (each inputs)(root))
            },
            _version: nil,
            _counter: counter
        )
    }
    let slots = (repeat _InputSlot(each inputs))
    var erased: [_SlotBase<Root>] = []
    for slot in repeat each slots {
        erased.append(slot)
    }
    let box = _MemoizedSelectorBox<Root, Output>(
        counter: counter,
        total: nil,
        slots: erased,
        name: name,
        recompute: { root in transform(repeat (each slots).take(root)) }
    )
    return StateSelector(_memo: box)
}
