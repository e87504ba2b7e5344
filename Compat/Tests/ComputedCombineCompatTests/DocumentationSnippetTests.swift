// The Combine snippets of the DocC article "Combine publishers"
// (Sources/Runtime/ComputedRuntime.docc/Articles/CombinePublishers.md) and Docs/Migrating.md
// ("Combine pipelines"), verbatim, so that they compile and run. Each snippet is marked in its document with
// `<!-- compiled in Compat/Tests/ComputedCombineCompatTests/DocumentationSnippetTests.swift -->`,
// and `snippetsAreVerbatimHere` fails when a marked snippet no longer appears in this file.
import ComputedCombineCompat
import ComputedRuntime
import Dispatch
import Foundation
import OpenCombineShim
import Testing

@Suite("Documentation snippets")
struct DocumentationSnippetTests {
    /// Mirrors the DocC article "Combine publishers".
    @Test func combinePublishersArticle() async {
        let label = Label()
        let searchField = SearchField()

        let store = Store(TodoState())
        var cancellables = Set<AnyCancellable>()

        store.publisher(for: TodoState.Selectors.visibleCount)   // the current value, then distinct values
            .map { "\($0) to do" }
            .receive(on: DispatchQueue.main)
            .sink { title in label.text = title }
            .store(in: &cancellables)

        store.publisher                                          // the current state, then every commit
            .map(\.query)
            .removeDuplicates()
            .sink { query in print("searching", query) }
            .store(in: &cancellables)

        searchField.textPublisher                                // any publisher that never fails
            .assign(to: store.assignee(\.query))                 // a StoreSubscription, also a Cancellable
            .store(in: &cancellables)

        #expect(await label.wait(for: "0 to do"))
        store.commit { $0.todos = [Todo(title: "milk"), Todo(title: "bread")] }
        #expect(await label.wait(for: "2 to do"))
        searchField.textPublisher.send("mi")
        #expect(store.state.query == "mi")
        #expect(await label.wait(for: "1 to do"))
        cancellables.removeAll()
        searchField.textPublisher.send("b")
        #expect(store.state.query == "mi")
    }

    /// Mirrors Docs/Migrating.md, "ReCombine: store.select(…) and publisher operators".
    @Test func migratingReCombineSelect() {
        let store = Store(ValuesState())
        var cancellables = Set<AnyCancellable>()
        let shown = Recorder<[String]>()
        func show(_ values: [String]) { shown.append(values) }

        store
            .publisher(for: ValuesState.Selectors.values)
            .compactMap({ values in values })
            .sink { values in show(values) }
            .store(in: &cancellables)

        let filtered = Recorder<[String]>()
        store.selectFilteredValues().sink { filtered.append($0) }.store(in: &cancellables)
        store.commit { $0.unrelated = 1 }
        store.commit { $0.values = ["a"] }
        #expect(shown.values == [["a"]])
        #expect(filtered.values == [["a"]])
    }

    /// Mirrors Docs/Migrating.md, "Verge: assign and assignee".
    @Test func migratingVergeAssign() {
        let store1 = Store(CounterState())
        let store2 = Store(CounterState())
        let publisher = PassthroughSubject<Int, Never>()
        var cancellables = Set<AnyCancellable>()

        let link = store1
            .derived(\.count)
            .assign(to: store2.assignee(\.count))

        publisher
            .assign(to: store2.assignee(\.count))
            .store(in: &cancellables)

        store1.commit { $0.count = 1 }
        #expect(store2.state.count == 1)
        publisher.send(2)
        #expect(store2.state.count == 2)
        link.cancel()
        cancellables.removeAll()
        store1.commit { $0.count = 3 }
        publisher.send(4)
        #expect(store2.state.count == 2)
    }

    /// Mirrors Docs/Migrating.md, "TCA: $count.publisher".
    @Test func migratingTCASharedPublisher() {
        let state = FeatureState()
        state.$count.withLock { $0 = 10 }
        var cancellables = Set<AnyCancellable>()
        let sent = Recorder<Action>()
        func send(_ action: Action) { sent.append(action) }

        state.$count.publisher
            .map(Action.countUpdated)
            .sink { action in send(action) }
            .store(in: &cancellables)

        FeatureState().count += 1   // another holder of the same key
        #expect(sent.values == [.countUpdated(10), .countUpdated(11)])
    }

    /// Every snippet marked in the documents appears in this file (lines compared without
    /// their indentation), so editing a snippet without its test fails here.
    @Test func snippetsAreVerbatimHere() throws {
        let compat = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let root = compat.deletingLastPathComponent()
        let here = normalized(try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8))
        var count = 0
        for document in ["Sources/Runtime/ComputedRuntime.docc/Articles/CombinePublishers.md", "Docs/Migrating.md"] {
            let text = try String(contentsOf: root.appendingPathComponent(document), encoding: .utf8)
            for snippet in markedSnippets(in: text) {
                count += 1
                #expect(here.contains(normalized(snippet)), "\(document): snippet not in this test:\n\(snippet)")
            }
        }
        #expect(count == 6)
    }

    private let marker = "<!-- compiled in Compat/Tests/ComputedCombineCompatTests/DocumentationSnippetTests.swift -->"

    /// The ```swift blocks that directly follow the marker.
    private func markedSnippets(in text: String) -> [String] {
        var snippets: [String] = []
        var lines = text.components(separatedBy: "\n")[...]
        while let line = lines.popFirst() {
            guard line == marker, lines.first == "```swift" else { continue }
            lines.removeFirst()
            var snippet: [String] = []
            while let next = lines.popFirst(), next != "```" {
                snippet.append(next)
            }
            snippets.append(snippet.joined(separator: "\n"))
        }
        return snippets
    }

    /// The non-empty lines, without leading and trailing spaces, one per line.
    private func normalized(_ text: String) -> String {
        text.components(separatedBy: "\n")
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
            .joined(separator: "\n")
    }
}

// Mirrors Docs/Migrating.md, "ReCombine: store.select(…) and publisher operators".
extension Store where State == ValuesState {
    func selectFilteredValues() -> AnyPublisher<[String], Never> {
        publisher(for: ValuesState.Selectors.values).compactMap({ values in values }).eraseToAnyPublisher()
    }
}

// Mirrors Docs/Migrating.md, "ReCombine: store.select(…) and publisher operators" (last n).
extension Store where State == ProjectionState {
    // The number of state transitions is given by the user
    func selectLastStateTransitions(_ count: Int) -> AnyPublisher<[ProjectedValues], Never> {
        // Generated selectors compare version stamps: memoization "for free"
        publisher(for: ProjectionState.Selectors.projectedValues)
            .compactMap({ projectedValues in projectedValues })
            // Combines the last `count` state values in an array
            .scan([], { (acc: [ProjectedValues], curr: ProjectedValues) in
                Array((acc + [curr]).suffix(count))
            })
            .eraseToAnyPublisher()
    }
}

/// A stand-in for a UIKit label.
final class Label: @unchecked Sendable {
    // Safety: `storage` is reached only under `lock`.
    private let lock = NSLock()
    private var storage: String?

    var text: String? {
        get { lock.withLock { storage } }
        set { lock.withLock { storage = newValue } }
    }

    /// Waits up to 5 seconds for `text` to become `expected`.
    func wait(for expected: String) async -> Bool {
        let deadline = Date().addingTimeInterval(5)
        while text != expected, Date() < deadline {
            try? await Task.sleep(nanoseconds: 1_000_000)
        }
        return text == expected
    }
}

/// A stand-in for a text field that publishes its text.
final class SearchField {
    let textPublisher = PassthroughSubject<String, Never>()
}
