import ComputedGenCore
import Testing

@testable import ComputedGenLSP

@Suite("The spec index: members, inputs, readers, occurrences")
struct SpecIndexTests {
    @Test("inputs are the checker's, for every computed value and selector of every fixture", arguments: try Repository.fixtureNames())
    func inputsMatchChecker(_ name: String) throws {
        let text = try Repository.fixture(name)
        let document = SpecDocument(uri: "file:///\(name)", version: 1, text: text)
        let spec = try #require(document.analysis.checked.spec)
        for (stateIndex, state) in spec.states.enumerated() {
            let symbols = document.index.membersByState[stateIndex].compactMap { document.index.members[$0] }
            for computed in state.computeds {
                let symbol = try #require(symbols.first { $0.kind == .computed && $0.name.name == computed.name })
                #expect(symbol.inputs == computed.inputs.map(\.name), "\(name): \(computed.name)")
            }
            for selector in state.selectors {
                let symbol = try #require(symbols.first { $0.kind == .selector && $0.name.location == selector.decl.name.location })
                #expect(symbol.inputs == selector.inputs.map(\.name), "\(name): \(selector.name)")
            }
        }
    }

    @Test("readers, occurrences by role, and a selector's parameters shadowing a field")
    func occurrences() throws {
        let text = """
            state S {
              var todos: [Int] = []
              var owner: Int = 0
              computed count: Int from todos { todos.count }
              computed label: String { "\\(count) of \\(todos.count)" }
              selector todos(ownedBy owner: Int) -> [Int] { todos.filter { $0 == owner } }
            }
            """
        let document = SpecDocument(uri: "file:///t", version: 1, text: text)
        let index = document.index
        let todos = try #require(index.members[MemberID(state: 0, member: 0)])
        #expect(todos.readers == ["count", "label", "todos(ownedBy:)"])
        #expect(index.occurrences(of: todos.id).map(\.role) == [.declaration, .fromList, .bodyReference, .bodyReference, .bodyReference])
        let owner = try #require(index.members[MemberID(state: 0, member: 1)])
        #expect(index.occurrences(of: owner.id).count == 1)  // The selector's `owner` is its parameter.
        #expect(index.members[MemberID(state: 0, member: 4)]?.inputs == ["todos"])
        #expect(index.members[MemberID(state: 0, member: 4)]?.displayName == "todos(ownedBy:)")
        #expect(index.members[MemberID(state: 0, member: 3)]?.inputs == ["count", "todos"])
    }

    @Test("an escaped name's range includes its backticks")
    func escaped() throws {
        let document = SpecDocument(uri: "file:///t", version: 1, text: "state S {\n  var `default`: Int = 0\n  computed d: Int { `default` + 1 }\n}\n")
        let member = try #require(document.index.members[MemberID(state: 0, member: 0)])
        #expect(member.nameRange == 16..<25)
        #expect(document.index.occurrences(of: member.id).map(\.range.count) == [9, 9])
    }
}
