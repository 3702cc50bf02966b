import CourierDomain
import CourierOneShot
import CourierPresentation

extension Driver {
    /// `send-image URL THUMB|- [CAPTION…]`: composes an image uploaded elsewhere in the open chat, as `send` composes
    /// text — its full-size URL, its thumbnail URL (`-` when none was made) and an optional caption.
    func sendImage(_ arguments: String) throws -> Render {
        let parts = arguments.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true).map(String.init)
        guard parts.count >= 2 else { throw DriverError.badArguments("usage: send-image URL THUMB|- [CAPTION…]") }
        let chat = try openChat()
        let media = MediaAttachment(url: parts[0], thumbnailURL: parts[1] == "-" ? nil : parts[1])
        let id: MessageID
        do {
            id = try chat.send(image: media, caption: parts.count > 2 ? parts[2] : "")
        } catch {
            throw DriverError.failed("\(error)")
        }
        return {
            let row = chat.state.messages.last { $0.id == id }
            return Output(lines: row.map { [Self.line(for: $0)] } ?? [])
        }
    }
}
