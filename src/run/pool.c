/* Runs in worker processes (pool.h). */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gpuplan/run/pool.h"

/* A result on the wire: this head, then the error (status != GP_OK) or
 * len bytes of record. */
typedef struct result_head {
	uint64_t run;
	uint64_t len;
	int32_t status;
	int32_t pad;
} result_head;

typedef struct worker {
	pid_t pid;
	int fd;
	int busy;
	size_t run;
} worker;

struct gp_runpool {
	gp_runpool_ops ops;
	int nworkers;
	worker *w;
	void *local;            /* the state of this process, workers <= 1 */
};

static void worker_main(const gp_runpool_ops *ops, int fd)
{
	gp_error err = GP_ERROR_INIT;
	void *state;
	uint64_t run;
	int st = GP_OK;

	/* The parent handles interruption; a worker just finishes or dies
	 * with the socket. */
	signal(SIGINT, SIG_IGN);
	signal(SIGPIPE, SIG_DFL);
	state = ops->open(ops->ud, &err);
	if (!state)
		st = err.status ? err.status : GP_EIO;
	while (gp_read_all(fd, &run, sizeof(run)) == 0) {
		result_head h = { run, 0, st, 0 };
		gp_sbuf rec;
		int bad;

		gp_sbuf_init(&rec);
		if (h.status == GP_OK) {
			gp_error_clear(&err);
			h.status = ops->run(state, (size_t)run, &rec, &err);
		}
		h.len = h.status == GP_OK ? rec.len : 0;
		bad = gp_write_all(fd, &h, sizeof(h)) ||
		      (h.status != GP_OK ? gp_write_all(fd, &err, sizeof(err)) :
		       h.len && gp_write_all(fd, rec.buf, rec.len));
		gp_sbuf_release(&rec);
		if (bad)
			break;
	}
	if (state)
		ops->close(state);
	close(fd);
	_exit(0);
}

gp_runpool *gp_runpool_new(const gp_runpool_ops *ops, int workers, gp_error *err)
{
	gp_runpool *p = gp_xcalloc(1, sizeof(*p));
	int i;

	p->ops = *ops;
	if (workers <= 1) {
		p->local = ops->open(ops->ud, err);
		if (!p->local) {
			free(p);
			return NULL;
		}
		p->nworkers = 1;
		return p;
	}
	p->w = gp_xcalloc((size_t)workers, sizeof(*p->w));
	fflush(NULL);
	for (i = 0; i < workers; i++) {
		int sv[2];
		pid_t pid;

		if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv)) {
			gp_error_set(err, GP_EIO, "", 0, 0, "cannot create a socket pair: %s",
				     strerror(errno));
			gp_runpool_free(p);
			return NULL;
		}
		pid = fork();
		if (pid < 0) {
			gp_error_set(err, GP_EIO, "", 0, 0, "cannot start worker %d: %s", i + 1,
				     strerror(errno));
			close(sv[0]);
			close(sv[1]);
			gp_runpool_free(p);
			return NULL;
		}
		if (pid == 0) {
			int k;

			close(sv[0]);
			for (k = 0; k < p->nworkers; k++)
				close(p->w[k].fd);
			worker_main(&p->ops, sv[1]);
		}
		close(sv[1]);
		p->w[i].pid = pid;
		p->w[i].fd = sv[0];
		p->nworkers = i + 1;
	}
	return p;
}

int gp_runpool_workers(const gp_runpool *p)
{
	return p->nworkers;
}

void gp_runpool_free(gp_runpool *p)
{
	int i;

	if (!p)
		return;
	if (p->local)
		p->ops.close(p->local);
	for (i = 0; p->w && i < p->nworkers; i++) {
		/* Closing the socket ends the worker's loop; a busy one is
		 * killed (its run is abandoned). */
		if (p->w[i].busy)
			kill(p->w[i].pid, SIGKILL);
		close(p->w[i].fd);
	}
	for (i = 0; p->w && i < p->nworkers; i++)
		while (waitpid(p->w[i].pid, NULL, 0) < 0 && errno == EINTR)
			;
	free(p->w);
	free(p);
}

/* Whether run r's record is known already (into rec). */
static int known(gp_runpool *p, size_t r, gp_sbuf *rec)
{
	rec->len = 0;
	return p->ops.known && p->ops.known(p->ops.ud, r, rec);
}

/* Runs in this process. */
static int run_local(gp_runpool *p, const size_t *runs, size_t n, gp_runpool_done_fn done,
		     void *ud, volatile sig_atomic_t *stop, int *stopped, gp_error *err)
{
	gp_sbuf rec;
	size_t i;
	int st = GP_OK;

	gp_sbuf_init(&rec);
	for (i = 0; i < n; i++) {
		if (stop && *stop) {
			if (stopped)
				*stopped = 1;
			break;
		}
		rec.len = 0;
		if (!known(p, runs[i], &rec) && (st = p->ops.run(p->local, runs[i], &rec, err)))
			break;
		done(ud, runs[i], rec.buf ? rec.buf : "", rec.len);
	}
	gp_sbuf_release(&rec);
	return st;
}

/* One result from worker i: handed to done when whole and good; else the
 * run's error, or GP_EIO when the worker went away. */
static int take_result(gp_runpool *p, int i, gp_runpool_done_fn done, void *ud, int deliver,
		       gp_error *err)
{
	result_head h;
	gp_error e;
	char *rec;
	int st = GP_OK;

	if (gp_read_all(p->w[i].fd, &h, sizeof(h)))
		return gp_error_set(err, GP_EIO, "", 0, 0, "worker %d died during run %zu", i + 1,
				    p->w[i].run);
	p->w[i].busy = 0;
	if (h.status != GP_OK) {
		if (gp_read_all(p->w[i].fd, &e, sizeof(e)))
			return gp_error_set(err, GP_EIO, "", 0, 0, "worker %d died during run %zu", i + 1,
					    p->w[i].run);
		if (err)
			*err = e;
		return h.status;
	}
	rec = gp_xmalloc(h.len + 1);
	if (h.len && gp_read_all(p->w[i].fd, rec, (size_t)h.len))
		st = gp_error_set(err, GP_EIO, "", 0, 0, "worker %d died during run %zu", i + 1,
				  p->w[i].run);
	else if (deliver)
		done(ud, (size_t)h.run, rec, (size_t)h.len);
	free(rec);
	return st;
}

int gp_runpool_run(gp_runpool *p, const size_t *runs, size_t n, gp_runpool_done_fn done,
		   void *ud, volatile sig_atomic_t *stop, int *stopped, gp_error *err)
{
	size_t next = 0, finished = 0;
	struct pollfd *pf;
	gp_sbuf rec;
	int i, busy = 0, st = GP_OK;

	if (stopped)
		*stopped = 0;
	if (p->local)
		return run_local(p, runs, n, done, ud, stop, stopped, err);
	pf = gp_xcalloc((size_t)p->nworkers, sizeof(*pf));
	gp_sbuf_init(&rec);
	while (finished < n) {
		/* Hand out work to idle workers. */
		for (i = 0; i < p->nworkers && next < n && !(stop && *stop); i++) {
			uint64_t run;

			if (p->w[i].busy)
				continue;
			if (known(p, runs[next], &rec)) {
				done(ud, runs[next++], rec.buf ? rec.buf : "", rec.len);
				finished++;
				i--;    /* this worker is still idle */
				continue;
			}
			run = runs[next];
			if (gp_write_all(p->w[i].fd, &run, sizeof(run))) {
				st = gp_error_set(err, GP_EIO, "", 0, 0, "worker %d went away", i + 1);
				goto out;
			}
			p->w[i].busy = 1;
			p->w[i].run = runs[next++];
			busy++;
		}
		if (stop && *stop) {
			if (stopped)
				*stopped = 1;
			goto out;
		}
		if (!busy)
			break;
		for (i = 0; i < p->nworkers; i++) {
			pf[i].fd = p->w[i].busy ? p->w[i].fd : -1;
			pf[i].events = POLLIN;
			pf[i].revents = 0;
		}
		if (poll(pf, (nfds_t)p->nworkers, -1) < 0) {
			if (errno == EINTR)
				continue;
			st = gp_error_set(err, GP_EIO, "", 0, 0, "poll: %s", strerror(errno));
			goto out;
		}
		for (i = 0; i < p->nworkers; i++) {
			if (!p->w[i].busy || !(pf[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			busy--;
			finished++;
			if ((st = take_result(p, i, done, ud, 1, err)))
				goto out;
		}
	}
out:
	free(pf);
	gp_sbuf_release(&rec);
	/* Runs in flight finish: their results count when the batch was
	 * stopped, and the sockets stay in step. */
	for (i = 0; i < p->nworkers; i++) {
		gp_error ignored = GP_ERROR_INIT;

		if (p->w[i].busy)
			take_result(p, i, done, ud, st == GP_OK, &ignored);
	}
	return st;
}
