# herd - a discrete-event simulator for retry storms.
#
#   make run      install what is missing (as root, apt-get), build, run the default scenario
#   make test     same set-up, then every test (unit, end-to-end, sanitizers)
#   make          build ./herd and libherdpolicy.a
#   make reproduce  the AWS 2015 simulation and the 62/65 claim, with figures, into out/
#   make figures  every figure of the README and doc/, into plots/ (a rule per image)
#   make metastable-maps  recovery maps of every mitigation, headline, hysteresis, into out/ (about 30 min)
#   make workshop the five lessons of scenarios/workshop/: run, check every number of the pages, draw into build/
#   make tune-doc doc/tune.md's brown-out figures against both searches run again (about 2 min)
#   make validate the engine against queueing theory (full table)
#   make fuzz     libFuzzer over scenarios, shards, results folders, data files, serve, tune flags, report (FUZZ_SECONDS=600 in all)
#   make realcheck  herd serve + herd drive (real, loopback) against herd run, side by side
#   make stress   the tests that use wall-clock time, 20 times with both cores busy (20/20 to pass)
#   make bench    events/s and peak memory, ladder queue vs heap, 1e4..1e7 clients and the OCC sweep
#   make install  PREFIX=/usr/local DESTDIR= (make uninstall: the same files removed)
#   make readme-keys  regenerate the key, column and preset references in doc/ and herd-scenario.5
#   make clean

CC       ?= cc
PREFIX   ?= /usr/local
BUILD    ?= build
WARN     := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wpointer-arith \
            -Wvla -Wno-format-truncation
ifeq ($(CI),true)
WARN     += -Werror
endif
CFLAGS   ?= -O2 -g
# herd itself is linked with link-time optimisation: the model calls the
# policy library once or more per simulated attempt, and across the two
# libraries only the linker can inline (doc/benchmark.md, round 3: 6% fewer
# instructions, the same outputs).  The objects are fat (they hold their
# ordinary code too), so every other program links them without it.
LTO_CFLAGS ?= -flto=auto -ffat-lto-objects
LTO_LINK   ?= -flto=auto
# HAVE_INLINE: the inline versions of GSL's gsl_rng_uniform and gsl_rng_get
# in its headers (GSL manual, "Inline functions"): the same arithmetic, one
# call fewer per draw.
ALL_CFLAGS = -std=c11 -D_DEFAULT_SOURCE -DHAVE_INLINE $(WARN) $(CFLAGS) -MMD -MP
REAL_LIBS := -lmicrohttpd -lcurl
LDLIBS   := -linih -lgsl -lgslcblas -lm -lpthread -ldl $(REAL_LIBS)

DEB_PKGS := make gcc libc6-dev libgsl-dev gnuplot-nox libcmocka-dev libinih-dev valgrind \
            clang libclang-rt-14-dev libopenmpi-dev openmpi-bin pkgconf groff-base man-db \
            libmicrohttpd-dev libcurl4-openssl-dev chromium tmux \
            python3-cffi python3-dev python3-tenacity python3-urllib3
FUZZ_SECONDS ?= 600

POLICY_SRC := sim/policy/backoff.c sim/policy/call.c sim/policy/classify.c sim/policy/presets.c sim/policy/adaptive.c sim/policy/retry_after.c sim/policy/limit.c sim/policy/breaker.c sim/policy/throttle.c sim/policy/hedge.c
SIM_SRC    := sim/plugin/loader.c sim/base/alloc.c sim/base/text.c sim/base/csvread.c sim/base/fileio.c \
              sim/engine/equeue.c sim/engine/chunk.c sim/engine/ladder.c \
              sim/engine/rng.c sim/engine/sim.c \
              sim/spec/dist.c sim/spec/table.c sim/spec/metrics.c sim/spec/memory.c \
              sim/model/sample.c sim/model/results.c sim/model/lathist.c sim/model/model.c sim/model/client.c \
              sim/model/server.c sim/model/limiter.c sim/model/discipline.c sim/model/discipline_fifo.c \
              sim/model/discipline_lifo.c sim/model/discipline_adaptive.c sim/model/shed.c sim/model/occ.c sim/model/mech.c sim/model/instance.c sim/model/host.c sim/model/recovery.c \
              sim/scenario/scenario.c sim/scenario/assign.c sim/scenario/validate.c sim/scenario/keys.c sim/scenario/keyparse.c sim/scenario/expand.c sim/scenario/compile.c sim/scenario/explain.c sim/scenario/explain_server.c sim/scenario/effect.c sim/scenario/data.c \
              sim/report/csv.c sim/report/stats.c sim/report/report.c sim/report/columns.c sim/report/partial.c sim/plot/plot.c \
              sim/plot/plot_csv.c sim/plot/plot_load.c sim/plot/plot_manifest.c sim/plot/plot_data.c sim/plot/plot_time.c sim/plot/plot_figure.c \
              sim/report/presets.c sim/report/html.c sim/report/html_read.c sim/report/html_figs.c sim/report/html_md.c \
              sim/experiment/plan.c sim/experiment/experiment.c sim/experiment/live.c sim/experiment/rare.c \
              sim/tune/paired.c sim/tune/space.c sim/tune/race.c sim/tune/models.c sim/tune/recommend.c \
              sim/real/common.c sim/real/serve.c sim/real/backend.c sim/real/drive.c sim/real/session.c
CLI_SRC    := sim/cli/main.c sim/cli/common.c sim/cli/plugin_cmd.c sim/cli/rare_cmd.c sim/cli/real_cmd.c sim/cli/report_cmd.c sim/cli/tune_cmd.c
TESTS      := test_fileio test_html test_policy test_zero test_call test_retry_after test_limit test_equeue test_engine test_lathist test_dist test_scenario test_model test_recovery test_tune test_discipline test_host test_limiter

POLICY_OBJ := $(POLICY_SRC:%.c=$(BUILD)/%.o)
HP_VERSION_NUM := $(shell sed -n 's/^\#define HP_VERSION "\(.*\)"/\1/p' sim/policy/herdpolicy.h)
SO_NAME    := libherdpolicy.so.0
SO_REAL    := libherdpolicy.so.$(HP_VERSION_NUM)
POLICY_PIC := $(POLICY_SRC:%.c=$(BUILD)/pic/%.o)
SIM_OBJ    := $(SIM_SRC:%.c=$(BUILD)/%.o)
CLI_OBJ    := $(CLI_SRC:%.c=$(BUILD)/%.o)
TEST_BIN   := $(TESTS:%=$(BUILD)/tests/%)

PHONY_PY := python-plugin
.PHONY: $(PHONY_PY) mpi all deps run test unit-test cli-test asan-test bench reproduce validate update-golden fuzz fuzz-seeds install uninstall install-test clean readme-keys \
        figures figures-list workshop workshop-figures realcheck stress tune-check tune-coverage tune-doc

all: herd $(BUILD)/libherdpolicy.a $(BUILD)/$(SO_REAL) $(BUILD)/herd-python.so

# herd's Python adapter (doc/plugins.md): a retry plugin built with Debian's
# python3-cffi in embedding mode, which links libpython; herd itself never
# does (it loads the adapter only for plugin = python:MODULE:OBJECT).
# Debian's interpreter on purpose: the one a fresh Debian 12 machine has.
PY3 ?= /usr/bin/python3
PY_ADAPTER_SRC := sim/plugin/python/build.py sim/plugin/python/adapter.c sim/plugin/python/herdpy.h sim/plugin/python/runtime.py \
                  sim/plugin/python/herd_adapters.py sim/policy/herdpolicy/plugin.h sim/policy/herdpolicy.h
python-plugin: $(BUILD)/herd-python.so
$(BUILD)/herd-python.so: $(PY_ADAPTER_SRC)
	$(PY3) sim/plugin/python/build.py $(BUILD)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(LTO_CFLAGS) -c $< -o $@

$(BUILD)/libherdpolicy.a: $(POLICY_OBJ)
	rm -f $@ && ar rcs $@ $^

# The shared library: position-independent objects, a versioned soname
# (libherdpolicy.so.0), and only the hp_* symbols exported.

$(BUILD)/pic/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -fPIC -c $< -o $@

$(BUILD)/$(SO_REAL): $(POLICY_PIC) sim/policy/herdpolicy.map
	$(CC) -shared -Wl,-soname,$(SO_NAME) -Wl,--version-script=sim/policy/herdpolicy.map -Wl,-z,defs \
	  -o $@ $(POLICY_PIC) -lm
	ln -sf $(SO_REAL) $(BUILD)/$(SO_NAME)
	ln -sf $(SO_NAME) $(BUILD)/libherdpolicy.so

$(BUILD)/libherdsim.a: $(SIM_OBJ)
	rm -f $@ && ar rcs $@ $^

# herd runs serve and drive as herd-real (main.c, HERD_REAL_EXEC): herd
# itself links neither libcurl nor libmicrohttpd (nor the ~30 libraries
# they bring), so herd run starts without loading them.  The link without
# $(REAL_LIBS) fails if anything pulled sim/real/ in.
LEAN_CLI_OBJ := $(BUILD)/sim/cli/main_lean.o $(filter-out $(BUILD)/sim/cli/main.o $(BUILD)/sim/cli/real_cmd.o,$(CLI_OBJ))
LEAN_LIBS := $(filter-out $(REAL_LIBS),$(LDLIBS))

$(BUILD)/sim/cli/main_lean.o: sim/cli/main.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -DHERD_REAL_EXEC -c $< -o $@

herd: $(LEAN_CLI_OBJ) $(BUILD)/libherdsim.a $(BUILD)/libherdpolicy.a herd-real
	$(CC) $(ALL_CFLAGS) $(LTO_LINK) -o $@ $(filter-out herd-real,$^) $(LEAN_LIBS)

herd-real: $(CLI_OBJ) $(BUILD)/libherdsim.a $(BUILD)/libherdpolicy.a
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDLIBS)

# The speed reference of make bench (tests/perf/ref.c: a conventional
# simulation of thundering-herd.ini and aws-2015-occ.ini in one file, GSL
# only) and the tool that checks herd agrees with it (tests/perf/agree.sh).
$(BUILD)/perf_ref: tests/perf/ref.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $< -lgsl -lgslcblas -lm

$(BUILD)/perf_agree: tests/perf/agree.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $< -lgsl -lgslcblas -lm

# Two herd binaries' summary.csv of one scenario compared (tests/perf/equiv.sh).
$(BUILD)/perf_equiv: tests/perf/equiv.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $< -lgsl -lgslcblas -lm

# A test binary only: herd without the no-op rule (scenario.c built with
# HERD_NO_EFFECT_CHECK), the oracle tests/noop.sh runs refused keys with.
$(BUILD)/nocheck/scenario.o: sim/scenario/scenario.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -DHERD_NO_EFFECT_CHECK -c $< -o $@

$(BUILD)/herd-nocheck: $(CLI_OBJ) $(BUILD)/nocheck/scenario.o $(BUILD)/libherdsim.a $(BUILD)/libherdpolicy.a
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/tests/%: tests/%.c $(BUILD)/libherdsim.a $(BUILD)/libherdpolicy.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Isim/policy -o $@ $(filter %.c %.a,$^) -lcmocka $(LDLIBS)

# Retry plugins (herdpolicy/plugin.h) of the tests: builtin calls the
# library's own functions (its position-independent objects linked in),
# fulljitter is written from the formula alone, bad_* are refused.
TEST_PLUGINS := builtin fulljitter bad_rand bad_clock bad_version bad_short bad_nan bad_global
TEST_PLUGIN_SO := $(TEST_PLUGINS:%=$(BUILD)/plugins/%.so)
PLUGIN_CFLAGS = $(ALL_CFLAGS) -fPIC -shared -Isim/policy
$(BUILD)/plugins/builtin.so: tests/plugins/builtin.c $(POLICY_PIC)
	@mkdir -p $(dir $@)
	$(CC) $(PLUGIN_CFLAGS) -o $@ $< $(POLICY_PIC) -lm
$(BUILD)/plugins/fulljitter.so: tests/plugins/fulljitter.c
	@mkdir -p $(dir $@)
	$(CC) $(PLUGIN_CFLAGS) -o $@ $< -lm
$(BUILD)/plugins/bad_%.so: tests/plugins/bad.c
	@mkdir -p $(dir $@)
	$(CC) $(PLUGIN_CFLAGS) -DBAD_$$(echo $* | tr a-z A-Z) -o $@ $< -lm

$(BUILD)/tests/plugin_grid: tests/plugin_grid.c $(BUILD)/libherdpolicy.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Isim/policy -o $@ $< $(BUILD)/libherdpolicy.a -ldl -lm

# Installs the Debian packages that are missing (needs root and apt-get);
# does nothing when all are present.
deps:
	@missing=""; for p in $(DEB_PKGS); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'install ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  if [ "$$(id -u)" != 0 ]; then echo "make deps: run as root (or install:$$missing)" >&2; exit 1; fi; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing; \
	fi

run: deps
	@$(MAKE) --no-print-directory all
	./herd run scenarios/thundering-herd.ini

# The builds of the first stage (herd, the libraries, the unit tests, what
# cli-test links), of the sanitizer stage and of the fuzzers use every core;
# the tests themselves run as before, one after the other.
NPROC := $(shell nproc 2>/dev/null || echo 1)
test: deps
	@n=0; for stage in all unit-test cli-test asan-test "fuzz FUZZ_SECONDS=60"; do \
	  case $$stage in all) j="-j$(NPROC) $(TEST_BIN) $(BUILD)/tests/validate $(CLI_TEST_BUILDS)" ;; asan-test|fuzz*) j=-j$(NPROC) ;; *) j= ;; esac; \
	  $(MAKE) --no-print-directory $$j $$stage || { echo "test: $$n passed, 1 failed ($$stage)"; exit 1; }; \
	  n=$$((n + 1)); \
	done; echo "test: $$n passed, 0 failed"

unit-test: $(TEST_BIN) $(BUILD)/tests/validate
	@set -e; for t in $(TEST_BIN); do echo "== $$t"; $$t; done
	$(BUILD)/tests/validate --quick

# The engine against queueing theory (M/M/1, M/M/c, M/D/1) and the retry
# process against its exact distributions: the full table.
validate: $(BUILD)/tests/validate
	$(BUILD)/tests/validate

CLI_TEST_BUILDS = $(BUILD)/$(SO_REAL) $(BUILD)/tests/plainhttp $(BUILD)/herd-nocheck $(BUILD)/perf_ref $(BUILD)/perf_agree \
                  $(TEST_PLUGIN_SO) $(BUILD)/tests/plugin_grid $(BUILD)/herd-python.so
cli-test: herd $(CLI_TEST_BUILDS)
	@sh tests/cli.sh ./herd
	@sh tests/docs.sh ./herd
	@sh tests/plot.sh ./herd
	@sh tests/figure-layout.sh ./herd
	@sh tests/hostile-plot.sh ./herd
	@sh tests/plot-signal.sh ./herd
	@sh tests/figure-write.sh ./herd
	@sh tests/publish.sh ./herd
	@sh tests/hardening.sh ./herd
	@sh tests/report.sh ./herd
	@sh tests/term.sh ./herd
	@sh tests/live-term.sh ./herd
	@sh tests/workshop.sh ./herd --check
	@sh tests/bad.sh ./herd
	@sh tests/noop.sh ./herd '' $(BUILD)/herd-nocheck
	@sh tests/zero.sh ./herd
	@sh tests/plugin.sh ./herd
	@sh tests/python-plugin.sh ./herd
	@sh tests/layers.sh
	@sh tests/rare.sh ./herd
	@sh tests/tune.sh ./herd
	@sh tests/tune-doc.sh ./herd --check
	@sh tests/real.sh ./herd $(BUILD)/tests/plainhttp
	@# plot-matrix (about 2 minutes of one core) runs beside the CPU-bound scripts below,
	@# none of which uses wall-clock time; its result is read after mutate.sh
	@rm -f $(BUILD)/plot-matrix.rc; (sh tests/plot-matrix.sh ./herd >$(BUILD)/plot-matrix.log 2>&1; \
	  echo $$? >$(BUILD)/plot-matrix.rc.tmp; mv $(BUILD)/plot-matrix.rc.tmp $(BUILD)/plot-matrix.rc) &
	@sh tests/golden.sh ./herd
	@sh tests/perf/agree.sh ./herd $(BUILD)/perf_ref $(BUILD)/perf_agree
	@sh tests/metamorphic.sh ./herd
	@sh tests/metrics.sh ./herd
	@sh tests/calibrate.sh ./herd
	@sh tests/recovery-invariant.sh ./herd
	@sh tests/mutate.sh ./herd 30
	@while [ ! -f $(BUILD)/plot-matrix.rc ]; do sleep 1; done; cat $(BUILD)/plot-matrix.log; \
	  [ "$$(cat $(BUILD)/plot-matrix.rc)" = 0 ] || { echo "plot-matrix: FAILED"; exit 1; }
	@if command -v mpicc >/dev/null; then $(MAKE) --no-print-directory mpi >/dev/null && sh tests/shard.sh ./herd ./herd-mpi; \
	 else sh tests/shard.sh ./herd; fi
	@$(MAKE) --no-print-directory install-test
	@echo "== valgrind: one end-to-end run, its plots and its report"
	valgrind -q --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=all ./herd run \
	  scenarios/thundering-herd.ini --quiet --set clients.count=300 --replications 2 --jobs 2 \
	  --set run.baseline=exponential -o $(BUILD)/valgrind-e2e
	valgrind -q --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=all ./herd run \
	  scenarios/thundering-herd.ini --quiet --set clients.count=300 --replications 2 --jobs 2 \
	  --set retry.plugin=$(CURDIR)/$(BUILD)/plugins/builtin.so -o $(BUILD)/valgrind-plugin
	valgrind -q --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=all ./herd plot \
	  $(BUILD)/valgrind-e2e --quiet
	valgrind -q --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=all ./herd report \
	  $(BUILD)/valgrind-e2e --quiet
	valgrind -q --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=all ./herd tune \
	  tests/tune/known.ini --set clients.count=100 --search retry.max_attempts=1:3:1 --minimize failures \
	  --subject-to 'amplification<=1.6' --min-replications 2 --max-replications 4 --validation-replications 2 \
	  --jobs 2 --quiet -o $(BUILD)/valgrind-tune

# libFuzzer (clang) over everything that reads untrusted input, one
# harness each: scenario parsing and the command line (fuzz_scenario), the
# shard reader and herd merge (fuzz_merge), herd plot's results-folder
# readers (fuzz_plot), the data-file readers (fuzz_data), herd serve's
# request routing (fuzz_serve), herd tune's flags (fuzz_tune), herd
# report's readers (fuzz_report).  FUZZ_SECONDS is the total: each harness
# gets a seventh of it, after replaying the inputs of every crash found so
# far (tests/fuzz-regressions/, the scenario harness's at the top, the
# others' in a folder named after the harness).  Corpora grow in
# build/fuzz-corpus/NAME.
FUZZERS  := scenario merge plot data serve tune report
FUZZ_EACH = $$(( $(FUZZ_SECONDS) / 7 > 1 ? $(FUZZ_SECONDS) / 7 : 1 ))
FUZZ_CC   = clang -std=c11 -D_DEFAULT_SOURCE -DHERD_NO_PLUGINS -Dmain=herd_main -g -O1 -fno-sanitize-recover=undefined
# the simulator compiled once for every harness (instrumented, not linked
# with the fuzzer's main), then one link per harness
FUZZ_OBJ := $(addprefix build/fuzz-obj/,$(SIM_SRC:.c=.o) $(POLICY_SRC:.c=.o) $(CLI_SRC:.c=.o))

build/fuzz-obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) -fsanitize=fuzzer-no-link,address,undefined -MMD -MP -c $< -o $@

build/libherdfuzz.a: $(FUZZ_OBJ)
	rm -f $@ && ar rcs $@ $^

build/fuzz_%: tests/fuzz_%.c tests/fuzzutil.h build/libherdfuzz.a
	@mkdir -p build
	$(FUZZ_CC) -fsanitize=fuzzer,address,undefined $< build/libherdfuzz.a -linih -lgsl -lgslcblas -lm -lpthread \
	  $(REAL_LIBS) -o $@

fuzz-seeds: herd
	@sh tests/fuzz-seeds.sh ./herd build/fuzz-corpus

# -timeout=30 (seconds an input may take): the largest plan herd accepts,
# a sweep of 10,000 points, is loaded, checked and planned twice by
# fuzz_scenario in about 6.5 s with the sanitizers on a loaded machine
# (tests/fuzz-regressions/timeout-sweep-10000-points); a hang still fails.
# the harnesses' scratch files (written every input) in memory when /dev/shm is there
FUZZ_TMP := $(if $(wildcard /dev/shm/.),/dev/shm,/tmp)
fuzz: export TMPDIR := $(FUZZ_TMP)
fuzz: $(FUZZERS:%=build/fuzz_%) fuzz-seeds
	@mkdir -p build/fuzz-corpus/scenario
	@cp scenarios/*.ini build/fuzz-corpus/scenario/ 2>/dev/null; \
	 for f in tests/bad/*.ini tests/fuzz-regressions/*; do [ -f "$$f" ] && cp "$$f" build/fuzz-corpus/scenario/; done; \
	 printf '[clients]\ncount = 5\n[sweep]\nkey = run.seed\nvalues = 1:3:1\n--\n--set\nretry.max_attempts=3\n--sweep\nserver.workers=1,2\n--replications\n2\n' \
	   >build/fuzz-corpus/scenario/flags-1.txt; \
	 printf '[clients]\ncount = 3\n[variant a]\nrun.seed = 4\n--\n--seed\n7\n-o\n\n--jobs\n2\n' >build/fuzz-corpus/scenario/flags-2.txt; true
	@echo "fuzz: replaying the inputs of every crash found so far (tests/fuzz-regressions)"
	build/fuzz_scenario -close_fd_mask=3 $$(find tests/fuzz-regressions -maxdepth 1 -type f)
	@set -e; for h in merge plot data serve tune report; do \
	  if [ -d tests/fuzz-regressions/$$h ] && [ -n "$$(ls tests/fuzz-regressions/$$h)" ]; then \
	    echo "build/fuzz_$$h tests/fuzz-regressions/$$h/*"; build/fuzz_$$h -close_fd_mask=3 tests/fuzz-regressions/$$h/*; fi; \
	done
	@set -e; for h in $(FUZZERS); do \
	  echo "== fuzz_$$h: $(FUZZ_EACH) s"; \
	  build/fuzz_$$h -max_total_time=$(FUZZ_EACH) -max_len=$$( [ $$h = merge ] || [ $$h = plot ] || [ $$h = report ] && echo 65536 || echo 4096 ) \
	    -timeout=30 -close_fd_mask=1 -rss_limit_mb=2048 -print_final_stats=1 build/fuzz-corpus/$$h; \
	done

# Regenerates tests/golden/ on purpose: review the diff before committing.
update-golden: herd
	@sh tests/golden.sh ./herd --update
	@sh tests/noop.sh ./herd --update

# The unit tests, one end-to-end run and the real server and client's
# smoke test again, built with ASan and UBSan.
asan-test:
	@$(MAKE) --no-print-directory BUILD=build-asan LTO_CFLAGS= LTO_LINK= \
	  CFLAGS="-O1 -g -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer" \
	  build-asan/libherdpolicy.a $(TESTS:%=build-asan/tests/%) build-asan/tests/plainhttp herd-asan
	@set -e; for t in $(TESTS:%=build-asan/tests/%); do echo "== $$t (asan)"; $$t; done
	./herd-asan run scenarios/thundering-herd.ini --quiet -o $(BUILD)/asan-e2e \
	  --set clients.count=500 --replications 2 --jobs 2
	@sh tests/real.sh ./herd-asan build-asan/tests/plainhttp
	./herd-asan tune tests/tune/known.ini --set clients.count=200 --search retry.max_attempts=1:4:1 \
	  --minimize failures --subject-to 'amplification<=1.8' --jobs 2 --quiet -o $(BUILD)/asan-tune
	@echo "asan: end-to-end run clean"

# herd-mpi: the same program with MPI job distribution (herd run --mpi
# under mpirun), built with Open MPI's mpicc when it is installed; the
# plain build has no MPI dependency.
MPI_SRC := $(SIM_SRC) sim/experiment/mpi.c $(POLICY_SRC) $(CLI_SRC)
mpi: herd-mpi
herd-mpi: $(MPI_SRC) $(wildcard sim/*/*.h sim/policy/herdpolicy/*.h)
	@command -v mpicc >/dev/null || { echo "make mpi: mpicc not found (apt-get install libopenmpi-dev openmpi-bin)" >&2; exit 1; }
	mpicc -std=c11 -D_DEFAULT_SOURCE -DHERD_MPI $(WARN) $(CFLAGS) -o $@ $(MPI_SRC) $(LDLIBS)

herd-asan: $(CLI_OBJ) $(BUILD)/libherdsim.a $(BUILD)/libherdpolicy.a
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDLIBS)

# Regenerates the published results (AWS 2015, the 62/65 claim) and their
# figures into out/, and prints the headline tables.
reproduce: deps
	@$(MAKE) --no-print-directory all
	@sh tests/reproduce.sh ./herd out

# Every figure of the README and doc/, a rule per image: the scenario runs into
# build/figures/NAME/, herd plot draws it (talk style), the figure is copied
# into plots/ (committed).  tests/plot.sh checks that every image of the
# README.md and doc/*.md has its rule here.
FIGURES := plots/thundering-herd.png plots/thundering-herd.gif plots/aws-2015-completion.png \
           plots/aws-2015-calls.png plots/aws-2015-calls-over-time.png plots/jitter-62-65.png \
           plots/jitter-62-65-sensitivity.png plots/idempotency-variants.png plots/layers-variants.png \
           plots/metastable-goodput.png plots/agent-stack-variants.png plots/incident-replay.png \
           plots/incident-replay-goodput.png plots/metastable-breaker.png plots/metastable-throttle.png \
           plots/metastable-budget.png plots/realcheck.png plots/metastable-map.png plots/metastable-boundaries.png \
           plots/quota-per-instance-variants.png plots/tune-brownout.png plots/priority-shedding-variants.png \
           plots/metafor-collapse.png plots/metafor-recovered.png
FIGURE   = sh tests/figure.sh ./herd $@
FIG_DEPS = herd tests/figure.sh $(wildcard plots/*.gp)

figures: $(FIGURES) workshop-figures

# the workshop's five figures, into scenarios/workshop/ (committed); make
# workshop draws them into build/workshop/ only, so that preparing a
# session leaves a checkout clean
workshop-figures: herd
	@WORKSHOP_FIGURES=1 sh tests/workshop.sh ./herd

figures-list:
	@echo $(FIGURES)

build/figures/%/aggregate.csv: scenarios/%.ini herd
	./herd run $< -o $(@D) --quiet

plots/thundering-herd.png: build/figures/thundering-herd/aggregate.csv $(FIG_DEPS)
	$(FIGURE) build/figures/thundering-herd timeseries
plots/thundering-herd.gif: build/figures/thundering-herd/aggregate.csv $(FIG_DEPS)
	$(FIGURE) build/figures/thundering-herd load.gif
plots/metafor-collapse.png: build/figures/metafor-collapse/aggregate.csv $(FIG_DEPS)
	$(FIGURE) build/figures/metafor-collapse sweep_collapsed_before_trigger --metric collapsed_before_trigger
plots/metafor-recovered.png: build/figures/metafor-collapse/aggregate.csv $(FIG_DEPS)
	$(FIGURE) build/figures/metafor-collapse sweep_recovered --metric recovered
plots/aws-2015-completion.png: build/figures/aws-2015-occ/aggregate.csv $(FIG_DEPS)
	$(FIGURE) build/figures/aws-2015-occ sweep_completion_time_s --metric completion_time_s
plots/aws-2015-calls.png: build/figures/aws-2015-occ/aggregate.csv $(FIG_DEPS)
	$(FIGURE) build/figures/aws-2015-occ sweep_calls --metric calls
plots/aws-2015-calls-over-time.png: build/figures/aws-2015-occ/aggregate.csv $(FIG_DEPS)
	$(FIGURE) build/figures/aws-2015-occ timeseries --point clients.count=100
plots/jitter-62-65.png: build/figures/jitter-62-65/aggregate.csv $(FIG_DEPS)
	$(FIGURE) build/figures/jitter-62-65 compare
plots/jitter-62-65-sensitivity.png: build/figures/jitter-62-65-sensitivity/aggregate.csv $(FIG_DEPS)
	$(FIGURE) build/figures/jitter-62-65-sensitivity sensitivity
plots/idempotency-variants.png: build/figures/idempotency/aggregate.csv $(FIG_DEPS)
	$(FIGURE) build/figures/idempotency variants
plots/layers-variants.png: build/figures/layers/aggregate.csv $(FIG_DEPS)
	$(FIGURE) build/figures/layers variants
plots/metastable-goodput.png: build/figures/metastable/aggregate.csv $(FIG_DEPS)
	$(FIGURE) build/figures/metastable goodput
plots/agent-stack-variants.png: build/figures/agent-stack/aggregate.csv $(FIG_DEPS)
	$(FIGURE) build/figures/agent-stack variants --metric amplification --metric status_429 --metric failures
plots/priority-shedding-variants.png: build/figures/priority-shedding/aggregate.csv $(FIG_DEPS)
	$(FIGURE) build/figures/priority-shedding variants --metric recovered --metric recovery_time_s \
	  --metric goodput_per_s --metric wasted_work_s --metric late_replies --metric expired_skipped --metric shed \
	  --metric failures
plots/quota-per-instance-variants.png: build/figures/quota-per-instance/aggregate.csv $(FIG_DEPS)
	$(FIGURE) build/figures/quota-per-instance variants --metric amplification --metric retries_denied --metric failures
build/figures/incident-replay/aggregate.csv: $(wildcard scenarios/data/*.csv)
plots/incident-replay.png: build/figures/incident-replay/aggregate.csv $(FIG_DEPS)
	$(FIGURE) build/figures/incident-replay replay
plots/incident-replay-goodput.png: build/figures/incident-replay/aggregate.csv $(FIG_DEPS)
	$(FIGURE) build/figures/incident-replay goodput --variant retries
# The mechanisms at work (mechanisms.csv), replication 0 of three variants.
MECH_DEPS = build/figures/metastable/aggregate.csv tests/mechanisms.sh plots/mechanisms.gp
plots/metastable-breaker.png: $(MECH_DEPS)
	sh tests/mechanisms.sh build/figures/metastable circuit_breaker breaker $@ 40 140
plots/metastable-throttle.png: $(MECH_DEPS)
	sh tests/mechanisms.sh build/figures/metastable adaptive_throttling throttle $@ 0 330
plots/metastable-budget.png: $(MECH_DEPS)
	sh tests/mechanisms.sh build/figures/metastable retry_budget budget $@ 50 130

plots/realcheck.png: herd scenarios/realcheck.ini plots/realcheck.gp tests/realcheck.sh
	sh tests/realcheck.sh ./herd build/realcheck
	cp build/realcheck/realcheck.png $@
# herd tune's figure: the search of scenarios/tune-brownout.ini over the
# whole run (doc/tune.md; about 30 s on 2 cores)
TUNE_BROWNOUT = --search retry.max_attempts=2:5:1 --search retry.cap_s=1,4,20 \
                --search limits.limiter=none,aws_quota --search limits.breaker=false,true \
                --minimize failures --subject-to 'amplification<=1.3'
plots/tune-brownout.png: herd scenarios/tune-brownout.ini plots/tune.gp
	./herd tune scenarios/tune-brownout.ini $(TUNE_BROWNOUT) -o build/figures/tune-brownout --quiet
	cp build/figures/tune-brownout/tune.png $@
# both maps from one run (about 4 minutes on 2 cores): see tests/map-figure.sh
plots/metastable-map.png: build/figures/metastable-map/aggregate.csv tests/map-figure.sh plots/metastable-map.gp
	sh tests/map-figure.sh build/figures/metastable-map plots
plots/metastable-boundaries.png: plots/metastable-map.png

# herd tune against the exhaustive grid on the thundering herd (at most 30%
# of its events, the grid's optimum), and the winner's curse measured over
# 40 tunes (the coverage of the validated CI by fresh runs, Wilson
# interval): a few minutes each, not part of make test.
tune-check: herd
	sh tests/tune-grid.sh ./herd build/tune-check
# doc/tune.md's brown-out figures against both searches run again (about
# 2 minutes on 2 cores; make test only checks that the page quotes them)
tune-doc: herd
	sh tests/tune-doc.sh ./herd build/tune-doc
tune-coverage: herd
	sh tests/tune-coverage.sh ./herd build/tune-coverage 40

# The metastability maps, their headline, the trigger-height check and the
# hysteresis (doc/metastable.md): about 35 minutes of one core
# per run x 2 cores; everything lands in out/.
metastable-maps: herd
	./herd run scenarios/metastable-map.ini -o out/metastable-map --quiet
	./herd run scenarios/metastable-map.ini --set 'sweep trigger.values=110' --replications 40 -o out/metastable-headline --quiet
	./herd run scenarios/metastable-map.ini --set 'sweep trigger.values=110' --sweep clients.spike_rate_per_s=1250,2500,5000 -o out/metastable-map-height --quiet
	./herd run scenarios/metastable-hysteresis.ini -o out/metastable-hysteresis --quiet
	sh tests/map-figure.sh out/metastable-map out
	sh tests/map-figure.sh out/metastable-map-height out metastable-map-height
	@sh tests/map-table.sh out

# The workshop kit (scenarios/workshop/): runs every lesson (and the
# exercises' runs), checks that each still shows what its page says (claims
# with tolerances that hold across seeds, and every number the pages quote
# against the run, within its 95% interval: tests/workshop-numbers.py), and
# draws each lesson's figure (talk style) into build/workshop/ (make
# figures draws them into scenarios/workshop/).
workshop: herd
	@sh tests/workshop.sh ./herd

# The simulator against reality: scenarios/realcheck.ini simulated (herd
# run) and real (herd drive against herd serve on 127.0.0.1), the
# side-by-side table and build/realcheck/realcheck.png.  A few minutes of
# real time.
realcheck: deps
	@$(MAKE) --no-print-directory all
	@sh tests/realcheck.sh ./herd build/realcheck

# The tests that depend on wall-clock time (real.sh, realcheck.sh --quick,
# plot-signal.sh), STRESS_ROUNDS times in a row with every core kept busy:
# every round must pass.  About a minute per round on 2 cores.
STRESS_ROUNDS ?= 20
stress: herd $(BUILD)/tests/plainhttp
	@sh tests/stress.sh ./herd $(STRESS_ROUNDS) $(BUILD)/tests/plainhttp

bench: deps
	@$(MAKE) --no-print-directory all
	@$(MAKE) --no-print-directory $(BUILD)/perf_ref
	@sh tests/bench.sh ./herd $(BUILD)/perf_ref

# make install PREFIX=/usr/local DESTDIR=: the binary, libherdpolicy (static
# and shared, with its header and pkg-config file), the man pages, the
# scenarios and the plot scripts.  make uninstall removes exactly these.
INSTALL_SHARE := $(PREFIX)/share/herd
INSTALL_FILES  = bin/herd libexec/herd/herd-real lib/libherdpolicy.a lib/$(SO_REAL) lib/$(SO_NAME) lib/libherdpolicy.so \
                 include/herdpolicy.h include/herdpolicy/limits.h include/herdpolicy/client.h include/herdpolicy/plugin.h \
                 lib/herd/herd-python.so lib/herd/python/herd_adapters.py lib/pkgconfig/herdpolicy.pc share/man/man1/herd.1 share/man/man3/herdpolicy.3 \
                 share/man/man5/herd-scenario.5

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/include \
	  $(DESTDIR)$(PREFIX)/share/man/man1 $(DESTDIR)$(PREFIX)/share/man/man3 $(DESTDIR)$(PREFIX)/share/man/man5
	install -m 755 herd $(DESTDIR)$(PREFIX)/bin/herd
	install -d $(DESTDIR)$(PREFIX)/libexec/herd
	install -m 755 herd-real $(DESTDIR)$(PREFIX)/libexec/herd/herd-real
	@# the archive's objects without their link-time-optimisation sections: plain
	@# code that any compiler's linker takes
	objcopy -w -R '.gnu.lto_*' -R '.gnu.debuglto_*' $(BUILD)/libherdpolicy.a $(DESTDIR)$(PREFIX)/lib/libherdpolicy.a
	chmod 644 $(DESTDIR)$(PREFIX)/lib/libherdpolicy.a
	install -m 755 $(BUILD)/$(SO_REAL) $(DESTDIR)$(PREFIX)/lib/$(SO_REAL)
	ln -sf $(SO_REAL) $(DESTDIR)$(PREFIX)/lib/$(SO_NAME)
	ln -sf $(SO_NAME) $(DESTDIR)$(PREFIX)/lib/libherdpolicy.so
	install -m 644 sim/policy/herdpolicy.h $(DESTDIR)$(PREFIX)/include/herdpolicy.h
	install -d $(DESTDIR)$(PREFIX)/include/herdpolicy
	install -m 644 sim/policy/herdpolicy/limits.h sim/policy/herdpolicy/client.h sim/policy/herdpolicy/plugin.h \
	  $(DESTDIR)$(PREFIX)/include/herdpolicy/
	@# the Python adapter and its shipped adapters (the installed herd finds them in ../lib/herd)
	install -d $(DESTDIR)$(PREFIX)/lib/herd/python
	install -m 755 $(BUILD)/herd-python.so $(DESTDIR)$(PREFIX)/lib/herd/herd-python.so
	install -m 644 sim/plugin/python/herd_adapters.py $(DESTDIR)$(PREFIX)/lib/herd/python/herd_adapters.py
	@# written for this PREFIX every time (a file target would keep an earlier install's prefix)
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(HP_VERSION_NUM)|' sim/policy/herdpolicy.pc.in >$(BUILD)/herdpolicy.pc
	install -m 644 $(BUILD)/herdpolicy.pc $(DESTDIR)$(PREFIX)/lib/pkgconfig/herdpolicy.pc
	install -m 644 herd.1 $(DESTDIR)$(PREFIX)/share/man/man1/herd.1
	install -m 644 herdpolicy.3 $(DESTDIR)$(PREFIX)/share/man/man3/herdpolicy.3
	install -m 644 herd-scenario.5 $(DESTDIR)$(PREFIX)/share/man/man5/herd-scenario.5
	install -d $(DESTDIR)$(INSTALL_SHARE)/plots
	install -m 644 plots/*.gp $(DESTDIR)$(INSTALL_SHARE)/plots/
	@cd scenarios && find . -type d | while read -r d; do install -d "$(DESTDIR)$(INSTALL_SHARE)/scenarios/$$d"; done; \
	 find . -type f \( -name '*.ini' -o -name '*.md' -o -name '*.csv' -o -name '*.sh' -o -name '*.py' \) | while read -r f; do \
	   install -m 644 "$$f" "$(DESTDIR)$(INSTALL_SHARE)/scenarios/$$f" || exit 1; done

# make install into a temporary DESTDIR, build a program against it with
# pkg-config alone (shared and static), check the man pages, uninstall.
install-test: all
	@MAKE="$(MAKE)" sh tests/install.sh

uninstall:
	rm -f $(addprefix $(DESTDIR)$(PREFIX)/,$(INSTALL_FILES))
	rm -rf $(DESTDIR)$(INSTALL_SHARE)
	-rmdir $(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/include/herdpolicy $(DESTDIR)$(PREFIX)/libexec/herd \
	  $(DESTDIR)$(PREFIX)/lib/herd/python $(DESTDIR)$(PREFIX)/lib/herd 2>/dev/null

clean:
	rm -rf build build-asan herd herd-real herd-asan herd-mpi

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)

# Rewrites the generated references from the program: the key reference of
# doc/scenarios.md (herd keys) and herd-scenario.5 (herd keys through
# tests/scenario-man.sh), the column table of doc/outputs.md (herd columns)
# and the preset table of doc/presets.md (herd presets).  tests/docs.sh
# checks that they are up to date.
REGEN = awk -v f="$(1)" -v tag="$(2)" 'BEGIN { skip = 0 } \
	  $$0 == "<!-- " tag ":begin -->" { print; while ((getline l < f) > 0) print l; skip = 1; next } \
	  $$0 == "<!-- " tag ":end -->" { skip = 0 } !skip { print }' $(3) >build/regen.new && mv build/regen.new $(3)
readme-keys: herd
	@mkdir -p build
	@./herd columns >build/columns.md
	@$(call REGEN,build/columns.md,columns,doc/outputs.md)
	@./herd keys >build/keys.md
	@$(call REGEN,build/keys.md,keys,doc/scenarios.md)
	@./herd presets >build/presets.md
	@$(call REGEN,build/presets.md,presets,doc/presets.md)
	@sh tests/scenario-man.sh <build/keys.md >build/herd-scenario.5 && mv build/herd-scenario.5 herd-scenario.5
	@echo "doc/scenarios.md, doc/outputs.md, doc/presets.md, herd-scenario.5: references updated"
