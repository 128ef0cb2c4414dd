# strataudit - audit a trading strategy: make audit STRATEGY=x.py TRIALS=50
#
# Every stage is a small C program that reads and writes JSON files in out/$(NAME)/; this
# Makefile wires them, one file a target. `make help` lists the knobs.

# --- knobs -----------------------------------------------------------------------------------
STRATEGY ?=
TRADES ?=
TRIALS ?= 1
DATA ?= data/ohlcv.csv
NAME ?= $(basename $(notdir $(or $(STRATEGY),$(TRADES),none)))
FEE_BPS ?= 5
SLIPPAGE_BPS ?= 2
FUNDING_BPS_8H ?= 1

# sandbox limits, per run
WALL_S ?= 20
CPU_S ?= 20
MEM_MB ?= 1024
SCRATCH_MB ?= 16
NOFILE ?= 64
SANDBOX_JOBS ?= $(shell nproc 2>/dev/null || echo 2)

# look-ahead truncation runs
LOOKAHEAD_MAX ?= 2000
LOOKAHEAD_SEED ?= 1

# gates
GATE_MIN_TRADES ?= 100
GATE_PSR ?= 0.95
GATE_DSR ?= 0.95
GATE_MAX_DD ?= 0.25

# nightly batch
STRATEGIES ?= demos
MAIL_TO ?=
MAIL_FROM ?=
SMTP_URL ?=

VERSION := 0.1.0

# --- build -----------------------------------------------------------------------------------
# VARIANT=rel (optimised) or asan (ASan + UBSan); `make test` builds and runs both.
VARIANT ?= rel
B := build/$(VARIANT)
BIN := $(B)/bin

PKGS := libcjson python-3.11-embed libseccomp cairo fontconfig xlsxwriter gsl libzip libcurl sqlite3 cmocka openssl
CC ?= cc
OPT_rel := -O2 -g
OPT_asan := -O1 -g
CFLAGS ?= $(OPT_$(VARIANT))
# the sanitizers are added whatever CFLAGS the environment sets
SAN_asan := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
WARN := -std=c11 -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes
CPPFLAGS += -D_GNU_SOURCE -DSA_VERSION='"$(VERSION)"' -Ipipeline -Ipipeline/lib -Isandbox -Ireport \
	$(shell pkg-config --cflags $(PKGS) 2>/dev/null)
LDLIBS += $(shell pkg-config --libs $(PKGS) 2>/dev/null) -lcsv -lm
LDFLAGS_asan := -fsanitize=address,undefined
LDFLAGS += $(LDFLAGS_$(VARIANT))

Q := $(if $(V),,@)
say = $(if $(V),,@printf '  %-8s %s\n' $(1) $(2);)

# Programs: each is one .c with a thin main; every other .c in its folder is a module, archived
# once per folder so programs and unit tests link the same code.
# Adding a stage: write pipeline/<stage>.c, add <stage> to PIPELINE_PROGS, add its rule in the
# audit section below, and its tests under tests/.
PIPELINE_PROGS := fingerprint inspect lookahead replay stats verdict
SANDBOX_PROGS := sandbox
REPORT_PROGS := bundle mail nightly report
DATA_PROGS := gendata
PROGS := $(PIPELINE_PROGS) $(SANDBOX_PROGS) $(REPORT_PROGS) $(DATA_PROGS)

mains := $(PIPELINE_PROGS:%=pipeline/%.c) $(SANDBOX_PROGS:%=sandbox/%.c) \
	$(REPORT_PROGS:%=report/%.c) $(DATA_PROGS:%=data/%.c)
lib_src := $(sort $(wildcard pipeline/lib/*.c))
mod_src := $(sort $(filter-out $(mains) $(lib_src),$(wildcard pipeline/*.c sandbox/*.c report/*.c data/*.c)))
LIBSA := $(B)/libsa.a
LIBMOD := $(B)/libmodules.a
present_mains := $(wildcard $(mains))
BINS := $(foreach m,$(present_mains),$(BIN)/$(basename $(notdir $(m))))

UNIT_SRC := $(sort $(wildcard tests/unit/test_*.c))
UNIT_BINS := $(UNIT_SRC:tests/unit/%.c=$(B)/tests/%)

.DEFAULT_GOAL := help
.DELETE_ON_ERROR:
.SECONDARY:
.PHONY: all audit bench clean demos deps help nightly test test-unit unit-bins FORCE

all: $(BINS)

$(B)/%.o: %.c
	$(call say,CC,$<)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(CPPFLAGS) $(WARN) $(CFLAGS) $(SAN_$(VARIANT)) -MMD -MP -c -o $@ $<

$(LIBSA): $(lib_src:%.c=$(B)/%.o)
	$(call say,AR,$@)
	$(Q)rm -f $@ && ar rcs $@ $^

$(LIBMOD): $(mod_src:%.c=$(B)/%.o)
	$(call say,AR,$@)
	$(Q)rm -f $@ && ar rcs $@ $(or $^,/dev/null) 2>/dev/null || ar rcs $@

define prog_rule
$(BIN)/$(1): $(B)/$(2)/$(1).o $(LIBMOD) $(LIBSA)
	$$(call say,LD,$$@)
	@mkdir -p $$(dir $$@)
	$$(Q)$$(CC) $$(LDFLAGS) -o $$@ $$^ $$(LDLIBS)
endef
$(foreach p,$(PIPELINE_PROGS),$(eval $(call prog_rule,$(p),pipeline)))
$(foreach p,$(SANDBOX_PROGS),$(eval $(call prog_rule,$(p),sandbox)))
$(foreach p,$(REPORT_PROGS),$(eval $(call prog_rule,$(p),report)))
$(foreach p,$(DATA_PROGS),$(eval $(call prog_rule,$(p),data)))

$(B)/tests/%: $(B)/tests/unit/%.o $(LIBMOD) $(LIBSA)
	$(call say,LD,$@)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

-include $(shell find $(B) -name '*.d' 2>/dev/null)

# --- set-up ----------------------------------------------------------------------------------
# build/.deps records that scripts/install-deps found (or installed) every system package.
build/.deps: scripts/install-deps
	$(Q)scripts/install-deps
	@mkdir -p build && touch $@
deps: build/.deps

data/ohlcv.csv: data/gendata.c | build/.deps
	$(Q)$(MAKE) --no-print-directory VARIANT=rel build/rel/bin/gendata
	$(call say,GEN,$@)
	$(Q)build/rel/bin/gendata -o $@

# --- one audit -------------------------------------------------------------------------------
OUT := out/$(NAME)
R := build/rel/bin
S_COPY := $(if $(STRATEGY),$(OUT)/strategy.py)
T_COPY := $(if $(TRADES),$(OUT)/tradelog.csv)
UPLOADS := $(S_COPY) $(T_COPY)
S_ARG := $(if $(STRATEGY),--strategy $(OUT)/strategy.py)
T_ARG := $(if $(TRADES),--trades $(OUT)/tradelog.csv)
LIMITS := --wall-s $(WALL_S) --cpu-s $(CPU_S) --mem-mb $(MEM_MB) --scratch-mb $(SCRATCH_MB) \
	--nofile $(NOFILE)
COSTS := --fee-bps $(FEE_BPS) --slippage-bps $(SLIPPAGE_BPS) --funding-bps-8h $(FUNDING_BPS_8H)
GATES := --min-trades $(GATE_MIN_TRADES) --min-psr $(GATE_PSR) --min-dsr $(GATE_DSR) \
	--max-dd $(GATE_MAX_DD)
BUNDLE := $(OUT)/$(NAME).zip

audit: build/.deps
	$(Q)test -n "$(STRATEGY)$(TRADES)" || { echo "make: give STRATEGY=file.py and/or TRADES=log.csv (see make help)"; exit 2; }
	$(Q)$(MAKE) --no-print-directory VARIANT=rel all
	$(Q)$(MAKE) --no-print-directory VARIANT=rel $(BUNDLE)
	$(Q)$(R)/verdict --print $(OUT)/verdict.json

$(OUT)/.dir:
	@mkdir -p $(OUT) && touch $@

$(OUT)/strategy.py: $(STRATEGY) $(OUT)/.knobs-inputs
	$(Q)cp -f $< $@
$(OUT)/tradelog.csv: $(TRADES) $(OUT)/.knobs-inputs
	$(Q)cp -f $< $@

# config.json holds every knob and is rewritten only when one changed. Each stage depends on a
# stamp of just the knobs it uses (.knobs-*, dot-files the bundle leaves out), so changing
# TRIALS re-runs stats and verdict but not the sandbox.
$(OUT)/config.json: FORCE | $(OUT)/.dir
	$(Q)$(R)/fingerprint config --if-changed --trials '$(TRIALS)' $(COSTS) $(LIMITS) \
		--lookahead-max '$(LOOKAHEAD_MAX)' --lookahead-seed '$(LOOKAHEAD_SEED)' $(GATES) -o $@

KNOBS_limits := $(LIMITS)
KNOBS_lookahead := $(LOOKAHEAD_MAX) $(LOOKAHEAD_SEED)
KNOBS_costs := $(COSTS)
KNOBS_trials := $(TRIALS)
KNOBS_gates := $(GATES)
# which files: an older file named instead must still count as a change
KNOBS_inputs := $(STRATEGY) $(TRADES) $(DATA)
$(OUT)/.knobs-%: FORCE | $(OUT)/config.json
	$(Q)echo '$(KNOBS_$*)' | cmp -s - $@ || echo '$(KNOBS_$*)' >$@

$(OUT)/fingerprint.json: $(UPLOADS) $(DATA) $(OUT)/.knobs-inputs $(OUT)/config.json $(R)/fingerprint
	$(call say,STAGE,$@)
	$(Q)$(R)/fingerprint $(S_ARG) $(T_ARG) --data $(DATA) --config $(OUT)/config.json -o $@

$(OUT)/inspect.json: $(UPLOADS) $(R)/inspect
	$(call say,STAGE,$@)
	$(Q)$(R)/inspect $(S_ARG) $(T_ARG) -o $@

$(OUT)/run.json: $(S_COPY) $(DATA) $(OUT)/.knobs-inputs $(OUT)/.knobs-limits $(R)/sandbox
	$(call say,STAGE,$@)
	$(Q)$(R)/sandbox $(S_ARG) --data $(DATA) --config $(OUT)/config.json --jobs $(SANDBOX_JOBS) -o $@ \
		--events $(OUT)/events.jsonl

$(OUT)/lookahead.json: $(OUT)/run.json $(DATA) $(OUT)/.knobs-lookahead $(R)/lookahead
	$(call say,STAGE,$@)
	$(Q)$(R)/lookahead $(S_ARG) --run $(OUT)/run.json --data $(DATA) --config $(OUT)/config.json \
		--jobs $(SANDBOX_JOBS) -o $@

$(OUT)/replay.json: $(OUT)/run.json $(T_COPY) $(DATA) $(OUT)/.knobs-inputs $(OUT)/.knobs-costs \
		$(R)/replay
	$(call say,STAGE,$@)
	$(Q)$(R)/replay --run $(OUT)/run.json $(T_ARG) --data $(DATA) --config $(OUT)/config.json \
		-o $@ --trades-out $(OUT)/trades.csv --equity-out $(OUT)/equity.csv

$(OUT)/stats.json: $(OUT)/replay.json $(OUT)/.knobs-costs $(OUT)/.knobs-trials $(R)/stats
	$(call say,STAGE,$@)
	$(Q)$(R)/stats --replay $(OUT)/replay.json --config $(OUT)/config.json -o $@

$(OUT)/verdict.json: $(OUT)/inspect.json $(OUT)/run.json $(OUT)/lookahead.json $(OUT)/replay.json \
		$(OUT)/stats.json $(OUT)/.knobs-gates $(OUT)/.knobs-trials $(OUT)/.knobs-inputs $(R)/verdict
	$(call say,STAGE,$@)
	$(Q)$(R)/verdict --dir $(OUT) $(if $(filter data/ohlcv.csv,$(DATA)),--synthetic-data) -o $@

$(OUT)/report.html: $(OUT)/verdict.json $(OUT)/fingerprint.json $(DATA) $(wildcard templates/*) $(R)/report
	$(call say,REPORT,$@)
	$(Q)$(R)/report --dir $(OUT) --name '$(NAME)' --templates templates --data $(DATA)

$(BUNDLE): $(OUT)/report.html $(R)/bundle
	$(call say,BUNDLE,$@)
	$(Q)$(R)/bundle --dir $(OUT) --name '$(NAME)'

# Every demo with the TRIALS it was shown with (demos/expected-verdicts.txt), into out/<demo>/.
demos: build/.deps
	$(Q)grep -v '^#' demos/expected-verdicts.txt | while read -r demo trials rest; do \
		[ -n "$$demo" ] || continue; \
		$(MAKE) --no-print-directory audit STRATEGY=demos/$$demo.py TRIALS=$$trials || exit 1; \
	done

FORCE:

# --- the nightly batch -----------------------------------------------------------------------
# Every NAME.py and NAME.csv in STRATEGIES is one audit into out/NAME/, run in parallel under
# -j; TRIALS from a "# trials: N" header line, else TRIALS. scripts/nightly has the details.
NIGHT := $(or $(NIGHT),$(shell date -u +%F))
NIGHT_NAMES := $(sort $(basename $(notdir $(wildcard $(STRATEGIES)/*.py $(STRATEGIES)/*.csv))))
NIGHT_ENV := NIGHT='$(NIGHT)' STRATEGIES='$(STRATEGIES)' TRIALS='$(TRIALS)' DATA='$(DATA)' \
	NIGHT_TOTAL=$(words $(NIGHT_NAMES)) MAKE='$(MAKE)'

nightly: build/.deps
	$(Q)$(MAKE) --no-print-directory VARIANT=rel all data/ohlcv.csv
	$(Q)$(NIGHT_ENV) scripts/nightly start
	$(Q)$(if $(NIGHT_NAMES),$(MAKE) --no-print-directory NIGHT='$(NIGHT)' $(NIGHT_NAMES:%=nightly-one/%))
	$(Q)$(NIGHT_ENV) MAIL_TO='$(MAIL_TO)' MAIL_FROM='$(MAIL_FROM)' SMTP_URL='$(SMTP_URL)' scripts/nightly finish

nightly-one/%: FORCE
	+$(Q)$(NIGHT_ENV) scripts/nightly one '$*'

# --- tests -----------------------------------------------------------------------------------
test: build/.deps
	$(Q)$(MAKE) --no-print-directory VARIANT=rel all data/ohlcv.csv
	$(Q)$(MAKE) --no-print-directory VARIANT=asan all unit-bins
	$(Q)tests/run-all

unit-bins: $(UNIT_BINS)

test-unit: build/.deps
	$(Q)$(MAKE) --no-print-directory VARIANT=asan all unit-bins
	$(Q)tests/run-all unit

bench: build/.deps
	$(Q)$(MAKE) --no-print-directory VARIANT=rel all data/ohlcv.csv
	$(Q)tests/bench/run

clean:
	rm -rf build/rel build/asan

help:
	@echo 'strataudit $(VERSION) - audit a trading strategy before it gets real money'
	@echo
	@echo '  make audit STRATEGY=x.py [TRADES=log.csv] [TRIALS=n]   audit one upload into out/NAME/'
	@echo '  make demos                                             audit the four demos'
	@echo '  make nightly STRATEGIES=dir [MAIL_TO=...]             audit a folder, index it, mail it'
	@echo '  make test                                              all tests (also under ASan+UBSan)'
	@echo '  make bench                                             speed and memory figures'
	@echo '  make deps                                              install system packages (root)'
	@echo
	@echo 'Variables (default):'
	@echo '  STRATEGY        strategy .py defining signals(df)'
	@echo '  TRADES          trade-log .csv: entry_time,exit_time,side,return'
	@echo '  TRIALS          variants tried before this one (1)'
	@echo '  DATA            OHLCV csv (data/ohlcv.csv, synthetic)'
	@echo '  NAME            bundle name (basename of the upload)'
	@echo '  FEE_BPS SLIPPAGE_BPS FUNDING_BPS_8H   costs per side and per 8 h held (5 2 1)'
	@echo '  WALL_S CPU_S MEM_MB SCRATCH_MB NOFILE sandbox limits per run (20 20 1024 16 64)'
	@echo '  SANDBOX_JOBS    parallel sandbox runs (cores)'
	@echo '  LOOKAHEAD_MAX   truncation runs at most (2000); LOOKAHEAD_SEED (1)'
	@echo '  GATE_MIN_TRADES GATE_PSR GATE_DSR GATE_MAX_DD   gate thresholds (100 0.95 0.95 0.25)'
	@echo '  STRATEGIES MAIL_TO MAIL_FROM SMTP_URL            nightly batch'
	@echo '  V=1             show the commands'
