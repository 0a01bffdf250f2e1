# GeoTrack: build, test and demo entry points. `make help` lists them.
SWIFT        ?= swift
CONFIG       ?= debug
# What each target installs from Debian, when missing. The demo: a real gpsd and gpsfake, and the
# C headers geotrack builds against (libgps, libmosquitto, SQLite). The tests: those, and the real
# programs they talk to or check output with (mosquitto, tmux, xmllint, rsvg-convert, man, jq).
# The AArch64 check of the framing kernel: qemu-user and a cross C library (about 100 MB).
DEMO_PACKAGES    := gpsd gpsd-clients libgps-dev libmosquitto-dev libsqlite3-dev pkg-config
TEST_PACKAGES    := $(DEMO_PACKAGES) libxml2-utils tmux man-db groff-base librsvg2-bin \
                    mosquitto mosquitto-clients openssl jq
AARCH64_PACKAGES := qemu-user libc6-dev-arm64-cross libgcc-12-dev-arm64-cross
PREFIX       ?= /usr/local
MAN_PAGE     := .build/plugins/GenerateManual/outputs/geotrack/geotrack.1
BIN          := .build/$(CONFIG)/geotrack
DEMO_LOG     ?= Tests/GPSDTests/Logs/garmin15x.nmea
DEMO_PORT    ?= 29470

.PHONY: help deps demo-deps aarch64-deps build release release-geotrack test check-aarch64 docs install check-install demo clean

help:
	@echo "make demo   - install what the demo needs ($(DEMO_PACKAGES)), build, and track a simulated receiver through a real gpsd"
	@echo "make install [PREFIX=/usr/local] - the release binary in PREFIX/bin, its man page in PREFIX/share/man/man1 (PREFIX=~/.local needs no root)"
	@echo "make test   - the whole test suite, the same one CI runs (installs what the tests need first: make deps)"
	@echo "make deps   - install what the tests need when missing: the demo's packages and $(filter-out $(DEMO_PACKAGES),$(TEST_PACKAGES)), GeographicLib (pip)"
	@echo "make check-aarch64 - the framing kernel checked on AArch64 under qemu-user (installs $(AARCH64_PACKAGES)); CI runs it"
	@echo "make docs   - build LocationKit's DocC documentation, every warning an error"

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

build:
	$(SWIFT) build -c $(CONFIG)

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
LIBGPS_SYSTEM_ARCHIVE := $(wildcard $(shell pkg-config --variable=libdir libgps 2>/dev/null)/libgps.a)
LIBGPS_ARCHIVE := $(if $(LIBGPS_SYSTEM_ARCHIVE),$(CURDIR)/.build/libgps-geotrack.a)
ORDER_FILE := $(wildcard $(CURDIR)/scripts/geotrack.order)
RELEASE_FLAGS := -c release --static-swift-stdlib --disable-local-rpath -Xswiftc -use-ld=lld \
	-Xswiftc -Xclang-linker -Xswiftc --ld-path=$(CURDIR)/scripts/ld-static-cxx \
	-Xswiftc -Xfrontend -Xswiftc -function-sections -Xswiftc -Xfrontend -Xswiftc -disable-llvm-merge-functions-pass \
	-Xlinker -z -Xlinker pack-relative-relocs -Xlinker --no-export-dynamic \
	-Xlinker -T -Xlinker $(CURDIR)/scripts/geotrack-private.ld \
	$(if $(ORDER_FILE),-Xlinker --symbol-ordering-file=$(ORDER_FILE) -Xlinker --no-warn-symbol-ordering) \
	$(if $(LIBGPS_ARCHIVE),-Xlinker --undefined=gps_unpack -Xlinker $(LIBGPS_ARCHIVE)) \
	$(if $(LINK_MAP),-Xlinker -Map=$(LINK_MAP) -Xlinker --no-demangle)

release: $(LIBGPS_ARCHIVE)
	$(SWIFT) build $(RELEASE_FLAGS)

$(CURDIR)/.build/libgps-geotrack.a: $(LIBGPS_SYSTEM_ARCHIVE) scripts/libgps-archive
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
	$(SWIFT) build --build-tests
	SWIFT='$(SWIFT)' scripts/swift-test.sh --skip-build --skip '$(GPSD_SUITES)'
	SWIFT='$(SWIFT)' scripts/swift-test.sh --skip-build --filter '$(GPSD_SUITES)'
	$(MAKE) docs
	$(MAKE) check-install

# The framing kernel's bit masks compile to other instructions on AArch64 (a Raspberry Pi):
# checked there under qemu-user. Apart from make test, as its packages are large; CI runs both.
check-aarch64: aarch64-deps
	scripts/cnmea-check.sh aarch64

# LocationKit's catalog (the porting article among it) must build without a warning; its code
# blocks are compiled by DocumentationSnippetTests.
docs:
	$(SWIFT) package --disable-sandbox generate-documentation --target LocationKit --warnings-as-errors

# The man page is generated from the command definitions (swift-argument-parser's generate-manual
# plugin), never written by hand. The plugin builds the tool it documents; left to its default
# (release), it linked a plain release geotrack over the one RELEASE_FLAGS had just made, and
# that dynamically linked binary was the one installed. Its debug build gives the same page.
install: release-geotrack
	$(SWIFT) package --disable-sandbox generate-manual --configuration debug
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 .build/release/geotrack $(DESTDIR)$(PREFIX)/bin/geotrack
	install -m 644 $(MAN_PAGE) $(DESTDIR)$(PREFIX)/share/man/man1/geotrack.1

# `make install` into a scratch prefix, then `man geotrack` and the installed binary must work.
check-install:
	scripts/check-install.sh

demo: demo-deps
	$(SWIFT) build -c $(CONFIG) --product geotrack
	@scripts/demo.sh "$(BIN)" "$(DEMO_LOG)"

clean:
	rm -rf .build
