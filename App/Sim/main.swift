import Foundation

FileHandle.standardError.write(Data("courier-sim: not built yet\n".utf8))
exit(2)
