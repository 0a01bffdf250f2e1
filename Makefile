# GeoTrack: build, test and demo entry points. `make help` lists them.
SWIFT        ?= swift
CONFIG       ?= debug
# What each target installs from Debian, when missing. The demo: a real gpsd and gpsfake, and the
# C headers geotrack builds against (libgps, libmosquitto, SQLite). The tests: those, and the real
# programs they talk to or check output with (mosquitto, tmux, xmllint, rsvg-convert, man, jq),
# and what building gpsd releases from source for make test-gpsd-versions takes: Debian's
# scons, a C compiler (scons does not look for the Swift toolchain's clang), distutils (gpsd
# 3.25's build asks Debian 12's Python for its configuration through it), xz for the tarballs.
# The AArch64 check of the framing kernel: qemu-user and a cross C library (about 100 MB).
GPSD_VERSIONS_PACKAGES := scons gcc python3-distutils xz-utils
DEMO_PACKAGES    := gpsd gpsd-clients libgps-dev libmosquitto-dev libsqlite3-dev pkg-config
TEST_PACKAGES    := $(DEMO_PACKAGES) libxml2-utils tmux man-db groff-base librsvg2-bin \
                    mosquitto mosquitto-clients openssl jq $(GPSD_VERSIONS_PACKAGES)
AARCH64_PACKAGES := qemu-user libc6-dev-arm64-cross libgcc-12-dev-arm64-cross
PREFIX       ?= /usr/local
MAN_PAGE      = $(SCRATCH)/plugins/GenerateManual/outputs/geotrack/geotrack.1
BIN           = $(SCRATCH)/$(CONFIG)/geotrack
DEMO_LOG     ?= Tests/GPSDTests/Logs/garmin15x.nmea
DEMO_PORT    ?= 29470

.PHONY: help deps demo-deps aarch64-deps gpsd-versions-deps test-gpsd-versions gpsd-version-suites build release release-geotrack test check-aarch64 docs install check-install demo clean

help:
	@echo "make demo   - install what the demo needs ($(DEMO_PACKAGES)), build, and track a simulated receiver through a real gpsd"
	@echo "make install [PREFIX=/usr/local] - the release binary in PREFIX/bin, its man page in PREFIX/share/man/man1 (PREFIX=~/.local needs no root)"
	@echo "make test   - the whole test suite, the same one CI runs (installs what the tests need first: make deps)"
	@echo "make deps   - install what the tests need when missing: the demo's packages and $(filter-out $(DEMO_PACKAGES),$(TEST_PACKAGES)), GeographicLib (pip)"
	@echo "make check-aarch64 - the framing kernel checked on AArch64 under qemu-user (installs $(AARCH64_PACKAGES)); CI runs it"
	@echo "make docs   - build LocationKit's DocC documentation, every warning an error"
	@echo "make build|release-geotrack|test GPSD_PREFIX=DIR - build (and test) against the gps.h and libgps installed under DIR"
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

aarch64-deps:
	$(call apt_install,$(AARCH64_PACKAGES))

gpsd-versions-deps:
	$(call apt_install,$(GPSD_VERSIONS_PACKAGES))

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

# The release executable carries the Swift runtime and FoundationEssentials (no part of geotrack
# links Foundation, whose initialisers would run at every start): no Swift library to find, load
# and bind at each start (issue 14's footprint). Debug builds, and the tests, stay dynamic.
# Without a run path ($ORIGIN, which SwiftPM adds by default): the static binary loads no
# library of its own, and with one the loader first looked for each system library it needs in
# ten folders beside the binary.
# It is linked by lld (in the Swift toolchain), which packs the 120 000 relative relocations
# of a position-independent executable into a few KB (-z pack-relative-relocs, glibc 2.36),
# and without --export-dynamic, which the static runtime's link arguments add: nothing looks
# geotrack's own symbols up at run time, and exporting them cost a 1.4 MB dynamic symbol table.
# Together 4 MB less of the binary in memory at every start. The functions that run at start-up
# and while watching or replaying come first, side by side (scripts/geotrack.order, made by
# scripts/order-file.sh): the kernel maps at least 64 KB of code around each page touched.
# Each Swift function gets a section of its own (-function-sections): the compiler otherwise
# puts all of a file's functions in one, and the linker can only move whole sections. LLVM's
# function merging is off: it replaced identical bodies with one unnamed function, which no order
# file can name, and those that ran were scattered over the code (watch mapped 1.3 MB more). The
# functions that are unnamed anyway go just before the ordered ones (scripts/geotrack-private.ld).
# The C++ runtime under Swift's is linked in as well (scripts/ld-static-cxx, which clang runs as
# its linker): loading libstdc++ and libgcc_s cost 0.4 ms and 1.1 MB at every start.
# So is libgps's JSON parser, gps_unpack() (the one libgps function geotrack calls, declared
# in gps.h), where libgps-dev installed libgps.a: it and the parsers it calls need only libc
# and libm, whereas libgps.so brought ten libraries (libstdc++, libdbus, libsystemd,
# libgcrypt...) and 2 MB into `watch`. Elsewhere the CGPS shim opens libgps.so at the first
# connection, as debug builds and the tests do.
# It is linked from a copy of the archive made by scripts/libgps-archive: its own strlcpy and
# strlcat are weak (the static libdispatch defines strlcpy too, and two strong definitions do
# not link), and so are its references to its D-Bus client, which gps_unpack()'s member
# (libgps_sock.o) brings in through gps_open() and gps_mainloop() though geotrack never calls
# them: otherwise libdbus would be needed at every start.
LIBGPS_SYSTEM_ARCHIVE := $(wildcard $(if $(GPSD_DIR),$(GPSD_DIR)/lib,$(shell pkg-config --variable=libdir libgps 2>/dev/null))/libgps.a)
LIBGPS_ARCHIVE := $(if $(LIBGPS_SYSTEM_ARCHIVE),$(CURDIR)/$(SCRATCH)/libgps-geotrack.a)
ORDER_FILE := $(wildcard $(CURDIR)/scripts/geotrack.order)
RELEASE_FLAGS := -c release --static-swift-stdlib --disable-local-rpath -Xswiftc -use-ld=lld \
	-Xswiftc -Xclang-linker -Xswiftc --ld-path=$(CURDIR)/scripts/ld-static-cxx \
	-Xswiftc -Xfrontend -Xswiftc -function-sections -Xswiftc -Xfrontend -Xswiftc -disable-llvm-merge-functions-pass \
	-Xlinker -z -Xlinker pack-relative-relocs -Xlinker --no-export-dynamic \
	-Xlinker -T -Xlinker $(CURDIR)/scripts/geotrack-private.ld \
	$(if $(ORDER_FILE),-Xlinker --symbol-ordering-file=$(ORDER_FILE) -Xlinker --no-warn-symbol-ordering) \
	$(if $(LIBGPS_ARCHIVE),-Xlinker --undefined=gps_unpack -Xlinker $(LIBGPS_ARCHIVE)) \
	$(GPSD_FLAGS) \
	$(if $(LINK_MAP),-Xlinker -Map=$(LINK_MAP) -Xlinker --no-demangle)

release: $(LIBGPS_ARCHIVE)
	$(SWIFT) build $(RELEASE_FLAGS)

$(CURDIR)/$(SCRATCH)/libgps-geotrack.a: $(LIBGPS_SYSTEM_ARCHIVE) scripts/libgps-archive
	@mkdir -p $(@D)
	scripts/libgps-archive $< $@

# Only the geotrack executable, as `make install` and the benchmarks build it.
release-geotrack: $(LIBGPS_ARCHIVE)
	$(SWIFT) build $(RELEASE_FLAGS) --product geotrack

# The suites that run a real gpsd under gpsfake. gpsfake plays its log at a fixed pace from the
# moment gpsd starts, whether or not a client is watching, and a client that connects late
# misses the start. Run beside the CPU-bound property and corpus tests, on a two-core machine,
# their clients waited seconds for a thread and missed whole logs; so they run on their own.
GPSD_SUITES = GPSDClientTests|GPSDEndToEndTests|WatchEndToEndTests

test: deps
	$(SWIFT) package dump-package | python3 scripts/check-dependencies.py
	scripts/cnmea-check.sh native
	$(SWIFT) build --build-tests $(GPSD_FLAGS)
	@# The man page test runs swift-argument-parser's generate-manual, a product of that package.
	$(SWIFT) build --product generate-manual $(GPSD_FLAGS)
	$(GPSD_TEST_ENV) SWIFT='$(SWIFT)' scripts/swift-test.sh --skip-build $(GPSD_FLAGS) --skip '$(GPSD_SUITES)|$(GPSD_VERSION_ONLY_SUITES)'
	$(GPSD_TEST_ENV) SWIFT='$(SWIFT)' scripts/swift-test.sh --skip-build $(GPSD_FLAGS) --filter '$(GPSD_SUITES)'
	$(MAKE) docs
	$(MAKE) check-install

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
docs:
	$(SWIFT) package --disable-sandbox generate-documentation --target LocationKit --warnings-as-errors

# The man page is generated from the command definitions (swift-argument-parser's generate-manual
# plugin), never written by hand. The plugin builds the tool it documents; left to its default
# (release), it linked a plain release geotrack over the one RELEASE_FLAGS had just made, and
# that dynamically linked binary was the one installed. Its debug build gives the same page.
install: release-geotrack
	$(SWIFT) package --disable-sandbox $(GPSD_FLAGS) generate-manual --configuration debug
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 $(SCRATCH)/release/geotrack $(DESTDIR)$(PREFIX)/bin/geotrack
	install -m 644 $(MAN_PAGE) $(DESTDIR)$(PREFIX)/share/man/man1/geotrack.1

# `make install` into a scratch prefix, then `man geotrack` and the installed binary must work.
check-install:
	GEOTRACK_SCRATCH='$(SCRATCH)' $(GPSD_TEST_ENV) scripts/check-install.sh

demo: demo-deps
	$(SWIFT) build -c $(CONFIG) --product geotrack $(GPSD_FLAGS)
	@scripts/demo.sh "$(BIN)" "$(DEMO_LOG)"

clean:
	rm -rf .build
