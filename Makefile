# herd - a discrete-event simulator for retry storms.
#
#   make run      install what is missing (as root, apt-get), build, run the default scenario
#   make test     same set-up, then every test (unit, end-to-end, sanitizers)
#   make          build ./herd and libherdpolicy.a
#   make reproduce  the AWS 2015 simulation and the 62/65 claim, with figures, into out/
#   make validate the engine against queueing theory (full table)
#   make fuzz     libFuzzer over scenario parsing (FUZZ_SECONDS=600)
#   make bench    events/s and peak memory, ladder queue vs heap, 1e4..1e7 clients and the OCC sweep
#   make install  PREFIX=/usr/local DESTDIR=
#   make readme-keys  regenerate the key reference in README.md
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
ALL_CFLAGS = -std=c11 -D_DEFAULT_SOURCE $(WARN) $(CFLAGS) -MMD -MP
LDLIBS   := -linih -lgsl -lgslcblas -lm -lpthread

DEB_PKGS := make gcc libc6-dev libgsl-dev gnuplot-nox libcmocka-dev libinih-dev valgrind \
            clang libclang-rt-14-dev
FUZZ_SECONDS ?= 600
FUZZ_SRC = tests/fuzz_scenario.c sim/scenario/scenario.c sim/scenario/keys.c sim/scenario/expand.c sim/spec/dist.c sim/model/sample.c sim/model/results.c sim/model/lathist.c sim/model/model.c sim/model/client.c sim/model/server.c sim/model/occ.c sim/engine/equeue.c sim/engine/chunk.c sim/engine/ladder.c sim/engine/rng.c sim/engine/sim.c sim/scenario/compile.c sim/experiment/plan.c sim/base/alloc.c \
            $(POLICY_SRC)

POLICY_SRC := sim/policy/backoff.c sim/policy/classify.c sim/policy/retry_after.c sim/policy/limit.c sim/policy/breaker.c sim/policy/throttle.c sim/policy/hedge.c
SIM_SRC    := sim/base/alloc.c \
              sim/engine/equeue.c sim/engine/chunk.c sim/engine/ladder.c \
              sim/engine/rng.c sim/engine/sim.c \
              sim/spec/dist.c \
              sim/model/sample.c sim/model/results.c sim/model/lathist.c sim/model/model.c sim/model/client.c \
              sim/model/server.c sim/model/occ.c \
              sim/scenario/scenario.c sim/scenario/keys.c sim/scenario/expand.c sim/scenario/compile.c \
              sim/report/csv.c sim/report/stats.c sim/report/report.c sim/report/plot.c \
              sim/experiment/plan.c sim/experiment/experiment.c
CLI_SRC    := sim/cli/main.c
TESTS      := test_policy test_retry_after test_limit test_equeue test_engine test_lathist test_dist test_scenario test_model

POLICY_OBJ := $(POLICY_SRC:%.c=$(BUILD)/%.o)
SIM_OBJ    := $(SIM_SRC:%.c=$(BUILD)/%.o)
CLI_OBJ    := $(CLI_SRC:%.c=$(BUILD)/%.o)
TEST_BIN   := $(TESTS:%=$(BUILD)/tests/%)

.PHONY: all deps run test unit-test cli-test asan-test bench reproduce validate update-golden fuzz install clean readme-keys

all: herd $(BUILD)/libherdpolicy.a

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

$(BUILD)/libherdpolicy.a: $(POLICY_OBJ)
	rm -f $@ && ar rcs $@ $^

$(BUILD)/libherdsim.a: $(SIM_OBJ)
	rm -f $@ && ar rcs $@ $^

herd: $(CLI_OBJ) $(BUILD)/libherdsim.a $(BUILD)/libherdpolicy.a
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/tests/%: tests/%.c $(BUILD)/libherdsim.a $(BUILD)/libherdpolicy.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Isim/policy -o $@ $(filter %.c %.a,$^) -lcmocka $(LDLIBS)

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

test: deps
	@n=0; for stage in all unit-test cli-test asan-test "fuzz FUZZ_SECONDS=60"; do \
	  $(MAKE) --no-print-directory $$stage || { echo "test: $$n passed, 1 failed ($$stage)"; exit 1; }; \
	  n=$$((n + 1)); \
	done; echo "test: $$n passed, 0 failed"

unit-test: $(TEST_BIN) $(BUILD)/tests/validate
	@set -e; for t in $(TEST_BIN); do echo "== $$t"; $$t; done
	$(BUILD)/tests/validate --quick

# The engine against queueing theory (M/M/1, M/M/c, M/D/1) and the retry
# process against its exact distributions: the full table.
validate: $(BUILD)/tests/validate
	$(BUILD)/tests/validate

cli-test: herd
	@sh tests/cli.sh ./herd
	@sh tests/plot.sh ./herd
	@sh tests/bad.sh ./herd
	@sh tests/golden.sh ./herd
	@echo "== valgrind: one end-to-end run and its plots"
	valgrind -q --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=all ./herd run \
	  scenarios/thundering-herd.ini --quiet --set clients.count=300 --replications 2 --jobs 2 \
	  --set run.baseline=exponential -o $(BUILD)/valgrind-e2e
	valgrind -q --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=all ./herd plot \
	  $(BUILD)/valgrind-e2e --quiet

# libFuzzer over scenario parsing (clang).  The corpus grows in
# build/fuzz-corpus; seeds are every scenario and every bad input.
build/fuzz_scenario: $(FUZZ_SRC)
	@mkdir -p build
	clang -std=c11 -D_DEFAULT_SOURCE -g -O1 -fsanitize=fuzzer,address,undefined \
	  -fno-sanitize-recover=undefined $(FUZZ_SRC) -linih -lgsl -lgslcblas -lm -o $@

fuzz: build/fuzz_scenario
	@mkdir -p build/fuzz-corpus
	@cp scenarios/*.ini build/fuzz-corpus/ 2>/dev/null; \
	 for f in tests/bad/*.ini; do [ -f "$$f" ] && cp "$$f" build/fuzz-corpus/; done; true
	build/fuzz_scenario -max_total_time=$(FUZZ_SECONDS) -max_len=4096 -timeout=10 \
	  -rss_limit_mb=2048 -print_final_stats=1 build/fuzz-corpus

# Regenerates tests/golden/ on purpose: review the diff before committing.
update-golden: herd
	@sh tests/golden.sh ./herd --update

# The unit tests and one end-to-end run again, built with ASan and UBSan.
asan-test:
	@$(MAKE) --no-print-directory BUILD=build-asan \
	  CFLAGS="-O1 -g -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer" \
	  build-asan/libherdpolicy.a $(TESTS:%=build-asan/tests/%) herd-asan
	@set -e; for t in $(TESTS:%=build-asan/tests/%); do echo "== $$t (asan)"; $$t; done
	./herd-asan run scenarios/thundering-herd.ini --quiet -o $(BUILD)/asan-e2e \
	  --set clients.count=500 --replications 2 --jobs 2
	@echo "asan: end-to-end run clean"

herd-asan: $(CLI_OBJ) $(BUILD)/libherdsim.a $(BUILD)/libherdpolicy.a
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDLIBS)

# Regenerates the published results (AWS 2015, the 62/65 claim) and their
# figures into out/, and prints the headline tables.
reproduce: deps
	@$(MAKE) --no-print-directory all
	@sh tests/reproduce.sh ./herd out

bench: deps
	@$(MAKE) --no-print-directory all
	@sh tests/bench.sh ./herd

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/include
	install -m 755 herd $(DESTDIR)$(PREFIX)/bin/herd
	install -m 644 $(BUILD)/libherdpolicy.a $(DESTDIR)$(PREFIX)/lib/libherdpolicy.a
	install -m 644 sim/policy/herdpolicy.h $(DESTDIR)$(PREFIX)/include/herdpolicy.h
	install -d $(DESTDIR)$(PREFIX)/share/herd/plots
	install -m 644 plots/*.gp $(DESTDIR)$(PREFIX)/share/herd/plots/

clean:
	rm -rf build build-asan herd herd-asan

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)

# Rewrites the key reference in README.md from the key table (herd keys).
readme-keys: herd
	@./herd keys >build/keys.md
	@awk 'BEGIN { skip = 0 } \
	  /<!-- keys:begin -->/ { print; while ((getline l < "build/keys.md") > 0) print l; skip = 1; next } \
	  /<!-- keys:end -->/ { skip = 0 } !skip { print }' README.md >build/README.md.new
	@mv build/README.md.new README.md
	@echo "README.md: key reference updated"
