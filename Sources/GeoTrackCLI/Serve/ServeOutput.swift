import GeoTrackService

/// `geotrack serve`'s page as one more output of the run: every update the status line, the
/// SVG and the files get goes to the page (``ServePage``), which sends the browsers what changed.
package final class ServeOutput: RunOutput {
    /// The page's state and its events.
    package let page: ServePage

    /// An output that feeds `page`.
    package init(page: ServePage) {
        self.page = page
    }

    /// Hands the update to the page, which tells the browsers what changed.
    package func handle(_ update: TrackingUpdate) {
        page.handle(update)
    }
}
