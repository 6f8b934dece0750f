# statq, stat's command-line client, built beside the extension.
# Hook into the extension's build by adding to config.m4 (inside the PHP_STAT block):
#     PHP_ADD_MAKEFILE_FRAGMENT([$ext_srcdir/tools/statq/Makefile.frag])
# Then `make statq` builds tools/statq/statq and `make install-statq` installs it into
# $(prefix)/bin, beside the php binary of the PHP it was built for (e.g. /usr/bin/statq).
# The `all: statq` line below makes a plain `make` build it too (json-c is required).

all: statq

statq:
	$(MAKE) -C $(srcdir)/tools/statq

install-statq: statq
	$(MAKE) -C $(srcdir)/tools/statq install DESTDIR="$(INSTALL_ROOT)" BINDIR="$(prefix)/bin"

clean-statq:
	$(MAKE) -C $(srcdir)/tools/statq clean

install: install-statq
clean: clean-statq

.PHONY: statq install-statq clean-statq
