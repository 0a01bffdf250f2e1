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
    /// ``LocationError/notDetermined`` (no prompter, or the prompt was dismissed) otherwise.
    public func requestAuthorization(_ level: AuthorizationLevel = .whenInUse) async throws(LocationError) {
        if authorizationStatus == .notDetermined {
            guard beginAuthorizationRequest(level) else { throw .notDetermined }
            await withCheckedContinuation { promptWaiters.append($0) }
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
            logger.notice("\(LocationError.notDetermined)")
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
        let status: AuthorizationStatus? = switch decision {
        case .granted: level.grantedStatus
        case .denied: .denied
        case .dismissed: nil
        }
        if let status {
            do {
                try authorizationStore.write(status)
            } catch {
                logger.error("the decision holds for this run only: \(error)")
            }
            applyAuthorization(status)
        } else {
            logger.notice("the authorization prompt was dismissed; location access stays undecided")
        }
        let waiters = promptWaiters
        promptWaiters.removeAll()
        for waiter in waiters { waiter.resume() }
    }

    /// Takes a new status (from a prompt, or from the store's file changing) into account.
    func applyAuthorization(_ status: AuthorizationStatus) {
        guard status != authorizationStatus else { return }
        logger.info("location authorization: \(status)")
        authorizationStatus = status
        receiver?.locationManagerDidChangeAuthorization(self)
        updateLiveConditions()
        let refusal: LocationError? = switch status {
        case .denied: .denied
        case .restricted: .restricted(policyPath: authorizationStore.policyPath)
        case .notDetermined, .authorizedWhenInUse, .authorizedAlways: nil
        }
        if let refusal {
            if updatingLocation || updatingHeading || monitoringVisits { report(refusal) }
            failOneShot(refusal, report: !(updatingLocation || updatingHeading || monitoringVisits))
        }
        reconcileSource()
    }
}
