/*
 * What only a recording can do: the clock it drives, a jump to one of
 * its samples, the sample at a recorded time, and its position,
 * diagnostics and summary; and the pace of a run and its end, which a
 * recording sets.  Apart from session.c because all of it goes through
 * the source's playback controls, which a live session lacks; a jump
 * across a catalog change goes back through session_reload().
 */
#include "config.h"

#include "session/session.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "catalog/catalog.h"
#include "engine/engine.h"
#include "session/session-int.h"
#include "util/hverr.h"
#include "util/xalloc.h"

/* The interval the recording was made with, in seconds (1 if none). */
double
session_replay_interval(const struct session *s)
{
	uint64_t	 iv = s->ctl->interval(s->src);

	return (iv > 0 ? (double)iv / 1e9 : 1.0);
}

/* Where a replay stands and when the next sample is due, in one call
 * to the source's controls. */
static void
session_ask(const struct session *s, const struct selection *sel,
    struct source_state *st)
{
	memset(st, 0, sizeof *st);
	if (s->ctl == NULL)
		st->wait = (uint64_t)llround(s->interval * 1e9);
	else
		s->ctl->state(s->src, sel, st);
}

/*
 * A source with playback controls drives the clock: the recording's epoch
 * for timestamps and its stamps for every sample.  A batch replay runs as
 * fast as it can (a virtual clock); otherwise at the recorded interval
 * over --replay-speed, or scaled to -d.  What is wrong with the file is
 * said once, here.
 */
void
session_replay_start(struct session *s)
{
	const struct source_control	*c = s->ctl;
	uint64_t			 epoch = c->epoch(s->src);
	size_t				 i;

	clock_init(&s->clock, s->opts.batch && s->opts.replay_speed == 0,
	    epoch);
	s->clock.epoch_ns = epoch;
	if (s->opts.replay_speed > 0)
		c->set_speed(s->src, s->opts.replay_speed);
	else if (s->opts.interval_set && !s->opts.batch &&
	    c->interval(s->src) > 0)
		session_set_interval(s, s->opts.interval);
	s->interval = session_replay_interval(s) / c->speed(s->src);
	for (i = 0; i < c->ndiags(s->src); i++)
		session_notify(s, xstrdup(c->diag(s->src, i)));
}

/* The jump itself: the catalog recorded there, new baselines. */
static int
session_seek_to(struct session *s, uint64_t index, unsigned *changed,
    char **cause)
{
	const void	*img;
	size_t		 len;
	uint64_t	 version;
	int		 error;

	if (s->ctl == NULL) {
		*cause = xasprintf("the %s source cannot jump: only a "
		    "recording can", s->src->ops->name);
		return (-HV_EUSAGE);
	}
	if ((error = s->ctl->seek(s->src, index, cause)) != 0)
		return (error);
	*changed |= SESSION_CHANGED_SEEK;
	if ((error = s->src->ops->catalog(s->src, &img, &len, cause)) != 0)
		return (error);
	if (catalog_peek_version(img, len, &version) != 0) {
		*cause = xasprintf("the recorded catalog is %zu bytes", len);
		return (-HV_ETRUNC);
	}
	/* Samples before a reload were planned with the older catalog. */
	if (version != s->catp->version) {
		if ((error = session_reload(s, version, cause)) != 0)
			return (error);
		*changed |= SESSION_CHANGED_ENGINE;
		return (0);
	}
	/* The interval across the jump means nothing. */
	engine_rebase(s->engine);
	return (0);
}

int
session_seek(struct session *s, uint64_t index, struct session_result *res,
    char **cause)
{
	int	 error;

	memset(res, 0, sizeof *res);
	error = session_seek_to(s, index, &res->changed, cause);
	session_state(s, res);
	return (error);
}

int
session_find(const struct session *s, uint64_t t, uint64_t *index,
    char **cause)
{
	uint64_t	 epoch = s->clock.epoch_ns;

	if (s->ctl == NULL) {
		*cause = xasprintf("the %s source has no recorded times: only "
		    "a recording has", s->src->ops->name);
		return (-HV_EUSAGE);
	}
	/* Recorded time is wall time less the recording's epoch. */
	*index = s->ctl->find(s->src, t > epoch ? t - epoch : 0);
	return (0);
}

int
session_replay(const struct session *s, struct session_replay *out)
{
	struct session_replay	 r;
	struct source_state	 st;

	memset(&r, 0, sizeof r);
	if (s->ctl != NULL) {
		session_ask(s, NULL, &st);
		r.position = st.position;
		r.total = st.total;
		r.first = s->clock.epoch_ns + s->ctl->start(s->src);
		r.speed = s->ctl->speed(s->src);
		r.damaged = s->ctl->damaged(s->src);
		r.ndiags = s->ctl->ndiags(s->src);
	}
	if (out != NULL)
		*out = r;
	return (s->ctl != NULL);
}

const char *
session_replay_diag(const struct session *s, size_t i)
{
	return (s->ctl != NULL ? s->ctl->diag(s->src, i) : "");
}

char *
session_replay_summary(const struct session *s)
{
	return (s->ctl != NULL ? s->ctl->summary(s->src) : xstrdup(""));
}

/* ---- pacing and the end of a run ----------------------------------- */

void
session_state(struct session *s, struct session_result *res)
{
	struct source_state	 st;

	session_ask(s, s->sel, &st);
	/* Whether the recording changes its selection before the next
	 * sample: followed before that sample is read. */
	s->follow = st.follow;
	if (res == NULL)
		return;
	res->position = st.position;
	res->total = st.total;
	res->done = st.done;
	res->wait = st.wait;
}

int
session_done(const struct session *s)
{
	struct source_state	 st;

	session_ask(s, NULL, &st);
	return (st.done);
}

uint64_t
session_deadline(const struct session *s, uint64_t now)
{
	struct source_state	 st;

	session_ask(s, NULL, &st);
	if (st.wait == UINT64_MAX)
		return (UINT64_MAX);
	return (st.wait < UINT64_MAX - now ? now + st.wait : UINT64_MAX);
}
