extension LocationManager {
    /// Asks for access while an app runs, like CoreLocation's method of the same name.
    ///
    /// Only an undecided status leads to a question, asked through the ``AuthorizationPrompter``;
    /// the answer is saved and reported through
    /// ``LocationManagerDelegate/locationManagerDidChangeAuthorization(_:)``. Without a prompter
    /// the status stays undecided and the log says to run `geotrack auth grant`; use
    /// ``requestAuthorization(_:)`` to get that message as an error.
    public func requestWhenInUseAuthorization() {
        beginAuthorizationRequest(.whenInUse)
    }

    /// Asks for access at any time (see ``requestWhenInUseAuthorization()``).
    public func requestAlwaysAuthorization() {
        beginAuthorizationRequest(.always)
    }

    /// Asks for access when undecided and waits for the answer: returns when access is
    /// granted, throws ``LocationError/denied``, ``LocationError/restricted(policyPath:)`` or
    /// ``LocationError/notDetermined`` (no prompter, the prompt was dismissed, or the task was
    /// cancelled before the answer came) otherwise. A cancelled request returns at once; the
    /// question stays asked, as CoreLocation's does, and a later answer is saved and reported.
    public func requestAuthorization(_ level: AuthorizationLevel = .whenInUse) async throws(LocationError) {
        if authorizationStatus == .notDetermined {
            guard beginAuthorizationRequest(level) else { throw .notDetermined }
            nextRequestID += 1
            let id = nextRequestID
            await withTaskCancellationHandler {
                await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
                    if Task.isCancelled {
                        waiter.resume()
                        return
                    }
                    promptWaiters[id] = waiter
                }
            } onCancel: {
                Task { @MainActor [weak self] in self?.promptWaiters.removeValue(forKey: id)?.resume() }
            }
        }
        switch authorizationStatus {
        case .authorizedWhenInUse, .authorizedAlways: return
        case .denied: throw .denied
        case .restricted: throw .restricted(policyPath: authorizationStore.policyPath)
        case .notDetermined: throw .notDetermined
        }
    }

    /// Starts a prompt unless one runs; returns whether a prompt is running.
    @discardableResult
    func beginAuthorizationRequest(_ level: AuthorizationLevel) -> Bool {
        guard authorizationStatus == .notDetermined else {
            logger.debug("authorization already decided: \(authorizationStatus)")
            return false
        }
        guard let prompter else {
            logger.notice("location access has not been decided, and this manager has no prompter to ask with")
            return false
        }
        if pendingPrompt == nil {
            pendingPrompt = Task { [weak self, prompter] in
                let decision = await prompter.requestAuthorization(for: level)
                self?.finishPrompt(decision, level: level)
            }
        }
        return true
    }

    func finishPrompt(_ decision: AuthorizationDecision, level: AuthorizationLevel) {
        pendingPrompt = nil
        let stored: StoredAuthorization? = switch decision {
        case .granted: StoredAuthorization(level.grantedStatus)
        case .grantedApproximate: StoredAuthorization(level.grantedStatus, accuracy: .reducedAccuracy)
        case .denied: StoredAuthorization(.denied)
        case .dismissed: nil
        }
        if let stored {
            do {
                try authorizationStore.write(stored.status, accuracy: stored.accuracy)
            } catch {
                logger.error("the decision holds for this run only: \(error)")
            }
            applyAuthorization(stored)
        } else {
            logger.notice("the authorization prompt was dismissed; location access stays undecided")
        }
        let waiters = promptWaiters.values
        promptWaiters.removeAll()
        for waiter in waiters { waiter.resume() }
    }

    /// Asks the user for precise locations for this manager's life, when only approximate ones
    /// are allowed, like CoreLocation's method of the same name; `purpose` says why, in the
    /// question. Returns at once when accuracy is full already.
    ///
    /// The answer is not stored: the next manager is approximate again. A refusal is not an
    /// error: ``accuracyAuthorization`` stays reduced. Throws ``LocationError/denied``,
    /// ``LocationError/restricted(policyPath:)`` or ``LocationError/notDetermined`` when there
    /// is no access to refine, and ``LocationError/notDetermined`` without a prompter to ask.
    public func requestTemporaryFullAccuracyAuthorization(purpose: String) async throws(LocationError) {
        switch authorizationStatus {
        case .authorizedWhenInUse, .authorizedAlways: break
        case .denied: throw .denied
        case .restricted: throw .restricted(policyPath: authorizationStore.policyPath)
        case .notDetermined: throw .notDetermined
        }
        guard accuracyAuthorization == .reducedAccuracy else { return }
        guard let prompter else { throw .notDetermined }
        let allowed = await prompter.requestTemporaryFullAccuracy(purpose: purpose)
        guard allowed, !temporaryFullAccuracy, authorizationStatus.isAuthorized else { return }
        temporaryFullAccuracy = true
        logger.info("full accuracy allowed for this run")
        receiver?.locationManagerDidChangeAuthorization(self)
        updateLiveConditions()
    }

    /// Takes a new decision (from a prompt, or from the store's file changing) into account.
    func applyAuthorization(_ stored: StoredAuthorization) {
        let status = stored.status
        let accuracyChanged = stored.accuracy != storedAccuracy
        let wasReduced = accuracyAuthorization == .reducedAccuracy
        storedAccuracy = stored.accuracy
        // A temporary grant of full accuracy ends with the access it refined.
        if !status.isAuthorized { temporaryFullAccuracy = false }
        // Before anyone is told: a delegate reading `location` in its callback must already
        // find it approximate.
        if !wasReduced && accuracyAuthorization == .reducedAccuracy { reduceCachedLocations() }
        guard status != authorizationStatus else {
            if accuracyChanged {
                logger.info("location accuracy: \(stored.accuracy)")
                receiver?.locationManagerDidChangeAuthorization(self)
                updateLiveConditions()
            }
            return
        }
        logger.info("location authorization: \(stored)")
        authorizationStatus = status
        receiver?.locationManagerDidChangeAuthorization(self)
        updateLiveConditions()
        let refusal: LocationError? = switch status {
        case .denied: .denied
        case .restricted: .restricted(policyPath: authorizationStore.policyPath)
        case .notDetermined, .authorizedWhenInUse, .authorizedAlways: nil
        }
        if let refusal {
            let running = updatingLocation || updatingHeading || monitoringVisits || monitoringSignificantChanges
            if running { report(refusal) }
            failOneShot(refusal, report: !running)
        }
        reconcileSource()
    }
}

extension LocationManager {
    /// Access was reduced to approximate while locations were kept from before: every one this
    /// manager still holds or replays is snapped to the grid, as if it had arrived now. That is
    /// ``location``, ``latestReceivedLocation``, the one-shot request's best so far, the stays
    /// under way (visits, pauses, `isStationary`), each live session's last location, and the
    /// latest values of the delegate proxy's drivers. Locations already handed out stay as
    /// they were: they cannot be called back.
    func reduceCachedLocations() {
        location = location.map(ApproximateLocation.reduce)
        latestReceivedLocation = latestReceivedLocation.map(ApproximateLocation.reduce)
        lastSignificantLocation = lastSignificantLocation.map(ApproximateLocation.reduce)
        if let best = oneShot?.best { oneShot?.best = ApproximateLocation.reduce(best) }
        visitDetector?.snapToGrid()
        pauseDetector?.snapToGrid()
        for live in liveSessions.values { live.reduceAccuracy() }
        if let proxy = delegateSlot.proxy as? LocationManagerDelegateProxy {
            proxy.reviseDriver(.location, ApproximateLocation.reduce)
            proxy.reviseDriver(.didUpdateLocations) { $0.map(ApproximateLocation.reduce) }
            proxy.reviseDriver(.didVisit, ApproximateLocation.reduce)
            proxy.reviseDriver(.didReceiveReport, ApproximateLocation.reduce)
        }
    }
}
