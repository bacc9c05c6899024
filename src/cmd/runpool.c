/* Independent runs in worker processes (runpool.h).  Each worker writes
 * its records to its own pipe as [u64 length][bytes]; the caller polls
 * every pipe and keeps what comes in memory, so no worker ever blocks on
 * a slower sibling, and only then takes the records in run order: the
 * result is that of one process doing the runs in order. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gpuplan/util/error.h"
#include "runpool.h"

static void worker_main(size_t n, int nworkers, int w, int fd, const gp_runpool_ops *ops)
{
	size_t r;

	/* A worker never prints: its stdio buffers were the caller's. */
	for (r = (size_t)w; r < n; r += (size_t)nworkers) {
		gp_sbuf b;
		uint64_t len = 0;
		int stop;

		gp_sbuf_init(&b);
		gp_sbuf_add(&b, (const char *)&len, sizeof(len));
		stop = ops->run(ops->ud, r, &b);
		len = b.len - sizeof(len);
		memcpy(b.buf, &len, sizeof(len));
		if (gp_write_all(fd, b.buf, b.len))
			stop = 1;
		gp_sbuf_release(&b);
		if (stop)
			break;
	}
	close(fd);
	_exit(0);
}

/* Whole records in b from *off on; advances *off past them. */
static size_t whole_records(const gp_sbuf *b, size_t *off)
{
	size_t k = 0;
	uint64_t len;

	while (b->len - *off >= sizeof(len)) {
		memcpy(&len, b->buf + *off, sizeof(len));
		if (len > b->len - *off - sizeof(len))
			break;
		*off += sizeof(len) + (size_t)len;
		k++;
	}
	return k;
}

/* Read every pipe to its end. */
static void drain(int nworkers, int *fd, gp_sbuf *buf, const gp_runpool_ops *ops)
{
	struct pollfd *pf = gp_xcalloc((size_t)nworkers, sizeof(*pf));
	size_t *seen = gp_xcalloc((size_t)nworkers, sizeof(*seen)), done = 0;
	char chunk[65536];
	int w, open = nworkers;

	while (open > 0) {
		for (w = 0; w < nworkers; w++)
			pf[w] = (struct pollfd){ fd[w], POLLIN, 0 };
		if (poll(pf, (nfds_t)nworkers, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (w = 0; w < nworkers; w++) {
			ssize_t k;

			if (fd[w] < 0 || !(pf[w].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			k = read(fd[w], chunk, sizeof(chunk));
			if (k < 0 && errno == EINTR)
				continue;
			if (k <= 0) {
				close(fd[w]);
				fd[w] = -1;
				open--;
				continue;
			}
			gp_sbuf_add(&buf[w], chunk, (size_t)k);
			done += whole_records(&buf[w], &seen[w]);
			if (ops->progress)
				ops->progress(ops->ud, done);
		}
	}
	free(pf);
	free(seen);
}

/* Start the workers; returns how many started (all, or an error shown). */
static int start(size_t n, int nworkers, int *fd, pid_t *pid, const gp_runpool_ops *ops)
{
	int w, k, p[2];

	fflush(stdout);
	fflush(stderr);
	for (w = 0; w < nworkers; w++) {
		if (pipe(p)) {
			fprintf(stderr, "gpuplan: cannot start worker processes: %s\n", strerror(errno));
			return w;
		}
		if ((pid[w] = fork()) < 0) {
			fprintf(stderr, "gpuplan: cannot start worker processes: %s\n", strerror(errno));
			close(p[0]);
			close(p[1]);
			return w;
		}
		if (pid[w] == 0) {
			for (k = 0; k < w; k++)
				close(fd[k]);
			close(p[0]);
			worker_main(n, nworkers, w, p[1], ops);
		}
		close(p[1]);
		fd[w] = p[0];
	}
	return w;
}

static int deliver(size_t n, int nworkers, gp_sbuf *buf, const int *wstatus,
		   const gp_runpool_ops *ops)
{
	size_t *off = gp_xcalloc((size_t)nworkers, sizeof(*off)), r;
	int rc = GP_OK;

	for (r = 0; r < n && rc == GP_OK; r++) {
		int w = (int)(r % (size_t)nworkers);
		size_t left = buf[w].len - off[w];
		uint64_t len = 0;

		if (left >= sizeof(len))
			memcpy(&len, buf[w].buf + off[w], sizeof(len));
		if (left < sizeof(len) || len > left - sizeof(len)) {
			fprintf(stderr, "gpuplan: worker process %d ended without the result of run %zu (%s %d)\n",
				w + 1, r + 1, WIFSIGNALED(wstatus[w]) ? "signal" : "exit status",
				WIFSIGNALED(wstatus[w]) ? WTERMSIG(wstatus[w]) : WEXITSTATUS(wstatus[w]));
			rc = GP_EIO;
			break;
		}
		rc = ops->take(ops->ud, r, buf[w].buf + off[w] + sizeof(len), (size_t)len);
		off[w] += sizeof(len) + (size_t)len;
	}
	free(off);
	return rc;
}

int gp_runpool(size_t n, int nworkers, const gp_runpool_ops *ops)
{
	int *fd = gp_xcalloc((size_t)nworkers, sizeof(*fd));
	int *wstatus = gp_xcalloc((size_t)nworkers, sizeof(*wstatus));
	pid_t *pid = gp_xcalloc((size_t)nworkers, sizeof(*pid));
	gp_sbuf *buf = gp_xcalloc((size_t)nworkers, sizeof(*buf));
	int w, started, rc = GP_OK;

	for (w = 0; w < nworkers; w++)
		gp_sbuf_init(&buf[w]);
	started = start(n, nworkers, fd, pid, ops);
	if (started < nworkers) {
		for (w = 0; w < started; w++)
			kill(pid[w], SIGTERM);
		rc = GP_EIO;
	}
	if (started)
		drain(started, fd, buf, ops);
	for (w = 0; w < started; w++)
		while (waitpid(pid[w], &wstatus[w], 0) < 0 && errno == EINTR)
			;
	if (rc == GP_OK)
		rc = deliver(n, nworkers, buf, wstatus, ops);
	for (w = 0; w < nworkers; w++)
		gp_sbuf_release(&buf[w]);
	free(buf);
	free(fd);
	free(wstatus);
	free(pid);
	return rc;
}
