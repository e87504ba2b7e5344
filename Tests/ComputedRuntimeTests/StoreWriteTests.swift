import Foundation
import Observation
import Testing

@testable import ComputedRuntime

/// A hand-written `Equatable` state: a store compares it with `==`.
private struct FormState: Equatable, Sendable {
    var name = ""
    var notify = false
    var settings = Settings()
    let id: Int

    /// A read-only member: readable through the store, not assignable.
    var isEmpty: Bool { name.isEmpty }

    struct Settings: Equatable, Sendable {
        var fontSize = 14.0
    }
}

/// A hand-written state that is not `Equatable`: a store counts every commit as a change.
private struct Scratch: Sendable {
    var text = ""
    var token = Token()

    final class Token: Sendable {}
}

/// Counts the values a subscriber receives.
private func published<State>(by store: Store<State>, _ body: () -> Void) -> Int {
    let box = LockedBox(0)
    let subscription = store.subscribe { _ in box.withLock { $0 += 1 } }
    body()
    subscription.cancel()
    return box.withLock { $0 }
}

private func notifies(_ read: () -> Void, after write: () -> Void) -> Bool {
    let box = LockedBox(false)
    withObservationTracking { read() } onChange: { box.withLock { $0 = true } }
    write()
    return box.withLock { $0 }
}

@Suite("Store: writable members of hand-written states")
struct HandWrittenStoreWriteTests {
    @Test("store.x = v commits v; an equal value commits nothing, whatever the state")
    func assign() {
        let store = Store(FormState(id: 1))
        #expect(published(by: store) { store.name = "Ada" } == 1)
        #expect(store.state.name == "Ada")
        #expect(store.name == "Ada")
        #expect(!store.isEmpty)
        #expect(published(by: store) { store.name = "Ada" } == 0)
        #expect(published(by: store) { store.settings.fontSize = 20 } == 1)
        #expect(published(by: store) { store.settings.fontSize = 20 } == 0)
        #expect(store.state.settings.fontSize == 20)

        // Not Equatable: every commit is a change, so an equal write must not commit at all.
        let scratch = Store(Scratch())
        #expect(published(by: scratch) { scratch.text = "" } == 0)
        #expect(published(by: scratch) { scratch.text = "a" } == 1)
        // A member that is not Equatable is always written.
        #expect(published(by: scratch) { scratch.token = scratch.token } == 1)
    }

    @Test("a member of a hand-written state is observed as the whole state")
    func observation() {
        let store = Store(FormState(id: 1))
        #expect(notifies({ _ = store.notify }, after: { store.name = "x" }))
        #expect(!notifies({ _ = store.notify }, after: { store.name = "x" }))
        #expect(notifies({ _ = store.state }, after: { store.notify = true }))
    }

    @Test("key paths through the store are reference-writable, as @Bindable needs")
    func keyPaths() {
        let name: ReferenceWritableKeyPath<Store<FormState>, String> = \.name
        let fontSize: ReferenceWritableKeyPath<Store<FormState>, Double> = \.settings.fontSize
        let isEmpty: KeyPath<Store<FormState>, Bool> = \.isEmpty
        let id: KeyPath<Store<FormState>, Int> = \.id
        #expect(!(isEmpty is ReferenceWritableKeyPath<Store<FormState>, Bool>))
        #expect(!(id is WritableKeyPath<Store<FormState>, Int>))

        let store = Store(FormState(id: 7))
        let scope = store.scope(\.settings)
        let scopedSize: ReferenceWritableKeyPath<Store<FormState.Settings>, Double> = \.fontSize
        store[keyPath: name] = "Ada"
        store[keyPath: fontSize] = 18
        #expect(store.state == FormState(name: "Ada", settings: .init(fontSize: 18), id: 7))
        #expect(store[keyPath: isEmpty] == false)
        #expect(published(by: scope) { scope[keyPath: scopedSize] = 18 } == 0)
        #expect(published(by: scope) { scope[keyPath: scopedSize] = 12 } == 1)
        #expect(published(by: store) { store.name = "Bob" } == 1)
        #expect(published(by: scope) { store.name = "Cy" } == 0)   // did not change the scope's child
        #expect(store.state.settings.fontSize == 12)
    }

    @Test("concurrent writes and reads through members are serialized commits")
    func concurrent() async {
        let store = Store(FormState(id: 0))
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<100 {
                group.addTask { store.name = "\(index % 10)" }
                group.addTask { store.settings.fontSize = Double(index % 3) }
                group.addTask { _ = (store.name, store.notify) }
            }
        }
        #expect(Int(store.name).map { (0..<10).contains($0) } == true)
        #expect([0.0, 1, 2].contains(store.state.settings.fontSize))
    }
}
