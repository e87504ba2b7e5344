import ConcurrencyTestSupport
import Testing

@testable import ComputedRuntime

/// A mail folder: the other side of the joins under test (`Mail.folder` refers to it).
struct MailFolder: Identifiable, Hashable, Sendable {
    var id: Int
    var name: String
}

/// A mail with its folder's name: the row of the joins under test.
struct FiledMail: Identifiable, Hashable, Sendable {
    var mail: Mail
    var folderName: String?
    var id: Int { mail.id }
}

/// The folders as a list and as an array, and a dictionary of sizes' labels, edited together.
struct MirroredFolders {
    var list: IdentifiedList<MailFolder>
    var array: [MailFolder]
    /// What `Mail.size` refers to in the dictionary joins.
    var labels: [Int: String]

    init(_ generator: inout SeededGenerator) {
        // Ids 0..<6, of which the mails' folders use 0..<4: some folders have no mail, and a
        // removed folder leaves mails without one.
        array = (0..<5).map { MailFolder(id: $0, name: "f\(Int.random(in: 0..<6, using: &generator))") }
        list = IdentifiedList(array)
        labels = Dictionary(uniqueKeysWithValues: (1..<15).map { ($0, "l\($0 % 4)") })
    }

    /// The folder with `id` in the array, as the oracle looks it up.
    func folder(_ id: Int) -> MailFolder? { array.first { $0.id == id } }

    /// One random edit of a folder or of the dictionary, applied to both; returns its name.
    mutating func randomEdit(_ generator: inout SeededGenerator) -> String {
        let roll = Int.random(in: 0..<100, using: &generator)
        switch roll {
        case ..<30 where !array.isEmpty:
            let offset = Int.random(in: 0..<array.count, using: &generator)
            let name = "f\(Int.random(in: 0..<6, using: &generator))"
            list[id: array[offset].id]?.name = name
            array[offset].name = name
            return "rename folder"
        case ..<45:
            let missing = (0..<6).filter { folder($0) == nil }
            guard let id = missing.randomElement(using: &generator) else { return "rename folder" }
            let added = MailFolder(id: id, name: "f\(Int.random(in: 0..<6, using: &generator))")
            let offset = Int.random(in: 0...array.count, using: &generator)
            list.insert(added, at: offset)
            array.insert(added, at: offset)
            return "insert folder"
        case ..<58 where !array.isEmpty:
            let offset = Int.random(in: 0..<array.count, using: &generator)
            list.remove(at: offset)
            array.remove(at: offset)
            return "remove folder"
        case ..<66 where array.count > 1:
            let destination = Int.random(in: 0..<array.count, using: &generator)
            let offset = Int.random(in: 0..<array.count, using: &generator)
            list.move(fromOffset: offset, toOffset: destination)
            array.insert(array.remove(at: offset), at: destination)
            return "move folder"
        case ..<70:
            array = array.map { MailFolder(id: $0.id, name: "f\(Int.random(in: 0..<6, using: &generator))") }
            list.replaceAll(with: array)
            return "replace folders"
        case ..<75 where !array.isEmpty:
            // An edit to an equal value: the rows stay as they were.
            let offset = Int.random(in: 0..<array.count, using: &generator)
            list[id: array[offset].id] = array[offset]
            return "rewrite folder"
        case ..<90:
            let key = Int.random(in: 1..<22, using: &generator)
            labels[key] = "l\(Int.random(in: 0..<5, using: &generator))"
            return "set label"
        default:
            labels[Int.random(in: 1..<22, using: &generator)] = nil
            return "remove label"
        }
    }
}

/// One join evaluated through its pipeline, compared with the same join on arrays; and a sorted
/// view of its rows, chained through a pipeline of its own, compared with the sorted array.
final class JoinChecker<Other: JoinedSide>: @unchecked Sendable
where Other: Sendable, Other.Key: Sendable, Other._Mark: Sendable {
    // Safety: used on the test's thread only.
    let name: String
    let make: (IdentifiedList<Mail>, Other) -> JoinQuery<Mail, Other, FiledMail>
    let expected: ([Mail], MirroredFolders) -> [FiledMail]
    var pipeline = IncrementalPipeline<JoinQuery<Mail, Other, FiledMail>>()
    var sorted = IncrementalPipeline<ListQuery<FiledMail, FiledMail>>()
    var rowsSeen: (version: ListVersion, rows: [FiledMail])?

    init(_ name: String, _ make: @escaping (IdentifiedList<Mail>, Other) -> JoinQuery<Mail, Other, FiledMail>,
         expected: @escaping ([Mail], MirroredFolders) -> [FiledMail]) {
        self.name = name
        self.make = make
        self.expected = expected
    }

    /// The view of the rows the checker chains: by folder name, then date, stably.
    static func byFolderThenDate(_ rows: IdentifiedList<FiledMail>) -> ListQuery<FiledMail, FiledMail> {
        rows.sorted { ($0.folderName ?? "", $0.mail.date) < ($1.folderName ?? "", $1.mail.date) }
    }

    func check(_ mails: IdentifiedList<Mail>, _ array: [Mail], _ other: Other, _ folders: MirroredFolders, reuse: Bool) -> [String] {
        let rows = pipeline.update(with: make(mails, other), reuse: reuse)
        let want = expected(array, folders)
        var failures: [String] = []
        if Array(rows) != want {
            failures.append("\(name): rows \(rows.map(\.id)) (\(pipeline.lastEvaluation)), want \(want.map(\.id))"
                            + (Array(rows).map(\.id) == want.map(\.id) ? ", values differ" : ""))
        }
        failures += collectionLawFailures(rows, expected: want, "\(name) rows")
        for row in want where rows[id: row.id] != row {
            failures.append("\(name): rows[id: \(row.id)] is \(String(describing: rows[id: row.id])), want \(row)")
        }
        // The rows' record says what changed since the last read, exactly: replayed on the rows
        // seen then, it gives these rows' ids.
        if let seen = rowsSeen, let changes = rows.changes(since: seen.version) {
            var ids = seen.rows.map(\.id)
            for change in changes {
                switch change.kind {
                case .removed: ids.removeAll { $0 == change.id }
                case .inserted, .moved, .updated: break
                }
            }
            let inserted = Set(changes.ids(.inserted))
            if Set(ids).union(inserted) != Set(rows.map(\.id)) {
                failures.append("\(name): the rows' record does not account for the ids that came and went")
            }
            let touched = Set(changes.touchedIDs)
            for row in seen.rows where !touched.contains(row.id) && rows[id: row.id] != row {
                failures.append("\(name): row \(row.id) changed without a record")
            }
        }
        rowsSeen = (rows.version, Array(rows))
        let view = sorted.update(with: Self.byFolderThenDate(rows))
        let wantSorted = want.sorted { ($0.folderName ?? "", $0.mail.date) < ($1.folderName ?? "", $1.mail.date) }
        if Array(view) != wantSorted {
            failures.append("\(name): sorted view \(view.map(\.id)) (\(sorted.lastEvaluation)), want \(wantSorted.map(\.id))")
        }
        failures += collectionLawFailures(view, expected: wantSorted, "\(name) sorted view")
        return failures
    }
}

@Suite("Joins: equivalence with the same join on arrays")
struct JoinPropertyTests {
    /// The four forms over the folders list, and two over a dictionary.
    static func checkers() -> (lists: [JoinChecker<IdentifiedList<MailFolder>>], dictionaries: [JoinChecker<[Int: String]>]) {
        let lists = [
            JoinChecker<IdentifiedList<MailFolder>>("inner join", { mails, folders in
                mails.join(folders, on: \.folder) { mail, folder in FiledMail(mail: mail, folderName: folder.name) }
            }, expected: { mails, folders in
                mails.compactMap { mail in folders.folder(mail.folder).map { FiledMail(mail: mail, folderName: $0.name) } }
            }),
            JoinChecker("left join", { mails, folders in
                mails.leftJoin(folders, on: \.folder) { mail, folder in FiledMail(mail: mail, folderName: folder?.name) }
            }, expected: { mails, folders in
                mails.map { FiledMail(mail: $0, folderName: folders.folder($0.folder)?.name) }
            }),
            JoinChecker("inner join, optional key", { mails, folders in
                mails.join(folders, on: { $0.isRead ? nil : $0.folder }) { mail, folder in FiledMail(mail: mail, folderName: folder.name) }
            }, expected: { mails, folders in
                mails.compactMap { mail in
                    mail.isRead ? nil : folders.folder(mail.folder).map { FiledMail(mail: mail, folderName: $0.name) }
                }
            }),
            JoinChecker("left join, optional key", { mails, folders in
                mails.leftJoin(folders, on: { $0.size > 10 ? nil : $0.folder }) { mail, folder in
                    FiledMail(mail: mail, folderName: folder?.name)
                }
            }, expected: { mails, folders in
                mails.map { FiledMail(mail: $0, folderName: $0.size > 10 ? nil : folders.folder($0.folder)?.name) }
            }),
        ]
        let dictionaries = [
            JoinChecker<[Int: String]>("inner join on a dictionary", { mails, labels in
                mails.join(labels, on: \.size) { mail, label in FiledMail(mail: mail, folderName: label) }
            }, expected: { mails, folders in
                mails.compactMap { mail in folders.labels[mail.size].map { FiledMail(mail: mail, folderName: $0) } }
            }),
            JoinChecker("left join on a dictionary", { mails, labels in
                mails.leftJoin(labels, on: \.size) { mail, label in FiledMail(mail: mail, folderName: label) }
            }, expected: { mails, folders in
                mails.map { FiledMail(mail: $0, folderName: folders.labels[$0.size]) }
            }),
        ]
        return (lists, dictionaries)
    }

    /// Random edits on both sides (every edit of `MirroredList` and `MirroredFolders`), diverging
    /// copies of both (each copy read through a copy of the pipelines, then one kept), `reuse:
    /// false` as after another input moved, and every join read at random points: 2,000 steps per
    /// seed in `swift test`, 10^4 deep.
    @Test("random edits on both sides: every read equals the join on arrays", arguments: [1, 2, 3] as [UInt64])
    func randomEdits(seed: UInt64) {
        run(seed: seed, count: 80, operations: TestDepth.size(quick: 2_000, deep: 10_000), readEvery: 3, followedRatio: 2)
    }

    /// Lists of 600 to 2,400 mails, where each folder holds about a quarter of them: a folder's
    /// edit often touches more rows than are worth following, so only correctness and some
    /// followed updates are asserted.
    @Test("random edits on larger lists: every read equals the join on arrays", arguments: [4] as [UInt64])
    func randomEditsLarge(seed: UInt64) {
        run(seed: seed, count: 1_000, operations: TestDepth.size(quick: 800, deep: 4_000), readEvery: 10, followedRatio: nil)
    }

    /// `followedRatio`: how many times more updates each join and its sorted view must follow
    /// than evaluate in full (nil: at least one).
    func run(seed: UInt64, count: Int, operations total: Int, readEvery: Int, followedRatio: Int?) {
        var generator = SeededGenerator(seed: seed)
        var (lists, dictionaries) = Self.checkers()
        var mails = MirroredList(count: count, generator: &generator)
        var folders = MirroredFolders(&generator)
        var reuse = true
        var operations: [String: Int] = [:]
        var failures: [String] = []
        func read(_ lists: [JoinChecker<IdentifiedList<MailFolder>>], _ dictionaries: [JoinChecker<[Int: String]>],
                  _ mails: MirroredList, _ folders: MirroredFolders) {
            for checker in lists { failures += checker.check(mails.list, mails.array, folders.list, folders, reuse: reuse) }
            for checker in dictionaries { failures += checker.check(mails.list, mails.array, folders.labels, folders, reuse: reuse) }
        }
        for step in 0..<total {
            let roll = Int.random(in: 0..<100, using: &generator)
            switch roll {
            case 0..<3:
                // Copies of both sides and of the pipelines, edited differently, each read; keep
                // either.
                var otherMails = mails
                var otherFolders = folders
                let otherLists = lists.map(Self.copy)
                let otherDictionaries = dictionaries.map(Self.copy)
                for _ in 0..<Int.random(in: 1..<4, using: &generator) {
                    if Bool.random(using: &generator) { otherMails.randomEdit(&generator) } else { _ = otherFolders.randomEdit(&generator) }
                }
                for _ in 0..<Int.random(in: 0..<3, using: &generator) {
                    if Bool.random(using: &generator) { mails.randomEdit(&generator) } else { _ = folders.randomEdit(&generator) }
                }
                read(otherLists, otherDictionaries, otherMails, otherFolders)
                if Bool.random(using: &generator) {
                    (mails, folders, lists, dictionaries) = (otherMails, otherFolders, otherLists, otherDictionaries)
                }
                operations["diverge", default: 0] += 1
            case 3..<6:
                reuse = false
                operations["reuse: false", default: 0] += 1
            case 6..<50:
                operations[folders.randomEdit(&generator), default: 0] += 1
            default:
                operations[mails.randomEdit(&generator), default: 0] += 1
            }
            if Int.random(in: 0..<readEvery, using: &generator) == 0 || step == total - 1 {
                read(lists, dictionaries, mails, folders)
                reuse = true
                if !failures.isEmpty {
                    Issue.record("seed \(seed), step \(step): \(failures.prefix(3).joined(separator: "\n"))")
                    return
                }
            }
        }
        for name in ["rename folder", "insert folder", "remove folder", "move folder", "replace folders", "rewrite folder",
                     "set label", "remove label", "diverge", "reuse: false", "insert", "remove", "toggle read", "change folder",
                     "change size", "move", "bulk replace"] {
            #expect(operations[name, default: 0] >= 2, "too few '\(name)' operations: \(operations)")
        }
        // The joins followed most edits, rather than passing by evaluating everything again.
        for checker in lists {
            guard let followedRatio else {
                #expect(checker.pipeline.incrementalUpdates > 0 && checker.sorted.incrementalUpdates > 0, "\(checker.name)")
                continue
            }
            #expect(checker.pipeline.incrementalUpdates > checker.pipeline.fullRecomputations * followedRatio,
                    "\(checker.name): \(checker.pipeline.incrementalUpdates) followed, \(checker.pipeline.fullRecomputations) in full")
            #expect(checker.sorted.incrementalUpdates > checker.sorted.fullRecomputations,
                    "\(checker.name), sorted: \(checker.sorted.incrementalUpdates) followed, \(checker.sorted.fullRecomputations) in full")
        }
    }

    /// A checker going on from the same pipelines, independently (a copy of a state copies its
    /// values' pipelines).
    static func copy<Other>(_ checker: JoinChecker<Other>) -> JoinChecker<Other> {
        let copy = JoinChecker(checker.name, checker.make, expected: checker.expected)
        copy.pipeline = checker.pipeline
        copy.sorted = checker.sorted
        copy.rowsSeen = checker.rowsSeen
        return copy
    }
}
