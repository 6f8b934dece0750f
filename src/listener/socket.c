/*
 * socket.c: the listening sockets and their files (see socket.h).
 *
 * stat_socket_open binds and listens on a parsed address, non-blocking and
 * close-on-exec. A unix socket file appears at its path only once it
 * listens, with its mode and group (bound under a temporary name beside it,
 * private by the umask, then hard-linked to its path, which never replaces a
 * file); a stale file nobody listens on is replaced, a file that is not a
 * socket or that stat may not connect to is never touched. The file's device
 * and inode are kept so that stat_socket_close unlinks only the file stat
 * made, never one another process put at the same path since. While a restarting PHP's listener
 * still holds an address (FPM reload), opening waits for it, boundedly
 * (STAT_SOCKET_RETRIES x STAT_SOCKET_RETRY_US).
 *
 * Processes that open or close a unix socket at one path at once (PHPs
 * started together with the same stat.stream) take turns: each holds an
 * exclusive flock(2) on the socket's directory from its look at the file
 * there to its own file in place (stat_socket_lock), and while it removes
 * its file when it stops. A file found stale and then unlinked were two
 * steps: another process could put its socket there in between, and lose it
 * to the unlink (two listeners, one unreachable; one bound in place lost its
 * file before its chmod). The lock is held for moments (a probe, an unlink,
 * a bind, a link; not while waiting for an address in use), waited for
 * boundedly (STAT_SOCKET_LOCK_TRIES x STAT_SOCKET_LOCK_US), and a directory
 * that cannot be opened or locked goes without it, as before.
 *
 * stat_socket_open: the main thread in MINIT, before any fork (the umask is
 * process-wide). stat_socket_close: the listener process when it stops, or
 * the process that opened the sockets at MSHUTDOWN when the listener is
 * gone; both close only their own descriptor.
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <netdb.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>
#include <netinet/in.h>

#include "socket.h"

/* startup waits at most this long (25 x 10 ms) for an address a restarting listener holds */
#define STAT_SOCKET_RETRIES  25
#define STAT_SOCKET_RETRY_US 10000
/* and at most this long (400 x 2.5 ms) for another process's turn at the socket's directory */
#define STAT_SOCKET_LOCK_TRIES 400
#define STAT_SOCKET_LOCK_US    2500

/* Take the turn at the directory `lock` is open on; false (going on without) if it does not come in time. */
static bool stat_socket_turn(int lock)
{
	int attempt;

	if (lock < 0) {
		return false;
	}
	for (attempt = 0; flock(lock, LOCK_EX | LOCK_NB) != 0; attempt++) {
		if ((errno != EWOULDBLOCK && errno != EINTR) || attempt == STAT_SOCKET_LOCK_TRIES) {
			return false;
		}
		usleep(STAT_SOCKET_LOCK_US);
	}
	return true;
}

/*
 * The turn at the directory of a unix socket's path: a descriptor of the
 * directory holding its flock (closing it gives the turn up), or -1 to go
 * without (the directory cannot be read, or the turn did not come).
 */
static int stat_socket_lock(const char *path)
{
	char dir[sizeof(((struct sockaddr_un *) 0)->sun_path)];
	const char *slash = strrchr(path, '/');
	int lock;

	if (!slash) {
		strcpy(dir, ".");
	} else if (slash == path) {
		strcpy(dir, "/");
	} else {
		memcpy(dir, path, (size_t) (slash - path));
		dir[slash - path] = '\0';
	}
	lock = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (lock >= 0 && !stat_socket_turn(lock)) {
		close(lock);
		lock = -1;
	}
	return lock;
}

static void stat_socket_unlock(int lock)
{
	if (lock >= 0) {
		close(lock);
	}
}

/*
 * A unix socket file already there: replace it if nobody listens on it.
 * With the turn at its directory (*lock), given up while it waits for a
 * listener that is going away, and taken again (-1 if it did not come).
 */
static bool stat_socket_clear(const stat_address *address, int *lock, char *error, size_t error_size)
{
	const char *path = ((const struct sockaddr_un *) &address->addr)->sun_path;
	struct stat st;
	int probe, attempt, reason;

	if (lstat(path, &st) != 0) {
		return true;
	}
	if (!S_ISSOCK(st.st_mode)) {
		snprintf(error, error_size, "%s exists and is not a socket; it is left alone", path);
		return false;
	}

	/* a listener of a PHP that is restarting (FPM reload) lets go within moments */
	for (attempt = 0; ; attempt++) {
		bool used;

		/* non-blocking: a listener whose backlog is full (stuck) answers EAGAIN at once instead of holding startup */
		probe = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
		if (probe < 0) {
			snprintf(error, error_size, "socket(): %s", strerror(errno));
			return false;
		}
		used = connect(probe, (const struct sockaddr *) &address->addr, address->length) == 0;
		reason = used ? 0 : errno;
		close(probe);
		if (!used && reason == ECONNREFUSED) {
			/* nobody listens: stale */
			break;
		}
		if (!used && reason != EAGAIN) {
			/* not known to be stale (e.g. no permission to connect): someone else's, maybe in use; not ours to remove */
			snprintf(error, error_size, "%s exists and stat cannot tell whether it is in use (connect: %s); remove it "
				"if no process serves it, or give this PHP the permission to connect to it", path, strerror(reason));
			return false;
		}
		if (attempt == STAT_SOCKET_RETRIES) {
			snprintf(error, error_size, "%s is in use by another process", path);
			return false;
		}
		/* (others take their turn meanwhile: this wait is for the listener, not for them) */
		if (*lock >= 0) {
			flock(*lock, LOCK_UN);
		}
		usleep(STAT_SOCKET_RETRY_US);
		if (*lock >= 0 && !stat_socket_turn(*lock)) {
			close(*lock);
			*lock = -1;
		}
		if (lstat(path, &st) != 0) {
			/* gone meanwhile: nothing to replace */
			return true;
		}
	}

	if (unlink(path) != 0 && errno != ENOENT) {
		snprintf(error, error_size, "cannot replace stale socket %s: %s", path, strerror(errno));
		return false;
	}

	return true;
}

/*
 * Put the listening socket bound at `bound` at the address's path: a hard
 * link, which fails where a file is already there, never replacing it (a
 * rename would put another process's socket out of reach without a word
 * when two start at once). A file that appeared since the stale check is
 * checked again: it listens, the other process keeps it and this one says
 * so; it is stale, it is replaced. Where hard links are refused (some
 * filesystems, a security policy), a rename; if that is refused too, the
 * error says where to put the socket instead.
 */
static bool stat_socket_link(const char *bound, const stat_address *address, int *lock, char *error, size_t error_size)
{
	const char *path = ((const struct sockaddr_un *) &address->addr)->sun_path;
	int attempt;

	for (attempt = 0; attempt < 3; attempt++) {
		if (link(bound, path) == 0) {
			return true;
		}
		if (errno != EEXIST) {
			/* a filesystem or a security policy without hard links for sockets: a rename, which replaces, as the rest */
			int refused = errno;

			if (rename(bound, path) == 0) {
				return true;
			}
			snprintf(error, error_size, "cannot put the socket at %s: link(): %s, rename(): %s; the filesystem or a "
				"security policy (SELinux, AppArmor) refuses it there: put the socket on a local filesystem such as "
				"/run/php", path, strerror(refused), strerror(errno));
			return false;
		}
		if (!stat_socket_clear(address, lock, error, error_size)) {
			return false;
		}
	}
	snprintf(error, error_size, "%s: another process keeps creating it", path);
	return false;
}

/*
 * A unix socket's file, made ready before it appears: bound under a
 * temporary name beside it (private by the umask: MINIT is single
 * threaded), listening, given its group and mode, then linked into place.
 * Whoever waits for the file (a script, an init system, statq) can connect
 * as soon as it sees it, with the permissions it will keep; bound at its
 * own name, a connect between bind() and listen() was refused (a test
 * starting statq on the file's appearance failed 4 times in 115 under
 * load). A path too long for a temporary name beside it (over about 95
 * bytes) is bound in place, and then appears just before it listens.
 */
static bool stat_socket_bind_unix(stat_socket *sock, int fd, const stat_address *address, mode_t mode, gid_t group,
	int *lock, char *error, size_t error_size)
{
	const char *path = ((const struct sockaddr_un *) &address->addr)->sun_path;
	stat_address temporary = *address;
	char *bound = ((struct sockaddr_un *) &temporary.addr)->sun_path;
	size_t room = sizeof(((struct sockaddr_un *) 0)->sun_path);
	struct stat st;
	mode_t old;
	int rc, length = snprintf(bound, room, "%s.%ld.new", path, (long) getpid());
	bool aside = length > 0 && (size_t) length < room;

	if (!aside) {
		strcpy(bound, path);
	} else {
		unlink(bound);
		temporary.length = (socklen_t) (offsetof(struct sockaddr_un, sun_path) + (size_t) length + 1);
	}
	old = umask(0177);
	rc = bind(fd, (const struct sockaddr *) &temporary.addr, temporary.length);
	umask(old);
	if (rc != 0) {
		/* (named by its path: the directory and its permissions are the path's) */
		snprintf(error, error_size, "bind(%s): %s", path, strerror(errno));
		return false;
	}
	if (listen(fd, 128) != 0) {
		snprintf(error, error_size, "listen(%s): %s", address->text, strerror(errno));
	} else if (group != (gid_t) -1 && chown(bound, (uid_t) -1, group) != 0) {
		snprintf(error, error_size, "cannot give %s to group %ld (stat.socket_group): %s; PHP must start as root "
			"or as a member of that group", bound, (long) group, strerror(errno));
	} else if (chmod(bound, mode) != 0) {
		snprintf(error, error_size, "chmod(%s, %04o): %s", bound, (unsigned) mode, strerror(errno));
	} else if (!aside || stat_socket_link(bound, address, lock, error, error_size)) {
		if (lstat(path, &st) == 0) {
			sock->dev = st.st_dev;
			sock->ino = st.st_ino;
		}
		if (aside) {
			unlink(bound);
		}
		return true;
	}
	unlink(bound);
	return false;
}

bool stat_socket_open(stat_socket *sock, const stat_address *address, mode_t mode, gid_t group, char *error, size_t error_size)
{
	int fd, one = 1;

	sock->fd = -1;
	sock->address = *address;
	sock->dev = 0;
	sock->ino = 0;

	if (address->family == 0) {
		return true;
	}

	if (address->family == AF_UNIX) {
		/* from the look at the file there to this one's in place: this process's turn at the directory */
		int lock = stat_socket_lock(((const struct sockaddr_un *) &address->addr)->sun_path);
		bool ok = stat_socket_clear(address, &lock, error, error_size);

		fd = -1;
		if (ok) {
			fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
			if (fd < 0) {
				snprintf(error, error_size, "socket(): %s", strerror(errno));
				ok = false;
			}
		}
		if (ok && !stat_socket_bind_unix(sock, fd, address, mode, group, &lock, error, error_size)) {
			close(fd);
			ok = false;
		}
		stat_socket_unlock(lock);
		if (ok) {
			sock->fd = fd;
		}
		return ok;
	}

	fd = socket(address->family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		snprintf(error, error_size, "socket(): %s", strerror(errno));
		return false;
	}

	{
		int attempt = 0, rc;

		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		while ((rc = bind(fd, (const struct sockaddr *) &address->addr, address->length)) != 0 &&
			errno == EADDRINUSE && attempt++ < STAT_SOCKET_RETRIES) {
			usleep(STAT_SOCKET_RETRY_US);
		}
		if (rc != 0) {
			snprintf(error, error_size, "bind(%s): %s", address->text, strerror(errno));
			close(fd);
			return false;
		}
	}

	{
		/* name the port really bound (tcp://host:0 lets the kernel choose) */
		struct sockaddr_storage bound;
		socklen_t length = sizeof(bound);
		char host[64];

		if (getsockname(fd, (struct sockaddr *) &bound, &length) == 0 &&
			getnameinfo((struct sockaddr *) &bound, length, host, sizeof(host), NULL, 0, NI_NUMERICHOST) == 0) {
			unsigned port = ntohs(bound.ss_family == AF_INET6
				? ((struct sockaddr_in6 *) &bound)->sin6_port : ((struct sockaddr_in *) &bound)->sin_port);

			snprintf(sock->address.text, sizeof(sock->address.text), "tcp://%s%s%s:%u",
				bound.ss_family == AF_INET6 ? "[" : "", host, bound.ss_family == AF_INET6 ? "]" : "", port);
		}
	}

	if (listen(fd, 128) != 0) {
		snprintf(error, error_size, "listen(%s): %s", address->text, strerror(errno));
		close(fd);
		return false;
	}

	sock->fd = fd;
	return true;
}

void stat_socket_close(stat_socket *sock)
{
	if (sock->fd >= 0) {
		close(sock->fd);
		sock->fd = -1;
	}

	if (sock->address.family == AF_UNIX && sock->ino != 0) {
		const char *path = ((const struct sockaddr_un *) &sock->address.addr)->sun_path;
		/* (a process starting may find the file stale now, and put its own there: not between these two) */
		int lock = stat_socket_lock(path);
		struct stat st;

		/* only the file we created: another process may have replaced it */
		if (lstat(path, &st) == 0 && st.st_dev == sock->dev && st.st_ino == sock->ino) {
			unlink(path);
		}
		stat_socket_unlock(lock);
		sock->ino = 0;
	}
}

