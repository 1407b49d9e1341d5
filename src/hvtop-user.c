/*
 * --user NAME: hvtop started as root opens the counters, the catalog and
 * the listening socket, then becomes NAME for good: NAME's groups, its
 * gid, its uid, and no capability left in any set, so that a flaw in
 * the HTTP server cannot reach what root could.
 */
#include "config.h"

#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/types.h>

#include <linux/capability.h>

#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hvtop.h"
#include "util/xalloc.h"

int
hvtop_user_lookup(const char *name, struct hvtop_user *u, char **cause)
{
	struct passwd	*pw;

	memset(u, 0, sizeof *u);
	if (geteuid() != 0) {
		*cause = xasprintf("--user %s: hvtop runs as uid %lu, and only "
		    "root can become another user: start it as root, or "
		    "leave --user out", name, (unsigned long)geteuid());
		return (-1);
	}
	errno = 0;
	if ((pw = getpwnam(name)) == NULL) {
		*cause = xasprintf("--user %s: %s", name, errno != 0 ?
		    strerror(errno) : "no such user");
		return (-1);
	}
	if (pw->pw_uid == 0) {
		*cause = xasprintf("--user %s: that is uid 0, which keeps "
		    "root: name an unprivileged user", name);
		return (-1);
	}
	u->name = xstrdup(name);
	u->uid = pw->pw_uid;
	u->gid = pw->pw_gid;
	return (0);
}

/* Nothing in /proc/self/status's capability sets: 0 or -1. */
static int
hvtop_user_nocaps(char **cause)
{
	static const char *const sets[] = {
		"CapInh:", "CapPrm:", "CapEff:", "CapAmb:"
	};
	FILE		*fp;
	char		 line[256];
	size_t		 i, seen = 0;
	unsigned long long v;

	if ((fp = fopen("/proc/self/status", "r")) == NULL) {
		*cause = xasprintf("/proc/self/status: %s", strerror(errno));
		return (-1);
	}
	while (fgets(line, sizeof line, fp) != NULL) {
		for (i = 0; i < sizeof sets / sizeof sets[0]; i++) {
			if (strncmp(line, sets[i], strlen(sets[i])) != 0)
				continue;
			seen++;
			v = strtoull(line + strlen(sets[i]), NULL, 16);
			if (v != 0) {
				fclose(fp);
				*cause = xasprintf("%s %llx after the change: "
				    "capabilities are left", sets[i], v);
				return (-1);
			}
		}
	}
	fclose(fp);
	/* CapAmb is missing before Linux 4.3, where there is none. */
	if (seen < 3) {
		*cause = xasprintf("%s", "/proc/self/status shows no "
		    "capability sets");
		return (-1);
	}
	return (0);
}

int
hvtop_user_drop(const struct hvtop_user *u, char **cause)
{
	struct __user_cap_header_struct	 hdr;
	struct __user_cap_data_struct	 data[2];

	if (initgroups(u->name, u->gid) != 0) {
		*cause = xasprintf("--user %s: initgroups: %s", u->name,
		    strerror(errno));
		return (-1);
	}
	if (setresgid(u->gid, u->gid, u->gid) != 0) {
		*cause = xasprintf("--user %s: setresgid(%lu): %s", u->name,
		    (unsigned long)u->gid, strerror(errno));
		return (-1);
	}
	/* The ambient set would survive into a command hvtop runs. */
	(void)prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
	if (setresuid(u->uid, u->uid, u->uid) != 0) {
		*cause = xasprintf("--user %s: setresuid(%lu): %s", u->name,
		    (unsigned long)u->uid, strerror(errno));
		return (-1);
	}
	/* setuid() empties the permitted and effective sets, not the
	 * inheritable one: empty them all. */
	memset(&hdr, 0, sizeof hdr);
	memset(data, 0, sizeof data);
	hdr.version = _LINUX_CAPABILITY_VERSION_3;
	if (syscall(SYS_capset, &hdr, data) != 0) {
		*cause = xasprintf("--user %s: capset: %s", u->name,
		    strerror(errno));
		return (-1);
	}
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
		*cause = xasprintf("--user %s: PR_SET_NO_NEW_PRIVS: %s",
		    u->name, strerror(errno));
		return (-1);
	}
	/* No way back: check it rather than trust it. */
	if (setuid(0) == 0 || seteuid(0) == 0 || setgid(0) == 0) {
		*cause = xasprintf("--user %s: root could be regained after "
		    "the change", u->name);
		return (-1);
	}
	if (getuid() != u->uid || geteuid() != u->uid ||
	    getgid() != u->gid || getegid() != u->gid) {
		*cause = xasprintf("--user %s: the ids did not change",
		    u->name);
		return (-1);
	}
	return (hvtop_user_nocaps(cause));
}

void
hvtop_user_free(struct hvtop_user *u)
{
	free(u->name);
	u->name = NULL;
}
