# GeoTrack: build, test and demo entry points. `make help` lists them.
SWIFT        ?= swift
CONFIG       ?= debug
# What each target installs from Debian, when missing. The demo: a real gpsd and gpsfake, and the
# C headers geotrack builds against (libgps, libmosquitto, libcurl, SQLite). The tests: those, and
# the real programs they talk to or check output with (mosquitto, tmux, xmllint, rsvg-convert,
# man, jq), and what building gpsd releases from source for make test-gpsd-versions takes:
# Debian's scons, a C compiler (scons does not look for the Swift toolchain's clang), distutils
# (gpsd 3.25's build asks Debian 12's Python for its configuration through it), xz for the tarballs.
# The AArch64 check of the framing kernel: qemu-user and a cross C library (about 100 MB).
GPSD_VERSIONS_PACKAGES := scons gcc python3-distutils xz-utils
DEMO_PACKAGES    := gpsd gpsd-clients libgps-dev libmosquitto-dev libcurl4-openssl-dev libsqlite3-dev pkg-config
TEST_PACKAGES    := $(DEMO_PACKAGES) libxml2-utils tmux man-db groff-base librsvg2-bin \
                    mosquitto mosquitto-clients openssl jq libjs-leaflet chromium $(GPSD_VERSIONS_PACKAGES)
# Building the OwnTracks Recorder from source for make test-recorder (CI): its libraries'
# headers, and lmdb-utils (mdb_stat) to look into its store.
RECORDER_PACKAGES := libcurl4-openssl-dev liblmdb-dev libconfig-dev uuid-dev lmdb-utils
AARCH64_PACKAGES := qemu-user libc6-dev-arm64-cross libgcc-12-dev-arm64-cross
PREFIX       ?= /usr/local
MAN_PAGE      = $(SCRATCH)/plugins/GenerateManual/outputs/geotrack/geotrack.1
BIN           = $(SCRATCH)/$(CONFIG)/geotrack
DEMO_LOG     ?= Tests/GPSDTests/Logs/garmin15x.nmea
DEMO_PORT    ?= 29470

.PHONY: help deps demo-deps aarch64-deps gpsd-versions-deps recorder-deps recorder test-recorder test-gpsd-versions gpsd-version-suites build release release-geotrack test check-aarch64 docs install check-install check-budgets check-default-executors demo clean

help:
	@echo "make demo   - install what the demo needs ($(DEMO_PACKAGES)), build, and track a simulated receiver through a real gpsd"
	@echo "make install [PREFIX=/usr/local] - the release binary in PREFIX/bin, its man page in PREFIX/share/man/man1, its notices in PREFIX/share/doc/geotrack (PREFIX=~/.local needs no root)"
	@echo "make test   - the whole test suite, the same one CI runs (installs what the tests need first: make deps)"
	@echo "make deps   - install what the tests need when missing: the demo's packages and $(filter-out $(DEMO_PACKAGES),$(TEST_PACKAGES)), GeographicLib and Jinja2 (pip)"
	@echo "make check-aarch64 - the framing kernel checked on AArch64 under qemu-user (installs $(AARCH64_PACKAGES)); CI runs it"
	@echo "make check-budgets - the release binary's size and memory against their budgets (make test runs it)"
	@echo "make check-default-executors - geotrack built on Swift's default executors, replay/devices/watch checked; CI runs it"
	@echo "make docs   - build LocationKit's DocC documentation, every warning an error"
	@echo "make build|release-geotrack|test GPSD_PREFIX=DIR - build (and test) against the gps.h and libgps installed under DIR"
	@echo "make test-recorder - the suites that check what geotrack publishes against the OwnTracks Recorder, built from SHARED=$(SHARED) (installs $(RECORDER_PACKAGES)); CI runs it"
	@echo "make test-gpsd-versions - the gpsd suites against the system's gpsd and gpsd $(GPSD_VERSIONS), each built from SHARED=$(SHARED) (installs $(GPSD_VERSIONS_PACKAGES)); CI runs it"

# Installs Debian packages only when one is missing, so a second run asks nothing.
define apt_install
	@missing=""; for p in $(1); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  SUDO=""; [ "$$(id -u)" -eq 0 ] || SUDO=sudo; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing >/dev/null; \
	fi
endef

demo-deps:
	$(call apt_install,$(DEMO_PACKAGES))

deps:
	$(call apt_install,$(TEST_PACKAGES))
	@# GeographicLib's geodesics: the independent oracle the statistics tests check distances against.
	@python3 -c "import geographiclib" 2>/dev/null || python3 -m pip install --quiet --disable-pip-version-check geographiclib
	@# Jinja2, Home Assistant's template engine: the Home Assistant tests render the discovery config's template with it.
	@python3 -c "import jinja2" 2>/dev/null || python3 -m pip install --quiet --disable-pip-version-check jinja2

aarch64-deps:
	$(call apt_install,$(AARCH64_PACKAGES))

gpsd-versions-deps:
	$(call apt_install,$(GPSD_VERSIONS_PACKAGES))

recorder-deps:
	$(call apt_install,$(RECORDER_PACKAGES))

# GPSD_PREFIX=DIR builds against another gpsd than the system's: the gps.h under DIR/include,
# and, when the program runs, DIR/lib/libgps.so (the CGPS shim opens it by that path), or the
# parser linked in from DIR/lib/libgps.a where there is one. Such a build has a scratch path of
# its own (.build-gpsd-NAME), so the system's build in .build is left as it was; the tests it
# runs use DIR's gpsd, gpsfake and gpspipe (GEOTRACK_TEST_GPSD_PREFIX, read by GeoTrackTesting).
GPSD_PREFIX  ?=
GPSD_DIR     := $(if $(GPSD_PREFIX),$(abspath $(GPSD_PREFIX)))
SCRATCH      := $(if $(GPSD_DIR),.build-gpsd-$(notdir $(GPSD_DIR)),.build)
GPSD_FLAGS   := $(if $(GPSD_DIR),--scratch-path $(SCRATCH) -Xcc -I$(GPSD_DIR)/include \
	-Xcc '-DGEOTRACK_LIBGPS_PATH="$(GPSD_DIR)/lib/libgps.so"')
GPSD_TEST_ENV := $(if $(GPSD_DIR),GEOTRACK_TEST_GPSD_PREFIX='$(GPSD_DIR)')
ifneq ($(GPSD_DIR),)
ifeq ($(wildcard $(GPSD_DIR)/include/gps.h),)
$(error GPSD_PREFIX=$(GPSD_PREFIX) has no include/gps.h: install gpsd there first (scripts/build-gpsd.sh TARBALL $(GPSD_PREFIX)))
endif
endif

build:
	$(SWIFT) build -c $(CONFIG) $(GPSD_FLAGS)

# The release executable, on documented flags only:
# - --static-swift-stdlib: the Swift runtime and FoundationEssentials are linked in (no part of
#   geotrack links Foundation), so no Swift library is found, loaded and bound at each start.
#   Debug builds, and the tests, stay dynamic.
# - --disable-local-rpath: no run path ($ORIGIN): the binary loads no library of its own, and
#   with one the loader first looked for each system library in folders beside the binary.
# - lld (in the Swift toolchain) with -z pack-relative-relocs (glibc 2.36): the 120 000
#   relative relocations of a position-independent executable packed into a few KB.
# - --no-export-dynamic, undoing the --export-dynamic that the static runtime's link arguments
#   add: nothing looks geotrack's own symbols up at run time, and exporting them cost a 1.4 MB
#   dynamic symbol table.
# libgps, libmosquitto and SQLite are opened with dlopen when first used (Sources/CGPS, CMosquitto, CSQLite),
# so only the commands that need one load it. docs/PERFORMANCE.md measures what this costs
# next to the hand-tuned link it replaced (an order file, a linker script, static C++ runtime
# and libgps.a linked in); scripts/check-budgets.sh holds the binary and `watch` to budgets.
RELEASE_FLAGS := -c release --static-swift-stdlib --disable-local-rpath -Xswiftc -use-ld=lld \
	-Xlinker -z -Xlinker pack-relative-relocs -Xlinker --no-export-dynamic \
	$(GPSD_FLAGS)

release:
	$(SWIFT) build $(RELEASE_FLAGS)

# Only the geotrack executable, as `make install` and the benchmarks build it.
release-geotrack:
	$(SWIFT) build $(RELEASE_FLAGS) --product geotrack

# The suites that run a real gpsd under gpsfake. gpsfake plays its log at a fixed pace from the
# moment gpsd starts, whether or not a client is watching, and a client that connects late
# misses the start. Run beside the CPU-bound property and corpus tests, on a two-core machine,
# their clients waited seconds for a thread and missed whole logs; so they run on their own.
# The harness now holds the log until a client watches (GPSFakeGate in GeoTrackTesting); the
# suites have not been tried beside the others since.
GPSD_SUITES = GPSDClientTests|GPSDEndToEndTests|WatchEndToEndTests

test: deps
	$(SWIFT) package dump-package | python3 scripts/check-dependencies.py
	scripts/cnmea-check.sh native
	$(SWIFT) build --build-tests $(GPSD_FLAGS)
	@# The man page test runs swift-argument-parser's generate-manual, a product of that package.
	$(SWIFT) build --product generate-manual $(GPSD_FLAGS)
	$(GPSD_TEST_ENV) SWIFT='$(SWIFT)' scripts/swift-test.sh --skip-build $(GPSD_FLAGS) --skip '$(GPSD_SUITES)|$(GPSD_VERSION_ONLY_SUITES)|$(RECORDER_SUITES)'
	$(GPSD_TEST_ENV) SWIFT='$(SWIFT)' scripts/swift-test.sh --skip-build $(GPSD_FLAGS) --filter '$(GPSD_SUITES)'
	$(MAKE) docs
	$(MAKE) check-install
	$(MAKE) check-budgets

# The suites that check what geotrack publishes against the real OwnTracks Recorder (ot-recorder
# 1.0.1). It is not packaged in Debian: built from its source tarball in SHARED into
# .build/recorder once (kept between runs), and the suites get the binary in
# GEOTRACK_TEST_RECORDER; run without it, they fail saying so. make test leaves them out.
# Only CI calls this target: it reads ../shared, beside CI's clone (make test never does).
RECORDER_SUITES  = RecorderTests
RECORDER_TARBALL = $(SHARED)/owntracks-recorder/recorder-ae2fd29.tar.xz
RECORDER_PREFIX  = .build/recorder

recorder: recorder-deps
	@[ -f "$(RECORDER_TARBALL)" ] || { echo "make recorder: $(RECORDER_TARBALL) is missing (SHARED=$(SHARED): the folder holding owntracks-recorder/, ../shared in CI)" >&2; exit 1; }
	scripts/build-recorder.sh "$(RECORDER_TARBALL)" $(RECORDER_PREFIX)

test-recorder: deps recorder
	$(SWIFT) build --build-tests $(GPSD_FLAGS)
	GEOTRACK_TEST_RECORDER='$(CURDIR)/$(RECORDER_PREFIX)/sbin/ot-recorder' $(GPSD_TEST_ENV) SWIFT='$(SWIFT)' \
	  scripts/swift-test.sh --skip-build $(GPSD_FLAGS) --filter '$(RECORDER_SUITES)'

# The framing kernel's bit masks compile to other instructions on AArch64 (a Raspberry Pi):
# checked there under qemu-user. Apart from make test, as its packages are large; CI runs both.
check-aarch64: aarch64-deps
	scripts/cnmea-check.sh aarch64

# The gpsd suites against each gpsd users run: 3.22 (Debian 11 and 12, Ubuntu 22.04: the
# system's), 3.25 (Debian 13, Ubuntu 24.04) and 3.27.5 (upstream). Each newer release is built
# from its tarball in SHARED into .build/gpsd/VERSION once (kept between runs), geotrack against
# its gps.h and libgps (GPSD_PREFIX, scratch path .build-gpsd-VERSION), and the suites run
# with that version's gpsd, gpsfake and gpspipe. The release binary linked on the system's
# 3.22 follows each newer gpsd (ReleaseFollowsGPSDTests): the protocol, not the ABI.
# Only CI calls this target: it reads ../shared, beside CI's clone (make test never does).
SHARED        ?= ../shared
GPSD_VERSIONS ?= 3.25 3.27.5
# The suites about libgps itself, run first; then the gpsd suites on their own (as in make test:
# beside other suites their clients miss the start of gpsfake's short logs, and gpsd 3.25 and
# later send a TPV per sentence, five times 3.22's); then GPSDVersionTests (watch --json --sky
# and devices --json against that gpsd's gpspipe) and, for the system's gpsd, the release
# binary against the newer ones. The last two run here only.
LIBGPS_SUITES = LibGPSTests|LibGPSAPITests|HostileGPSDTests|JSONSyntaxTests
GPSD_VERSION_ONLY_SUITES = GPSDVersionTests|ReleaseFollowsGPSDTests
test-gpsd-versions: gpsd-versions-deps
	@for v in $(GPSD_VERSIONS); do \
	  [ -f "$(SHARED)/gpsd/gpsd-$$v.tar.xz" ] || { echo "test-gpsd-versions: $(SHARED)/gpsd/gpsd-$$v.tar.xz is missing (SHARED=$(SHARED): the folder of gpsd's source tarballs, ../shared in CI)" >&2; exit 1; }; \
	done
	@for v in $(GPSD_VERSIONS); do scripts/build-gpsd.sh "$(SHARED)/gpsd/gpsd-$$v.tar.xz" .build/gpsd/$$v || exit 1; done
	@echo "test-gpsd-versions: the system's gpsd ($$(pkg-config --modversion libgps 2>/dev/null)), and the release binary built on it with gpsd $(GPSD_VERSIONS)"
	$(SWIFT) build --build-tests
	$(MAKE) --no-print-directory release-geotrack GPSD_PREFIX=
	SWIFT='$(SWIFT)' scripts/swift-test.sh --skip-build --filter '$(LIBGPS_SUITES)'
	SWIFT='$(SWIFT)' scripts/swift-test.sh --skip-build --filter '$(GPSD_SUITES)'
	GEOTRACK_TEST_GPSD_VERSIONS='$(GPSD_VERSIONS)' SWIFT='$(SWIFT)' scripts/swift-test.sh --skip-build \
	  --filter '$(GPSD_VERSION_ONLY_SUITES)'
	@for v in $(GPSD_VERSIONS); do \
	  echo "test-gpsd-versions: gpsd $$v"; \
	  $(MAKE) --no-print-directory gpsd-version-suites GPSD_PREFIX=.build/gpsd/$$v || exit 1; \
	done

# One gpsd's suites (GPSD_PREFIX): built against it, run with its gpsd and tools.
gpsd-version-suites:
	$(SWIFT) build --build-tests $(GPSD_FLAGS)
	$(GPSD_TEST_ENV) SWIFT='$(SWIFT)' scripts/swift-test.sh --skip-build $(GPSD_FLAGS) --filter '$(LIBGPS_SUITES)'
	$(GPSD_TEST_ENV) SWIFT='$(SWIFT)' scripts/swift-test.sh --skip-build $(GPSD_FLAGS) --filter '$(GPSD_SUITES)'
	$(GPSD_TEST_ENV) SWIFT='$(SWIFT)' scripts/swift-test.sh --skip-build $(GPSD_FLAGS) --filter 'GPSDVersionTests'

# LocationKit's catalog (the porting article among it) must build without a warning; its code
# blocks are compiled by DocumentationSnippetTests.
# Every library module's documentation, with its overview page (Sources/MODULE/MODULE.docc):
# a broken link or an undocumented parameter fails the build.
DOC_TARGETS = LocationKit GeoTrackKit GeoTrackService GeoTrackReactive GPSReports GPSD NMEA \
	TPVJSONBulk Executors HTTP MQTT Outbox OwnTracks Publishing WebServe

docs:
	$(SWIFT) package --disable-sandbox generate-documentation $(addprefix --target ,$(DOC_TARGETS)) --warnings-as-errors

# The man page is generated from the command definitions (swift-argument-parser's generate-manual
# plugin), never written by hand. The plugin builds the tool it documents; left to its default
# (release), it linked a plain release geotrack over the one RELEASE_FLAGS had just made, and
# that dynamically linked binary was the one installed. Its debug build gives the same page.
install: release-geotrack
	$(SWIFT) package --disable-sandbox $(GPSD_FLAGS) generate-manual --configuration debug
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 $(DESTDIR)$(PREFIX)/share/doc/geotrack
	install -m 755 $(SCRATCH)/release/geotrack $(DESTDIR)$(PREFIX)/bin/geotrack
	install -m 644 $(MAN_PAGE) $(DESTDIR)$(PREFIX)/share/man/man1/geotrack.1
	install -m 644 THIRD-PARTY-NOTICES.md $(DESTDIR)$(PREFIX)/share/doc/geotrack/THIRD-PARTY-NOTICES.md

# `make install` into a scratch prefix, then `man geotrack` and the installed binary must work.
check-install:
	GEOTRACK_SCRATCH='$(SCRATCH)' $(GPSD_TEST_ENV) scripts/check-install.sh

# The release binary's size and memory (start-up, watch, replay) against their budgets
# (scripts/check-budgets.sh; docs/PERFORMANCE.md has the measurements they are set from).
# Times vary with the machine's load: they stay in benchmarks/.
check-budgets: release-geotrack
	GEOTRACK_SCRATCH='$(SCRATCH)' scripts/check-budgets.sh

# geotrack on Swift's default executors (-D GEOTRACK_DEFAULT_EXECUTORS, its own scratch path),
# as a compiler without the custom executors' SPI builds it: replay, devices and watch must
# work on them too. CI runs it beside make test.
check-default-executors:
	SWIFT='$(SWIFT)' scripts/check-default-executors.sh

demo: demo-deps
	$(SWIFT) build -c $(CONFIG) --product geotrack $(GPSD_FLAGS)
	@scripts/demo.sh "$(BIN)" "$(DEMO_LOG)"

clean:
	rm -rf .build
