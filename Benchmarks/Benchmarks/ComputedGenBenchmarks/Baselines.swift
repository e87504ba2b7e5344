// The hand-written alternatives each generated state is measured against, in the same run.

// MARK: - Measures 1 and 2: reads and writes

/// The limit: the derived values stored as plain properties (what a cache hit can at best cost).
struct StoredReadState {
    var items: [Int]
    var unrelated: Int
    var evens: [Int]
    var evenCount: Int

    init(items: [Int]) {
        self.items = items
        unrelated = 0
        evens = items.filter { $0 % 2 == 0 }
        evenCount = evens.count
    }
}

/// A naive Swift computed property: recomputes on every read.
struct NaiveReadState {
    var items: [Int]
    var unrelated: Int = 0

    var evens: [Int] {
        items.filter { $0 % 2 == 0 }
    }
}

/// A hand-written `didSet` cache: recomputes on every write of `items`.
struct DidSetReadState {
    var items: [Int] {
        didSet { evens = items.filter { $0 % 2 == 0 } }
    }
    var unrelated: Int = 0
    private(set) var evens: [Int]

    init(items: [Int]) {
        self.items = items
        evens = items.filter { $0 % 2 == 0 }
    }
}

// MARK: - Measure 3: ReCombine's memoization

/// ReCombine's `createSelector` approach, written by hand: the input selectors run on every call,
/// each input is compared with `==` against the previous call's, and one result is cached.
/// Like ReCombine's, it takes no lock.
final class EquatableMemo<Root, A: Equatable, B: Equatable, Output> {
    private let first: (Root) -> A
    private let second: (Root) -> B
    private let transform: (A, B) -> Output
    private var last: (first: A, second: B, output: Output)?
    private(set) var recomputations = 0

    init(_ first: @escaping (Root) -> A, _ second: @escaping (Root) -> B, transform: @escaping (A, B) -> Output) {
        self.first = first
        self.second = second
        self.transform = transform
    }

    func callAsFunction(_ root: Root) -> Output {
        let a = first(root)
        let b = second(root)
        if let last, last.first == a, last.second == b {
            return last.output
        }
        recomputations += 1
        let output = transform(a, b)
        last = (a, b, output)
        return output
    }
}

/// The state ReCombine selectors read: a plain struct.
struct PlainSelectionState {
    var items: [Int]
    var threshold: Int = 0
    var unrelated: Int = 0
}

// MARK: - Measure 5: synthesized ==

/// The same 20 fields as `WideState` (Specs/Wide.statespec), with the compiler-synthesized `==`.
struct WideBaseline: Equatable {
    var field0: Int = 0
    var field1: String = "field"
    var field2: [Int] = [1, 2, 3]
    var field3: Double = 0.5
    var field4: Bool = false
    var field5: Int = 0
    var field6: String = "field"
    var field7: [Int] = [1, 2, 3]
    var field8: Double = 0.5
    var field9: Bool = false
    var field10: Int = 0
    var field11: String = "field"
    var field12: [Int] = [1, 2, 3]
    var field13: Double = 0.5
    var field14: Bool = false
    var field15: Int = 0
    var field16: String = "field"
    var field17: [Int] = [1, 2, 3]
    var field18: Double = 0.5
    var field19: Bool = false
}

// MARK: - Measure 7: a plain struct instead of a store

/// `StoreBenchState`'s fields and one derived value, stored by hand.
struct PlainStoreState {
    var count = 0
    var items: [Int] = []
    var c9 = 0
}
