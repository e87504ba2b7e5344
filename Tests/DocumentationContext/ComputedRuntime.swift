// What the Swift snippets of the DocC catalog (Sources/Runtime/ComputedRuntime.docc) assume but do
// not show, beside ComputedRuntime.statespec's states and Fixtures/Support/TodoModel.swift (`Todo`,
// `Filter`, `Avatar`, `Session`, `Settings`). DocumentationSnippetTests compiles it with every
// snippet of the catalog, where their own declarations hide these.
import ComputedRuntime

/// "Profile need not be Equatable" (Versions, edges and memo cells).
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
