// What README.md's Swift snippets assume but do not show, beside README.statespec's states and
// Fixtures/Support/TodoModel.swift (`Todo`, `Filter`, `Avatar`, `Session`, `Settings`); the DocC
// catalog's articles share it. DocumentationSnippetTests compiles it with every snippet, where
// their own declarations hide these.
import ComputedRuntime

/// "Profile need not be Equatable".
struct Profile: Sendable {
    var name = ""
}

let state = AppState()
let appState = AppState()
let appStore = Store(AppState())
let store = Store(TodoState())
let store1 = Store(Tally())
let store2 = Store(Tally())
let otherStore = Store(Tally())
let someAsyncSequence = AsyncStream<Int> { $0.finish() }
