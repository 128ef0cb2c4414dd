# strataudit - audit a trading strategy: make audit STRATEGY=x.py TRIALS=50
#
# Every stage is a small C program that reads and writes JSON files in out/$(NAME)/; this
# Makefile wires them, one file a target. `make help` lists the knobs.

# --- knobs -----------------------------------------------------------------------------------
# Every knob is one row of the knob table, lib/base/config.h: its default, range and help.
# build/knobs.mk holds the defaults as `NAME ?= value`, written from the table by build/knobs
# (libc only, so it builds before any package is installed); `make help` prints the table.
KNOBS_MK := build/knobs.mk
include $(KNOBS_MK)
# KNOB='value' quoted for the shell
shq = '$(subst ','\'',$(1))'
# The audit's NAME is safe for make and the shell whatever the upload is called (scripts/inputs).
override NAME := $(shell scripts/inputs name $(call shq,$(or $(NAME),$(STRATEGY),$(TRADES),none)))

VERSION := 0.1.0

$(KNOBS_MK): pipeline/config/knobs.c lib/base/config_table.c lib/base/config.h
	@mkdir -p build
	$(Q)$(CC) -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -O1 -Ilib/base -o build/knobs \
		pipeline/config/knobs.c lib/base/config_table.c
	$(Q)build/knobs make >$@.tmp && mv $@.tmp $@

# --- build -----------------------------------------------------------------------------------
# VARIANT=rel (optimised) or asan (ASan + UBSan); `make test` builds and runs both.
VARIANT ?= rel
B := build/$(VARIANT)
BIN := $(B)/bin

PKGS := libcjson python-3.11-embed libseccomp cairo fontconfig libpng imagequant xlsxwriter gsl libzip sqlite3 cmocka openssl zlib libdeflate liblz4 libzstd
# libcurl is linked only into the programs that reach the network: the narrator and the mail
CURL_LIBS := $(shell pkg-config --libs libcurl 2>/dev/null)
LDLIBS_narrate := $(CURL_LIBS)
LDLIBS_mail := $(CURL_LIBS)
CC ?= cc
OPT_rel := -O2 -g
OPT_asan := -O1 -g
CFLAGS ?= $(OPT_$(VARIANT))
# the sanitizers are added whatever CFLAGS the environment sets
SAN_asan := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
WARN := -std=c11 -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes
CPPFLAGS += -D_GNU_SOURCE -DSA_VERSION='"$(VERSION)"' $(shell pkg-config --cflags $(PKGS) libcurl 2>/dev/null)
LDLIBS += $(shell pkg-config --libs $(PKGS) 2>/dev/null) -lcsv -lgomp -lm
LDFLAGS_asan := -fsanitize=address,undefined
LDFLAGS += $(LDFLAGS_$(VARIANT))

Q := $(if $(V),,@)
say = $(if $(V),,@printf '  %-8s %s\n' $(1) $(2);)

# Rooms: a folder holds one stage (or the sandbox, the report, the nightly batch): its
# programs, each one .c with a thin main named in PROGS_<room>, and its modules, every other
# .c, archived once as lib<room>.a. A room sees its own headers and lib/'s (the shared library,
# which depends on nothing of the project); what else it uses is the line USES_<room>. Stages
# use the library and the sandbox, never another stage: they meet in JSON files
# (tests/e2e/05-layering.sh checks every include against these lines).
# Adding a stage: make pipeline/<stage>/ with <stage>.c, add it to ROOMS with its PROGS_ line
# (and USES_pipeline/<stage> := sandbox sandbox/wire if it runs the upload), its name in stages[]
# of pipeline/config/knobs.c, its rule in the audit section below, and its tests (HACKING.md).
# The shared library, lib/, is four layers, each a folder archived as lib<layer>.a with one
# prefix (HACKING.md): base (messages, files, JSON, CSV, time, knobs: sa_), data (the loaders of
# bars, trade logs, signals, the ledger: da_), replay (costs, declared exits, the replay core:
# rp_) and statistics (st_). A layer sees its own headers and those of the layers below it, named
# on its USES_ line; a room above sees them all. Listed users first, for the linker.
LIB_LAYERS := lib/stats lib/replay lib/data lib/base
USES_lib/stats := lib/replay lib/data lib/base
USES_lib/replay := lib/data lib/base
USES_lib/data := lib/base
ROOMS := pipeline/config pipeline/fingerprint pipeline/inspect pipeline/ledger pipeline/lookahead \
	pipeline/replay pipeline/robust pipeline/sealed pipeline/stats pipeline/variants pipeline/verdict \
	pipeline/narrate report \
	nightly data sandbox sandbox/inside sandbox/wire
PROGS_pipeline/config := config
PROGS_pipeline/fingerprint := fingerprint
PROGS_pipeline/inspect := inspect
PROGS_pipeline/ledger := ledger
PROGS_pipeline/lookahead := lookahead
PROGS_pipeline/replay := replay
PROGS_pipeline/robust := robust robust_score
PROGS_pipeline/sealed := sealed sealed_score
PROGS_pipeline/stats := stats
PROGS_pipeline/variants := variants variants_score
PROGS_pipeline/verdict := verdict
PROGS_pipeline/narrate := narrate
PROGS_sandbox := sandbox
PROGS_report := bundle report
PROGS_nightly := mail nightly
PROGS_data := gendata
# the stages that run the upload go through the sandbox's driver (sbx.h, which names the wire's
# limits and job count)
USES_pipeline/lookahead := sandbox sandbox/wire
USES_pipeline/robust := sandbox sandbox/wire
USES_pipeline/sealed := sandbox sandbox/wire
USES_pipeline/variants := sandbox sandbox/wire
# the sandbox program is also the zygote's exec image: it links what runs inside the namespaces
USES_sandbox := sandbox/inside sandbox/wire
# inside the namespaces: its own headers, lib/'s and the wire, nothing of the host side
USES_sandbox/inside := sandbox/wire
# (sandbox/wire: the wire between the host and the run, headers only, including no header of
# the project)
# The unit tests live in a folder for each room they test (tests/unit/lib, pipeline, sandbox,
# report, nightly; tests/e2e/05-layering.sh checks the names), and reach every room.
UNIT_SRC := $(sort $(wildcard tests/unit/*/test_*.c))
$(foreach d,$(sort $(patsubst %/,%,$(dir $(UNIT_SRC)))),$(eval USES_$(d) := $(ROOMS)))

room_src = $(sort $(wildcard $(1)/*.c))
room_mains = $(PROGS_$(1):%=$(1)/%.c)
room_mods = $(filter-out $(call room_mains,$(1)) pipeline/config/knobs.c,$(call room_src,$(1)))
room_lib = $(if $(call room_mods,$(1)),$(B)/$(1)/lib$(notdir $(1)).a)
LIB_ARCHIVES = $(foreach l,$(LIB_LAYERS),$(call room_lib,$(l)))
# the include path of the room a source file lives in
src_room = $(patsubst %/,%,$(dir $(1)))
room_inc = $(addprefix -I,$(1) $(if $(filter $(1),$(LIB_LAYERS)),,$(LIB_LAYERS)) $(USES_$(1)))

PROGS := $(foreach r,$(ROOMS),$(PROGS_$(r)))
BINS := $(PROGS:%=$(BIN)/%)

# one binary a source, in the source's folder: build/VARIANT/tests/lib/test_lib
UNIT_BINS := $(UNIT_SRC:tests/unit/%.c=$(B)/tests/%)
ROOM_LIBS := $(foreach r,$(ROOMS),$(call room_lib,$(r)))

.DEFAULT_GOAL := help
.DELETE_ON_ERROR:
.SECONDARY:
.PHONY: all audit bench calibrate calibrate-score check-inputs clean demos deps fuzz fuzz-bins help nightly test test-unit \
	unit-bins FORCE

all: $(BINS)

# Every object follows the Makefile too: a moved header or a changed flag rebuilds what a
# stale dependency file would not.
$(B)/%.o: %.c Makefile
	$(call say,CC,$<)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(call room_inc,$(call src_room,$<)) $(CPPFLAGS) $(WARN) $(CFLAGS) $(SAN_$(VARIANT)) \
		-MMD -MP -c -o $@ $<

define lib_rule
$(call room_lib,$(1)): $(patsubst %.c,$(B)/%.o,$(call room_mods,$(1))) $(GEN_OBJS_$(1))
	$$(call say,AR,$$@)
	$$(Q)rm -f $$@ && ar rcs $$@ $$^
endef
define prog_rule
$(BIN)/$(2): $(B)/$(1)/$(2).o $(call room_lib,$(1)) $(foreach u,$(USES_$(1)),$(call room_lib,$(u))) $(LIB_ARCHIVES)
	$$(call say,LD,$$@)
	@mkdir -p $$(dir $$@)
	$$(Q)$$(CC) $$(LDFLAGS) -o $$@ $$< $$(filter %.a,$$^) $$(LDLIBS_$(2)) $$(LDLIBS)
endef
# The framework shims (Python modules a run may import: freqtrade, talib, backtesting) are
# embedded in the sandbox binary as a C table generated from their .py files, so the zygote
# loads them without a path of the checkout (sandbox/inside/sbi_shims.c); the zygote's own
# trusted Python (its helpers, its read roots, the shims' loader) likewise, from
# sandbox/inside/py (sandbox/inside/sbi_pysrc.c). tests/e2e/05-layering.sh lints both.
SHIMS_PY := $(shell find sandbox/inside/shims -name '*.py' 2>/dev/null | LC_ALL=C sort)
ZYGOTE_PY := $(shell find sandbox/inside/py -name '*.py' 2>/dev/null | LC_ALL=C sort)
GEN_OBJS_sandbox/inside := $(B)/gen/sbi_shims_table.o $(B)/gen/sbi_pysrc_table.o
# $(call embed_py,TABLE,DIR,FILES,HEADER,STRUCT,ARRAY,COUNT): the rule of $(B)/gen/TABLE.c
define embed_py
$(B)/gen/$(1).c: $(3) scripts/embed-py Makefile
	$$(call say,GEN,$$@)
	@mkdir -p $$(dir $$@)
	$$(Q){ printf '/* generated by scripts/embed-py from $(2): do not edit */\n'; \
	  printf '#include "$(4)"\nconst struct $(5) $(6)[] = {\n'; \
	  scripts/embed-py $(2) $(3); \
	  printf '};\nconst size_t $(7) = sizeof $(6) / sizeof $(6)[0];\n'; } >$$@.tmp && mv $$@.tmp $$@
endef
$(eval $(call embed_py,sbi_shims_table,sandbox/inside/shims,$(SHIMS_PY),sbi_shims.h,sbi_shim,sbi_shims,sbi_n_shims))
$(eval $(call embed_py,sbi_pysrc_table,sandbox/inside/py,$(ZYGOTE_PY),sbi_pysrc.h,sbi_pysrc,sbi_pysrcs,sbi_n_pysrcs))
$(GEN_OBJS_sandbox/inside): $(B)/gen/%.o: $(B)/gen/%.c
	$(call say,CC,$<)
	$(Q)$(CC) $(call room_inc,sandbox/inside) $(CPPFLAGS) $(WARN) $(CFLAGS) $(SAN_$(VARIANT)) \
		-MMD -MP -c -o $@ $<

$(foreach r,$(ROOMS) $(LIB_LAYERS),$(if $(call room_lib,$(r)),$(eval $(call lib_rule,$(r)))))
$(foreach r,$(ROOMS),$(foreach p,$(PROGS_$(r)),$(eval $(call prog_rule,$(r),$(p)))))

# ROOMS lists the users before what they use (stages, report, nightly, then the sandbox), and
# lib/'s archives follow in LIB_ARCHIVES, so one pass of the linker resolves every archive.
$(UNIT_BINS): $(B)/tests/%: $(B)/tests/unit/%.o $(ROOM_LIBS) $(LIB_ARCHIVES)
	$(call say,LD,$@)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $< $(ROOM_LIBS) $(LIB_ARCHIVES) $(CURL_LIBS) $(LDLIBS)

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
# the strategy's declared exits, read by inspect, for every stage that replays its signals
I_JSON := $(if $(STRATEGY),$(OUT)/inspect.json)
I_ARG := $(if $(STRATEGY),--inspect $(OUT)/inspect.json)
BUNDLE := $(OUT)/$(NAME).zip
# A trade log without a strategy and without DATA stands alone: replay, stats and the report
# get no bars (no benchmark, no price charts), never the bundled synthetic series. Whether
# DATA was given is decided where make was first called (the audit's sub-makes get it given).
DATA_GIVEN ?= $(if $(filter command line environment%,$(origin DATA)),1)
LOG_ALONE := $(and $(TRADES),$(if $(STRATEGY),,1),$(if $(DATA_GIVEN),,1))
D_ARG := $(if $(LOG_ALONE),,--data $(DATA))
# KNOB='value' for every knob config.json holds, quoted for the shell
KNOB_ARGS := $(foreach k,$(CONFIG_KNOBS),$(call shq,$(k)=$($(k))))

# Uploads are named as users name them: a name make cannot hold (a space, a quote, a
# parenthesis, a non-ASCII letter) is copied in (the data: linked) under $(OUT)/.inputs/ with a
# safe name first, and the stages see only that; AS_* keep the names as given, for the report.
AS_STRATEGY ?= $(STRATEGY)
AS_TRADES ?= $(TRADES)
AS_DATA ?= $(DATA)
AS_ARGS = AS_STRATEGY=$(call shq,$(AS_STRATEGY)) AS_TRADES=$(call shq,$(AS_TRADES)) \
	AS_DATA=$(call shq,$(AS_DATA))
# Every audit ends: the stages that run the upload share AUDIT_S seconds from this moment,
# passed to the sub-makes so each stage counts from the same start (never written into a file).
AUDIT_T0 := $(or $(AUDIT_T0),$(shell date +%s))
audit: build/.deps
	$(Q)test -n $(call shq,$(STRATEGY)$(TRADES)) || { echo "make: give STRATEGY=file.py and/or TRADES=log.csv (see make help)"; exit 2; }
	$(Q)$(MAKE) --no-print-directory VARIANT=rel all $(filter data/ohlcv.csv,$(DATA))
	$(Q)v=$$(scripts/inputs stage $(OUT) $(call shq,$(STRATEGY)) $(call shq,$(TRADES)) \
		$(call shq,$(DATA))) || exit 2; eval "$$v"; \
	set -- --no-print-directory VARIANT=rel NAME=$(NAME) STRATEGY="$$s" TRADES="$$t" DATA="$$d" \
		AUDIT_T0=$(AUDIT_T0) DATA_GIVEN=$(DATA_GIVEN) $(AS_ARGS); \
	$(MAKE) "$$@" check-inputs && $(MAKE) "$$@" $(BUNDLE)
	$(Q)$(R)/verdict --print $(OUT)/verdict.json
	$(Q)$(if $(NARRATE_URL),$(R)/narrate --dir $(OUT) -o $(OUT)/narration.json)

# What the operator gives is checked before any stage runs: a knob out of range or a DATA file
# the loader refuses stops here, with the reason, its line and the fix. (A bad
# upload is different: it is a finding, and the audit carries on.)
check-inputs: $(OUT)/config.json
	$(Q)$(R)/config --check-data '$(DATA)' $(KNOB_ARGS)
	$(Q)$(if $(SEALED),$(R)/config --check-data $(call shq,$(SEALED)) $(KNOB_ARGS))

$(OUT)/.dir:
	@mkdir -p $(OUT) && touch $@

# freqtrade's parameter file beside a strategy (its name ending in .json, as freqtrade looks for
# it) travels with the copy, as strategy.json beside strategy.py: the sandbox applies it, inspect
# reports what it sets, the bundle carries it.
S_PARAMS := $(if $(STRATEGY),$(wildcard $(basename $(STRATEGY)).json))
$(OUT)/strategy.py: $(STRATEGY) $(S_PARAMS) $(OUT)/.knobs-inputs
	$(Q)cp -f $< $@
	$(Q)$(if $(S_PARAMS),cp -f $(call shq,$(S_PARAMS)) $(OUT)/strategy.json,rm -f $(OUT)/strategy.json)
$(OUT)/tradelog.csv: $(TRADES) $(OUT)/.knobs-inputs
	$(Q)cp -f $< $@

# config.json holds every knob and is rewritten only when one changed. The config writer also
# keeps one stamp per knob (.knobs-TRIALS, ...: dot-files the bundle leaves out), each
# rewritten only when that knob changed, and each stage depends on the stamps of the knobs it
# reads, as the knob table's "read by" column names them (KNOBS_READ_<stage>, build/knobs.mk),
# so changing TRIALS re-runs stats and verdict but not the sandbox.
$(OUT)/config.json: FORCE | $(OUT)/.dir
	$(Q)$(R)/config --if-changed --stamps $(OUT) -o $@ $(KNOB_ARGS)
# written by the config recipe; an empty recipe, so make re-reads each stamp's time after it
$(foreach k,$(CONFIG_KNOBS),$(OUT)/.knobs-$(k)): FORCE | $(OUT)/config.json
	@:

# the stamps of the knobs stage $(1) reads
stamps = $(addprefix $(OUT)/.knobs-,$(KNOBS_READ_$(1)))

# which files: an older file named instead must still count as a change
KNOBS_inputs := $(STRATEGY) $(S_PARAMS) $(TRADES) $(DATA) $(SEALED) $(AS_STRATEGY) $(AS_TRADES) $(AS_DATA)
$(OUT)/.knobs-inputs: FORCE | $(OUT)/.dir
	$(Q)echo $(call shq,$(KNOBS_inputs)) | cmp -s - $@ || echo $(call shq,$(KNOBS_inputs)) >$@

$(OUT)/fingerprint.json: $(UPLOADS) $(DATA) $(OUT)/.knobs-inputs $(OUT)/config.json \
		$(call stamps,fingerprint) $(R)/fingerprint
	$(call say,STAGE,$@)
	$(Q)$(R)/fingerprint $(S_ARG) $(T_ARG) --data $(DATA) --config $(OUT)/config.json \
		--synthetic data/ohlcv.csv.sha256 --name $(NAME) --given strategy=$(call shq,$(AS_STRATEGY)) \
		--given tradelog=$(call shq,$(AS_TRADES)) --given data=$(call shq,$(AS_DATA)) -o $@

$(OUT)/inspect.json: $(UPLOADS) $(call stamps,inspect) $(R)/inspect
	$(call say,STAGE,$@)
	$(Q)$(R)/inspect $(S_ARG) $(T_ARG) --config $(OUT)/config.json -o $@

$(OUT)/run.json: $(S_COPY) $(DATA) $(OUT)/.knobs-inputs $(call stamps,sandbox) $(R)/sandbox
	$(call say,SANDBOX,$@)
	$(Q)$(R)/sandbox $(S_ARG) --data $(DATA) --config $(OUT)/config.json --jobs $(SANDBOX_JOBS) -o $@ \
		--events $(OUT)/events.jsonl --started $(AUDIT_T0)

$(OUT)/lookahead.json: $(OUT)/run.json $(OUT)/inspect.json $(DATA) $(call stamps,lookahead) $(R)/lookahead
	$(call say,SANDBOX,$@)
	$(Q)$(R)/lookahead $(S_ARG) --run $(OUT)/run.json --inspect $(OUT)/inspect.json --data $(DATA) \
		--config $(OUT)/config.json --jobs $(SANDBOX_JOBS) --started $(AUDIT_T0) -o $@

# The robustness check's runs of the upload (robust: later starts, hindsight's moved and nudged
# copies, permuted copies), kept with the signals each gave; robust_score judges them on the host,
# so a cost or a threshold re-scores without running the upload (a grouped target: one recipe
# writes the index and the signals).
$(OUT)/robust_runs.json $(OUT)/robust_signals.bin &: $(OUT)/run.json $(DATA) $(call stamps,robust) $(R)/robust
	$(call say,SANDBOX,$(OUT)/robust_runs.json)
	$(Q)$(R)/robust $(S_ARG) --run $(OUT)/run.json --data $(DATA) --config $(OUT)/config.json \
		--jobs $(SANDBOX_JOBS) --started $(AUDIT_T0) -o $(OUT)/robust_runs.json \
		--signals $(OUT)/robust_signals.bin
$(OUT)/robustness.json: $(OUT)/robust_runs.json $(OUT)/robust_signals.bin $(OUT)/run.json $(I_JSON) $(DATA) \
		$(call stamps,robust_score) $(R)/robust_score
	$(call say,STAGE,$@)
	$(Q)$(R)/robust_score --runs $(OUT)/robust_runs.json --signals $(OUT)/robust_signals.bin $(I_ARG) \
		--run $(OUT)/run.json --data $(DATA) --config $(OUT)/config.json -o $@

# Every parameter set the strategy declares in VARIANTS (inspect read them), each run in the
# sandbox (variants, keeping the signals each gave) and replayed with the same costs on the host
# (variants_score, so a cost re-scores without a run); the stats stage prices the family in.
V_JSON := $(if $(STRATEGY),$(OUT)/variants.json)
V_ARG := $(if $(STRATEGY),--variants $(OUT)/variants.json)
$(OUT)/variant_runs.json $(OUT)/variant_signals.bin &: $(OUT)/inspect.json $(S_COPY) $(DATA) $(OUT)/.knobs-inputs \
		$(call stamps,variants) $(R)/variants
	$(call say,SANDBOX,$(OUT)/variant_runs.json)
	$(Q)$(R)/variants $(S_ARG) --inspect $(OUT)/inspect.json --data $(DATA) \
		--config $(OUT)/config.json --jobs $(SANDBOX_JOBS) --started $(AUDIT_T0) -o $(OUT)/variant_runs.json \
		--signals $(OUT)/variant_signals.bin
$(OUT)/variants.json: $(OUT)/variant_runs.json $(OUT)/variant_signals.bin $(OUT)/inspect.json $(DATA) \
		$(call stamps,variants_score) $(R)/variants_score
	$(call say,STAGE,$@)
	$(Q)$(R)/variants_score --runs $(OUT)/variant_runs.json --signals $(OUT)/variant_signals.bin \
		--inspect $(OUT)/inspect.json --data $(DATA) --config $(OUT)/config.json -o $@ \
		--csv $(OUT)/variants.csv --matrix $(OUT)/variant_returns.bin

# The neighbourhood: the audited parameters moved to nearby values (inspect listed the sets),
# run and replayed as the variants are; the stats stage measures whether the edge is a plateau.
NB_JSON := $(if $(STRATEGY),$(OUT)/neighbourhood.json)
NB_ARG := $(if $(STRATEGY),--neighbourhood $(OUT)/neighbourhood.json)
$(OUT)/neighbourhood_runs.json $(OUT)/neighbourhood_signals.bin &: $(OUT)/inspect.json $(S_COPY) $(DATA) \
		$(OUT)/.knobs-inputs $(call stamps,variants) $(R)/variants
	$(call say,SANDBOX,$(OUT)/neighbourhood_runs.json)
	$(Q)$(R)/variants $(S_ARG) --inspect $(OUT)/inspect.json --data $(DATA) --family neighbourhood \
		--config $(OUT)/config.json --jobs $(SANDBOX_JOBS) --started $(AUDIT_T0) \
		-o $(OUT)/neighbourhood_runs.json --signals $(OUT)/neighbourhood_signals.bin
$(OUT)/neighbourhood.json: $(OUT)/neighbourhood_runs.json $(OUT)/neighbourhood_signals.bin \
		$(OUT)/inspect.json $(DATA) $(call stamps,variants_score) $(R)/variants_score
	$(call say,STAGE,$@)
	$(Q)$(R)/variants_score --family neighbourhood --runs $(OUT)/neighbourhood_runs.json \
		--signals $(OUT)/neighbourhood_signals.bin --inspect $(OUT)/inspect.json --data $(DATA) \
		--config $(OUT)/config.json -o $@ --csv $(OUT)/neighbourhood.csv \
		--matrix $(OUT)/neighbourhood_returns.bin

# Sealed bars (SEALED, bars the uploader has never seen): the strategy run once on them, what the
# run gave kept in the ledger's history (never in the audit's folder: sealed_run.json holds only
# the run's key), and scored there on the host; sealed.json holds one outcome of a reusable
# holdout against replay.json's open edge, within the set's budget in the ledger's history, and
# the verdict reads it only when given. A cost changed re-scores without a run (18-rescore).
SL_JSON := $(if $(and $(SEALED),$(STRATEGY)),$(OUT)/sealed.json)
SL_ARG := $(if $(SL_JSON),--sealed $(OUT)/sealed.json)
$(OUT)/sealed_run.json: $(OUT)/run.json $(SEALED) $(call stamps,sealed) $(R)/sealed
	$(call say,SANDBOX,$@)
	$(Q)$(R)/sealed $(S_ARG) --run $(OUT)/run.json --data $(SEALED) --config $(OUT)/config.json \
		--started $(AUDIT_T0) -o $@
$(OUT)/sealed.json: $(OUT)/sealed_run.json $(OUT)/replay.json $(I_JSON) $(SEALED) $(call stamps,sealed_score) \
		$(R)/sealed_score
	$(call say,STAGE,$@)
	$(Q)$(R)/sealed_score $(S_ARG) $(I_ARG) --runs $(OUT)/sealed_run.json --replay $(OUT)/replay.json \
		--data $(SEALED) --config $(OUT)/config.json -o $@

# reconcile.csv: the claimed and the replayed equity of a reconciliation (a header alone when
# no trade log was set against the strategy); one recipe writes both files (a grouped target).
# With a strategy the replay scores the live decisions (lookahead.json's live.signals, each bar
# decided with only the bars up to it) and replays run.json's full-history backtest beside
# them into backtest_equity.csv; the stats replay the scored signals again from the same file.
LA_JSON := $(if $(STRATEGY),$(OUT)/lookahead.json)
LA_ARG := $(if $(STRATEGY),--lookahead $(OUT)/lookahead.json)
BT_CSV := $(if $(STRATEGY),$(OUT)/backtest_equity.csv)
BT_ARG := $(if $(STRATEGY),--backtest-equity-out $(OUT)/backtest_equity.csv)
$(OUT)/replay.json $(OUT)/reconcile.csv $(BT_CSV) &: $(OUT)/run.json $(LA_JSON) $(T_COPY) $(I_JSON) $(DATA) \
		$(OUT)/.knobs-inputs $(call stamps,replay) $(R)/replay
	$(call say,STAGE,$(OUT)/replay.json)
	$(Q)$(R)/replay --run $(OUT)/run.json $(T_ARG) $(I_ARG) $(D_ARG) --config $(OUT)/config.json \
		-o $(OUT)/replay.json --trades-out $(OUT)/trades.csv --equity-out $(OUT)/equity.csv \
		--reconcile-out $(OUT)/reconcile.csv $(LA_ARG) $(BT_ARG)

# Where this version stands in the trial ledger of the nightly's history (LEDGER): read every
# time, since the history grows outside make, and rewritten only when it changed. The nightly
# names the night (LEDGER_NIGHT), the day a lineage new tonight is first seen. After the sealed
# stage, which may make the history (its budgets live there), so a second make reads the same.
$(OUT)/ledger.json: $(OUT)/inspect.json $(OUT)/fingerprint.json $(call stamps,ledger) $(R)/ledger FORCE \
		| $(SL_JSON)
	$(Q)$(R)/ledger --config $(OUT)/config.json --inspect $(OUT)/inspect.json \
		--fingerprint $(OUT)/fingerprint.json --name '$(NAME)' --night '$(LEDGER_NIGHT)' \
		--if-changed -o $@

# The curves the report draws, written by the stats recipe beside stats.json (a grouped
# target: a missing one makes the recipe run again).
ST_CURVES := $(addprefix $(OUT)/,benchmark.csv rolling.csv walkforward.csv montecarlo_fan.csv)
$(OUT)/stats.json $(ST_CURVES) &: $(OUT)/replay.json $(OUT)/run.json $(LA_JSON) $(DATA) $(V_JSON) \
		$(NB_JSON) $(OUT)/ledger.json $(OUT)/inspect.json $(call stamps,stats) $(R)/stats
	$(call say,STAGE,$(OUT)/stats.json)
	$(Q)$(R)/stats --replay $(OUT)/replay.json $(V_ARG) $(NB_ARG) --config $(OUT)/config.json $(D_ARG) \
		--run $(OUT)/run.json $(LA_ARG) --ledger $(OUT)/ledger.json --inspect $(OUT)/inspect.json \
		-o $(OUT)/stats.json \
		--benchmark-out $(OUT)/benchmark.csv --rolling-out $(OUT)/rolling.csv \
		--walkforward-out $(OUT)/walkforward.csv --fan-out $(OUT)/montecarlo_fan.csv

# The stage files the verdict reads, as the stage-file table's "read by" column names them
# (lib/base/stagefile.h; tests/e2e/58-stage-files.sh checks this list against it).
$(OUT)/verdict.json: $(OUT)/inspect.json $(OUT)/run.json $(OUT)/lookahead.json $(V_JSON) \
		$(OUT)/replay.json $(OUT)/robustness.json $(OUT)/stats.json $(OUT)/fingerprint.json \
		$(SL_JSON) $(OUT)/.knobs-inputs $(call stamps,verdict) $(R)/verdict
	$(call say,STAGE,$@)
	$(Q)$(if $(SL_JSON),,rm -f $(OUT)/sealed.json $(OUT)/sealed_run.json;) $(R)/verdict --dir $(OUT) $(SL_ARG) -o $@

# The auditor's own error rates, as `make calibrate` last measured them (CALIBRATE_SUMMARY, a
# committed file): the bundle carries its copy, and the report's Honest limitations quote it.
CAL_SRC := $(wildcard $(CALIBRATE_SUMMARY))
CAL_COPY := $(if $(CAL_SRC),$(OUT)/calibration.json)
$(OUT)/calibration.json: $(CAL_SRC) | $(OUT)/.dir
	$(Q)cp -f $< $@

# The stage files the report reads, as the stage-file table's "read by" column names them
# (lib/base/stagefile.h; tests/e2e/58-stage-files.sh checks this list against it).
$(OUT)/report.html: $(OUT)/verdict.json $(OUT)/fingerprint.json $(OUT)/inspect.json $(OUT)/run.json \
		$(OUT)/lookahead.json $(V_JSON) $(OUT)/replay.json $(OUT)/robustness.json \
		$(OUT)/stats.json $(SL_JSON) $(DATA) $(wildcard templates/*) \
		$(ST_CURVES) $(OUT)/reconcile.csv $(BT_CSV) $(CAL_COPY) $(call stamps,report) $(R)/report
	$(call say,REPORT,$@)
	$(Q)$(R)/report --dir $(OUT) --name '$(NAME)' --templates templates $(D_ARG)

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

# --- calibration -----------------------------------------------------------------------------
# The auditor's own error rates on worlds whose truth is known: every case audited with
# `make audit` into out/<dir's name>-<id>/, the figures in $(CALIBRATE_DIR)/calibration.json
# (scripts/calibrate has the worlds).
CALIBRATE_ENV := $(foreach k,NULL BEST_OF SEARCH SEARCH_K WORLDS POWER EDGES POWER_BARS LOOKAHEAD BARS SEED PERMUTATIONS \
	LOOKAHEAD_MAX JOBS DIR SUMMARY,CALIBRATE_$(k)=$(call shq,$(CALIBRATE_$(k))))
calibrate: build/.deps
	$(Q)$(MAKE) --no-print-directory VARIANT=rel all
	$(Q)$(CALIBRATE_ENV) MAKE='$(MAKE)' scripts/calibrate run
# The same cases re-scored: each case's out/ kept, make re-runs only the stages whose inputs
# changed (a host-side rule re-scores the calibration without its sandbox runs).
calibrate-score: build/.deps
	$(Q)$(MAKE) --no-print-directory VARIANT=rel all
	$(Q)$(CALIBRATE_ENV) MAKE='$(MAKE)' scripts/calibrate score

# --- the nightly batch -----------------------------------------------------------------------
# Every .py and .csv in STRATEGIES is one audit into out/NAME/ (NAME: its safe name), in parallel under
# -j; TRIALS from a "# trials: N" header line, else TRIALS. scripts/nightly has the details.
NIGHT := $(or $(NIGHT),$(shell date -u +%F))
NIGHT_NAMES := $(if $(filter nightly%,$(MAKECMDGOALS)),$(shell STRATEGIES=$(call shq,$(STRATEGIES)) NIGHT=x scripts/nightly names))
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
# The builds take the machine's cores unless make was given -j of its own.
BUILD_J = $(if $(filter -j%,$(MAKEFLAGS)),,-j$(shell nproc 2>/dev/null || echo 1))
test: build/.deps
	$(Q)$(MAKE) --no-print-directory $(BUILD_J) VARIANT=rel all data/ohlcv.csv
	$(Q)$(MAKE) --no-print-directory $(BUILD_J) VARIANT=asan all unit-bins
	$(Q)$(MAKE) --no-print-directory $(BUILD_J) fuzz-bins
	$(Q)tests/run-all

unit-bins: $(UNIT_BINS)

test-unit: build/.deps
	$(Q)$(MAKE) --no-print-directory VARIANT=asan all unit-bins
	$(Q)tests/run-all unit

bench: build/.deps
	$(Q)$(MAKE) --no-print-directory VARIANT=rel all data/ohlcv.csv
	$(Q)tests/bench/run

# libFuzzer targets of the loaders (tests/fuzz/README.md), built with Debian's clang from the
# shared library's sources; `make test` runs each for 30 s (tests/e2e/95-fuzz.sh).
FUZZ_DIR := build/fuzz
FUZZ_TARGETS := $(basename $(notdir $(wildcard tests/fuzz/fuzz_*.c)))
FUZZ_SRC := $(foreach l,$(LIB_LAYERS),$(call room_src,$(l)))
FUZZ_HDR := $(foreach l,$(LIB_LAYERS),$(wildcard $(l)/*.h))
FUZZ_SAN := address,undefined -fno-sanitize-recover=all
FUZZ_OBJ := $(FUZZ_SRC:%.c=$(FUZZ_DIR)/obj/%.o)

# The library is compiled once for every target, instrumented for coverage (fuzzer-no-link);
# each target links it with libFuzzer's main.
$(FUZZ_DIR)/obj/%.o: %.c $(FUZZ_HDR) Makefile
	$(call say,FUZZCC,$<)
	@mkdir -p $(dir $@)
	$(Q)clang $(addprefix -I,$(LIB_LAYERS)) $(CPPFLAGS) $(WARN) -g -O1 -fsanitize=fuzzer-no-link,$(FUZZ_SAN) -c -o $@ $<

$(FUZZ_DIR)/%: tests/fuzz/%.c $(FUZZ_OBJ) $(FUZZ_HDR)
	$(call say,FUZZ,$@)
	@mkdir -p $(dir $@)
	$(Q)clang $(addprefix -I,$(LIB_LAYERS)) $(CPPFLAGS) $(WARN) -g -O1 -fsanitize=fuzzer,$(FUZZ_SAN) -o $@ $< $(FUZZ_OBJ) \
		$(LDLIBS)

fuzz-bins: build/.deps $(FUZZ_TARGETS:%=$(FUZZ_DIR)/%)

fuzz: fuzz-bins
	$(Q)tests/fuzz/run $(FUZZ_S)

clean:
	rm -rf build/rel build/asan

help: $(KNOBS_MK)
	@echo 'strataudit $(VERSION) - audit a trading strategy before it gets real money'
	@echo
	@echo '  make audit STRATEGY=x.py [TRADES=log.csv] [TRIALS=n]   audit one upload into out/NAME/'
	@echo '  make demos                                             audit the four demos'
	@echo '  make nightly STRATEGIES=dir [MAIL_TO=...]             audit a folder, index it, mail it'
	@echo '  make calibrate [CALIBRATE_NULL=100 ...]                error rates measured on worlds of known truth'
	@echo '  make calibrate-score [the same CALIBRATE_* knobs]      the same cases re-scored, their sandbox runs kept;'
	@echo '                                                         a larger count audits only the new cases'
	@echo '  make test                                              all tests (unit tests under ASan+UBSan)'
	@echo '  make bench                                             speed and memory figures'
	@echo '  make fuzz [FUZZ_S=60]                                  fuzz each loader for FUZZ_S seconds'
	@echo '  make deps                                              install system packages (root)'
	@echo
	@echo 'Knobs, from the knob table (lib/base/config.h): [range] (default)'
	@build/knobs help
	@echo '  V=1              show the commands'
