import Testing

@testable import CourierPresentation

/// Why a chat asks for its newest page again, alone: offline it waits for the connection, from the cache it waits
/// for the connection or the live feed, failed it waits for the live feed and says which error text to clear.
@Suite struct NewestPageRetryTests {
    @Test func aNewestPageThatLoadedFromTheBackendIsNotAskedForAgain() {
        // Given a newest page the backend answered
        var retry = NewestPageRetry()
        retry.newestLoaded(cached: false)

        // Then nothing waits for it
        #expect(!retry.waitsForConnection && !retry.waitsForLiveFeed && !retry.failed)
    }

    @Test func anOfflineNewestPageWaitsForTheConnectionAlone() {
        // Given a newest page that could not load offline
        var retry = NewestPageRetry()
        retry.newestUnreachable()

        // Then it loads once the device is back online, and the live feed does not ask for it again
        #expect(retry.waitsForConnection && !retry.waitsForLiveFeed)

        // When the device is back online
        retry.retrying()

        // Then nothing waits for it
        #expect(!retry.waitsForConnection)
    }

    @Test func aNewestPageFromTheCacheIsAskedForAgainWhicheverComesFirst() {
        // Given a newest page the device answered from its cache
        var retry = NewestPageRetry()
        retry.newestLoaded(cached: true)

        // Then it waits for the connection and for the live feed
        #expect(retry.waitsForConnection && retry.waitsForLiveFeed && !retry.failed)

        // When the feed is live first
        let text = retry.feedLive()

        // Then it is asked for once, with no error text to clear, and waits for nothing more
        #expect(text == nil && !retry.waitsForConnection && !retry.waitsForLiveFeed)
    }

    @Test func aFailedNewestPageWaitsForTheLiveFeedAndClearsTheTextItsFailureShowed() {
        // Given a newest page that failed, showing a text
        var retry = NewestPageRetry()
        retry.newestFailed(showing: "Could not load")

        // Then more may come, and the live feed asks for it again
        #expect(retry.failed && retry.waitsForLiveFeed && !retry.waitsForConnection)

        // When the feed is live
        let text = retry.feedLive()

        // Then the text it showed is the one to clear, and the failure is over
        #expect(text == "Could not load" && !retry.failed && !retry.waitsForLiveFeed)
    }

    @Test func aFailureThatShowedNoTextStillWaitsAndAFirstPageEndsIt() {
        // Given a newest page that failed without showing a text
        var retry = NewestPageRetry()
        retry.newestFailed(showing: nil)
        #expect(retry.failed && retry.waitsForLiveFeed)

        // When a page loads while the chat held none
        retry.firstPageLoaded()

        // Then the failure is over
        #expect(!retry.failed && !retry.waitsForLiveFeed)
    }
}
