# sourcing.mk: a sourcing run driven by make, one target per stage.
#
#   make -f sourcing.mk REPOS='Dao-AILab/flash-attention NVIDIA/cutlass' \
#        BRIEF=role.json OUT=run SINCE=2025-01-01
#
# Stages: fetch -> authorship -> score -> comp -> outreach -> shortlist,
# each a file in $(OUT). A re-run re-fetches through kh-fetch's cache (a
# conditional request per page: unchanged pages cost no download and no
# rate limit) and replaces $(OUT)/evidence.ndjson only when the evidence
# changed, so later stages rebuild only when their inputs did.
# GITHUB_TOKEN comes from the environment, never from this file.

# A failing kh-fetch in a pipe must fail the stage.
SHELL := /bin/bash
.SHELLFLAGS := -o pipefail -c

REPOS ?= $(error set REPOS to one or more OWNER/NAME)
BRIEF ?= $(error set BRIEF to a role brief, see kh-record(5))
OUT   ?= kh-run
SINCE ?=
FETCH_FLAGS ?=

all: shortlist outreach
fetch: $(OUT)/evidence.ndjson
authorship: $(OUT)/candidates.ndjson
score: $(OUT)/scored.ndjson
comp: $(OUT)/priced.ndjson
outreach: $(OUT)/drafts.md
shortlist: $(OUT)/shortlist.txt

# The parameters of the fetch, rewritten only when they change.
$(OUT)/params: FORCE
	@mkdir -p $(OUT)
	@echo 'REPOS=$(REPOS) SINCE=$(SINCE) FLAGS=$(FETCH_FLAGS)' > $@.new
	@if cmp -s $@.new $@; then rm $@.new; else mv $@.new $@; fi

# Always asks (through the cache); keeps the old file when nothing changed.
# `kh-fetch github user` passes the PRs through and adds their authors'
# profiles.
$(OUT)/evidence.ndjson: $(OUT)/params FORCE
	kh-fetch github prs --files $(if $(SINCE),--since $(SINCE)) $(FETCH_FLAGS) $(REPOS) \
		| kh-fetch github user $(FETCH_FLAGS) > $@.new
	@if cmp -s $@.new $@; then rm $@.new; echo "evidence unchanged"; else mv $@.new $@; fi

$(OUT)/candidates.ndjson: $(OUT)/evidence.ndjson
	kh-authorship < $< > $@.new && mv $@.new $@

$(OUT)/scored.ndjson: $(OUT)/candidates.ndjson $(BRIEF)
	kh-score --brief $(BRIEF) < $< > $@.new && mv $@.new $@

$(OUT)/priced.ndjson: $(OUT)/scored.ndjson $(BRIEF)
	kh-comp --brief $(BRIEF) < $< > $@.new && mv $@.new $@

$(OUT)/drafts.md: $(OUT)/priced.ndjson $(BRIEF)
	kh-outreach --brief $(BRIEF) < $< > $(OUT)/drafts.ndjson.new
	kh-outreach --brief $(BRIEF) --format md < $< > $@.new
	mv $(OUT)/drafts.ndjson.new $(OUT)/drafts.ndjson && mv $@.new $@

$(OUT)/shortlist.txt: $(OUT)/priced.ndjson
	jq -r 'select(.score.total > 0) | [.score.total, .score.tier, .score.specialty, (.name // .id), (.comp.band.mid // "-")] | @tsv' $< \
		| sort -t '	' -k1,1nr -k4,4 > $@.new && mv $@.new $@

FORCE:
.PHONY: all fetch authorship score comp outreach shortlist FORCE
.DELETE_ON_ERROR:
