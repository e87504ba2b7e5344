// Every form of @Edge: bare, assert, onSet, both, and an explicit middleware list.

import ComputedRuntime

public struct ProfileStateSpec: Sendable {
  @Edge var avatar: Avatar? = nil
  @Edge(assert: { $0 >= 0 }) var unread: Int = 0
  @Edge(onSet: { $0 = min($0, 99) }) var badge: Int = 0
  @Edge(assert: { !$0.isEmpty }, onSet: { $0 = $0.trimmingCharacters(in: .whitespaces) }) var name: String = "anonymous"
  @Edge(middleware: .init([.onSet { $0 = max($0, 0) }, .assert { $0 <= 1_000 }])) var score: Int = 0

  var hasAvatar: Bool { avatar != nil }
  var badgeText: String { badge >= 99 ? "99+" : "\(badge)" }
}
