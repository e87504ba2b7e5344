// Codable and Hashable: caches are neither encoded nor hashed; missing keys take defaults. An
// app protocol (ThemeProviding) is adopted by an extension at its spec position.
import Foundation
import ComputedRuntime

struct SettingsStateSpec: Codable, Hashable, ThemeProviding {
  var theme: String = "light"
  var fontSize: Double = 14
  var recent: [String]
  var lastOpened: Date? = nil

  var isLarge: Bool { fontSize >= 18 }
  var recentCount: Int { recent.count }
}
