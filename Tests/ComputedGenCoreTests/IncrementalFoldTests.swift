import Foundation
import Testing

@testable import ComputedGenCore

/// Computed values that fold an `IdentifiedList` field (`messages.count(where: …)`,
/// `messages.filter { … }.count`, `messages.sum(of: …)`): recognised by their body, conservatively,
/// and emitted as incremental folds (the behaviour is tested on the Inbox golden, in
/// GoldenStatesTests/InboxFoldTests).
@Suite("Incremental folds (counts and sums of an IdentifiedList)")
struct IncrementalFoldTests {
    @Test("the fold forms are recognised, with the list they fold", arguments: [
        "messages.count(where: { !$0.isRead })",
        "messages.count(where: \\.isRead)",
        "messages.count { !$0.isRead }",
        " return messages.count { !$0.isRead } ",
        "messages.filter { !$0.isRead }.count",
        "messages.filter(\\.isFlagged).count",
        "messages.filter { $0.isRead }.map(\\.subject).count",
        "messages.query.count",
        "messages.filter { !$0.isRead }.count()",
        "messages.filter { !$0.isRead }.count(where: \\.isFlagged)",
        "messages\n  .filter { $0.subject.contains(query) } // a comment\n  .count",
        "messages.sum(of: \\.size)",
        "messages.sum { $0.size * 2 }",
        "messages.filter { !$0.isRead }.sum(of: \\.subject.count)",
        "messages.map(\\.size).sum(of: { $0 })",
        "messages.reduce(0, adding: +, removing: -, { $0.size })",
        "messages.filter { $0.isRead }.reduce(0, adding: { $0 + $1 }, removing: { $0 - $1 }) { $0.size }",
        "messages.filter { !$0.isRead }.count(by: \\.folder)",   // a total per key (KeyedTotals)
        "messages.count(by: { $0.folder })",
        "messages.sum(of: \\.size, by: \\.folder)",
    ])
    func recognised(_ body: String) {
        #expect(IncrementalFolds.foldedList(inBody: body, lists: ["messages", "others"]) == "messages")
    }

    @Test("anything else is an ordinary computed value", arguments: [
        "messages.count",                                  // the list's own count: O(1) already
        "messages.count()",
        "messages.count(where: { !$0.isRead }) + 1",      // more than the fold
        "1 + messages.count(where: { !$0.isRead })",
        "array.count(where: { !$0.isRead })",             // not a list field
        "messages.filter { !$0.isRead }",                 // no fold
        "messages.filter { !$0.isRead }.count.description",
        "messages.sorted(by: \\.date).count",            // an operator the recognition does not take
        "messages.prefix(3).count",
        "messages.filter.count",
        "messages.reduce(0) { $0 + $1.size }",            // a fold that cannot be undone
        "messages.reduce(0, +)",
        "messages.sum(by: \\.size)",
        "messages.count(of: \\.folder)",
        "messages.count(where: { !$0.isRead }) { $0 }",
        "let n = messages.count(where: { !$0.isRead }); return n",
        "$0.count(where: { !$0.isRead })",
        "messages.count(where: { \"unterminated })",
        "messages.count(where: { !$0.isRead }",
        "messages.`count`(where: { !$0.isRead })",
        "",
    ])
    func notRecognised(_ body: String) {
        #expect(IncrementalFolds.foldedList(inBody: body, lists: ["messages"]) == nil)
    }

    static let spec = """
        state Inbox {
          var messages: IdentifiedList<Message> = []
          var array: [Message] = []
          var query: String = ""
          @Shared(.inMemory("folds-test")) var shared: IdentifiedList<Message> = []
          computed unreadTotal: Int { messages.count(where: { !$0.isRead }) }
          computed matching: Int from messages, query { messages.filter { $0.subject.contains(query) }.count }
          @NoCutoff computed size: Int { messages.sum(of: \\.size) }
          computed arrayCount: Int { array.count(where: { !$0.isRead }) }
          computed plus: Int { messages.count(where: { !$0.isRead }) + 1 }
          computed sharedCount: Int { shared.count(where: { !$0.isRead }) }
        }
        """

    @Test("a fold's body returns its query, its storage keeps the pipeline, its entry is a fold")
    func emission() throws {
        let swift = try Emit.swift(Self.spec)
        #expect(swift.contains("static func unreadTotal(_ messages: __messagesType) -> some ComputedRuntime.IncrementalListQuery<__unreadTotalType> {"))
        #expect(swift.contains("var _unreadTotal: ComputedRuntime.IncrementalMemo<__unreadTotalType>"))
        #expect(swift.contains("table.fold(\"unreadTotal\", \\._unreadTotal, \\.unreadTotal, inputs: \"messages\", source: \\._messages) {"))
        #expect(swift.contains("table.fold(\"matching\", \\._matching, \\.matching, inputs: \"messages query\") {"))
        #expect(swift.contains("table.fold(\"size\", \\._size, \\.size, inputs: \"messages\", cutoff: false, source: \\._messages) {"))
        #expect(swift.contains("Maintained incrementally: follows the changes of `messages`; evaluated in full after `query` changes."))
        // Over an array, or more than a fold: an ordinary computed value.
        // (In the memo table, whose slots come first in the state's table.)
        #expect(swift.contains("table.computed(\"arrayCount\", \\.arrayCount, inputs: \"array\") {  // 0"))
        #expect(swift.contains("static func plus(_ messages: __messagesType) -> __plusType {"))
        #expect(swift.contains("var __memo: ComputedRuntime.MemoTable"))
        #expect(!swift.contains("var _plus:"))
        // Over a @Shared list: the shared memo, the query evaluated in full.
        #expect(swift.contains("var _sharedCount: ComputedRuntime.SharedMemo<__sharedCountType>"))
        #expect(swift.contains("static func sharedCount(_ shared: __sharedType) -> some ComputedRuntime.IncrementalListQuery<__sharedCountType> {"))
        #expect(swift.contains("._evaluatedInFull()"))
    }

    @Test("every recognised form compiles, with the model's types, and so do the ordinary ones")
    func formsCompile() throws {
        let directory = try TemporaryDirectory()
        let specPath = directory.path("Folds.statespec")
        try Data(Self.spec.utf8).write(to: URL(fileURLWithPath: specPath))
        let result = Command().run(["generate", specPath, "--output", specPath + ".swift"])
        #expect(result.status == 0, "\(result.standardError)")
        let extra = try directory.write("""
            import ComputedRuntime
            import Foundation

            struct Message: Identifiable, Hashable, Sendable {
                var id: Int
                var subject: String
                var isRead = false
                var isFlagged = false
                var size = 0
            }

            func forms(_ messages: IdentifiedList<Message>, _ query: String) {
                func count(_ query: some IncrementalListQuery<Int>) {}
                count(messages.count(where: { !$0.isRead }))
                count(messages.count(where: \\.isRead))
                count(messages.count { !$0.isRead })
                count(messages.filter { !$0.isRead }.count)
                count(messages.filter(\\.isFlagged).count)
                count(messages.filter { $0.isRead }.map(\\.subject).count)
                count(messages.query.count)
                count(messages.filter { !$0.isRead }.count())
                count(messages.filter { !$0.isRead }.count(where: \\.isFlagged))
                count(messages.filter { $0.subject.contains(query) }.count)
                count(messages.sum(of: \\.size))
                count(messages.sum { $0.size * 2 })
                count(messages.filter { !$0.isRead }.sum(of: \\.subject.count))
                count(messages.map(\\.size).sum(of: { $0 }))
                count(messages.reduce(0, adding: +, removing: -, { $0.size }))
                count(messages.filter { $0.isRead }.reduce(0, adding: { $0 + $1 }, removing: { $0 - $1 }) { $0.size })
                // Where no query is asked for, the same expressions are Array's.
                let plain: Int = messages.filter { !$0.isRead }.count + messages.count(where: { !$0.isRead })
                _ = plain
            }
            """, to: "Model.swift")
        let check = try BuildProducts.typecheck([specPath + ".swift", extra], moduleName: "FoldCheck")
        #expect(check.status == 0, "\(check.standardError)")
    }
}
