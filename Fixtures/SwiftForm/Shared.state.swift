// @Shared fields: in memory, in a file and in UserDefaults; computed values over them, directly
// and through another computed; a child state handed the parent's reference.
import Foundation
import ComputedRuntime

/// Values several features share.
public struct AppStateSpec: Equatable, Codable, Sendable {
  var title: String = "Home"
  /// Who is signed in.
  @Shared(.inMemory("fixture.session")) var session: Session = Session()
  @Shared(.fileStorage(FixtureStorage.settingsURL)) var settings: Settings = Settings()
  @Shared(.appStorage("fixture.launchCount", store: FixtureStorage.defaults)) var launchCount: Int = 0

  var greeting: String { "\(title), \(session.userName)" }
  var isLarge: Bool { settings.fontSize >= 18 }
  var headline: String { greeting.uppercased() }
  var titleLength: Int { title.count }
}

/// A feature that reads the parent's session.
struct ChildStateSpec {
  @Shared(.inMemory("fixture.child")) var session: Session = Session()

  var name: String { session.userName }
}

/// A feature that holds a child feature, whose `@Shared` field its stores follow too.
struct ParentFeatureSpec {
  var child: ChildStateSpec = ChildStateSpec()
  var title: String = ""

  var childName: String { child.name }

  /// Caches over the nested state key on its `@Shared` values too.
  func greeting(_ prefix: String) -> String { prefix + child.name }
  func nameLength() -> Int { child.name.count }
  func labelled(_ prefix: String, width: Int) -> String {
    String((prefix + child.session.userName).prefix(width))
  }
}

/// A feature two levels above the `@Shared` value: declared before the state it nests would
/// make no difference, the generator follows the spec's nesting wherever the states are.
struct AppShellSpec {
  var feature: ParentFeatureSpec = ParentFeatureSpec()

  var header: String { "Signed in as \(feature.childName)" }
  var initial: String { String(feature.child.session.userName.prefix(1)) }

  func header(_ prefix: String) -> String { prefix + feature.childName }
}
