# kh: GNU make. `make`, `make check`, `make install PREFIX=... DESTDIR=...`.
PREFIX  ?= /usr/local
BINDIR  ?= $(PREFIX)/bin
MANDIR  ?= $(PREFIX)/share/man
DATADIR ?= $(PREFIX)/share/kh
COMPDIR ?= $(PREFIX)/share/bash-completion/completions
DESTDIR ?=

CC      ?= cc
CFLAGS  ?= -O2 -g
PKG_CONFIG   ?= pkg-config
CJSON_CFLAGS ?= $(shell $(PKG_CONFIG) --cflags libcjson)
CJSON_LIBS   ?= $(shell $(PKG_CONFIG) --libs libcjson)
CURL_CFLAGS  ?= $(shell $(PKG_CONFIG) --cflags libcurl)
CURL_LIBS    ?= $(shell $(PKG_CONFIG) --libs libcurl)
ZLIB_CFLAGS  ?= $(shell $(PKG_CONFIG) --cflags zlib)
ZLIB_LIBS    ?= $(shell $(PKG_CONFIG) --libs zlib)

VERSION := $(shell cat VERSION)
# Warnings are always on; WERROR=1 (CI) makes them fatal.
KH_WARN := -std=c11 -Wall -Wextra -Wshadow -Wmissing-prototypes \
	-Wwrite-strings -Wno-unused-parameter
ifeq ($(WERROR),1)
KH_WARN += -Werror
endif
# O: where objects and programs go. SAN=1 builds with ASan/UBSan into build-san.
ifeq ($(SAN),1)
O ?= build-san
CFLAGS += -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
LDFLAGS += -fsanitize=address,undefined
else
O ?= build
endif
ALL_CFLAGS = $(KH_WARN) -D_GNU_SOURCE -Icommon $(CJSON_CFLAGS) $(CURL_CFLAGS) \
	$(ZLIB_CFLAGS) -DKH_VERSION='"$(VERSION)"' -DKH_DATADIR='"$(DATADIR)"' $(CFLAGS)
LIBS = $(CJSON_LIBS) $(CURL_LIBS) $(ZLIB_LIBS) -lm

.SECONDEXPANSION:
.SECONDARY:
# A tool is cmd/kh-NAME.c, or cmd/kh-NAME/*.c when it has parts.
TOOLS := $(sort $(patsubst cmd/%.c,%,$(wildcard cmd/kh-*.c)) \
	$(patsubst cmd/%/,%,$(dir $(wildcard cmd/kh-*/*.c))))
PROGS := $(addprefix $(O)/bin/,$(TOOLS))
COMMON_SRC := $(wildcard common/*.c)
COMMON_OBJ := $(patsubst %.c,$(O)/%.o,$(COMMON_SRC))
UNIT_SRC := $(wildcard tests/unit/t-*.c)
UNITS := $(patsubst tests/unit/%.c,$(O)/tests/%,$(UNIT_SRC))
TEST_HELPERS := $(patsubst tests/helpers/%.c,$(O)/tests/%,$(wildcard tests/helpers/*.c))
MANS := $(wildcard share/man/man*/*.[157])

all: $(PROGS)
ifeq ($(O),build)
all: bin
endif

# bin/ links to the programs of the default build, to run them from the tree.
bin: $(PROGS)
	@mkdir -p bin
	@for p in $(TOOLS); do ln -sf ../$(O)/bin/$$p bin/$$p; done

# Quiet unless V=1.
Q = $(if $(V),,@)
$(O)/%.o: %.c common/kh.h $$(wildcard $$(dir $$*)*.h)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(ALL_CFLAGS) -c -o $@ $<

# The compiled-in data directory: data.o is rebuilt when DATADIR changes, so
# `make install PREFIX=...` never installs programs looking elsewhere.
$(O)/datadir: FORCE
	@mkdir -p $(O)
	@echo '$(DATADIR)' > $@.new
	@if cmp -s $@.new $@; then rm $@.new; else mv $@.new $@; fi
$(O)/common/data.o: $(O)/datadir

$(O)/libkh.a: $(COMMON_OBJ)
	$(Q)rm -f $@
	$(Q)$(AR) rcs $@ $(COMMON_OBJ)

objs_of = $(patsubst %.c,$(O)/%.o,$(wildcard cmd/$(1).c cmd/$(1)/*.c))
$(O)/bin/%: $$(call objs_of,$$*) $(O)/libkh.a
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LINK    $@")
	$(Q)$(CC) $(LDFLAGS) -o $@ $(filter %.o,$^) $(O)/libkh.a $(LIBS)

$(O)/tests/%: tests/unit/%.c $(O)/libkh.a tests/unit/tap.h
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) -Itests/unit $(LDFLAGS) -o $@ $< $(O)/libkh.a $(LIBS)

$(O)/tests/%: tests/helpers/%.c $(O)/libkh.a
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< $(O)/libkh.a $(LIBS)

build-tests: $(PROGS) $(UNITS) $(TEST_HELPERS)

# The test suite ends with the line "N passed, N failed".
check: build-tests
	@KH_ONLY='$(KH_ONLY)' KH_BIN=$(CURDIR)/$(O)/bin KH_TESTBIN=$(CURDIR)/$(O)/tests sh tests/run.sh

# The whole suite under valgrind; a leak or memory error fails the test.
memcheck: build-tests
	@KH_ONLY='$(KH_ONLY)' KH_BIN=$(CURDIR)/$(O)/bin KH_TESTBIN=$(CURDIR)/$(O)/tests \
	KH_WRAP="valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect --show-leak-kinds=definite,indirect" \
	sh tests/run.sh

# ASan/UBSan build of everything, then the suite.
sancheck:
	$(MAKE) SAN=1 check

bench: $(PROGS)
	@KH_ONLY='$(KH_ONLY)' KH_BIN=$(CURDIR)/$(O)/bin sh tests/bench/run.sh

# The whole chain on share/samples; writes kh-demo/ and prints a shortlist.
demo: all
	@PATH="$(CURDIR)/$(O)/bin:$$PATH" sh share/samples/demo.sh kh-demo

lint:
	@if command -v mandoc >/dev/null; then mandoc -Tlint -W warning $(MANS); \
	else for m in $(MANS); do groff -mdoc -z -ww $$m; done; fi

install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(DATADIR)
	install -m 0755 $(PROGS) $(DESTDIR)$(BINDIR)
	cd share/kh && find . -type d -exec install -d '$(DESTDIR)$(DATADIR)/{}' \;
	cd share/kh && find . -type f -exec install -m 0644 '{}' '$(DESTDIR)$(DATADIR)/{}' \;
	install -d $(DESTDIR)$(DATADIR)/samples
	install -m 0644 share/samples/* $(DESTDIR)$(DATADIR)/samples
	for m in $(MANS); do s=$${m#share/man/}; install -d $(DESTDIR)$(MANDIR)/$${s%/*}; \
		install -m 0644 $$m $(DESTDIR)$(MANDIR)/$$s; done
	if [ -d share/completions ]; then install -d $(DESTDIR)$(COMPDIR); \
		for c in share/completions/*; do install -m 0644 $$c $(DESTDIR)$(COMPDIR); done; fi

uninstall:
	for p in $(TOOLS); do rm -f $(DESTDIR)$(BINDIR)/$$p; \
		rm -f $(DESTDIR)$(COMPDIR)/$$p; done
	for m in $(MANS); do rm -f $(DESTDIR)$(MANDIR)/$${m#share/man/}; done
	rm -rf $(DESTDIR)$(DATADIR)

clean:
	rm -rf build build-* bin kh-demo

FORCE:
.PHONY: FORCE all bin build-tests check memcheck sancheck bench demo lint install uninstall clean comp-table

# The universe x tier table of kh-comp(1), regenerated from the pay data.
comp-table:
	sh share/man/gen-comp-table.sh share/kh/comp.json share/man/man1/kh-comp.1 \
		> share/man/man1/kh-comp.1.new || { rm -f share/man/man1/kh-comp.1.new; exit 1; }
	mv share/man/man1/kh-comp.1.new share/man/man1/kh-comp.1
