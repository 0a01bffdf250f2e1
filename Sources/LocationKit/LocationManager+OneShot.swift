extension LocationManager {
    /// Delivers one location (as accurate as ``desiredAccuracy`` asks) through
    /// ``LocationManagerDelegate/locationManager(_:didUpdateLocations:)``, then stops; or reports
    /// ``LocationError/locationUnknown(timeout:)`` when none arrives within ``requestLocationTimeout``
    /// on the manager's clock.
    public func requestLocation() {
        switch authorizationStatus {
        case .denied, .restricted:
            reportIfNotAuthorized()
            return
        case .notDetermined:
            reportIfNotAuthorized()
        case .authorizedWhenInUse, .authorizedAlways:
            break
        }
        startOneShotIfNeeded()
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

    /// Completes a pending one-shot request with `location`; returns whether it did.
    func completeOneShot(with location: Location) -> Bool {
        guard let request = oneShot, meetsDesiredAccuracy(location) else { return false }
        oneShot = nil
        deliver(location)
        request.complete(with: .success(location))
        reconcileSource()
        return true
    }

    func oneShotTimedOut(after timeout: Duration) {
        guard oneShot != nil else { return }
        failOneShot(.locationUnknown(timeout: timeout), report: true)
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
            reportIfNotAuthorized()
            throw LocationError.denied
        case .restricted:
            reportIfNotAuthorized()
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
                requestLocation()
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

    func cancelOneShotWaiter(_ id: UInt64) {
        guard let waiter = oneShot?.waiters.removeValue(forKey: id) else { return }
        waiter.resume(returning: .failure(CancellationError()))
    }
}
