// Keywords are names only in backticks, as in Swift; the generator escapes them everywhere.

import ComputedRuntime

package struct ProtocolSpec: Equatable, Codable, Sendable {
  var `default`: Int = 1
  var `class`: String = "plain"
  var open: Bool = false          // contextual keywords are plain names, as in Swift
  var consuming: Int = 0

  var nonisolated: Int { consuming + (open ? 1 : 0) }

  var `return`: Int { `default` + `class`.count }
  func `where`(`in` value: Int) -> Bool { `return` > value }
}

/// A second state in the same file.
struct PairSpec {
  var first: Int = 0
  var second: Int = 0

  var sum: Int { first + second }
}
