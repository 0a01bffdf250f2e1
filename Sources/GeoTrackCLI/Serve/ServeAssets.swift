import WebServe

/// The page `geotrack serve` serves: one HTML page, its script and stylesheet, held in the
/// binary; Leaflet is read from Debian's libjs-leaflet when the server starts.
enum ServeAssets {
    /// Where Debian's libjs-leaflet puts Leaflet.
    static let leafletDirectory = "/usr/share/javascript/leaflet"

    /// The page, its script and stylesheet, `/config.json` with the tile source, and Leaflet's
    /// files when `leaflet` has them.
    static func all(tiles: TileSource?, leaflet: [String: WebAsset]) -> [String: WebAsset] {
        var assets: [String: WebAsset] = [
            "/": WebAsset(contentType: "text/html; charset=utf-8", text: html),
            "/index.html": WebAsset(contentType: "text/html; charset=utf-8", text: html),
            "/app.js": WebAsset(contentType: "text/javascript; charset=utf-8", text: script),
            "/app.css": WebAsset(contentType: "text/css; charset=utf-8", text: stylesheet),
            "/config.json": WebAsset(contentType: "application/json", text: configuration(tiles: tiles)),
        ]
        for (path, asset) in leaflet { assets["/leaflet/" + path] = asset }
        return assets
    }

    /// Leaflet's script, stylesheet and images, from `directory`; empty when it is not there.
    static func leaflet(in directory: String = leafletDirectory) -> [String: WebAsset] {
        var assets: [String: WebAsset] = [:]
        let files = [("leaflet.js", "text/javascript; charset=utf-8"), ("leaflet.css", "text/css; charset=utf-8"),
                     ("images/layers.png", "image/png"), ("images/layers-2x.png", "image/png"),
                     ("images/marker-icon.png", "image/png"), ("images/marker-icon-2x.png", "image/png"),
                     ("images/marker-shadow.png", "image/png")]
        for (name, type) in files {
            // The minified script where Debian ships it: a third of the size.
            let source = name == "leaflet.js" ? "leaflet.min.js" : name
            if let bytes = ServeFiles.read(directory + "/" + source) ?? ServeFiles.read(directory + "/" + name) {
                assets[name] = WebAsset(contentType: type, body: bytes)
            }
        }
        return assets["leaflet.js"] != nil && assets["leaflet.css"] != nil ? assets : [:]
    }

    /// The headers every answer carries: the page may load only its own scripts and styles,
    /// talk only to its own server, and show images only from itself and the tile server.
    static func headers(tiles: TileSource?) -> [(name: String, value: String)] {
        let images = ["'self'", "data:"] + (tiles.map { [$0.origin] } ?? [])
        let policy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src \(images.joined(separator: " ")); "
            + "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
        return [("Content-Security-Policy", policy)]
    }

    static func configuration(tiles: TileSource?) -> String {
        var json = ServeJSON()
        json.add("tiles", tiles?.template)
        json.add("attribution", tiles?.attribution)
        json.add("stale_after", ServePage.staleAfter, decimals: 0)
        return json.json
    }

    /// The page's icon, inline: a browser asks for /favicon.ico on every load of a page that
    /// names none, and would be answered 404. The fix's marker, as an SVG data URL (the policy's
    /// img-src has data:).
    static let icon = "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'%3E"
        + "%3Ccircle cx='8' cy='8' r='6' fill='%231f6feb' stroke='%23ffffff' stroke-width='2'/%3E%3C/svg%3E"

    static let html = """
    <!DOCTYPE html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>geotrack</title>
    <link rel="icon" href="\(icon)">
    <link rel="stylesheet" href="/leaflet/leaflet.css">
    <link rel="stylesheet" href="/app.css">
    <script src="/leaflet/leaflet.js" defer></script>
    <script src="/app.js" defer></script>
    </head>
    <body>
    <header><strong>geotrack</strong> <span id="status">connecting…</span> <span id="link" class="dim"></span></header>
    <main>
    <div id="map"></div>
    <aside>
    <section id="fix" data-lat="" data-lon="" data-stale="false">
    <h2>Fix</h2>
    <dl>
    <dt>position</dt><dd id="fix-position">–</dd>
    <dt>accuracy</dt><dd id="fix-accuracy">–</dd>
    <dt>speed</dt><dd id="fix-speed">–</dd>
    <dt>course</dt><dd id="fix-course">–</dd>
    <dt>heading</dt><dd id="fix-heading">–</dd>
    <dt>altitude</dt><dd id="fix-altitude">–</dd>
    <dt>mode</dt><dd id="fix-mode">–</dd>
    <dt>time</dt><dd id="fix-time">–</dd>
    </dl>
    <p id="fix-age" class="stale" hidden></p>
    </section>
    <section id="track" data-points="0"><h2>Track</h2><p id="track-text">no points yet</p></section>
    <section><h2>Events</h2><ol id="events"></ol></section>
    <section><h2>Sky</h2><svg id="sky" viewBox="-110 -110 220 220" width="220" height="220" role="img" aria-label="sky plot"></svg>
    <table id="satellites"><thead><tr><th>PRN</th><th>el</th><th>az</th><th>SNR</th><th>used</th></tr></thead><tbody></tbody></table>
    <p id="dop" class="dim"></p></section>
    <section id="fleet" hidden><h2>Fleet</h2><p id="fleet-status" class="dim"></p><ul id="devices"></ul></section>
    </aside>
    </main>
    </body>
    </html>

    """

    static let stylesheet = """
    html, body { margin: 0; height: 100%; font: 14px/1.4 "DejaVu Sans", Helvetica, Arial, sans-serif; color: #222; background: #fbfaf6; }
    body { display: flex; flex-direction: column; }
    header { flex: none; padding: 6px 12px; background: #263238; color: #eceff1; overflow-wrap: anywhere; }
    header .dim { color: #90a4ae; }
    main { display: flex; flex: 1; min-height: 0; }
    #map { flex: 1; min-width: 200px; background: #eef2ec; }
    aside { width: 340px; overflow-y: auto; padding: 0 12px; border-left: 1px solid #c9cfc4; }
    @media (max-width: 640px) {
      main { flex-direction: column; }
      #map { flex: none; height: 55%; min-width: 0; }
      aside { flex: 1; width: auto; min-height: 0; border-left: none; border-top: 1px solid #c9cfc4; }
    }
    h2 { font-size: 14px; margin: 12px 0 4px; color: #3b6ea5; }
    dl { display: grid; grid-template-columns: 80px 1fr; margin: 0; }
    dt { color: #666; } dd { margin: 0; font-variant-numeric: tabular-nums; }
    ol, ul { margin: 0; padding-left: 18px; max-height: 180px; overflow-y: auto; }
    table { border-collapse: collapse; font-size: 12px; }
    th, td { padding: 1px 6px; text-align: right; }
    .dim { color: #777; }
    .used { font-weight: bold; }
    .stale { color: #999; }
    #fix[data-stale="true"] dd { color: #999; }
    #fix-age { margin: 4px 0 0; }
    .leaflet-container { background: #eef2ec; }

    """

    static let script = #"""
    "use strict";
    // Every string from gpsd, logs and brokers is set with textContent or as an SVG/Leaflet
    // option, never as HTML.
    (function () {
      const $ = (id) => document.getElementById(id);
      const text = (element, value) => { element.textContent = value == null ? "–" : String(value); };
      let lastSeq = 0;
      let track = [];
      let devices = [];
      let map = null, trackLine = null, fixMarker = null, accuracyCircle = null;
      let regionLayer = null, fleetLayer = null, userMoved = false, fitted = false;
      // When the fix shown arrived (performance.now(), the page's own clock: the server's and
      // the browser's may disagree), and after how many seconds without another it is stale
      // (serve's ServePage.staleAfter, from /config.json).
      let fixAt = null, staleAfter = 10;
      // The source ended (a replay's end): its last fix stays as it was, since none is due.
      let sourceEnded = false;

      function setupMap(config) {
        if (typeof L === "undefined") { text($("link"), "(map unavailable: Leaflet not served)"); return; }
        map = L.map("map", { zoomControl: true, attributionControl: true }).setView([0, 0], 2);
        if (config.tiles) {
          L.tileLayer(config.tiles, { maxZoom: 19, attribution: config.attribution || "" }).addTo(map);
        } else {
          map.attributionControl.setPrefix("no tiles");
        }
        L.control.scale({ imperial: false }).addTo(map);
        trackLine = L.polyline([], { color: "#c0392b", weight: 4 }).addTo(map);
        regionLayer = L.layerGroup().addTo(map);
        fleetLayer = L.layerGroup().addTo(map);
        map.on("dragstart", () => { userMoved = true; });
      }

      function label(value) {
        const span = document.createElement("span");
        span.textContent = value;
        return span;
      }

      function applyStatus(value, ended) {
        text($("status"), value);
        sourceEnded = ended === true;
        showAge();
      }

      // No fix (a snapshot of a run that has none yet, such as a serve restarted while the
      // page was open): nothing of an earlier one may stay, as if it were current.
      function clearFix() {
        const element = $("fix");
        element.dataset.lat = "";
        element.dataset.lon = "";
        for (const id of ["fix-position", "fix-accuracy", "fix-speed", "fix-course", "fix-heading", "fix-altitude", "fix-mode", "fix-time"]) text($(id), null);
        if (fixMarker) { fixMarker.remove(); accuracyCircle.remove(); fixMarker = null; accuracyCircle = null; }
        fitted = false;
        fixAt = null;
        showAge();
      }

      const freshColors = { marker: "#1f6feb", circle: "#3b6ea5" }, staleColors = { marker: "#9e9e9e", circle: "#9e9e9e" };

      // Greys the marker and says how old the fix is once none came for staleAfter seconds: the
      // receiver lost its fix, gpsd or serve stopped, or the connection broke. Not after the
      // source's end, which the status says.
      function showAge() {
        const seconds = fixAt == null ? 0 : (performance.now() - fixAt) / 1000;
        const stale = fixAt != null && !sourceEnded && seconds >= staleAfter;
        const element = $("fix");
        const note = $("fix-age");
        if (stale) text(note, "last fix " + age(seconds) + " ago");
        note.hidden = !stale;
        if (element.dataset.stale === String(stale)) return;
        element.dataset.stale = String(stale);
        const colors = stale ? staleColors : freshColors;
        if (fixMarker) {
          fixMarker.setStyle({ fillColor: colors.marker });
          accuracyCircle.setStyle({ color: colors.circle });
        }
      }

      // `ageSeconds`: how long ago the server took the fix in (a snapshot's), 0 for one just sent.
      function applyFix(fix, ageSeconds) {
        const element = $("fix");
        if (!fix) { clearFix(); return; }
        fixAt = performance.now() - 1000 * (ageSeconds || 0);
        element.dataset.lat = String(fix.lat);
        element.dataset.lon = String(fix.lon);
        text($("fix-position"), fix.position);
        text($("fix-accuracy"), fix.accuracy_text ? "±" + fix.accuracy_text : null);
        text($("fix-speed"), fix.speed_text);
        text($("fix-course"), fix.course_text);
        text($("fix-heading"), fix.heading_text);
        text($("fix-altitude"), fix.altitude_text);
        text($("fix-mode"), fix.mode + (fix.satellites == null ? "" : ", " + fix.satellites + " satellites used"));
        text($("fix-time"), fix.time);
        if (!map) { showAge(); return; }
        // Beside the track's end, on the same copy of the world as the line.
        const at = [fix.lat, track.length ? near(fix.lon, track[track.length - 1][1]) : fix.lon];
        if (!fixMarker) {
          accuracyCircle = L.circle(at, { radius: fix.accuracy || 0, color: freshColors.circle, weight: 1, fillOpacity: 0.15 }).addTo(map);
          fixMarker = L.circleMarker(at, { radius: 7, color: "#ffffff", weight: 2, fillColor: freshColors.marker, fillOpacity: 1,
                                           className: "fix-marker" }).addTo(map);
          element.dataset.stale = "";
        } else {
          fixMarker.setLatLng(at);
          accuracyCircle.setLatLng(at);
          accuracyCircle.setRadius(fix.accuracy || 0);
        }
        if (!fitted) { map.setView(at, 16, { animate: false }); fitted = true; }
        else if (!userMoved && !map.getBounds().contains(at)) { map.panTo(at); }
        showAge();
      }

      // A longitude within half a turn of another. The track's longitudes come so already (the
      // picture's rule: across the 180th meridian, past 180, which Leaflet draws on the next copy
      // of the world); the fix's is taken near the track's end, to sit on the same copy.
      function near(longitude, reference) {
        return reference + ((((longitude - reference) % 360) + 540) % 360 - 180);
      }

      function drawTrack() {
        const element = $("track");
        element.dataset.points = String(track.length);
        text($("track-text"), track.length + (track.length === 1 ? " point" : " points"));
        if (!trackLine) return;
        const runs = [];
        let run = [];
        for (const point of track) {
          if (point[2] && run.length) { runs.push(run); run = []; }
          run.push([point[0], point[1]]);
        }
        if (run.length) runs.push(run);
        trackLine.setLatLngs(runs);
      }

      function applyTrack(delta) {
        track = track.slice(0, delta.keep).concat(delta.points);
        drawTrack();
      }

      function fitTrack() {
        if (!map || track.length < 2 || userMoved) return;
        map.fitBounds(L.latLngBounds(track.map((p) => [p[0], p[1]])), { padding: [24, 24], maxZoom: 17, animate: false });
        fitted = true;
      }

      function addEvent(event) {
        const item = document.createElement("li");
        item.className = "event " + event.kind;
        item.textContent = event.text;
        const list = $("events");
        list.appendChild(item);
        while (list.children.length > 200) list.removeChild(list.firstChild);
        list.scrollTop = list.scrollHeight;
      }

      function drawRegions(regions) {
        if (!regionLayer) return;
        regionLayer.clearLayers();
        for (const region of regions) {
          L.circle([region.lat, region.lon], { radius: region.radius, color: "#3b6ea5", dashArray: "6 4", fillOpacity: 0.1 })
            .bindTooltip(label(region.name), { permanent: true, direction: "top" }).addTo(regionLayer);
        }
      }

      const svgNS = "http://www.w3.org/2000/svg";
      function svg(name, attributes) {
        const element = document.createElementNS(svgNS, name);
        for (const key in attributes) element.setAttribute(key, String(attributes[key]));
        return element;
      }

      function applySky(sky) {
        const plot = $("sky");
        while (plot.firstChild) plot.removeChild(plot.firstChild);
        for (const r of [100, 66.7, 33.3]) plot.appendChild(svg("circle", { r: r, fill: "none", stroke: "#c9cfc4" }));
        plot.appendChild(svg("line", { x1: -100, y1: 0, x2: 100, y2: 0, stroke: "#c9cfc4" }));
        plot.appendChild(svg("line", { x1: 0, y1: -100, x2: 0, y2: 100, stroke: "#c9cfc4" }));
        const north = svg("text", { x: 0, y: -102, "text-anchor": "middle", "font-size": 10 });
        north.textContent = "N";
        plot.appendChild(north);
        const body = $("satellites").tBodies[0];
        while (body.firstChild) body.removeChild(body.firstChild);
        if (!sky) { text($("dop"), ""); return; }
        for (const s of sky.satellites) {
          // The server says which satellites have a position to draw (Satellite.skyPosition).
          if (s.plotted) {
            const r = 100 * (90 - s.el) / 90, a = s.az * Math.PI / 180;
            const x = r * Math.sin(a), y = -r * Math.cos(a);
            plot.appendChild(svg("circle", { cx: x.toFixed(1), cy: y.toFixed(1), r: 6, fill: s.used ? "#2e9e44" : "#ffffff", stroke: "#333" }));
            const name = svg("text", { x: (x + 8).toFixed(1), y: (y + 3).toFixed(1), "font-size": 9 });
            name.textContent = String(s.prn);
            plot.appendChild(name);
          }
          const row = document.createElement("tr");
          if (s.used) row.className = "used";
          for (const value of [s.prn, s.el, s.az, s.snr, s.used ? "yes" : "no"]) {
            const cell = document.createElement("td");
            cell.textContent = value == null ? "–" : String(value);
            row.appendChild(cell);
          }
          body.appendChild(row);
        }
        text($("dop"), "HDOP " + (sky.hdop == null ? "–" : sky.hdop) + "  PDOP " + (sky.pdop == null ? "–" : sky.pdop));
      }

      function age(seconds) {
        if (seconds < 0) seconds = 0;
        if (seconds < 60) return Math.round(seconds) + " s";
        if (seconds < 3600) return Math.round(seconds / 60) + " min";
        if (seconds < 86400) return Math.round(seconds / 3600) + " h";
        return Math.round(seconds / 86400) + " d";
      }

      function drawDevices() {
        const list = $("devices");
        while (list.firstChild) list.removeChild(list.firstChild);
        const now = Date.now() / 1000;
        if (fleetLayer) fleetLayer.clearLayers();
        for (const device of devices) {
          const item = document.createElement("li");
          item.className = "device" + (device.gone ? " stale" : "");
          const name = document.createElement("strong");
          name.className = "name";
          name.textContent = device.name;
          item.appendChild(name);
          const where = device.lat == null ? "no position yet"
            : device.lat.toFixed(5) + ", " + device.lon.toFixed(5)
              + (device.accuracy == null ? "" : " ±" + device.accuracy + " m")
              + (device.tst == null ? "" : ", " + age(now - device.tst) + " ago")
              + (device.regions.length ? " [" + device.regions.join(", ") + "]" : "")
              + (device.gone ? ", offline" : "");
          item.appendChild(document.createTextNode(" " + where));
          list.appendChild(item);
          if (fleetLayer && device.lat != null) {
            L.circleMarker([device.lat, device.lon], { radius: 6, color: "#7a4a00", fillColor: "#f0a030", fillOpacity: 0.9 })
              .bindTooltip(label(device.name)).addTo(fleetLayer);
          }
        }
      }

      function applyFleet(fleet) {
        if (!fleet) {
          $("fleet").hidden = true;
          devices = [];
          drawDevices();
          return;
        }
        $("fleet").hidden = false;
        text($("fleet-status"), "broker " + fleet.broker + (fleet.connected ? "" : " — not connected" + (fleet.problem ? ": " + fleet.problem : "")));
        devices = fleet.devices;
        drawDevices();
      }

      function applySnapshot(snapshot) {
        lastSeq = snapshot.seq;
        applyStatus(snapshot.status, snapshot.ended);
        track = snapshot.track;
        drawTrack();
        applyFix(snapshot.fix, snapshot.fix_age);
        drawRegions(snapshot.regions);
        const list = $("events");
        while (list.firstChild) list.removeChild(list.firstChild);
        for (const event of snapshot.events) addEvent(event);
        applySky(snapshot.sky);
        applyFleet(snapshot.fleet);
        fitTrack();
      }

      function fresh(message) {
        if (message.seq <= lastSeq) return false;
        lastSeq = message.seq;
        return true;
      }

      // A browser opens at most six connections to one host: with a stream per tab, six tabs of
      // the page left a seventh nothing. A hidden tab holds none, and catches up from a fresh
      // snapshot when it is shown again.
      let source = null;
      function listen() {
        if (document.hidden || source) return;
        const stream = new EventSource("/events");
        source = stream;
        const on = (name, apply) => stream.addEventListener(name, (e) => {
          const message = JSON.parse(e.data);
          if (fresh(message)) apply(message);
        });
        stream.addEventListener("snapshot", (e) => applySnapshot(JSON.parse(e.data)));
        on("status", (m) => applyStatus(m.text, m.ended));
        on("fix", (m) => { applyTrack(m.track); applyFix(m.fix); });
        on("event", (m) => addEvent(m));
        on("sky", (m) => applySky(m));
        on("fleet", (m) => applyFleet(m));
        stream.onopen = () => text($("link"), "");
        stream.onerror = () => {
          text($("link"), "(reconnecting)");
          // The browser retries a stream that broke, but gives up on an answer that is not a
          // stream (serve full or stopping, a proxy's 502 while serve restarts): start anew.
          if (stream.readyState === EventSource.CLOSED && source === stream) {
            source = null;
            setTimeout(listen, 3000);
          }
        };
      }

      function pauseWhileHidden() {
        if (!document.hidden) { listen(); return; }
        if (source) { source.close(); source = null; }
        text($("link"), "(paused while hidden)");
      }

      fetch("/config.json").then((r) => r.json()).catch(() => ({})).then((config) => {
        setupMap(config);
        if (config.stale_after > 0) staleAfter = config.stale_after;
        setInterval(showAge, 1000);
        document.addEventListener("visibilitychange", pauseWhileHidden);
        pauseWhileHidden();
        setInterval(() => { if (devices.length) drawDevices(); }, 5000);
      });
    })();

    """#
}
