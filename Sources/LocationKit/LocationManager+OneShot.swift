extension LocationManager {
    /// Delivers one location through ``LocationManagerDelegate/locationManager(_:didUpdateLocations:)``,
    /// then stops: the first as accurate as ``desiredAccuracy`` asks, or, when
    /// ``requestLocationTimeout`` passes on the manager's clock first, the most accurate one that
    /// arrived meanwhile; ``LocationError/locationUnknown(timeout:)`` when none arrived at all,
    /// ``LocationError/source(_:)`` when the source was failing all the while (gpsd
    /// unreachable, retried; the delegate heard that error once, when it came),
    /// or ``LocationError/notDetermined`` when access was still undecided then (the source
    /// starts only once it is granted). A source that ends for good first (a replay's last
    /// line, gpsd without retries) answers it then, the same way, or with
    /// ``LocationError/source(_:)`` when a failure ended it.
    ///
    /// The delegate's locations stay in the order the fixes occurred: while
    /// ``startUpdatingLocation()`` runs, an answer at the timeout older than a location it
    /// already delivered is not delivered again (`manager.rx.requestLocation()` still returns it).
    public func requestLocation() {
        requestOneLocation(forDelegate: true)
    }

    /// ``requestLocation()``, asked by the delegate's caller (`forDelegate`), or only by async
    /// waiters, whose request ends when the last of them is cancelled.
    private func requestOneLocation(forDelegate: Bool) {
        switch authorizationStatus {
        case .denied, .restricted:
            reportIfNotAuthorized(once: false)
            return
        case .notDetermined:
            reportIfNotAuthorized(once: false)
        case .authorizedWhenInUse, .authorizedAlways:
            break
        }
        if oneShot == nil { sourceFinished = false }
        startOneShotIfNeeded()
        if forDelegate { oneShot?.askedByDelegate = true }
        reconcileSource()
    }

    func startOneShotIfNeeded() {
        guard oneShot == nil else { return }
        let timeout = requestLocationTimeout
        var request = OneShotRequest()
        request.timeout = Task { [weak self, clock] in
            do {
                try await clock.sleep(for: timeout)
            } catch {
                return
            }
            self?.oneShotTimedOut(after: timeout)
        }
        oneShot = request
    }

    /// Completes a pending one-shot request with `location` when it is accurate enough, else
    /// keeps it if it is the best so far; returns whether the request completed.
    func completeOneShot(with location: Location) -> Bool {
        guard var request = oneShot else { return false }
        guard Self.isAccurate(location, within: desiredAccuracy) else {
            if Self.isMoreAccurate(location, than: request.best) {
                request.best = location
                oneShot = request
            }
            return false
        }
        finishOneShot(request, with: location)
        return true
    }

    func oneShotTimedOut(after timeout: Duration) {
        guard let request = oneShot else { return }
        // CoreLocation's answer too: the best it has, when nothing met the desired accuracy in time.
        if let best = request.best {
            finishOneShot(request, with: best)
            return
        }
        // The source failing all along (gpsd unreachable, retried): that is why no fix came,
        // and the delegate has heard it once already; one error per request, as in CoreLocation.
        if let failure = reportedSourceError {
            failOneShot(.source(failure), report: false)
            return
        }
        // Undecided all along, the source never started: no fix is not the reason.
        failOneShot(authorizationStatus == .notDetermined ? .notDetermined : .locationUnknown(timeout: timeout), report: true)
    }

    /// The source ended for good while a request was pending: no fix can come any more, so it is
    /// answered now as its timeout would answer it (the most accurate fix seen, or no fix), or
    /// with the failure that ended the source, which the delegate has heard already.
    func oneShotSourceEnded() {
        guard let request = oneShot else { return }
        if let best = request.best {
            finishOneShot(request, with: best)
        } else if let failure = reportedSourceError {
            failOneShot(.source(failure), report: false)
        } else {
            failOneShot(authorizationStatus == .notDetermined ? .notDetermined : .locationUnknown(timeout: requestLocationTimeout),
                        report: true)
        }
    }

    private func finishOneShot(_ request: OneShotRequest, with location: Location) {
        oneShot = nil
        // didUpdateLocations goes in the order the fixes occurred, as in CoreLocation: an answer
        // older than what standard updates gave the delegate meanwhile (the most accurate fix,
        // at the timeout) goes to the async waiters only, and `location` stays the newest.
        if let newest = request.newestDelivered, newest > location.timestamp {
            logger.debug("requestLocation answered with a fix older than the latest update; not delivered again")
        } else {
            deliver(location)
        }
        request.complete(with: .success(location))
        reconcileSource()
    }

    /// Whether `location` is a better answer than `best`: known accuracy beats unknown, then smaller wins.
    static func isMoreAccurate(_ location: Location, than best: Location?) -> Bool {
        guard let best else { return true }
        guard let accuracy = location.horizontalAccuracy else { return false }
        guard let bestAccuracy = best.horizontalAccuracy else { return true }
        return accuracy < bestAccuracy
    }

    func failOneShot(_ error: LocationError, report shouldReport: Bool) {
        guard let request = oneShot else { return }
        oneShot = nil
        if shouldReport { report(error) }
        request.complete(with: .failure(error))
        reconcileSource()
    }

    /// Requests one location and waits for it (see ``requestLocation()``).
    func awaitOneLocation() async throws -> Location {
        // Like requestLocation(), a refusal also reaches the delegate and the error stream.
        switch authorizationStatus {
        case .denied:
            reportIfNotAuthorized(once: false)
            throw LocationError.denied
        case .restricted:
            reportIfNotAuthorized(once: false)
            throw LocationError.restricted(policyPath: authorizationStore.policyPath)
        case .notDetermined, .authorizedWhenInUse, .authorizedAlways:
            break
        }
        nextRequestID += 1
        let id = nextRequestID
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (waiter: OneShotRequest.Waiter) in
                if Task.isCancelled {
                    waiter.resume(returning: .failure(CancellationError()))
                    return
                }
                requestOneLocation(forDelegate: false)
                if oneShot == nil {
                    waiter.resume(returning: .failure(LocationError.denied))
                    return
                }
                oneShot?.waiters[id] = waiter
            }
        } onCancel: {
            Task { @MainActor [weak self] in self?.cancelOneShotWaiter(id) }
        }
        return try result.get()
    }

    /// Hands the cancelled waiter `id` its cancellation. A request only async waiters asked
    /// for ends with the last of them: nothing reaches the delegate for it later, and the
    /// source is released.
    func cancelOneShotWaiter(_ id: UInt64) {
        guard let waiter = oneShot?.waiters.removeValue(forKey: id) else { return }
        waiter.resume(returning: .failure(CancellationError()))
        if let request = oneShot, request.waiters.isEmpty, !request.askedByDelegate {
            oneShot = nil
            request.complete(with: .failure(CancellationError()))
            reconcileSource()
        }
    }
}
