dnl config.m4 for stat: a sampling profiler for PHP pools.

PHP_ARG_ENABLE([stat],
  [whether to enable stat],
  [AS_HELP_STRING([--enable-stat], [Enable stat, the sampling profiler])],
  [yes])

PHP_ARG_ENABLE([stat-dev],
  [whether to build stat with developer warnings],
  [AS_HELP_STRING([--enable-stat-dev], [stat: -Wall -Wextra -Werror and friends])],
  [no], [no])

PHP_ARG_ENABLE([stat-asan],
  [whether to build stat with AddressSanitizer],
  [AS_HELP_STRING([--enable-stat-asan], [stat: build with -fsanitize=address])],
  [no], [no])

if test "$PHP_STAT" != "no"; then
  dnl the floor: 8.2 (8.1 reached its end of life on 2025-12-31 and has no
  dnl Debian package to test on); tested: 8.2, 8.4, 8.5, 8.6 (README)
  AC_MSG_CHECKING([for a PHP version stat supports])
  STAT_PHP_VERSION=`$PHP_CONFIG --version`
  if test -z "$PHP_VERSION_ID"; then
    PHP_VERSION_ID=`$PHP_CONFIG --vernum`
  fi
  if test "$PHP_VERSION_ID" -lt 80200; then
    AC_MSG_ERROR([stat needs PHP 8.2 or later; $PHP_CONFIG is PHP $STAT_PHP_VERSION (give another with --with-php-config=...)])
  fi
  if test "$PHP_VERSION_ID" -ge 80700; then
    AC_MSG_RESULT([$STAT_PHP_VERSION, newer than the versions stat is tested on (8.2 to 8.6)])
    AC_MSG_WARN([stat reads the engine's structures and is tested on PHP 8.2 to 8.6; PHP $STAT_PHP_VERSION may need changes])
  else
    AC_MSG_RESULT([$STAT_PHP_VERSION, ok])
  fi

  AC_MSG_CHECKING([for Linux])
  case $host_os in
    linux*) AC_MSG_RESULT([yes]) ;;
    *) AC_MSG_ERROR([stat needs Linux: it reads the executor with process_vm_readv]) ;;
  esac

  AC_CHECK_FUNCS([process_vm_readv], [], [AC_MSG_ERROR([stat needs process_vm_readv (glibc 2.15 or later)])])

  dnl Every library the build uses, the extension's and statq's: a missing
  dnl one stops configure with one line naming its Debian package (README,
  dnl "From source", lists these). pthread and libm are libc's (build-essential).
  dnl statq's Makefile asks the same pkg-config (STAT_PKG_CONFIG, passed down
  dnl by Makefile.frag) the same questions, so it builds what configure said.
  if test -z "$PKG_CONFIG"; then
    AC_MSG_ERROR([stat needs pkg-config: apt-get install pkg-config])
  fi
  PKG_CHECK_MODULES([JSONC], [json-c >= 0.13], [], [AC_MSG_ERROR([stat needs json-c: apt-get install libjson-c-dev])])
  PKG_CHECK_MODULES([ZLIB], [zlib], [], [AC_MSG_ERROR([stat needs zlib (statq reads and writes gzip): apt-get install zlib1g-dev])])
  PKG_CHECK_MODULES([ZSTD], [libzstd], [], [AC_MSG_ERROR([stat needs libzstd (statq ship's and aggregate's entries are zstd): apt-get install libzstd-dev])])
  dnl hiredis is optional: without it statq's ship and aggregate only say how
  dnl to get it (said here, and again at the end of configure's output, where it is seen)
  PKG_CHECK_MODULES([HIREDIS], [hiredis], [STAT_HIREDIS=yes], [STAT_HIREDIS=no])
  if test "$STAT_HIREDIS" = yes; then
    PKG_CHECK_MODULES([HIREDIS_SSL], [hiredis_ssl], [], [
      AC_MSG_NOTICE([statq ship and aggregate will not speak TLS (rediss://): hiredis_ssl comes with hiredis 1.0 and later (libhiredis-dev of Debian trixie and later)])
    ])
  else
    AC_MSG_WARN([statq ship and aggregate will not work: apt-get install libhiredis-dev (then configure again) for them])
  fi
  AC_CONFIG_COMMANDS([statq-hiredis], [
    if test "$stat_hiredis" != yes; then
      AC_MSG_WARN([statq ship and aggregate will not work: apt-get install libhiredis-dev (then configure again) for them])
    fi
  ], [stat_hiredis=$STAT_HIREDIS])
  STAT_PKG_CONFIG=$PKG_CONFIG
  PHP_SUBST(STAT_PKG_CONFIG)
  PHP_EVAL_INCLINE($JSONC_CFLAGS)
  PHP_EVAL_LIBLINE($JSONC_LIBS, STAT_SHARED_LIBADD)
  PHP_ADD_LIBRARY(pthread, 1, STAT_SHARED_LIBADD)
  PHP_SUBST(STAT_SHARED_LIBADD)

  STAT_CFLAGS="-std=gnu11 -fvisibility=hidden -D_GNU_SOURCE -DZEND_ENABLE_STATIC_TSRMLS_CACHE=1"
  if test "$PHP_STAT_DEV" != "no"; then
    STAT_CFLAGS="$STAT_CFLAGS -Wall -Wextra -Werror -Wno-unused-parameter -Wno-missing-field-initializers -Wformat=2 -Wpointer-arith -Wstrict-prototypes -Wmissing-prototypes -Wno-sign-compare"
  fi
  if test "$PHP_STAT_ASAN" != "no"; then
    STAT_CFLAGS="$STAT_CFLAGS -fsanitize=address -fno-omit-frame-pointer"
    LDFLAGS="$LDFLAGS -fsanitize=address"
  fi

  STAT_SOURCES="\
    stat.c \
    src/shared/clock.c \
    src/shared/mapping.c \
    src/shared/strings.c \
    src/shared/ring.c \
    src/shared/requests.c \
    src/shared/samplers.c \
    src/shared/places.c \
    src/common/buffer.c \
    src/common/address.c \
    src/common/task.c \
    src/common/daemon.c \
    src/request/settings.c \
    src/request/request.c \
    src/request/uri.c \
    src/request/secret.c \
    src/request/endpoints.c \
    src/request/dump.c \
    src/request/api.c \
    src/request/invocation.c \
    src/request/warnings.c \
    src/request/pool_client.c \
    src/pool/pool.c \
    src/pool/pool_memory.c \
    src/sampler/sampler.c \
    src/sampler/share.c \
    src/sampler/frame.c \
    src/sampler/frame_window.c \
    src/sampler/frame_names.c \
    src/sampler/frame_depth.c \
    src/sampler/frame_generators.c \
    src/sampler/frame_args.c \
    src/sampler/frame_chain.c \
    src/sampler/frame_frameless.c \
    src/sampler/frame_walk.c \
    src/sampler/frame_functions.c \
    src/listener/listener.c \
    src/listener/bell.c \
    src/listener/socket.c \
    src/listener/clients.c \
    src/listener/stream.c \
    src/listener/control.c \
    src/listener/handshake.c \
    src/listener/status.c \
    src/listener/sample.c \
  "

  PHP_NEW_EXTENSION(stat, $STAT_SOURCES, $ext_shared, , $STAT_CFLAGS, , yes)
  dnl src/ is in folders by where the code runs (src/README.md); each needs its object dir
  PHP_ADD_BUILD_DIR($ext_builddir/src/request, 1)
  PHP_ADD_BUILD_DIR($ext_builddir/src/sampler, 1)
  PHP_ADD_BUILD_DIR($ext_builddir/src/pool, 1)
  PHP_ADD_BUILD_DIR($ext_builddir/src/listener, 1)
  PHP_ADD_BUILD_DIR($ext_builddir/src/shared, 1)
  PHP_ADD_BUILD_DIR($ext_builddir/src/common, 1)
  dnl statq, the command-line client, is built beside the extension
  PHP_ADD_MAKEFILE_FRAGMENT([$ext_srcdir/tools/statq/Makefile.frag])
fi
