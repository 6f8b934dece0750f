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
  AC_MSG_CHECKING([for a PHP version stat supports])
  if test -z "$PHP_VERSION_ID"; then
    PHP_VERSION_ID=`$PHP_CONFIG --vernum`
  fi
  if test "$PHP_VERSION_ID" -lt 80000; then
    AC_MSG_ERROR([stat needs PHP 8.0 or later; this is $PHP_VERSION_ID])
  fi
  AC_MSG_RESULT([$PHP_VERSION_ID, ok])

  AC_MSG_CHECKING([for Linux])
  case $host_os in
    linux*) AC_MSG_RESULT([yes]) ;;
    *) AC_MSG_ERROR([stat needs Linux: it reads the executor with process_vm_readv]) ;;
  esac

  AC_CHECK_FUNCS([process_vm_readv], [], [AC_MSG_ERROR([stat needs process_vm_readv (glibc 2.15 or later)])])

  PKG_CHECK_MODULES([JSONC], [json-c >= 0.13], [], [AC_MSG_ERROR([stat needs json-c: apt-get install libjson-c-dev])])
  PHP_EVAL_INCLINE($JSONC_CFLAGS)
  PHP_EVAL_LIBLINE($JSONC_LIBS, STAT_SHARED_LIBADD)
  PHP_ADD_LIBRARY(pthread, 1, STAT_SHARED_LIBADD)
  PHP_SUBST(STAT_SHARED_LIBADD)

  STAT_CFLAGS="-std=gnu11 -fvisibility=hidden -D_GNU_SOURCE"
  if test "$PHP_STAT_DEV" != "no"; then
    STAT_CFLAGS="$STAT_CFLAGS -Wall -Wextra -Werror -Wno-unused-parameter -Wno-missing-field-initializers -Wformat=2 -Wpointer-arith -Wstrict-prototypes -Wmissing-prototypes -Wno-sign-compare"
  fi
  if test "$PHP_STAT_ASAN" != "no"; then
    STAT_CFLAGS="$STAT_CFLAGS -fsanitize=address -fno-omit-frame-pointer"
    LDFLAGS="$LDFLAGS -fsanitize=address"
  fi

  STAT_SOURCES="\
    stat.c \
    src/clock.c \
    src/memory.c \
    src/settings.c \
    src/strings.c \
    src/ring.c \
    src/requests.c \
    src/samplers.c \
    src/frame.c \
    src/sampler.c \
    src/sample.c \
    src/buffer.c \
    src/listener.c \
    src/stream.c \
    src/control.c \
  "

  PHP_NEW_EXTENSION(stat, $STAT_SOURCES, $ext_shared, , $STAT_CFLAGS, , yes)
  PHP_ADD_BUILD_DIR($ext_builddir/src, 1)
  dnl statq, the command-line client, is built beside the extension
  PHP_ADD_MAKEFILE_FRAGMENT([$ext_srcdir/tools/statq/Makefile.frag])
fi
