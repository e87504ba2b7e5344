import Testing

@testable import ComputedGenCore

/// The Swift form is read into the same model as the spec language: the same spec written both
/// ways generates the same state.
@Suite("Swift form: parsing and lowering")
struct SwiftFormParserTests {
    /// `generate` for `source` at `path`, without the lines that name the spec's file and lines.
    static func generated(_ source: String, path: String, context: SpecContext = SpecContext()) -> [String]? {
        Generator.generate(source: source, path: path, context: context).swift.map { SwiftFormEquivalence.comparable($0, specPath: path) }
    }

    static func errors(_ source: String, path: String = "Form.state.swift") -> [String] {
        SpecFrontEnd.run(source: source, path: path).diagnostics.map { "\($0.location): \($0.severity.rawValue): \($0.message)" }
    }

    @Test("fields, computed values, selectors, directives, docs and access read as the spec language's")
    func sameModel() throws {
        let spec = """
            import Foundation

            /// A form.
            public state Form: Equatable {
              /// The title.
              var title: String = "x"
              @Edge(onSet: { $0 = min($0, 99) }) var badge: Int = 0
              @Shared(.inMemory("form.total")) var total: Int = 0
              computed twice: Int from badge { badge * 2 }
              @NoCutoff computed length: Int { title.count }
              /// Scales.
              selector scaled(by factor: Int) -> Int cache 4 { twice * factor }
              selector titleLength() -> Int { title.count }
            }
            """
        let swift = """
            import Foundation
            import ComputedRuntime

            /// A form.
            public struct FormSpec: Equatable {
              /// The title.
              public var title: String = "x"
              @Edge(onSet: { $0 = min($0, 99) }) public var badge: Int = 0
              @Shared(.inMemory("form.total")) public var total: Int = 0
              // computedgen: from badge
              public var twice: Int { badge * 2 }
              // computedgen: noCutoff
              public var length: Int { get { title.count } }
              /// Scales.
              // computedgen: cache 4
              public func scaled(by factor: Int) -> Int { twice * factor }
              public func titleLength() -> Int { title.count }
            }

            /// Not a state: skipped.
            enum Helper { case a }
            """
        let fromSpec = try #require(Self.generated(spec, path: "Form.statespec"))
        let fromSwift = try #require(Self.generated(swift, path: "Form.state.swift"))
        #expect(fromSwift == fromSpec)
    }

    @Test("a nested state's computed values are read through 'computed', at any depth, and plain type names become generated ones")
    func nesting() throws {
        let swift = """
            struct ShelfSpec {
              var books: [String] = []
              var total: Int { books.count }
            }
            struct LibrarySpec {
              var shelf: ShelfSpec = ShelfSpec()
              var doubled: Int { shelf.total * 2 }
              var caption: String { "\\(shelf.books.count) \\(shelf.total)" }
              func shelves(_ extra: [ShelfSpec]) -> Int { ([shelf] + extra).count + shelf.total }
            }
            struct BuildingSpec {
              var library: LibrarySpec = LibrarySpec()
              var deepTotal: Int { library.shelf.total + 1 }
            }
            """
        let parsed = SpecParser.parse(source: swift, path: "N.state.swift")
        #expect(parsed.diagnostics.isEmpty)
        let bodies = parsed.file.states.flatMap(\.members).compactMap { member -> String? in
            switch member {
            case .computed(let decl): decl.body.text
            case .selector(let decl): decl.body.text
            case .field(let decl): decl.type?.text
            }
        }
        #expect(parsed.file.states.map(\.name.name) == ["Shelf", "Library", "Building"])
        #expect(bodies == [
            "[String]", " books.count ",
            "Shelf", " shelf.computed.total * 2 ", #" "\(shelf.books.count) \(shelf.computed.total)" "#,
            " ([shelf] + extra).count + shelf.computed.total ",
            "Library", " library.shelf.computed.total + 1 ",
        ])
    }

    @Test("a state of another spec file is renamed and read through, as the context describes it")
    func nestingAcrossFiles() throws {
        let child = (source: "public struct ChildSpec {\n  var name: String = \"\"\n  var initial: String { String(name.prefix(1)) }\n}\n", path: "Child.state.swift")
        let parent = "struct ParentSpec {\n  var child: ChildSpec = ChildSpec()\n  var badge: String { child.initial + child.name }\n}\n"
        let context = SpecContext(specs: [child, (parent, "Parent.state.swift")])
        let parsed = SpecParser.parse(source: parent, path: "Parent.state.swift", context: context)
        guard case .field(let field) = parsed.file.states[0].members[0], case .computed(let badge) = parsed.file.states[0].members[1] else {
            Issue.record("unexpected members")
            return
        }
        #expect(field.type?.text == "Child")
        #expect(field.defaultValue?.text == "Child()")
        #expect(badge.body.text == " child.computed.initial + child.name ")
    }

    @Test("what the Swift form cannot mean is reported at its line and column")
    func mistakes() {
        let swift = """
            struct FormSpec {
              var count: Int = 0
              // computedgen: cache 4
              var twice: Int { count * 2 }
              // computedgen: fromm count
              var thrice: Int { count * 3 }
              static var shared: Int { 1 }
              private var secret: Int = 0
              func reset() { }
              var settable: Int { get { count } set { } }
              // computedgen: from count
              var field: Int = 1
            }
            extension FormSpec {
              var more: Int { count }
            }
            """
        #expect(Self.errors(swift) == [
            "3:19: error: 'cache' applies only to functions (selectors); remove it from the directive before computed property 'twice'",
            "5:19: error: unknown ComputedGen directive 'fromm'; write 'from a, b', 'cache N' or 'noCutoff'",
            "7:3: error: 'static' members are not part of a state spec: 'FormSpec' holds stored properties (fields), computed properties and functions (selectors); move this member to an extension of the generated state or to another type",
            "8:3: error: a member of a state spec is as visible as the state; remove 'private', or move a helper out of 'FormSpec'",
            "9:16: error: function 'reset' of a state spec is a selector and returns a value: add '-> Type' before its body",
            "10:37: error: computed property 'settable' is read-only in the generated state: give it a body or a single 'get'",
            "11:19: error: 'from' applies only to computed properties and functions; remove it from the directive before field 'field'",
            "14:1: warning: the generated state 'Form' does not have the members of an extension of 'FormSpec'; declare them inside 'struct FormSpec { … }', or extend 'Form' instead",
        ])
    }

    @Test("the runtime's wrappers qualified with its module read as the plain ones (a file that imports SwiftUI needs them)")
    func qualifiedWrappers() throws {
        let plain = """
            struct PanelSpec {
              @Edge(onSet: { $0 = max($0, 0) }) var width: Int = 0
              @Shared(.inMemory("panel.title")) var title: String = ""
              var label: String { "\\(title) \\(width)" }
            }
            """
        let qualified = plain
            .replacingOccurrences(of: "@Edge", with: "@ComputedRuntime.Edge")
            .replacingOccurrences(of: "@Shared", with: "@ComputedRuntime.Shared")
        let fromPlain = try #require(Self.generated(plain, path: "Panel.state.swift"))
        let fromQualified = try #require(Self.generated(qualified, path: "Panel.state.swift"))
        #expect(fromQualified == fromPlain)
    }

    @Test("a body may read members through 'self.', as plain Swift does; the generated body reads them by name, at the same columns")
    func selfMembers() throws {
        let plain = """
            struct ShopSpec {
              var items: [Int] = []
              var limit: Int = 3
              var total: Int { self.items.reduce(0, +) }
              var capped: Int { min(self.total, limit) }
              func over(_ n: Int) -> Bool { self.capped > n }
            }
            """
        let byName = plain.replacingOccurrences(of: "self.", with: "")
        let fromSelf = try #require(Self.generated(plain, path: "Shop.state.swift"))
        let fromNames = try #require(Self.generated(byName, path: "Shop.state.swift"))
        #expect(fromSelf == fromNames)
        let parsed = SpecParser.parse(source: plain, path: "Shop.state.swift")
        guard case .computed(let total) = parsed.file.states[0].members[2] else {
            Issue.record("expected a computed value")
            return
        }
        #expect(total.body.text == "      items.reduce(0, +) ")
        // Inside string interpolations too.
        let label = SpecParser.parse(source: "struct LSpec {\n  var n: Int = 0\n  var label: String { \"\\(self.n)\" }\n}\n", path: "L.state.swift")
        guard case .computed(let labelValue) = label.file.states[0].members[1] else {
            Issue.record("expected a computed value")
            return
        }
        #expect(labelValue.body.text == #" "\(     n)" "#)
        // `self` passed whole is not a member path: the spec language's error, at its column.
        #expect(Self.errors("struct SSpec {\n  var a: Int = 0\n  var b: Int { [self].count + a }\n}\n").first?.hasPrefix("3:17: error: 'self' cannot be used") == true)
    }

    @Test("the form follows the file name")
    func formOfPath() {
        #expect(SpecForm(path: "A/Todo.state.swift") == .swift)
        #expect(SpecForm(path: "A/Todo.statespec") == .spec)
        #expect(SpecForm.stateName(forSwiftType: "TodoStateSpec") == "TodoState")
        #expect(SpecForm.stateName(forSwiftType: "Spec") == nil)
        #expect(SpecForm.stateName(forSwiftType: "TodoState") == nil)
    }
}
