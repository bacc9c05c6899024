/* Worker processes for a sweep (sweep.h).  Each worker is a fork of the
 * caller with its own runner; the parent hands out one run at a time over
 * a socket pair and reads back a fixed-size record, so that a slow run
 * never holds up the others.  Workers never print: an error travels back
 * in the record. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gpuplan/util/util.h"
#include "gpuplan/whatif/sweep.h"

typedef struct task_msg {
	uint64_t run;
} task_msg;

typedef struct result_msg {
	uint64_t run;
	int32_t status;
	gp_whatif_result res;
	gp_error err;
} result_msg;

typedef struct worker {
	pid_t pid;
	int fd;
	int busy;
	size_t run;
} worker;

struct gp_whatif_pool {
	const gp_whatif_spec *spec;
	int nworkers;
	worker *w;
	gp_whatif_runner *local;        /* workers <= 1 */
};

static void worker_main(const gp_whatif_spec *spec, int fd)
{
	gp_error err = GP_ERROR_INIT;
	gp_whatif_runner *r;
	task_msg t;
	result_msg m;
	int st = GP_OK;

	/* The parent handles interruption; a worker just finishes or dies
	 * with the socket. */
	signal(SIGINT, SIG_IGN);
	signal(SIGPIPE, SIG_DFL);
	r = gp_whatif_runner_new(spec, &err);
	if (!r)
		st = err.status ? err.status : GP_EIO;
	while (gp_read_all(fd, &t, sizeof(t)) == 0) {
		memset(&m, 0, sizeof(m));
		m.run = t.run;
		if (st) {
			m.status = st;
			m.err = err;
		} else {
			gp_error_clear(&m.err);
			m.status = gp_whatif_runner_run(r, (size_t)t.run, &m.res, &m.err);
		}
		if (gp_write_all(fd, &m, sizeof(m)))
			break;
	}
	gp_whatif_runner_free(r);
	close(fd);
	_exit(0);
}

gp_whatif_pool *gp_whatif_pool_new(const gp_whatif_spec *spec, int workers, gp_error *err)
{
	gp_whatif_pool *p = gp_xcalloc(1, sizeof(*p));
	int i;

	p->spec = spec;
	if (workers <= 1) {
		p->local = gp_whatif_runner_new(spec, err);
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
			gp_whatif_pool_free(p);
			return NULL;
		}
		pid = fork();
		if (pid < 0) {
			gp_error_set(err, GP_EIO, "", 0, 0, "cannot start worker %d: %s", i + 1,
				     strerror(errno));
			close(sv[0]);
			close(sv[1]);
			gp_whatif_pool_free(p);
			return NULL;
		}
		if (pid == 0) {
			int k;

			close(sv[0]);
			for (k = 0; k < p->nworkers; k++)
				close(p->w[k].fd);
			worker_main(spec, sv[1]);
		}
		close(sv[1]);
		p->w[i].pid = pid;
		p->w[i].fd = sv[0];
		p->nworkers = i + 1;
	}
	return p;
}

int gp_whatif_pool_workers(const gp_whatif_pool *p)
{
	return p->nworkers;
}

void gp_whatif_pool_free(gp_whatif_pool *p)
{
	int i;

	if (!p)
		return;
	gp_whatif_runner_free(p->local);
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

int gp_whatif_pool_run(gp_whatif_pool *p, const size_t *runs, size_t n, gp_whatif_done_fn done,
		       void *ud, volatile sig_atomic_t *stop, int *stopped, gp_error *err)
{
	size_t next = 0, finished = 0;
	struct pollfd *pf;
	int i, busy = 0, st = GP_OK;

	if (stopped)
		*stopped = 0;
	if (p->local) {
		for (next = 0; next < n; next++) {
			gp_whatif_result res;

			if (stop && *stop) {
				if (stopped)
					*stopped = 1;
				return GP_OK;
			}
			if ((st = gp_whatif_runner_run(p->local, runs[next], &res, err)))
				return st;
			done(ud, runs[next], &res);
		}
		return GP_OK;
	}
	pf = gp_xcalloc((size_t)p->nworkers, sizeof(*pf));
	while (finished < n) {
		/* Hand out work to idle workers. */
		for (i = 0; i < p->nworkers && next < n && !(stop && *stop); i++) {
			task_msg t;

			if (p->w[i].busy)
				continue;
			t.run = runs[next];
			if (gp_write_all(p->w[i].fd, &t, sizeof(t))) {
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
			result_msg m;

			if (!p->w[i].busy || !(pf[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			if (gp_read_all(p->w[i].fd, &m, sizeof(m))) {
				st = gp_error_set(err, GP_EIO, "", 0, 0,
						  "worker %d died during run %zu", i + 1, p->w[i].run);
				goto out;
			}
			p->w[i].busy = 0;
			busy--;
			finished++;
			if (m.status != GP_OK) {
				if (err)
					*err = m.err;
				st = m.status;
				goto out;
			}
			done(ud, (size_t)m.run, &m.res);
		}
	}
out:
	free(pf);
	/* Runs in flight finish (a run takes about a second): their results
	 * count when the batch was stopped, and the sockets stay in step. */
	for (i = 0; i < p->nworkers; i++) {
		result_msg m;

		if (!p->w[i].busy || gp_read_all(p->w[i].fd, &m, sizeof(m)))
			continue;
		p->w[i].busy = 0;
		if (st == GP_OK && m.status == GP_OK)
			done(ud, (size_t)m.run, &m.res);
	}
	return st;
}
