// ComputedGenTool: the generator's command line. All logic lives in ComputedGenCore's `Command`.

import ComputedGenCore
import Foundation

let result = Command().run(Array(CommandLine.arguments.dropFirst()))
FileHandle.standardOutput.write(Data(result.standardOutput.utf8))
FileHandle.standardError.write(Data(result.standardError.utf8))
exit(result.status)
