/// The syntax tree of one `.statespec` file, as the parser read it.
///
/// Nothing here has been checked: names may be duplicated, inputs may name nothing. The checker
/// turns a `SpecFile` into a ``CheckedSpec`` or a list of diagnostics.
public struct SpecFile: Hashable, Sendable {
    /// The path of the spec, as it was given to the generator; used in diagnostics and
    /// `#sourceLocation` directives.
    public var path: String
    /// The `import` lines, copied into the generated file in order.
    public var imports: [ImportDecl]
    /// The states the file declares, in source order.
    public var states: [StateDecl]

    /// Creates a spec file.
    public init(path: String, imports: [ImportDecl] = [], states: [StateDecl] = []) {
        self.path = path
        self.imports = imports
        self.states = states
    }
}

/// An `import` line, e.g. `import Foundation` or `@preconcurrency import Dispatch`.
public struct ImportDecl: Hashable, Sendable {
    /// The whole line, trimmed, e.g. `import struct Foundation.URL`.
    public var text: String
    /// The imported module path, e.g. `Foundation.URL`.
    public var module: String
    /// Where the line starts.
    public var location: SourceLocation

    /// Creates an import declaration.
    public init(text: String, module: String, at location: SourceLocation) {
        self.text = text
        self.module = module
        self.location = location
    }
}

/// `///` doc comment lines attached to the declaration that follows them.
public struct DocComment: Hashable, Sendable {
    /// The lines with the leading `///` and one following space removed.
    public var lines: [String]

    /// Creates a doc comment from its lines.
    public init(lines: [String]) {
        self.lines = lines
    }
}

/// The access level written before `state`.
public enum AccessLevel: String, Hashable, Sendable {
    case `internal`
    case `public`
    case `package`
}

/// `[public] state Name: Conformance, … { members }`.
public struct StateDecl: Hashable, Sendable {
    /// The doc comment before the declaration, if any.
    public var doc: DocComment?
    /// The access level of the generated type and its API.
    public var access: AccessLevel
    /// The type name.
    public var name: Identifier
    /// The conformances listed after `:` (`Equatable`, `Codable`, `Hashable`, …), in order.
    public var conformances: [Identifier]
    /// The members in source order.
    public var members: [Member]
    /// Where the declaration starts (its first token after the doc comment).
    public var location: SourceLocation
    /// Where the closing `}` is.
    public var endLocation: SourceLocation

    /// Creates a state declaration.
    public init(
        doc: DocComment? = nil,
        access: AccessLevel = .internal,
        name: Identifier,
        conformances: [Identifier] = [],
        members: [Member] = [],
        at location: SourceLocation,
        end endLocation: SourceLocation
    ) {
        self.doc = doc
        self.access = access
        self.name = name
        self.conformances = conformances
        self.members = members
        self.location = location
        self.endLocation = endLocation
    }
}

/// A member of a state.
public enum Member: Hashable, Sendable {
    case field(FieldDecl)
    case computed(ComputedDecl)
    case selector(SelectorDecl)

    /// The member's name.
    public var name: Identifier {
        switch self {
        case .field(let decl): decl.name
        case .computed(let decl): decl.name
        case .selector(let decl): decl.name
        }
    }
}

/// An attribute such as `@Edge`, `@Edge(assert: { $0 >= 0 })` or `@Shared(.inMemory("key"))`.
public struct Attribute: Hashable, Sendable {
    /// One argument of an attribute: an optional label and the Swift expression, verbatim.
    public struct Argument: Hashable, Sendable {
        /// The label before `:`, if any (`assert`, `onSet`, `middleware`).
        public var label: Identifier?
        /// The expression as written, trimmed.
        public var value: SourceText

        /// Creates an argument.
        public init(label: Identifier?, value: SourceText) {
            self.label = label
            self.value = value
        }
    }

    /// The name after `@`, e.g. `Edge`.
    public var name: Identifier
    /// The arguments in parentheses; `nil` when the attribute has no parentheses.
    public var arguments: [Argument]?
    /// Where the `@` is.
    public var location: SourceLocation

    /// Creates an attribute.
    public init(name: Identifier, arguments: [Argument]? = nil, at location: SourceLocation) {
        self.name = name
        self.arguments = arguments
        self.location = location
    }
}

/// `[attributes] var name: Type [= default]`.
public struct FieldDecl: Hashable, Sendable {
    /// The doc comment before the field, if any.
    public var doc: DocComment?
    /// The attributes before `var`, in order.
    public var attributes: [Attribute]
    /// The field name.
    public var name: Identifier
    /// The type after `:`; `nil` when the spec omits it (an error the checker reports).
    public var type: SourceText?
    /// The default value after `=`, verbatim; `nil` when there is none.
    public var defaultValue: SourceText?
    /// Where the declaration starts (its first attribute, or `var`).
    public var location: SourceLocation

    /// Creates a field declaration.
    public init(
        doc: DocComment? = nil,
        attributes: [Attribute] = [],
        name: Identifier,
        type: SourceText?,
        defaultValue: SourceText? = nil,
        at location: SourceLocation
    ) {
        self.doc = doc
        self.attributes = attributes
        self.name = name
        self.type = type
        self.defaultValue = defaultValue
        self.location = location
    }
}

/// The Swift code between a body's braces.
public struct Body: Hashable, Sendable {
    /// The text between `{` and the matching `}`, exclusive, exactly as written.
    public var text: String
    /// The location of the first byte after `{`.
    public var location: SourceLocation
    /// The location of the opening `{`.
    public var openBrace: SourceLocation

    /// Creates a body.
    public init(text: String, at location: SourceLocation, openBrace: SourceLocation) {
        self.text = text
        self.location = location
        self.openBrace = openBrace
    }
}

/// `computed name: Type [from a, b] { body }`.
public struct ComputedDecl: Hashable, Sendable {
    /// The doc comment before the declaration, if any.
    public var doc: DocComment?
    /// The computed property's name.
    public var name: Identifier
    /// The type after `:`; `nil` when the spec omits it (an error the checker reports).
    public var type: SourceText?
    /// The names after `from`, or `nil` when inputs are to be inferred from the body.
    public var explicitInputs: [Identifier]?
    /// The body.
    public var body: Body
    /// Where the declaration starts (the `computed` keyword).
    public var location: SourceLocation
    /// Whether the spec wrote `@NoCutoff`: every recomputation counts as a change, even when the
    /// new value `==` the cached one.
    public var noCutoff: Bool = false

    /// Creates a computed declaration.
    public init(
        doc: DocComment? = nil,
        name: Identifier,
        type: SourceText?,
        explicitInputs: [Identifier]? = nil,
        body: Body,
        at location: SourceLocation
    ) {
        self.doc = doc
        self.name = name
        self.type = type
        self.explicitInputs = explicitInputs
        self.body = body
        self.location = location
    }
}

/// One parameter of a selector: `label name: Type`, `_ name: Type` or `name: Type`.
public struct Parameter: Hashable, Sendable {
    /// The argument label: `nil` when the spec wrote a single name (which is then both label and
    /// name), `_` when the spec wrote `_`.
    public var label: Identifier?
    /// The parameter name used inside the body.
    public var name: Identifier
    /// The type after `:`; `nil` when omitted (an error the checker reports).
    public var type: SourceText?

    /// Creates a parameter.
    public init(label: Identifier? = nil, name: Identifier, type: SourceText?) {
        self.label = label
        self.name = name
        self.type = type
    }

    /// The label callers write: the explicit label, or the name when there is none.
    public var callLabel: String { label?.name ?? name.name }
}

/// `selector name(label param: Type, …) -> Type [from a, b] [cache N] { body }`.
public struct SelectorDecl: Hashable, Sendable {
    /// The doc comment before the declaration, if any.
    public var doc: DocComment?
    /// The selector's base name.
    public var name: Identifier
    /// The parameters, in order; may be empty.
    public var parameters: [Parameter]
    /// The type after `->`; `nil` when omitted (an error the checker reports).
    public var returnType: SourceText?
    /// The names after `from`, or `nil` when inputs are to be inferred from the body.
    public var explicitInputs: [Identifier]?
    /// The per-argument cache capacity after `cache`, or `nil` for the runtime's default.
    public var cacheCapacity: Int?
    /// Where the capacity number is, for diagnostics.
    public var cacheCapacityLocation: SourceLocation?
    /// The body.
    public var body: Body
    /// Where the declaration starts (the `selector` keyword).
    public var location: SourceLocation

    /// Creates a selector declaration.
    public init(
        doc: DocComment? = nil,
        name: Identifier,
        parameters: [Parameter] = [],
        returnType: SourceText?,
        explicitInputs: [Identifier]? = nil,
        cacheCapacity: Int? = nil,
        cacheCapacityLocation: SourceLocation? = nil,
        body: Body,
        at location: SourceLocation
    ) {
        self.doc = doc
        self.name = name
        self.parameters = parameters
        self.returnType = returnType
        self.explicitInputs = explicitInputs
        self.cacheCapacity = cacheCapacity
        self.cacheCapacityLocation = cacheCapacityLocation
        self.body = body
        self.location = location
    }
}
