# gpuplan — hand-written GNU Makefile.
#   make            build ./gpuplan
#   make check      unit tests, golden CLI tests, sanitizer build, man lint
#   make demo       run the main job on the bundled example cluster
#   make bench      benchmarks (numbers, never pass/fail on time)
#   make install PREFIX=/usr/local DESTDIR=

PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
DATADIR ?= $(PREFIX)/share/gpuplan
VERSION := 0.1.0

CC ?= cc
# V=1 shows the full compiler command lines.
Q := $(if $(V),,@)
PKGS := yaml-0.1 jansson gsl sqlite3
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS := $(shell pkg-config --libs $(PKGS) 2>/dev/null || echo -lyaml -ljansson -lgsl -lgslcblas -lsqlite3)
CUNIT_LIBS := $(shell pkg-config --libs cunit 2>/dev/null || echo -lcunit)

# Warning flags per compiler: gcc and clang share most; -Werror stays on.
CC_IS_CLANG := $(shell $(CC) --version 2>/dev/null | grep -q clang && echo 1)
WARN := -Wall -Wextra -Werror -Wstrict-prototypes -Wmissing-prototypes \
	-Wformat=2 -Wno-format-nonliteral -Wpointer-arith -Wvla
ifeq ($(CC_IS_CLANG),1)
WARN += -Wshadow
else
WARN += -Wshadow=local -Wno-format-truncation
endif
OPT ?= -O2 -g
CFLAGS ?= $(OPT)
ALL_CFLAGS := -std=c11 -D_GNU_SOURCE $(WARN) -Iinclude $(PKG_CFLAGS) \
	-DGP_VERSION='"$(VERSION)"' -DGP_DATADIR='"$(DATADIR)"' -MMD -MP $(CFLAGS)
LIBS := $(PKG_LIBS) -ldoublefann -lm

SAN_FLAGS := -O1 -g -fsanitize=address,undefined,float-cast-overflow -fno-sanitize-recover=all -fno-omit-frame-pointer

# src/cmd/ is the command line: linked into the binary, never into the library.
CMD_SRC := $(shell find src/cmd -name '*.c' | LC_ALL=C sort)
LIB_SRC := $(filter-out src/cmd/%,$(shell find src -name '*.c' | LC_ALL=C sort))
TEST_SRC := $(shell find tests/unit -name 'test_*.c' | LC_ALL=C sort)
TESTLIB_SRC := tests/unit/testlib.c

# Build trees: build/ (normal) and build-san/ (ASan+UBSan).
define tree
$(1)_LIB_OBJ := $$(LIB_SRC:%.c=$(1)/%.o)
$(1)_CMD_OBJ := $$(CMD_SRC:%.c=$(1)/%.o)
$(1)_TESTS := $$(TEST_SRC:tests/unit/%.c=$(1)/tests/%)

$(1)/%.o: %.c
	@mkdir -p $$(@D)
	$$(Q)$$(CC) $$(ALL_CFLAGS) $(2) -c -o $$@ $$<

$(1)/libgpuplan.a: $$($(1)_LIB_OBJ)
	@rm -f $$@
	$$(Q)$$(AR) rcs $$@ $$^

$(1)/tests/%: $(1)/tests/unit/%.o $(1)/tests/unit/testlib.o $(1)/libgpuplan.a
	@mkdir -p $$(@D)
	$$(Q)$$(CC) $(2) $$(LDFLAGS) -o $$@ $$^ $$(LIBS) $$(CUNIT_LIBS)

-include $$($(1)_LIB_OBJ:.o=.d) $$($(1)_CMD_OBJ:.o=.d) $$(TEST_SRC:%.c=$(1)/%.d) $(1)/tests/unit/testlib.d
endef

.DEFAULT_GOAL := all

# cli.c compiles DATADIR in: rebuild it when PREFIX/DATADIR change, so that
# `make install PREFIX=/usr` installs a binary that looks in /usr/share.
build/.datadir: FORCE
	@mkdir -p build
	@echo '$(DATADIR)' | cmp -s - $@ || echo '$(DATADIR)' >$@
build/src/cmd/cli.o build-san/src/cmd/cli.o: build/.datadir
.PHONY: FORCE
FORCE:

$(eval $(call tree,build,))
$(eval $(call tree,build-san,$(SAN_FLAGS)))

# A real one-node Slurm runs a what-if sweep as a job array (root; .ci/run).
check-slurm: gpuplan
	@sh scripts/check-slurm.sh $(CURDIR)/gpuplan

# The bridge (import, place --emit slurm) against a real one-node Slurm.
check-slurm-import: gpuplan
	@sh scripts/check-slurm-import.sh $(CURDIR)/gpuplan

# gpuplan's replay against a real one-node Slurm's record (root; .ci/run).
check-slurm-history: gpuplan
	@sh scripts/check-slurm-history.sh $(CURDIR)/gpuplan

.PHONY: fuzz fuzz-replay stress
.PHONY: check-slurm check-slurm-import check-slurm-history all check layers lint unit unit-san golden golden-san manlint calibration-check demo bench install install-data uninstall clean golden-update
.PHONY: predict-check html-check

all: gpuplan

gpuplan: $(build_CMD_OBJ) build/libgpuplan.a
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LIBS)

build-san/gpuplan: $(build-san_CMD_OBJ) build-san/libgpuplan.a
	$(CC) $(SAN_FLAGS) $(LDFLAGS) -o $@ $^ $(LIBS)

check: layers unit golden unit-san golden-san fuzz-replay stress manlint calibration-check predict-check html-check
	@echo "make check: all passed"

unit: $(build_TESTS)
	@sh tests/run-unit.sh $(build_TESTS)

unit-san: $(build-san_TESTS)
	@ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
		sh tests/run-unit.sh $(build-san_TESTS)

golden: gpuplan
	@sh tests/cli/run.sh $(CURDIR)/gpuplan

# The --html pages rendered by headless chromium (not blank, no overflow).
html-check: gpuplan
	@sh tests/html/check.sh $(CURDIR)/gpuplan

# The sanitized binary does not sit next to topologies/, so point it there.
golden-san: build-san/gpuplan
	@ASAN_OPTIONS=detect_leaks=1 GPUPLAN_DATADIR=$(CURDIR)/topologies \
		sh tests/cli/run.sh $(CURDIR)/build-san/gpuplan

golden-update: gpuplan
	@UPDATE=1 sh tests/cli/run.sh $(CURDIR)/gpuplan

# The perf model against published measurements (prints errors; not part
# of check: it reports, it does not pass or fail on accuracy).
.PHONY: validate-perf
validate-perf: gpuplan
	@sh scripts/validate-perf.sh $(CURDIR)/gpuplan

# The large-model model against published measurements (errors per class,
# fitted and held-out cases apart; `sh scripts/validate-llm.sh --fit` also
# searches the fitted efficiencies).  Reports; never fails on accuracy.
.PHONY: validate-llm
validate-llm: gpuplan
	@sh scripts/validate-llm.sh $(CURDIR)/gpuplan

# The built-in perf table must be what `gpuplan calibrate --write` makes.
calibration-check: gpuplan
	@sh scripts/check-calibration.sh $(CURDIR)/gpuplan

# The bundled predictor models must be what `gpuplan predict train` makes.
predict-check: gpuplan
	@sh scripts/check-predict.sh $(CURDIR)/gpuplan

# No folder includes a higher layer's header; every public header compiles alone.
layers:
	@CC="$(CC)" CFLAGS_H="$(PKG_CFLAGS)" sh scripts/check-layers.sh

# Static analysis: cppcheck over the library and the command line, findings
# triaged to zero (suppressions, each with its reason, in .cppcheck-suppress).
lint:
	@cppcheck --quiet --error-exitcode=1 --enable=warning,portability,performance \
		--std=c11 -D_GNU_SOURCE -Iinclude --inline-suppr \
		--suppressions-list=.cppcheck-suppress src && echo "cppcheck: no findings"

manlint:
	@mandoc -Tlint -W warning man/gpuplan.1 && echo "mandoc -Tlint: man/gpuplan.1 clean"

demo: gpuplan
	@sh scripts/demo.sh

bench: gpuplan
	@sh scripts/bench.sh

install: gpuplan install-data
	install -d $(DESTDIR)$(BINDIR)
	install -m 755 gpuplan $(DESTDIR)$(BINDIR)/gpuplan
	install -d $(DESTDIR)$(PREFIX)/share/bash-completion/completions $(DESTDIR)$(PREFIX)/share/zsh/site-functions
	./gpuplan completion bash >$(DESTDIR)$(PREFIX)/share/bash-completion/completions/gpuplan
	./gpuplan completion zsh >$(DESTDIR)$(PREFIX)/share/zsh/site-functions/_gpuplan

# The manual and the data directory alone: builds nothing, so a test can
# run it while the tree's binary is in use.
install-data:
	install -d $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(DATADIR)
	install -m 644 man/gpuplan.1 $(DESTDIR)$(MANDIR)/man1/gpuplan.1
	cp -R topologies/. $(DESTDIR)$(DATADIR)/
	install -d $(DESTDIR)$(DATADIR)/workloads
	cp -R workloads/. $(DESTDIR)$(DATADIR)/workloads/
	# the what-if specs name ../topologies/, which the data directory is
	sed -i 's|\.\./topologies/|../|' $(DESTDIR)$(DATADIR)/workloads/*.yaml
	chmod -R a+rX $(DESTDIR)$(DATADIR)

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/gpuplan $(DESTDIR)$(MANDIR)/man1/gpuplan.1
	rm -rf $(DESTDIR)$(DATADIR)
	rm -f $(DESTDIR)$(PREFIX)/share/bash-completion/completions/gpuplan $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_gpuplan

clean:
	rm -rf build build-san build-fuzz gpuplan

# Fuzzing (tests/fuzz/): one libFuzzer harness per parser, also usable by
# AFL++ (libAFLDriver).  `make fuzz FUZZ_TIME=S` runs each for S seconds
# with clang; FUZZ_RUNS=N stops each after N executions (FUZZ_TIME still
# caps it), FUZZ_ONLY=NAME runs one, FUZZ_FLAGS adds libFuzzer flags;
# `make check` replays the seed corpora and tests/fuzz/regress/ through the
# harnesses in the sanitizer build (no clang needed).
FUZZ_CC ?= clang
FUZZ_TIME ?= 60
FUZZ_RUNS ?=
FUZZ_FLAGS ?=
FUZZ_SRC := $(filter-out tests/fuzz/fuzz_util.c,$(wildcard tests/fuzz/fuzz_*.c))
FUZZ_NAMES := $(FUZZ_SRC:tests/fuzz/fuzz_%.c=%)
FUZZ_SAN := -g -O1 -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
# The fuzz build lowers the hostlist cap (hostlist.h) so that fuzzing stays
# at thousands of executions per second.
FUZZ_CFLAGS := -std=c11 -D_GNU_SOURCE -Iinclude $(PKG_CFLAGS) -DGP_VERSION='"$(VERSION)"' \
	-DGP_DATADIR='"$(DATADIR)"' -DGP_HOSTLIST_MAX=10000 -MMD -MP $(FUZZ_SAN)
build-fuzz/%.o: %.c
	@mkdir -p $(@D)
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<
build-fuzz/libgpuplan.a: $(LIB_SRC:%.c=build-fuzz/%.o)
	@rm -f $@
	$(Q)$(AR) rcs $@ $^
build-fuzz/fuzz_%: build-fuzz/tests/fuzz/fuzz_%.o build-fuzz/tests/fuzz/fuzz_util.o build-fuzz/libgpuplan.a
	$(Q)$(FUZZ_CC) $(FUZZ_SAN) -fsanitize=fuzzer $(LDFLAGS) -o $@ $^ $(LIBS)
build-san/replay_%: build-san/tests/fuzz/fuzz_%.o build-san/tests/fuzz/fuzz_util.o build-san/tests/fuzz/replay.o build-san/libgpuplan.a
	$(Q)$(CC) $(SAN_FLAGS) $(LDFLAGS) -o $@ $^ $(LIBS)
-include $(wildcard build-fuzz/src/*/*.d build-fuzz/src/*/*/*.d build-fuzz/tests/fuzz/*.d build-san/tests/fuzz/*.d)

fuzz: $(FUZZ_NAMES:%=build-fuzz/fuzz_%)
	@FUZZ_RUNS='$(FUZZ_RUNS)' FUZZ_FLAGS='$(FUZZ_FLAGS)' sh tests/fuzz/run.sh fuzz build-fuzz $(FUZZ_TIME)

# Concurrent and killed committers (tests/stress; bigger runs:
# sh tests/stress/commit-race.sh ./gpuplan 100 100,
# sh tests/stress/commit-mixed.sh ./gpuplan 100 5; what-if sweeps into
# one database: tests/stress/whatif-db.sh; output sets killed at random:
# sh tests/stress/output-kill.sh ./gpuplan 500).
stress: gpuplan
	@sh tests/stress/commit-race.sh $(CURDIR)/gpuplan 20 2
	@sh tests/stress/commit-mixed.sh $(CURDIR)/gpuplan 20 1 | tail -1
	@sh tests/stress/whatif-db.sh $(CURDIR)/gpuplan 8 1 | tail -1
	@sh tests/stress/commit-kill.sh $(CURDIR)/gpuplan 10
	@sh tests/stress/output-enospc.sh $(CURDIR)/gpuplan
	@sh tests/stress/output-kill.sh $(CURDIR)/gpuplan 10

fuzz-replay: $(FUZZ_NAMES:%=build-san/replay_%)
	@ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
		sh tests/fuzz/run.sh replay build-san

.SECONDARY:
