// The hand-written alternatives to ModelState, in the same library module, so that both sides of
// every cross-module ratio pay the same module boundary.

import ComputedRuntime
import Foundation

/// A plain struct: stored fields and a stored derived value (the physical limit).
public struct ModelPlainState: Sendable {
    public var items: [Int]
    public var unrelated: Int = 0
    public var threshold: Int = 0
    public var evens: [Int]

    public init(items: [Int]) {
        self.items = items
        evens = items.filter { $0 % 2 == 0 }
    }
}

/// A Swift computed property that recomputes on every read.
public struct ModelNaiveState: Sendable {
    public var items: [Int]
    public var unrelated: Int = 0

    public init(items: [Int]) {
        self.items = items
    }

    public var evens: [Int] {
        items.filter { $0 % 2 == 0 }
    }
}

/// A `didSet` cache, as hand-written state code does it.
public struct ModelDidSetState: Sendable {
    public var items: [Int] {
        didSet { evens = items.filter { $0 % 2 == 0 } }
    }
    public var unrelated: Int = 0
    public private(set) var evens: [Int]

    public init(items: [Int]) {
        self.items = items
        evens = items.filter { $0 % 2 == 0 }
    }
}

/// ReCombine's memoization: the last inputs compared with `==`, the output cached.
public final class ModelLastInputMemo: @unchecked Sendable {
    private var last: (items: [Int], threshold: Int, output: Int)?

    public init() {}

    public func callAsFunction(_ state: ModelPlainState) -> Int {
        if let last, last.items == state.items, last.threshold == state.threshold {
            return last.output
        }
        let output = state.items.count - state.threshold
        last = (state.items, state.threshold, output)
        return output
    }
}

/// A struct behind an `NSLock`, the hand-written alternative to a store.
public final class ModelLockedState: @unchecked Sendable {
    private let lock = NSLock()
    private var state: ModelPlainState

    public init(_ state: ModelPlainState) {
        self.state = state
    }

    public func commit(_ body: (inout ModelPlainState) -> Void) {
        lock.lock()
        defer { lock.unlock() }
        body(&state)
    }

    public var unrelated: Int {
        lock.lock()
        defer { lock.unlock() }
        return state.unrelated
    }
}

/// The generated selector over ModelState, composed as an app composes selectors.
public let modelOverThreshold = createSelector(ModelState.Selectors.items, ModelState.Selectors.threshold) { items, threshold in
    items.count - threshold
}

// MARK: - Measure 10 across modules: store commits

/// `ModelStoreState`'s fields and one derived value, stored by hand.
public struct ModelPlainStoreState: Sendable {
    public var count = 0
    public var items: [Int] = []
    public var c9 = 0

    public init(count: Int = 0, items: [Int] = [], c9: Int = 0) {
        self.count = count
        self.items = items
        self.c9 = c9
    }
}

/// The hand-written alternative to a store, as a model module would write it: a struct behind an
/// `NSLock`, mutated in place by a closure.
public final class ModelLockedStoreState: @unchecked Sendable {
    private let lock = NSLock()
    private var state: ModelPlainStoreState

    public init(_ state: ModelPlainStoreState) {
        self.state = state
    }

    public func commit(_ mutation: (inout ModelPlainStoreState) -> Void) {
        lock.lock()
        defer { lock.unlock() }
        mutation(&state)
    }

    public var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return state.count
    }
}
