import Testing

@testable import ComputedRuntime

@Suite("Joins")
struct JoinQueryTests {
    /// 1,000 mails in 40 folders (25 each), folder 39 left without a folder element.
    static func mails() -> IdentifiedList<Mail> {
        IdentifiedList((0..<1_000).map { Mail(id: $0, date: $0 % 97, folder: $0 % 40) })
    }

    static func folders() -> IdentifiedList<MailFolder> {
        IdentifiedList((0..<39).map { MailFolder(id: $0, name: "folder \($0)") })
    }

    /// One place builds the query, as a generated body does.
    static func filed(_ mails: IdentifiedList<Mail>, _ folders: IdentifiedList<MailFolder>) -> JoinQuery<Mail, IdentifiedList<MailFolder>, FiledMail> {
        mails.join(folders, on: \.folder) { mail, folder in FiledMail(mail: mail, folderName: folder.name) }
    }

    @Test("renaming a related element updates the rows that refer to it, and only those")
    func renameFollowsReferrers() {
        let mails = Self.mails()
        var folders = Self.folders()
        var pipeline = IncrementalPipeline<JoinQuery<Mail, IdentifiedList<MailFolder>, FiledMail>>()
        var rows = pipeline.update(with: Self.filed(mails, folders))
        #expect(rows.count == 975)                      // folder 39's mails have no row
        #expect(rows.map(\.id) == mails.filter { $0.folder != 39 }.map(\.id))
        let seen = rows.version

        folders[id: 7]?.name = "Receipts"
        rows = pipeline.update(with: Self.filed(mails, folders))
        #expect(pipeline.lastEvaluation == .followed)
        let changes = rows.changes(since: seen)
        #expect(changes?.count == 25)
        #expect(Set(changes?.ids(.updated) ?? []) == Set(mails.filter { $0.folder == 7 }.map(\.id)))
        #expect(rows[id: 7]?.folderName == "Receipts" && rows[id: 8]?.folderName == "folder 8")
    }

    /// The referrers keep each element's offset, and the change record each edit's: both are
    /// hints, found again by id when an insertion or removal before them shifted the elements.
    @Test("offsets kept for referrers and in the change record are checked, and found again when stale")
    func staleOffsetHints() {
        var mails = Self.mails()
        var folders = Self.folders()
        var pipeline = IncrementalPipeline<JoinQuery<Mail, IdentifiedList<MailFolder>, FiledMail>>()
        var rows = pipeline.update(with: Self.filed(mails, folders))
        folders[id: 7]?.name = "Receipts"              // the referrers are made, with the offsets
        rows = pipeline.update(with: Self.filed(mails, folders))

        // An edit records where it left the element; the record says so, and an insertion before
        // it makes the offset stale without making it wrong to use.
        let seen = mails.version
        mails[id: 47]?.isRead = true
        let touched = mails.changes(since: seen)?._touched(Mail.self)
        #expect(touched?.map(\.offset) == [47])
        mails.insert(Mail(id: 5_000, date: 1, folder: 7), at: 0)
        mails.remove(id: 900)
        #expect(mails._offset(of: 47, hint: 47) == 48)
        #expect(mails._offset(of: 47, hint: 48) == 48)
        #expect(mails._offset(of: 47, hint: -1) == 48 && mails._offset(of: 900, hint: 900) == nil)

        // Every referrer of folder 7 is now one place further on, and a rename still finds them.
        rows = pipeline.update(with: Self.filed(mails, folders))
        folders[id: 7]?.name = "Bills"
        rows = pipeline.update(with: Self.filed(mails, folders))
        #expect(pipeline.lastEvaluation == .followed)
        let expected = mails.filter { $0.folder != 39 }.map { FiledMail(mail: $0, folderName: folders[id: $0.folder]!.name) }
        #expect(Array(rows) == expected)
        #expect(rows[id: 47]?.folderName == "Bills" && rows[id: 47]?.mail.isRead == true && rows[id: 5_000]?.folderName == "Bills")
        // The offsets were set to where the elements are: a second rename reads them as they are.
        #expect(pipeline._state?.referrers?[7]?[47] == 48 && pipeline._state?.referrers?[7]?[87] == 88)
        folders[id: 7]?.name = "Paid"
        rows = pipeline.update(with: Self.filed(mails, folders))
        #expect(rows.filter { $0.mail.folder == 7 }.allSatisfy { $0.folderName == "Paid" })
    }

    @Test("an edit of an element updates its row; a new key moves it between related elements")
    func leftEditsFollow() {
        var mails = Self.mails()
        let folders = Self.folders()
        var pipeline = IncrementalPipeline<JoinQuery<Mail, IdentifiedList<MailFolder>, FiledMail>>()
        var rows = pipeline.update(with: Self.filed(mails, folders))
        let seen = rows.version

        mails[id: 3]?.isRead = true
        mails[id: 5]?.folder = 39                       // no folder 39: its row goes
        mails[id: 39]?.folder = 1                       // folder 1 now: its row comes, in list order
        rows = pipeline.update(with: Self.filed(mails, folders))
        #expect(pipeline.lastEvaluation == .followed)
        #expect(rows[id: 3]?.mail.isRead == true)
        #expect(rows[id: 5] == nil)
        #expect(rows[id: 39]?.folderName == "folder 1")
        #expect(rows.map(\.id) == mails.filter { $0.folder != 39 }.map(\.id))
        #expect(rows.changes(since: seen)?.ids(.updated) == [3])

        // The referrers moved with the key: renaming folder 1 now reaches mail 39.
        var renamed = folders
        renamed[id: 1]?.name = "Inbox"
        rows = pipeline.update(with: Self.filed(mails, renamed))
        #expect(rows[id: 39]?.folderName == "Inbox")
    }

    @Test("a related element added or removed adds or removes its rows, in the list's order")
    func relatedInsertionsAndRemovals() {
        let mails = Self.mails()
        var folders = Self.folders()
        var pipeline = IncrementalPipeline<JoinQuery<Mail, IdentifiedList<MailFolder>, FiledMail>>()
        var rows = pipeline.update(with: Self.filed(mails, folders))

        folders.append(MailFolder(id: 39, name: "Archive"))
        folders.remove(id: 0)
        rows = pipeline.update(with: Self.filed(mails, folders))
        #expect(pipeline.lastEvaluation == .followed)
        #expect(rows.map(\.id) == mails.filter { $0.folder != 0 }.map(\.id))
        #expect(rows[id: 39]?.folderName == "Archive")
        // Placed by label, in one pass: offsets and the id index agree.
        for (offset, row) in rows.enumerated() { #expect(rows.index(id: row.id) == offset) }
    }

    @Test("a row made again equal to the one it replaces is no edit of the rows")
    func equalRowsAreNoEdit() {
        let mails = Self.mails()
        var folders = Self.folders()
        var pipeline = IncrementalPipeline<JoinQuery<Mail, IdentifiedList<MailFolder>, FiledMail>>()
        var rows = pipeline.update(with: Self.filed(mails, folders))
        let seen = rows.version
        folders[id: 4] = MailFolder(id: 4, name: "folder 4")   // the same value
        folders.move(fromOffset: 0, toOffset: 10)               // a move changes no row
        rows = pipeline.update(with: Self.filed(mails, folders))
        #expect(pipeline.lastEvaluation == .followed)
        #expect(rows.version == seen)
    }

    @Test("the other side replaced, or too many rows touched: evaluated in full, and said why")
    func fullEvaluationReasons() {
        var mails = Self.mails()
        var folders = Self.folders()
        var pipeline = IncrementalPipeline<JoinQuery<Mail, IdentifiedList<MailFolder>, FiledMail>>()
        _ = pipeline.update(with: Self.filed(mails, folders))
        #expect(pipeline.lastEvaluation == .full(.first))

        folders.replaceAll(with: Self.folders().map { MailFolder(id: $0.id, name: $0.name.uppercased()) })
        var rows = pipeline.update(with: Self.filed(mails, folders))
        #expect(pipeline.lastEvaluation == .full(.joinedChangesUnavailable))
        #expect(rows[id: 1]?.folderName == "FOLDER 1")
        #expect(ListEvaluation.full(.joinedChangesUnavailable).description.contains("joined side"))

        for id in 0..<13 { folders[id: id]?.name = "renamed" }   // 325 of 975 rows
        rows = pipeline.update(with: Self.filed(mails, folders))
        #expect(pipeline.lastEvaluation == .full(.changesNotFollowed))
        #expect(rows[id: 12]?.folderName == "renamed")

        mails.replaceAll(with: Array(mails))
        _ = pipeline.update(with: Self.filed(mails, folders))
        #expect(pipeline.lastEvaluation == .full(.changesUnavailable))
        _ = pipeline.update(with: Self.filed(mails, folders), reuse: false)
        #expect(pipeline.lastEvaluation == .full(.otherInputsMoved))
    }

    @Test("a join on a dictionary follows the keys whose values changed")
    func dictionaryJoin() {
        let mails = Self.mails()
        var names: [Int: String] = Dictionary(uniqueKeysWithValues: (0..<39).map { ($0, "folder \($0)") })
        func query() -> JoinQuery<Mail, [Int: String], FiledMail> {
            mails.leftJoin(names, on: \.folder) { mail, name in FiledMail(mail: mail, folderName: name) }
        }
        var pipeline = IncrementalPipeline<JoinQuery<Mail, [Int: String], FiledMail>>()
        var rows = pipeline.update(with: query())
        #expect(rows.count == 1_000 && rows[id: 39]?.folderName == nil)
        let seen = rows.version
        names[39] = "Archive"
        names[2] = nil
        rows = pipeline.update(with: query())
        #expect(pipeline.lastEvaluation == .followed)
        #expect(rows[id: 39]?.folderName == "Archive" && rows[id: 2]?.folderName == nil)
        #expect(rows.changes(since: seen)?.count == 50)
    }

    @Test("a view of the rows follows a rename in the rows it moves")
    func viewOfRowsFollows() {
        let mails = Self.mails()
        var folders = Self.folders()
        var join = IncrementalPipeline<JoinQuery<Mail, IdentifiedList<MailFolder>, FiledMail>>()
        var view = IncrementalPipeline<ListQuery<FiledMail, FiledMail>>()
        func byName(_ rows: IdentifiedList<FiledMail>) -> ListQuery<FiledMail, FiledMail> {
            rows.sorted { ($0.folderName ?? "") < ($1.folderName ?? "") }
        }
        _ = view.update(with: byName(join.update(with: Self.filed(mails, folders))))
        folders[id: 30]?.name = "a first"
        let sorted = view.update(with: byName(join.update(with: Self.filed(mails, folders))))
        #expect(view.lastEvaluation == .followed)
        #expect(sorted.prefix(25).allSatisfy { $0.folderName == "a first" })
        #expect(sorted.changes.moves.count + sorted.changes.updates.count >= 25)
    }
}
