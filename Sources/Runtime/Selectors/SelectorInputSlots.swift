// The inputs of a memoized selector: one slot per input selector, erased to the selector's
// `Root`, holding the key of the last computation and the key the current call staged.
//
// Loops over parameter packs (`for x in repeat each pack`) are not specialized by the optimizer
// (every iteration goes through generic metadata). So the hit path never loops over a pack: each
// input's slot is type-erased to `_SlotBase<Root>` (generic over `Root` only, hence specialized in
// the client), and a versioned input's check is a closure call plus an integer comparison. Only
// the miss path (`take`, `transform`) uses the pack.

/// One input of a memoized selector, erased to its `Root`: the key of the last computation and
/// the key staged by the current call. The mutable state is only accessed under the owning
/// selector's lock; ``currentVersion(_:)`` reads immutable state only.
@usableFromInline
class _SlotBase<Root> {
    /// The input's version, for a versioned input (for a memoized input, a closure made where
    /// the input's type is known, which calls its box directly).
    @usableFromInline let versionOf: ((Root) -> VersionStamp)?
    /// Where the input's stamp is stored in `Root` (a generated field's), or -1: the hit path
    /// then reads it from the root's memory instead of calling `versionOf`.
    @usableFromInline let versionOffset: Int
    /// Whether the input is unversioned and `Equatable`: its values are compared.
    @usableFromInline let comparesValues: Bool
    /// For an input keyed on several stamps (a field holding a nested state's `@Shared` values):
    /// records them. Such an input is unversioned, so the selector checks it under its lock.
    @usableFromInline let stampsOf: ((Root, inout MemoInputs) -> Void)?
    /// Stamp of the last computation (raw 0: none yet; real stamps are never 0).
    @usableFromInline @exclusivity(unchecked) var lastVersion: VersionStamp
    @usableFromInline @exclusivity(unchecked) var stagedVersion: VersionStamp
    /// The stamps of the last computation and of the current call, for a `stampsOf` input.
    @usableFromInline @exclusivity(unchecked) var lastStamps: MemoInputs
    @usableFromInline @exclusivity(unchecked) var stagedStamps: MemoInputs

    @inlinable
    init(
        versionOf: ((Root) -> VersionStamp)?,
        versionOffset: Int = -1,
        comparesValues: Bool,
        stampsOf: ((Root, inout MemoInputs) -> Void)? = nil
    ) {
        self.versionOf = versionOf
        self.versionOffset = versionOffset
        self.comparesValues = comparesValues
        self.stampsOf = stampsOf
        lastVersion = VersionStamp(rawValue: 0)
        stagedVersion = VersionStamp(rawValue: 0)
        lastStamps = MemoInputs([])
        stagedStamps = MemoInputs([])
    }

    /// The input's current version, for a versioned input. Reads the closure from a `let` of
    /// this (borrowed) slot, so the call does not retain it.
    @inlinable
    final func currentVersion(_ root: Root) -> VersionStamp {
        versionOf!(root)
    }

    /// Reads the current key for `root`, stages it, and returns whether it equals the last one.
    @inlinable
    final func stage(_ root: Root) -> Bool {
        if versionOf != nil {
            let version = currentVersion(root)
            stagedVersion = version
            return version == lastVersion
        }
        if let stampsOf {
            var stamps = lastStamps
            stamps._restart()
            stampsOf(root, &stamps)
            let changed = stamps.changed
            stamps._dropUnrecorded()
            stagedStamps = stamps
            return !changed
        }
        return comparesValues ? stageValue(root) : false
    }

    /// Makes the staged key the last one (after a recomputation).
    @inlinable
    final func commit() {
        lastVersion = stagedVersion
        if stampsOf != nil {
            lastStamps = stagedStamps
        }
        if comparesValues {
            commitValue()
        }
    }

    /// Drops the staged key (after a hit).
    @inlinable
    final func discard() {
        if comparesValues {
            discardValue()
        }
    }

    /// Value comparison, for unversioned `Equatable` inputs.
    /// The input selector's storage, for a change trace to name the input.
    var inputStorage: AnyObject? {
        nil
    }

    @usableFromInline
    func stageValue(_ root: Root) -> Bool {
        fatalError("abstract")
    }

    @usableFromInline
    func commitValue() {
        fatalError("abstract")
    }

    @usableFromInline
    func discardValue() {
        fatalError("abstract")
    }
}

/// The typed slot: also holds the last and staged values of an unversioned `Equatable` input.
@usableFromInline
final class _InputSlot<Root, Input>: _SlotBase<Root> {
    @usableFromInline let input: StateSelector<Root, Input>
    @usableFromInline let equality: _DynamicEquality<Input>
    @usableFromInline @exclusivity(unchecked) var lastValue: Input?
    @usableFromInline @exclusivity(unchecked) var stagedValue: Input?

    @inlinable
    init(_ input: StateSelector<Root, Input>) {
        self.input = input
        if input._storage.isMemo {
            let box = input._storage._memo
            equality = _DynamicEquality(witness: nil)
            super.init(versionOf: { box.version($0) }, comparesValues: false)
        } else if let version = input._storage.version {
            equality = _DynamicEquality(witness: nil)
            super.init(versionOf: version, versionOffset: input._storage.versionOffset, comparesValues: false)
        } else if let stamps = input._storage.stamps {
            equality = _DynamicEquality(witness: nil)
            super.init(versionOf: nil, comparesValues: false, stampsOf: stamps)
        } else {
            equality = _DynamicEquality()
            super.init(versionOf: nil, comparesValues: equality.isEquatable)
        }
    }

    override var inputStorage: AnyObject? {
        input._storage
    }

    @usableFromInline
    override func stageValue(_ root: Root) -> Bool {
        let value = input(root)
        stagedValue = value
        guard let last = lastValue else { return false }
        return equality.isEqual(last, value) ?? false
    }

    @usableFromInline
    override func commitValue() {
        lastValue = stagedValue
        stagedValue = nil
    }

    @usableFromInline
    override func discardValue() {
        stagedValue = nil
    }

    /// The input's value for `root` (miss path): the staged one when staging produced it.
    @inlinable
    func take(_ root: Root) -> Input {
        if comparesValues, let value = stagedValue {
            return value
        }
        return input(root)
    }
}
