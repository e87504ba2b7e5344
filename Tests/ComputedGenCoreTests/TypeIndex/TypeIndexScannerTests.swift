import Foundation
import Testing

@testable import ComputedGenCore

/// The types ``TypeIndexScanner`` lists from Swift sources, and those it leaves out because
/// spelling them in the generated interface could report one mistake more than once.
@Suite("Type index: the types a target's Swift declares")
struct TypeIndexScannerTests {
    static func index(_ sources: String...) -> TypeIndex {
        var scanner = TypeIndexScanner()
        for source in sources { scanner.scan(source) }
        return scanner.index
    }

    static func summary(_ index: TypeIndex) -> [String] {
        index.entries.values.sorted { $0.name < $1.name }.map { entry in
            ([entry.access.keyword, entry.name] + entry.conformances.sorted().map(\.rawValue)).joined(separator: " ")
        }
    }

    @Test("file-scope types with their access, nested types qualified, and hashable ones marked")
    func listed() {
        let index = Self.index("""
            import Foundation

            public struct Todo: Identifiable, Hashable, Sendable {
                public enum Status: String, Codable { case open, done }
                struct Draft {}
                public let id: UUID
                public var title: String
                public class func make() -> Todo { fatalError() }
            }
            final class Store {}
            open class Base {}
            package actor Loader {}
            public typealias TodoID = UUID
            indirect enum Tree { case leaf, node(Tree, Tree) }
            """)
        #expect(Self.summary(index) == [
            "public Base", "package Loader", "internal Store", "public Todo Hashable Identifiable Sendable",
            "internal Todo.Draft", "public Todo.Status Hashable", "public TodoID", "internal Tree",
        ])
    }

    @Test("extensions: their nested types, their access for members, and conformances to Hashable")
    func extensions() {
        let index = Self.index("""
            public struct Todo {}
            """, """
            public extension Todo {
                struct Filter {}
            }
            extension Todo: Hashable {}
            extension Todo {
                public struct Tag: Hashable {}
            }
            extension Array {
                public struct Page {}
            }
            extension String {
                public enum Style {}
            }
            internal struct Hidden {
                public struct Inner {}
            }
            """)
        #expect(Self.summary(index) == [
            "internal Hidden", "internal Hidden.Inner", "public String.Style", "public Todo Hashable", "public Todo.Filter",
            "public Todo.Tag Hashable",
        ])
    }

    @Test("left out: private, conditional, availability-limited, generic and local types")
    func leftOut() {
        let index = Self.index("""
            private struct Secret {}
            fileprivate enum Hidden {}
            #if os(iOS)
            public struct PhoneOnly {}
            #endif
            @available(macOS 15, *)
            public struct Newer {}
            public struct Box<Value> {
                public struct Inner {}
            }
            public typealias Pair<T> = (T, T)
            func make() {
                struct Local {}
            }
            public struct Outer {
                var value: Int {
                    struct InAccessor {}
                    return 0
                }
                private struct Kept {}
            }
            let text = "struct InString {}"
            // struct InComment {}
            /* public struct InBlock {} */
            let interpolated = "\\(["}": 1].count) struct Fake {}"
            public struct After {}
            """)
        #expect(Self.summary(index) == ["public After", "public Outer"])
    }

    @Test("attributes other than availability, and modifiers, do not hide a type")
    func attributes() {
        let index = Self.index("""
            @MainActor public final class Model {}
            @frozen public enum Mode: Int { case a }
            @propertyWrapper public struct Clamped { public var wrappedValue: Int }
            public struct Row { private(set) var count = 0 }
            """)
        #expect(Self.summary(index) == ["public Clamped", "public Mode Hashable", "public Model", "public Row"])
    }

    @Test("the index file round-trips, sorted, and other text is not an index")
    func file() throws {
        let index = TypeIndex([
            .init(name: "Todo", access: .public, conformances: [.sendable, .hashable]),
            .init(name: "Draft", access: .internal),
        ])
        #expect(index.fileText.hasSuffix("// internal Draft\n// public Todo Hashable Sendable\n"))
        #expect(TypeIndex(fileText: index.fileText) == index)
        #expect(TypeIndex(fileText: "public struct Todo {}") == nil)
        #expect(TypeIndex(fileText: "// public Todo Equatable") == nil)
        #expect(TypeIndex(fileText: "") == TypeIndex())
    }

    @Test("a state spells the index's types visible at its access level, keys only hashable ones")
    func knownTypes() {
        let index = TypeIndex([
            .init(name: "Todo", access: .public, conformances: [.identifiable]),
            .init(name: "Todo.Status", access: .public, conformances: [.hashable]),
            .init(name: "Folder", access: .public, conformances: [.hashable, .sendable]),
            .init(name: "Draft", access: .internal, conformances: [.hashable]),
        ])
        let publicState = KnownTypes(importsFoundation: false, stateNames: [], declared: index, access: .public)
        #expect(publicState.spelling(of: "[Todo]") == "[Todo]")
        #expect(publicState.spelling(of: "Todo.Status?") == "Todo.Status?")
        #expect(publicState.spelling(of: "[Todo.Status: [Todo]]") == "[Todo.Status: [Todo]]")
        #expect(publicState.spelling(of: "Set<Todo>") == nil)
        #expect(publicState.spelling(of: "Draft") == nil)
        #expect(publicState.spelling(of: "Todo.Missing") == nil)
        #expect(publicState.spelling(of: "Todoo") == nil)
        // The runtime's collections, with their arguments' constraints.
        #expect(publicState.spelling(of: "IdentifiedList<Todo>") == "IdentifiedList<Todo>")
        #expect(publicState.spelling(of: "IdentifiedList<Todo.Status>") == nil)
        #expect(publicState.spelling(of: "ListView<Todo.Status>") == "ListView<Todo.Status>")
        #expect(publicState.spelling(of: "ListGroups<Folder, Todo>") == "ListGroups<Folder, Todo>")
        #expect(publicState.spelling(of: "ListSections<Todo.Status, Todo>") == nil)  // not known Sendable
        #expect(publicState.spelling(of: "KeyedTotals<Folder, Int>") == "KeyedTotals<Folder, Int>")
        #expect(publicState.spelling(of: "KeyedTotals<Folder, String>") == nil)
        #expect(publicState.spelling(of: "ListView<Todo, Todo>") == nil)
        // A target's own type of a runtime type's name is the one the spec means.
        let shadowing = KnownTypes(importsFoundation: false, stateNames: [], declared: TypeIndex([.init(name: "ListView", access: .public)]))
        #expect(shadowing.spelling(of: "ListView<Int>") == nil)
        #expect(shadowing.spelling(of: "ListView") == "ListView")
        let internalState = KnownTypes(importsFoundation: false, stateNames: [], declared: index, access: .internal)
        #expect(internalState.spelling(of: "Set<Draft>") == "Set<Draft>")
    }

    @Test("another module's types: package and public ones, in files that import it, shadowed by the target's own")
    func otherModules() throws {
        let specs = Self.index("""
            package struct Todo: Identifiable, Sendable {}
            public enum Filter: String { case all }
            struct Hidden {}
            public struct Shared {}
            """).declared(in: "AppSpecs")
        #expect(Self.summary(specs) == ["public Filter Hashable", "public Shared", "package Todo Identifiable Sendable"])
        #expect(specs.fileText.contains("\n// module AppSpecs\n"))
        #expect(TypeIndex(fileText: specs.fileText) == specs)

        let own = Self.index("public struct Shared: Hashable {}")
        let other = Self.index("public struct Filter {}").declared(in: "Other")
        let merged = own.merging(specs).merging(other)
        #expect(merged.entries["Shared"]?.module == nil)  // the target's own shadows AppSpecs'
        #expect(merged.entries["Filter"] == nil)  // two other modules: ambiguous where both are imported
        #expect(merged.entries["Todo"]?.module == "AppSpecs")

        let importing = KnownTypes(importsFoundation: false, stateNames: [], declared: merged, access: .internal, importing: ["AppSpecs"])
        #expect(importing.spelling(of: "IdentifiedList<Todo>") == "IdentifiedList<Todo>")
        #expect(importing.spelling(of: "Set<Shared>") == "Set<Shared>")
        let notImporting = KnownTypes(importsFoundation: false, stateNames: [], declared: merged, access: .internal)
        #expect(notImporting.spelling(of: "[Todo]") == nil)
        let publicState = KnownTypes(importsFoundation: false, stateNames: [], declared: merged, access: .public, importing: ["AppSpecs"])
        #expect(publicState.spelling(of: "[Todo]") == nil)  // package: not for a public interface
    }

    @Test("the command writes the index, as another module's with --module, and generate reads several")
    func command() throws {
        let directory = try TemporaryDirectory()
        let model = try directory.write("public struct Todo: Hashable, Sendable {}\nstruct Local {}\n", to: "Model.swift")
        let index = directory.path("Index.swift")
        let result = Command().run(["index-types", model, "--output", index, "--input-digest", "abc"])
        #expect(result.status == 0, "\(result.standardError)")
        let text = try String(contentsOfFile: index, encoding: .utf8)
        #expect(text.hasSuffix("// internal Local\n// public Todo Hashable Sendable\n"), "\(text)")

        let dependency = try directory.write("package struct Draft {}\n", to: "Draft.swift")
        let dependencyIndex = directory.path("Specs.swift")
        #expect(Command().run(["index-types", dependency, "--output", dependencyIndex, "--module", "Specs"]).status == 0)

        let spec = try directory.write("""
            import Specs

            state ListState {
              var todos: [Todo] = []
              var drafts: [Draft] = []
            }

            """, to: "List.statespec")
        let output = directory.path("List.statespec.swift")
        let generation = Command().run(["generate", spec, "--output", output, "--type-index", index, "--type-index", dependencyIndex])
        #expect(generation.status == 0, "\(generation.standardError)")
        let swift = try String(contentsOfFile: output, encoding: .utf8)
        #expect(swift.contains("var todos: [Todo] {"), "\(swift)")
        #expect(swift.contains("var drafts: [Draft] {"), "\(swift)")

        try "not an index".write(toFile: dependencyIndex, atomically: true, encoding: .utf8)
        let bad = Command().run(["generate", spec, "--output", output, "--type-index", dependencyIndex])
        #expect(bad.status == 1)
        #expect(bad.standardError.contains("is not a type index written by 'ComputedGenTool index-types'"), "\(bad.standardError)")
        let missing = Command().run(["index-types", directory.path("Nope.swift"), "--output", index])
        #expect(missing.status == 1)
        #expect(missing.standardError.contains("cannot read"), "\(missing.standardError)")
    }
}
