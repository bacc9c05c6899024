/* Job histories (io/sacct*.c, util/timefmt.c) and the native trace's dates
 * and durations.  Expected values come from the files in tests/data/sacct
 * read by hand (their README says what each row covers) and from dates
 * converted with Python's datetime, never from gpuplan's output. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpuplan/io/sacct.h"
#include "gpuplan/io/trace.h"
#include "gpuplan/place/policy.h"
#include "gpuplan/sim/hist_check.h"
#include "gpuplan/util/timefmt.h"
#include "testlib.h"

#define D(f) gp_test_path("tests/data/sacct/" f)

static void test_iso(void)
{
	int64_t t;
	char buf[40];

	CU_ASSERT_EQUAL(gp_time_parse_iso("2024-05-01T12:00:00", &t), 0);
	CU_ASSERT_EQUAL(t, 1714564800);
	CU_ASSERT_EQUAL(gp_time_parse_iso("2024-05-01 12:00:00Z", &t), 0);
	CU_ASSERT_EQUAL(t, 1714564800);
	CU_ASSERT_EQUAL(gp_time_parse_iso("2023-02-21T14:37:02+0100", &t), 0);
	CU_ASSERT_EQUAL(t, 1676986622);
	CU_ASSERT_EQUAL(gp_time_parse_iso("2023-02-21T14:37:02.250+01:00", &t), 0);
	CU_ASSERT_EQUAL(t, 1676986622);
	CU_ASSERT_EQUAL(gp_time_parse_iso("2000-02-29T23:59:59", &t), 0);
	CU_ASSERT_EQUAL(t, 951868799);
	CU_ASSERT_EQUAL(gp_time_parse_iso("2001-02-29T00:00:00", &t), -1);
	CU_ASSERT_EQUAL(gp_time_parse_iso("2024-13-01T00:00:00", &t), -1);
	CU_ASSERT_EQUAL(gp_time_parse_iso("2024-05-01T24:00:00", &t), -1);
	CU_ASSERT_EQUAL(gp_time_parse_iso("Unknown", &t), -1);
	CU_ASSERT_EQUAL(gp_time_parse_iso("2024-05-01T12:00:00 ", &t), -1);
	CU_ASSERT_STRING_EQUAL(gp_time_format_iso(1714564800, buf, sizeof(buf)), "2024-05-01T12:00:00Z");
	CU_ASSERT_STRING_EQUAL(gp_time_format_iso(-86400, buf, sizeof(buf)), "1969-12-31T00:00:00Z");
}

static void test_duration(void)
{
	double d;

	CU_ASSERT_EQUAL(gp_time_parse_duration("01:00:00", &d), 0);
	CU_ASSERT_EQUAL(d, 3600);
	CU_ASSERT_EQUAL(gp_time_parse_duration("3-08:24:04", &d), 0);
	CU_ASSERT_EQUAL(d, 3 * 86400 + 8 * 3600 + 24 * 60 + 4);
	CU_ASSERT_EQUAL(gp_time_parse_duration("03:00.532", &d), 0);
	CU_ASSERT(fabs(d - 180.532) < 1e-9);
	CU_ASSERT_EQUAL(gp_time_parse_duration("2-12", &d), 0);
	CU_ASSERT_EQUAL(d, 2 * 86400 + 12 * 3600);
	CU_ASSERT_EQUAL(gp_time_parse_duration("36:00:00", &d), 0);
	CU_ASSERT_EQUAL(d, 36 * 3600);
	CU_ASSERT_EQUAL(gp_time_parse_duration("1:60:00", &d), -1);
	CU_ASSERT_EQUAL(gp_time_parse_duration("60", &d), -1);
	CU_ASSERT_EQUAL(gp_time_parse_duration("UNLIMITED", &d), -1);
	CU_ASSERT_EQUAL(gp_time_parse_duration("1-25:00:00", &d), -1);
}

static gp_sacct H;
static gp_error E;

static int read_one(const char *path, const gp_sacct_opts *o)
{
	int rc;

	gp_sacct_release(&H);
	gp_sacct_init(&H);
	gp_error_clear(&E);
	rc = gp_sacct_read_file(&H, path, o, &E);
	return rc ? rc : gp_sacct_finish(&H, o, &E);
}

static const gp_sacct_job *job(const char *id)
{
	size_t i;

	for (i = 0; i < H.n; i++)
		if (!strcmp(H.jobs[i].id, id))
			return &H.jobs[i];
	return NULL;
}

/* rules.P.txt: 12 records; 100 with two steps, array tasks 101_1/101_2
 * and a pending rest 101_[3-5], het job 200+0/200+1 (the second without
 * GPUs), 300 cancelled while pending, 301 running, 302 printed twice. */
static void test_rules(void)
{
	const gp_sacct_job *j;
	gp_sacct_opts o;

	memset(&o, 0, sizeof(o));
	CU_ASSERT_EQUAL_FATAL(read_one(D("rules.P.txt"), &o), GP_OK);
	CU_ASSERT_EQUAL(H.rows, 12);
	CU_ASSERT_EQUAL(H.steps, 2);
	CU_ASSERT_EQUAL(H.duplicates, 1);
	CU_ASSERT_EQUAL(H.never_started, 2);      /* 101_[3-5], 300 */
	CU_ASSERT_EQUAL(H.no_gpus, 1);            /* 200+1 */
	CU_ASSERT_EQUAL(H.running, 1);            /* 301 */
	CU_ASSERT_EQUAL(H.n, 6);
	CU_ASSERT_EQUAL(H.warn_total, 1);
	CU_ASSERT_EQUAL(H.origin, 1714564800);
	j = job("100");
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	CU_ASSERT_EQUAL(j->gpus, 4);
	CU_ASSERT_STRING_EQUAL(j->gpu_type, "h100");
	CU_ASSERT_EQUAL(j->start - H.origin, 10);
	CU_ASSERT_EQUAL(j->elapsed, 3600);
	CU_ASSERT_EQUAL(j->time_limit, 7200);
	CU_ASSERT_STRING_EQUAL(j->account, "ml");
	j = job("101_2");
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	CU_ASSERT_STRING_EQUAL(j->state, "CANCELLED");   /* "CANCELLED by 1000" */
	CU_ASSERT_STRING_EQUAL(j->gpu_type, "a100_3g.20gb");
	j = job("200+0");
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	CU_ASSERT_EQUAL(j->gpus, 16);
	CU_ASSERT_EQUAL(j->nodes, 2);
	CU_ASSERT_EQUAL(j->time_limit, -1);              /* UNLIMITED */
	/* running: from its start (13:00) to the record's end, 13:00 + its
	 * 5400 s elapsed = 14:30 */
	j = job("301");
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	CU_ASSERT_EQUAL(j->elapsed, 5400);
	CU_ASSERT_EQUAL(H.record_end - H.origin, 9000);
	/* the later record of 302 */
	j = job("302");
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	CU_ASSERT_STRING_EQUAL(j->state, "OUT_OF_MEMORY");
	CU_ASSERT_EQUAL(j->elapsed, 2100);
	/* submit order, ties in file order */
	CU_ASSERT_STRING_EQUAL(H.jobs[0].id, "100");
	CU_ASSERT_STRING_EQUAL(H.jobs[1].id, "101_1");
	CU_ASSERT_STRING_EQUAL(H.jobs[2].id, "101_2");
	o.all_jobs = 1;
	CU_ASSERT_EQUAL_FATAL(read_one(D("rules.P.txt"), &o), GP_OK);
	CU_ASSERT_EQUAL(H.n, 7);
	CU_ASSERT_EQUAL(job("200+1")->gpus, 0);
	CU_ASSERT_EQUAL(job("200+1")->cpus, 4);
}

/* The same jobs in the other forms give the same records. */
static void test_forms(void)
{
	gp_sacct_opts o;

	memset(&o, 0, sizeof(o));
	CU_ASSERT_EQUAL_FATAL(read_one(D("rules.fixed.txt"), &o), GP_OK);
	CU_ASSERT_EQUAL(H.n, 4);
	CU_ASSERT_EQUAL(H.steps, 1);
	CU_ASSERT_EQUAL(job("101_1")->gpus, 1);     /* read before the cut */
	CU_ASSERT_EQUAL(job("101_1")->time_limit, 1800);
	CU_ASSERT_EQUAL(job("200+0")->gpus, 16);
	CU_ASSERT_STRING_EQUAL(job("302")->state, "CANCELLED"); /* "CANCELLED+" */
	CU_ASSERT_EQUAL(H.warn_total, 1);          /* the cut TRES */

	o.delimiter = "::";
	o.fields = "JobID,Submit,Start,End,ElapsedRaw,TimelimitRaw,State,AllocTRES,NodeList";
	CU_ASSERT_EQUAL_FATAL(read_one(D("rules.noheader.txt"), &o), GP_OK);
	CU_ASSERT_EQUAL(H.n, 2);
	CU_ASSERT_EQUAL(job("200+0")->nodes, 2);
	CU_ASSERT_EQUAL(job("100")->time_limit, 7200);

	memset(&o, 0, sizeof(o));
	CU_ASSERT_EQUAL_FATAL(read_one(D("rules.json"), &o), GP_OK);
	CU_ASSERT_EQUAL(H.n, 3);
	CU_ASSERT_EQUAL(H.never_started, 1);
	CU_ASSERT_EQUAL(job("100")->gpus, 4);
	CU_ASSERT_STRING_EQUAL(job("100")->gpu_type, "h100");
	CU_ASSERT_EQUAL(job("101_1")->gpus, 1);
	CU_ASSERT_STRING_EQUAL(job("101_1")->gpu_type, "a100_3g.20gb");
	CU_ASSERT_EQUAL(job("200+0")->time_limit, -1);
	CU_ASSERT_EQUAL(job("200+0")->start - H.origin, 600);

	CU_ASSERT_EQUAL_FATAL(read_one(D("pods-history.json"), &o), GP_OK);
	CU_ASSERT_EQUAL(H.n, 3);
	/* the first container start (12:00:20), the last finish (13:00:31) */
	CU_ASSERT_EQUAL(job("team-a/train-0")->start - H.origin, 20);
	CU_ASSERT_EQUAL(job("team-a/train-0")->elapsed, 3611);
	CU_ASSERT_EQUAL(job("team-a/train-0")->gpus, 4);
	CU_ASSERT_STRING_EQUAL(job("team-b/oom-1")->state, "OUT_OF_MEMORY");
	CU_ASSERT_EQUAL(job("team-a/serve")->elapsed, 3631 - 1815);
}

static void test_errors(void)
{
	static const struct { const char *text, *fields, *msg; int line, col; } bad[] = {
		{ "JobID|State\n1|COMPLETED\n", NULL, "needs Submit", 1, 1 },
		{ "1|2024-05-01T12:00:00|x\n", NULL, "no header", 1, 1 },
		{ "JobID|Submit|Start\n1|yesterday|2024-05-01T12:00:00\n", NULL, "'Submit' is not a date", 2, 3 },
		{ "JobID|Submit|Start\n1|2024-05-01T12:00:00\n", NULL, "2 fields where the header has 3", 2, 0 },
		{ "JobID Submit\n1 2\n", NULL, "line of dashes", 2, 1 },
		{ "JobID|Submit|Start|AllocTRES\n1|2024-05-01T12:00:00|2024-05-01T12:00:00|gres/gpu=x\n",
		  NULL, "GPU count 'x'", 2, 43 },
		/* control bytes in JSON strings, raw (DEL: valid JSON) and
		 * escaped, would garble the trace written from them */
		{ "{\"items\": [\n {\"metadata\": {\"name\": \"a\x7f\"}}]}", NULL,
		  "control byte (0x7f)", 2, 26 },
		{ "{\"items\": [{\"metadata\": {\"name\": \"a\"}},\n"
		  " {\"metadata\": {\"name\": \"b\\u0001\"}}]}", NULL,
		  "items[1]: a control byte in the job's name", 0, 0 },
		{ "{\"jobs\": [{\"job_id\": 1, \"partition\": \"p\\u001b[31m\"}]}", NULL,
		  "jobs[0]: a control byte in the job's partition", 0, 0 },
	};
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		gp_sacct_opts o;

		memset(&o, 0, sizeof(o));
		o.fields = bad[i].fields;
		gp_sacct_release(&H);
		gp_sacct_init(&H);
		gp_error_clear(&E);
		CU_ASSERT_EQUAL(gp_sacct_read(&H, "t", bad[i].text, strlen(bad[i].text), &o, &E),
				GP_EINPUT);
		CU_ASSERT_PTR_NOT_NULL(strstr(E.msg, bad[i].msg));
		CU_ASSERT_EQUAL(E.line, bad[i].line);
		CU_ASSERT_EQUAL(E.col, bad[i].col);
		if (!strstr(E.msg, bad[i].msg) || E.line != bad[i].line || E.col != bad[i].col)
			fprintf(stderr, "case %zu: %d:%d: %s\n", i, E.line, E.col, E.msg);
	}
}

/* A dump read as a trace, and the native CSV with dates and durations. */
static void test_trace(void)
{
	static const char native[] =
		"id,submit,gpus,duration,time_limit,recorded_start,recorded_end,partition\n"
		"a,2024-05-01T12:00:00,2,01:00:00,1-00:00:00,2024-05-01T12:00:30,2024-05-01T13:00:30,gpu\n"
		"b,2024-05-01T11:59:00,1,90,,,,\n";
	gp_joblist l;
	gp_error e = GP_ERROR_INIT;
	char *buf;

	gp_joblist_init(&l);
	CU_ASSERT_EQUAL_FATAL(gp_trace_load(D("rules.P.txt"), NULL, &l, &e), GP_OK);
	CU_ASSERT_STRING_EQUAL(l.format, "sacct");
	CU_ASSERT_EQUAL(l.n, 6);
	CU_ASSERT_STRING_EQUAL(l.jobs[0].id, "100");
	CU_ASSERT_PTR_NOT_NULL_FATAL(l.jobs[0].hist);
	CU_ASSERT_EQUAL(l.jobs[0].hist->recorded_start, 10);
	CU_ASSERT_EQUAL(l.jobs[0].hist->time_limit, 7200);
	CU_ASSERT_EQUAL(l.jobs[0].duration, 3600);
	CU_ASSERT_EQUAL(l.jobs[0].gpus, 4);
	gp_joblist_release(&l);

	gp_joblist_init(&l);
	buf = strdup(native);
	CU_ASSERT_EQUAL_FATAL(gp_trace_load_buffer("n.csv", buf, strlen(buf), NULL, &l, &e), GP_OK);
	CU_ASSERT_EQUAL(l.n, 2);
	/* b is first (11:59), a 60 s later */
	CU_ASSERT_STRING_EQUAL(l.jobs[0].id, "b");
	CU_ASSERT_EQUAL(l.jobs[1].submit, 60);
	CU_ASSERT_EQUAL(l.jobs[1].duration, 3600);
	CU_ASSERT_EQUAL(l.jobs[1].hist->time_limit, 86400);
	CU_ASSERT_EQUAL(l.jobs[1].hist->recorded_start, 90);
	CU_ASSERT_EQUAL(l.jobs[1].hist->recorded_end, 3690);
	CU_ASSERT_STRING_EQUAL(l.jobs[1].hist->partition, "gpu");
	CU_ASSERT_PTR_NULL(l.jobs[0].hist);
	free(buf);
	gp_joblist_release(&l);

	/* a date among seconds */
	gp_joblist_init(&l);
	buf = strdup("id,submit,gpus,duration,recorded_start\na,0,1,10,2024-05-01T12:00:00\n");
	CU_ASSERT_EQUAL(gp_trace_load_buffer("m.csv", buf, strlen(buf), NULL, &l, &e), GP_EINPUT);
	CU_ASSERT_EQUAL(e.line, 2);
	CU_ASSERT_EQUAL(e.col, 10);
	free(buf);
	gp_joblist_release(&l);
}

/* The record against a replay, by hand: four jobs submitted at 0 whose
 * recorded starts are 0, 10, 20, 100 and simulated starts 0, 12, 15, 100. */
static void test_check(void)
{
	static const double rec[] = { 0, 10, 20, 100 }, sim[] = { 0, 12, 15, 100 };
	static const char *const part[] = { "a", "a", "b", "b" };
	gp_job_hist h[4];
	gp_sim_job sj[4];
	gp_sim_result r;
	gp_joblist l;
	gp_hist_check c;
	const char **g;
	size_t i, n;

	gp_joblist_init(&l);
	memset(&r, 0, sizeof(r));
	memset(sj, 0, sizeof(sj));
	for (i = 0; i < 4; i++) {
		gp_job *j = gp_joblist_push(&l);

		j->id = strdup(part[i]);
		j->submit = 0;
		memset(&h[i], 0, sizeof(h[i]));
		h[i].recorded_start = rec[i];
		h[i].recorded_end = -1;
		h[i].partition = part[i];
		j->hist = &h[i];
		sj[i].start = sim[i];
	}
	r.jobs = sj;
	r.njobs = 4;
	CU_ASSERT(gp_hist_check_has(&l));
	gp_hist_check_run(&l, &r, 0, NULL, &c);
	CU_ASSERT_EQUAL(c.jobs, 4);
	CU_ASSERT_DOUBLE_EQUAL(c.recorded.dist.mean, 32.5, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(c.simulated.dist.mean, 31.75, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(c.recorded.no_wait, 0.25, 1e-9);
	/* delays sorted: rec 0 10 20 100, sim 0 12 15 100: the CDFs part by
	 * 1/4 at 10 (rec 2/4, sim 1/4) and at 15 (rec 2/4, sim 3/4) */
	CU_ASSERT_DOUBLE_EQUAL(c.ks, 0.25, 1e-9);
	/* |errors| 0 2 5 0: sorted 0 0 2 5, p50 1, max 5 */
	CU_ASSERT_DOUBLE_EQUAL(c.err_p50, 1, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(c.err_max, 5, 1e-9);
	/* simulated 0, 12, 15, 100 in recorded order: all kept */
	CU_ASSERT_DOUBLE_EQUAL(c.order_kept, 1, 1e-9);
	sj[2].start = 11;       /* now before the job recorded before it */
	gp_hist_check_run(&l, &r, 0, NULL, &c);
	CU_ASSERT_DOUBLE_EQUAL(c.order_kept, 2.0 / 3, 1e-9);
	/* as a count: of the 3 jobs after the first, job 2 (11 < 12) broke it */
	CU_ASSERT_EQUAL(c.order_kept_n, 2);
	CU_ASSERT_EQUAL(c.order_n, 3);
	gp_hist_check_run(&l, &r, 'p', "b", &c);
	CU_ASSERT_EQUAL(c.jobs, 2);
	CU_ASSERT_DOUBLE_EQUAL(c.recorded.dist.mean, 60, 1e-9);
	g = gp_hist_check_groups(&l, 'p', &n);
	CU_ASSERT_EQUAL(n, 2);
	CU_ASSERT_STRING_EQUAL(g[0], "a");
	CU_ASSERT_STRING_EQUAL(g[1], "b");
	free(g);
	for (i = 0; i < 4; i++)
		l.jobs[i].hist = NULL;
	gp_joblist_release(&l);
}

/* Slurm's rules in the engine, on one node of 8 GPUs, by hand. */
static void run_jobs(gp_joblist *l, int queue, double interval, gp_sim_result *r)
{
	gp_sim_config cfg;
	gp_error e = GP_ERROR_INIT;

	gp_sim_config_init(&cfg);
	cfg.cluster = gp_test_pix_cluster(1, 8);
	cfg.policy = gp_policy_find("first-fit");
	cfg.queue = queue;
	cfg.sched_interval = interval;
	CU_ASSERT_EQUAL_FATAL(gp_sim_run(&cfg, l, r, &e), GP_OK);
}

static void test_slurm_rules(void)
{
	static gp_job_hist lim[3];
	gp_joblist l;
	gp_sim_result r;

	/* Passes every 4 s from the first submit (0, 4, 8, 12, ...): a (8
	 * GPUs, 10 s) starts at 0 and ends at 10; b, submitted at 3, starts
	 * at the pass of 12, not at 10. */
	gp_joblist_init(&l);
	gp_test_add_job(&l, "a", 0, 8, 10, GP_CLASS_BE);
	gp_test_add_job(&l, "b", 3, 4, 5, GP_CLASS_BE);
	run_jobs(&l, GP_SIM_FIFO, 0, &r);
	CU_ASSERT_DOUBLE_EQUAL(r.jobs[1].start, 10, 1e-9);
	gp_sim_result_release(&r);
	run_jobs(&l, GP_SIM_FIFO, 4, &r);
	CU_ASSERT_DOUBLE_EQUAL(r.jobs[0].start, 0, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(r.jobs[1].start, 12, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(r.jobs[1].finish, 17, 1e-9);
	gp_sim_result_release(&r);
	gp_joblist_release(&l);

	/* EASY with time limits: a (6 GPUs, 10 s, limit 10) runs; b (8 GPUs)
	 * is blocked and reserves all 8 GPUs from a's expected end, 10; c (2
	 * GPUs, 5 s, limit 60) would end at 7 but plans to run to 62, past
	 * the reservation, on reserved GPUs: it waits for b (10..20) and
	 * starts at 20.  Without limits (the true durations) c ends by 10 and
	 * starts at once. */
	gp_joblist_init(&l);
	gp_test_add_job(&l, "a", 0, 6, 10, GP_CLASS_BE);
	gp_test_add_job(&l, "b", 1, 8, 10, GP_CLASS_BE);
	gp_test_add_job(&l, "c", 2, 2, 5, GP_CLASS_BE);
	run_jobs(&l, GP_SIM_BACKFILL, 0, &r);
	CU_ASSERT_DOUBLE_EQUAL(r.jobs[2].start, 2, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(r.jobs[1].start, 10, 1e-9);
	gp_sim_result_release(&r);
	lim[0].time_limit = 10;
	lim[2].time_limit = 60;
	l.jobs[0].hist = &lim[0];
	l.jobs[2].hist = &lim[2];
	run_jobs(&l, GP_SIM_BACKFILL, 0, &r);
	CU_ASSERT_DOUBLE_EQUAL(r.jobs[1].start, 10, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(r.jobs[2].start, 20, 1e-9);
	gp_sim_result_release(&r);
	/* a's limit of 100: b's reservation moves to 100 (the plan), c's plan
	 * (2..62) ends before it: c backfills at 2; b still starts when a
	 * really ends, at 10 */
	lim[0].time_limit = 100;
	run_jobs(&l, GP_SIM_BACKFILL, 0, &r);
	CU_ASSERT_DOUBLE_EQUAL(r.jobs[2].start, 2, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(r.jobs[1].start, 10, 1e-9);
	gp_sim_result_release(&r);
	l.jobs[0].hist = l.jobs[2].hist = NULL;
	gp_joblist_release(&l);
}

static void cleanup(void)
{
	gp_sacct_release(&H);
}

static void register_tests(void)
{
	CU_pSuite s = gp_test_suite("sacct");

	gp_sacct_init(&H);
	gp_test_add(s, "iso", test_iso);
	gp_test_add(s, "duration", test_duration);
	gp_test_add(s, "rules", test_rules);
	gp_test_add(s, "forms", test_forms);
	gp_test_add(s, "errors", test_errors);
	gp_test_add(s, "trace", test_trace);
	gp_test_add(s, "check", test_check);
	gp_test_add(s, "slurm rules", test_slurm_rules);
	gp_test_add(s, "cleanup", cleanup);
}

int main(int argc, char **argv)
{
	return gp_test_main(argc, argv, register_tests);
}
