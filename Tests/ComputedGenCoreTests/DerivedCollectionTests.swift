import Foundation
import Testing

@testable import ComputedGenCore

/// Computed values declared as a `ListView<…>`: recognised, checked, and emitted so that the
/// runtime maintains them incrementally (the behaviour is tested on the Inbox golden, in
/// GoldenStatesTests).
@Suite("Derived collections (ListView computed values)", .serialized)
struct DerivedCollectionTests {
    static let inbox = """
        state Inbox {
          var messages: IdentifiedList<Message> = []
          var query: String = ""
          computed unread: ListView<Message> { messages.filter { !$0.isRead } }
          computed matching: ComputedRuntime.ListView<Message> { messages.filter { $0.subject.contains(query) } }
          computed count: Int { unread.count }
        }
        """

    @Test("the runtime's ListView is recognised as written or qualified, and nothing else is", arguments: [
        ("ListView<Message>", true), ("ComputedRuntime.ListView<Message>", true), ("ListView< [Int: String] >", true),
        ("[Message]", false), ("MyListView<Message>", false), ("ListView", false), ("Other.ListView<Message>", false),
    ])
    func recognition(_ type: String, _ isListView: Bool) {
        #expect(DerivedCollectionTypes.isListView(type) == isListView)
    }

    @Test("arrays are told from dictionaries", arguments: [
        ("[Message]", true), ("Array<Message>", true), ("[[Int: String]]", true), ("[Int: Message]", false), ("Set<Int>", false),
    ])
    func arrays(_ type: String, _ isArray: Bool) {
        #expect(DerivedCollectionTypes.isArray(type) == isArray)
    }

    @Test("a ListView's body returns its query, its storage keeps the pipeline, its entry is incremental")
    func emission() throws {
        let swift = try Emit.swift(Self.inbox)
        #expect(swift.contains("static func unread(_ messages: __messagesType) -> some ComputedRuntime.IncrementalListQuery<__unreadType> {"))
        #expect(swift.contains("__matchingType=ComputedRuntime.ListView<Message>"))
        #expect(swift.contains("var _unread: ComputedRuntime.IncrementalMemo<__unreadType>"))
        #expect(swift.contains("_unread: ComputedRuntime.IncrementalMemo<Inbox.__unreadType>()"))
        #expect(swift.contains("table.incremental(\"unread\", \\._unread, \\.unread, inputs: \"messages\", source: \\._messages) {"))
        #expect(swift.contains("table.incremental(\"matching\", \\._matching, \\.matching, inputs: \"messages query\") {"))
        #expect(swift.contains("Maintained incrementally: follows the changes of `messages`; evaluated in full after `query` changes."))
        // An ordinary computed value keeps its ordinary shape, over a ListView too.
        // (In the memo table: its slots come first in the table, then the incremental values.)
        #expect(swift.contains("var __memo: ComputedRuntime.MemoTable"))
        #expect(swift.contains("table.computed(\"count\", \\.count, inputs: \"unread\") {  // 0"))
        #expect(swift.contains("static func count(_ unread: __unreadType) -> __countType {"))
    }

    @Test("ListGroups are recognised as written or qualified; their body returns the grouped query, their entry is grouped")
    func groups() throws {
        #expect(DerivedCollectionTypes.isListGroups("ListGroups<Bool, Message>"))
        #expect(DerivedCollectionTypes.isListGroups("ComputedRuntime.ListGroups<String, Message>"))
        #expect(!DerivedCollectionTypes.isListGroups("[Bool: [Message]]"))
        let swift = try Emit.swift("""
            state Inbox {
              var messages: IdentifiedList<Message> = []
              computed byFlag: ListGroups<Bool, Message> { messages.sorted(by: \\.date).grouped(by: \\.isFlagged) }
            }
            """)
        #expect(swift.contains("static func byFlag(_ messages: __messagesType) -> some ComputedRuntime.IncrementalListQuery<__byFlagType> {"))
        #expect(swift.contains("var _byFlag: ComputedRuntime.IncrementalMemo<__byFlagType>"))
        #expect(swift.contains("table.grouped(\"byFlag\", \\._byFlag, \\.byFlag, inputs: \"messages\", source: \\._messages) {"))
        #expect(!swift.contains("var __memo:"))  // no memo-table slot: the groups keep their own cell
        let errors = FrontEnd.diagnostics("""
            state S {
              var messages: [Message] = []
              computed byFlag: ListGroups<Bool, Message> { messages.grouped(by: \\.isFlagged) }
            }
            """)
        #expect(errors == [
            "3:20: computed 'byFlag' is a 'ListGroups', maintained incrementally from an 'IdentifiedList' field, but it reads the array "
                + "'messages'; declare 'var messages: IdentifiedList<Message>', or declare 'byFlag' as an ordinary type (such as a "
                + "dictionary of arrays) to recompute it in full after each change",
        ])
    }

    @Test("a ListView over an array is an error at its type that names both fixes", arguments: ["[Message]", "Array<Message>"])
    func overAnArray(_ arrayType: String) {
        let errors = FrontEnd.diagnostics("""
            state S {
              var messages: \(arrayType) = []
              computed unread: ListView<Message> { messages.filter { !$0.isRead } }
            }
            """)
        #expect(errors == [
            "3:20: computed 'unread' is a 'ListView', maintained incrementally from an 'IdentifiedList' field, "
                + "but it reads the array 'messages'; declare 'var messages: IdentifiedList<Message>', "
                + "or declare 'unread' as '[Message]' to recompute it in full after each change",
        ])
    }

    @Test("a ListView over a list, or over a type the checker cannot see through, is left to the compiler")
    func notAnError() {
        #expect(FrontEnd.diagnostics(Self.inbox).isEmpty)
        #expect(FrontEnd.diagnostics("""
            state S {
              var inbox: Mailbox = Mailbox()
              var byID: [Int: Message] = [:]
              computed unread: ListView<Message> { inbox.messages.filter { !$0.isRead } }
              computed other: ListView<Message> { byID.values.first.map { _ in inbox.messages.query } ?? inbox.messages.query }
            }
            """).isEmpty)
    }

    /// Type-checks the Swift generated from `spec` with `model` beside it.
    private func typecheck(_ spec: String, model: String) throws -> BuildProducts.Run {
        let directory = try TemporaryDirectory()
        let specPath = directory.path("Mail.statespec")
        try Data(spec.utf8).write(to: URL(fileURLWithPath: specPath))
        let result = Command().run(["generate", specPath, "--output", specPath + ".swift"])
        #expect(result.status == 0, "\(result.standardError)")
        let modelPath = try directory.write("import ComputedRuntime\nimport Foundation\n\n" + model, to: "Model.swift")
        return try BuildProducts.typecheck([specPath + ".swift", modelPath], moduleName: "MailCheck")
    }

    static let model = """
        public struct Message: Identifiable, Hashable, Sendable {
            public var id: Int
            public var subject: String
            public var isRead = false
        }
        /// Not Equatable: a ListView of it cuts off only when no element was touched.
        public struct Note: Identifiable, Sendable {
            public var id: Int
            public var text: String
        }
        """

    @Test("ListViews of non-Equatable elements, over @Shared lists, with explicit inputs and @NoCutoff compile")
    func variantsCompile() throws {
        let result = try typecheck("""
            import Foundation
            public state Variants {
              var messages: IdentifiedList<Message> = []
              var notes: IdentifiedList<Note> = []
              @Shared(.inMemory("derived-collections-test")) var sharedMessages: IdentifiedList<Message> = []
              var limit: Int = 3

              computed notesByText: ListView<Note> { notes.sorted { $0.text < $1.text } }
              computed sharedUnread: ListView<Message> { sharedMessages.filter { !$0.isRead } }
              computed first: ListView<String> from messages, limit { messages.sorted(by: \\.subject).prefix(limit).map(\\.subject) }
              @NoCutoff computed all: ComputedRuntime.ListView<Message> { messages.query }
            }
            """, model: Self.model)
        #expect(result.status == 0, "\(result.standardError)")
    }

    @Test("a ListView body that builds an Array or a ListView fails at its spec line, naming the fix")
    func bodyThatIsNoQuery() throws {
        let result = try typecheck("""
            state Broken {
              var messages: IdentifiedList<Message> = []
              computed unread: ListView<Message> {
                ListView(messages.elements)
              }
              computed read: ListView<Message> {
                messages.elements.filter { $0.isRead }
              }
              computed flagged: ListView<Message> { messages.filter { $0.isRead } }
            }
            """, model: Self.model)
        #expect(result.status != 0)
        let errors = result.standardError.split(separator: "\n").filter { $0.contains(": error: ") && !$0.hasPrefix(" ") }
        #expect(errors.count == 2, "\(result.standardError)")
        #expect(errors.first?.contains("Mail.statespec:4:5: error: conformance of 'ListView<Element>' to 'IncrementalListQuery' is unavailable: "
            + "a ListView is an evaluated result: start a query from it (timeline.filter { … }, timeline.prefix(20), timeline.query), "
            + "or build the query it comes from on an IdentifiedList") == true, "\(result.standardError)")
        #expect(errors.last?.contains("Mail.statespec:7:23: error: conformance of 'Array<Element>' to 'IncrementalListQuery' is unavailable: "
            + "an Array is recomputed in full: build the query from an IdentifiedList") == true, "\(result.standardError)")
    }
}
