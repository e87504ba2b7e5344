/// Computed values declared as a `ListView<…>`, maintained incrementally (see
/// `DerivedCollectionTypes`). What differs from any other computed value, all of it small:
/// - the body function returns the query its text builds,
///   `-> some ComputedRuntime.IncrementalListQuery<ListView<Message>>` (the type as the spec
///   spells it), so that `messages.filter { … }.sorted(by: \.date)` builds a query rather than an
///   `Array`; the body text itself is the user's, under `#sourceLocation`, as for any body;
/// - the storage is an `IncrementalMemo` (a memo cell and the pipeline that follows the list),
///   read by the same hit path as a `Memo`;
/// - the table entry is `table.incremental(…)`, with the same arguments as `table.computed(…)`:
///   the runtime follows the list's changes when only the list moved, evaluates the query in full
///   when another input moved, and cuts off on the view's changes.
///
/// A fold of an `IdentifiedList` field (`computed unreadTotal: Int { messages.count(where: { … }) }`,
/// see `IncrementalFolds` for the forms recognised) is emitted the same way, with `table.fold(…)`:
/// its body returns `some IncrementalListQuery<Int>`, which makes the chain build the runtime's
/// fold query, followed in O(changes) when only the list moved.
///
/// Over `@Shared` fields, the value keeps the shared-memo code of its kind and its query is
/// evaluated in full on each recomputation (`_evaluatedInFull()`).
extension StateEmitter {
    /// The `IdentifiedList` field a computed value folds, when it is a recognised fold (and not a
    /// `ListView`); found once per value, when the emitter is made.
    func foldedList(of computed: CheckedComputed) -> String? {
        foldedLists[computed.name]
    }

    /// ``foldedList(of:)`` given the state's fields by name and its joins (for the emitter's
    /// initializer).
    static func foldedList(of computed: CheckedComputed, fields: [String: CheckedField],
                           joins: [String: IncrementalJoins.Join] = [:]) -> String? {
        guard !computed.isIncrementalList, joins[computed.name] == nil else { return nil }
        let lists = Self.lists(among: computed, fields: fields, joins: joins)
        guard !lists.isEmpty else { return nil }
        return IncrementalFolds.foldedList(inBody: computed.decl.body.text, lists: lists, type: computed.type)
    }

    /// The join a computed value makes (see `IncrementalJoins`), given the state's fields by name
    /// and the joins before it.
    static func join(of computed: CheckedComputed, fields: [String: CheckedField],
                     joins: [String: IncrementalJoins.Join]) -> IncrementalJoins.Join? {
        guard computed.isIdentifiedList else { return nil }
        let lists = Self.lists(among: computed, fields: fields, joins: joins)
        return IncrementalJoins.join(inBody: computed.decl.body.text, type: computed.type, lists: lists)
    }

    /// The inputs of `computed` a chain may start from: its `IdentifiedList` fields (read whole,
    /// not through members) and the join values it reads.
    private static func lists(among computed: CheckedComputed, fields: [String: CheckedField],
                              joins: [String: IncrementalJoins.Join]) -> Set<String> {
        Set(computed.inputs.compactMap { input -> String? in
            switch input {
            case .field(let name):
                guard let field = fields[name], DerivedCollectionTypes.isIdentifiedList(field.type), computed.memberPaths[name] == nil
                else { return nil }
                return name
            case .computed(let name):
                return joins[name] != nil ? name : nil
            }
        })
    }

    /// The join a computed value makes, when it is one.
    func join(of computed: CheckedComputed) -> IncrementalJoins.Join? {
        joins[computed.name]
    }

    /// The `ListView` value a `ListView` value's chain starts from (`timeline` in `timeline.filter
    /// { … }`), when the body reads it only there: the table then follows that value's changes
    /// (`sourceInputs:`). Nil otherwise (a value that reads it in a closure too is evaluated in
    /// full when it moves).
    func viewSource(of computed: CheckedComputed) -> String? {
        guard DerivedCollectionTypes.isListView(computed.type), !isShared(computed),
              let start = StateChecker.chainStart(of: computed.decl.body), computed.inputs.contains(.computed(start.name)),
              let source = computedsByName[start.name], DerivedCollectionTypes.isListView(source.type),
              Self.readsOnce(start.name, in: computed)
        else { return nil }
        return start.name
    }

    /// The list field a value maintained incrementally reads as its only input, when its body
    /// reads it only where the chain starts (`messages` in `messages.filter { !$0.isRead }
    /// .sorted(by: \.date)`): the query's closures then read nothing that can change, so the table
    /// builds the query once and points it at the list's new value after each edit (`source:`).
    /// Nil for any other value, whose query is built on each refresh.
    func querySource(of computed: CheckedComputed) -> CheckedField? {
        guard isIncremental(computed), !isShared(computed), computed.keyOrderInputs.isEmpty,
              computed.inputs.count == 1, listInputs(of: computed) == computed.inputs,
              case .field(let name) = computed.inputs[0], computed.memberPaths[name] == nil,
              let field = field(named: name), !isWrapped(field)
        else { return nil }
        return field
    }

    /// Whether `name` appears once in the body of `computed` (where its chain starts, not in a
    /// closure as well).
    private static func readsOnce(_ name: String, in computed: CheckedComputed) -> Bool {
        let (tokens, _) = Lexer.tokenize(computed.decl.body.text)
        return tokens.count { $0.kind == .identifier && $0.text == name } == 1
    }

    /// The inputs whose changes a value maintained incrementally follows: the `IdentifiedList`
    /// field its chain starts from, the join value it starts from, or the `ListView` value
    /// (``viewSource(of:)``), when the body reads it only there; for a join, also the other side,
    /// when the body reads it only as the join's first argument. Empty when there is none: a list
    /// or view its closures read too made the previous result with its value then, so the value is
    /// evaluated in full after it moves.
    func listInputs(of computed: CheckedComputed) -> [Input] {
        if let view = viewSource(of: computed) { return [.computed(view)] }
        if let join = join(of: computed) {
            return ([join.list] + (join.other.map { [$0] } ?? [])).compactMap { name in
                guard Self.readsOnce(name, in: computed) else { return nil }
                return computed.inputs.first { $0 == .field(name) || $0 == .computed(name) }
            }
        }
        guard let start = StateChecker.chainStart(of: computed.decl.body),
              Self.readsOnce(start.name, in: computed) || Self.readsOnlyInKeyOrder(start.name, in: computed)
        else { return [] }
        if computed.inputs.contains(.computed(start.name)), joins[start.name] != nil { return [.computed(start.name)] }
        guard computed.inputs.contains(.field(start.name)), let field = field(named: start.name),
              DerivedCollectionTypes.isIdentifiedList(field.type)
        else { return [] }
        return [.field(start.name)]
    }

    /// The followed inputs (``listInputs(of:)``) other than the list field the query reads as its
    /// source: the table's `sourceInputs:`, whose moves the query follows itself (a view's or a
    /// join's rows through their record of changes, a join's other side through its own) rather
    /// than being evaluated in full.
    func followedOtherInputs(of computed: CheckedComputed) -> [String] {
        guard isIncremental(computed), !isShared(computed) else { return [] }
        let lists = listInputs(of: computed)
        let source = join(of: computed).map(\.list) ?? StateChecker.chainStart(of: computed.decl.body)?.name
        return lists.compactMap { input in
            if case .field(let name) = input, name == source { return nil }
            return input.name
        }
    }

    /// Whether a `ListSections` value's key order reads the list its chain starts from and the
    /// rest of the body reads it only there (`articles.grouped(by: \.feedID).sortedKeys { a, b in
    /// articles.count { … } }`): the groups follow the list, and the keys are sorted again.
    private static func readsOnlyInKeyOrder(_ name: String, in computed: CheckedComputed) -> Bool {
        computed.keyOrderInputs.contains(name) && SectionOrders.calls(in: computed.decl.body).last?.otherReferenceCounts[name] == 1
    }

    /// The `IdentifiedList` fields among a value's inputs whose changes it does not follow (see
    /// ``listInputs(of:)``): the table's `unfollowedLists:`, so that the runtime evaluates the value
    /// in full after one moves rather than follow a list the query's closures read.
    func unfollowedLists(of computed: CheckedComputed) -> [String] {
        guard isIncremental(computed), !isShared(computed) else { return [] }
        let followed = listInputs(of: computed)
        return computed.inputs.compactMap { input in
            guard case .field(let name) = input, !followed.contains(input), let field = field(named: name),
                  DerivedCollectionTypes.isIdentifiedList(field.type)
            else { return nil }
            return name
        }
    }

    /// Whether a computed value's body builds an incremental query: a `ListView`, or a fold of a
    /// list.
    func isIncremental(_ computed: CheckedComputed) -> Bool {
        computed.isIncrementalList || foldedList(of: computed) != nil || join(of: computed) != nil
    }

    /// The return type of the body function of a computed value: its type, or for a `ListView`
    /// the query that builds it.
    func bodyReturnType(of computed: CheckedComputed) -> String {
        isIncremental(computed) ? "some \(RuntimeNames.incrementalListQuery)<\(typeAlias(computed))>" : typeAlias(computed)
    }

    /// The table's method for a memoized computed value's entry.
    func tableEntryMethod(of computed: CheckedComputed) -> String {
        if computed.isListGroups { return "grouped" }
        if computed.isListSections { return "sections" }
        if computed.isIncrementalList { return "incremental" }
        if join(of: computed) != nil { return "joined" }
        return foldedList(of: computed) != nil ? "fold" : "computed"
    }

    /// A call of a computed value's body function, as the shared-memo code makes it: a `ListView`'s
    /// query is evaluated in full.
    func sharedBodyCall(of computed: CheckedComputed, _ call: String) -> String {
        isIncremental(computed) ? "\(call)._evaluatedInFull()" : call
    }

    /// The last line of a computed value's documentation: when it is brought up to date.
    func freshnessDoc(of computed: CheckedComputed) -> String {
        let lists = listInputs(of: computed)
        guard isIncremental(computed), !isShared(computed), !lists.isEmpty else {
            let nested = sharedInputs(of: computed).filter { fieldsByName[$0]?.holdsNestedShared ?? false }
            let elsewhere = nested.isEmpty ? "" : ", including a `@Shared` value \(describe(nested.map(Input.field))) holds, changed by any of its holders"
            return "Memoized: recomputed only after \(describe(computed.inputs)) changes\(elsewhere)."
        }
        let order = computed.keyOrderInputs
        let reordered = computed.inputs.filter { order.contains($0.name) && !lists.contains($0) }
        let others = computed.inputs.filter { !lists.contains($0) && !reordered.contains($0) }
        let sort = reordered.isEmpty ? "" : "; sorts its sections again after \(describe(reordered)) changes"
        let full = others.isEmpty ? "" : "; evaluated in full after \(describe(others)) changes"
        // A join follows both of its sides.
        let followed = lists.count > 1 ? describe(lists).replacingOccurrences(of: " or ", with: " and ") : describe(lists)
        return "Maintained incrementally: follows the changes of \(followed)\(sort)\(full)."
    }
}
