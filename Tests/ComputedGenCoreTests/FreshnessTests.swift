import Foundation
import Testing

import ComputedGenCore

/// The public API editors use: the syntax tree of a spec with errors (`SpecFrontEnd.analyze`)
/// and how each computed value is kept up to date (`CheckedState.freshness(ofComputed:)`), which
/// must say what the emitter does.
@Suite("Front-end analysis and freshness, for editors")
struct FreshnessTests {
    static let inbox = """
        state Inbox {
          var messages: IdentifiedList<Message> = []
          var query: String = ""
          var names: [Int: String] = [:]
          @Shared(.inMemory("k")) var shared: IdentifiedList<Message> = []
          computed unread: ListView<Message> { messages.filter { !$0.isRead } }
          computed matching: ListView<Message> { messages.filter { $0.subject.contains(query) } }
          computed byFlag: ListGroups<Bool, Message> { messages.grouped(by: \\.isFlagged) }
          computed sections: ListSections<Int, Message> { messages.grouped(by: \\.folder).sortedKeys { names[$0]! < names[$1]! } }
          computed total: Int { messages.count(where: { !$0.isRead }) }
          computed plus: Int { messages.count(where: { !$0.isRead }) + 1 }
          computed count: Int { unread.count }
          computed sharedCount: Int { shared.count(where: { !$0.isRead }) }
        }
        """

    static func state() throws -> CheckedState {
        let result = SpecFrontEnd.run(source: inbox, path: "t.statespec")
        #expect(result.diagnostics.isEmpty)
        return try #require(result.spec?.states.first)
    }

    @Test("analyze returns run's result and the syntax tree, also for a spec with errors")
    func analyze() {
        let broken = "state S {\n  var a: Int = 0\n  computed b: Int { a +\n}\n"
        let analysis = SpecFrontEnd.analyze(source: broken, path: "t.statespec")
        #expect(analysis.checked == SpecFrontEnd.run(source: broken, path: "t.statespec"))
        #expect(analysis.checked.spec == nil)
        #expect(analysis.parsed.file.states.first?.members.map(\.name.name) == ["a", "b"])
    }

    @Test("each kind of upkeep is told as the emitter decides it", arguments: [
        ("unread", Freshness.Strategy.listView, ["messages"], [String]()),
        ("matching", .listView, ["messages"], ["query"]),
        ("byFlag", .listGroups, ["messages"], []),
        ("sections", .listSections, ["messages"], []),
        ("total", .fold(list: "messages"), ["messages"], []),
        ("plus", .memoized, [], ["messages"]),
        ("count", .memoized, [], ["unread"]),
        ("sharedCount", .fold(list: "shared"), [], ["shared"]),
    ])
    func strategies(_ name: String, _ strategy: Freshness.Strategy, _ followed: [String], _ full: [String]) throws {
        let freshness = try #require(try Self.state().freshness(ofComputed: name))
        #expect(freshness.strategy == strategy)
        #expect(freshness.followedLists == followed)
        #expect(freshness.fullRecomputationInputs == full)
        #expect(freshness.keyOrderInputs == (name == "sections" ? ["names"] : []))
        #expect(freshness.isIncremental == !followed.isEmpty)
        #expect(freshness.readsShared == (name == "sharedCount"))
    }

    @Test("the summary is the sentence the generated documentation ends with")
    func summary() throws {
        let state = try Self.state()
        #expect(state.freshness(ofComputed: "matching")?.summary == "Maintained incrementally: follows the changes of `messages`; evaluated in full after `query` changes.")
        #expect(state.freshness(ofComputed: "count")?.summary == "Memoized: recomputed only after `unread` changes.")
        #expect(state.freshness(ofComputed: "nothing") == nil)
        let swift = try #require(Generator.generate(source: Self.inbox, path: "t.statespec").swift)
        #expect(swift.contains("/// Maintained incrementally: follows the changes of `messages`; evaluated in full after `query` changes."))
    }
}
