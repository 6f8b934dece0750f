# statq, stat's command-line client, built beside the extension (config.m4
# adds this fragment to the extension's Makefile).
#
# A plain `make` builds tools/statq/statq too (json-c, zlib and libzstd are required,
# hiredis optional: configure checks them), with configure's pkg-config.
# `make install` installs stat.so into PHP's extension directory, as phpize's
# Makefile does, and statq into /usr/local/bin: not into /usr/bin, which
# belongs to the distribution's packages. PREFIX (or STATQ_PREFIX, which
# wins) changes that (`make install PREFIX=/opt/stat` installs
# /opt/stat/bin/statq); stat.so goes where phpize says, whatever PREFIX.
# `make uninstall` removes both.

PREFIX ?= /usr/local
STATQ_PREFIX ?= $(PREFIX)

all: statq

# configure's pkg-config, so that statq builds what configure found
STATQ = -C $(srcdir)/tools/statq PKG_CONFIG="$(STAT_PKG_CONFIG)"

statq:
	$(MAKE) $(STATQ)

install-statq: statq
	$(MAKE) $(STATQ) install DESTDIR="$(INSTALL_ROOT)" PREFIX="$(STATQ_PREFIX)" BINDIR="$(STATQ_PREFIX)/bin"

uninstall-statq:
	$(MAKE) $(STATQ) uninstall DESTDIR="$(INSTALL_ROOT)" PREFIX="$(STATQ_PREFIX)" BINDIR="$(STATQ_PREFIX)/bin"

clean-statq:
	$(MAKE) $(STATQ) clean

install: install-statq
clean: clean-statq

uninstall: uninstall-statq
	rm -f $(INSTALL_ROOT)$(EXTENSION_DIR)/stat.so

.PHONY: statq install-statq uninstall-statq clean-statq uninstall
