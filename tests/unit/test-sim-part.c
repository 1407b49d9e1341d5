/*
 * Unit tests for the simulated partitions: where their home cores are,
 * the four VCPU domains as disjoint parts of a vcpu's work, placement,
 * contention and DPO in the shares off the home core, a partition the
 * frame lacks refused, and every partition's values reported to the
 * observer and reproducible from the seed.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "catalog/catalog.h"
#include "hcall/hcall.h"
#include "sim/sim.h"
#include "util/hverr.h"
#include "test-hcall-fixture.h"

#define TB		512000000ULL	/* default timebase: ticks a second */
#define COUNTER		(TFIX_CORE_REC(0) + 24)	/* a core counter word */

static struct tfix	 fx;

static int
setup(void **state)
{
	(void)state;
	tfix_build(&fx, 8, 4, 1);
	return (0);
}

static int
teardown(void **state)
{
	(void)state;
	tfix_free(&fx);
	return (0);
}

/* A frame from the defaults with no uptime, then spec. */
static void
frame(const char *spec, struct sim_config *cfg, struct sim_frame *f)
{
	char	*cause = NULL;

	sim_config_defaults(cfg);
	cfg->uptime_ms = 0;
	if (spec != NULL && sim_config_parse(cfg, spec, &cause) != 0)
		fail_msg("%s: %s", spec, cause);
	if (sim_frame_init(f, cfg, &cause) != 0)
		fail_msg("%s: %s", spec, cause);
}

static struct sim_hv *
new_hv(const char *spec)
{
	struct sim_config	 cfg;
	struct sim_frame	 f;
	struct sim_hv		*hv;
	char			*cause = NULL;

	frame(spec, &cfg, &f);
	if (sim_hv_new(&cfg, fx.cat, fx.image, fx.len, &hv, &cause) != 0)
		fail_msg("%s", cause);
	return (hv);
}

/* One counter of vcpus first .. first + n - 1 of partitions from lpar. */
static struct hcall_request
req_vcpu(unsigned domain, unsigned lpar, unsigned nlpars, unsigned first,
    unsigned n)
{
	struct hcall_request	 r;

	memset(&r, 0, sizeof r);
	r.domain = (uint8_t)domain;
	r.data_offset = COUNTER;
	r.data_size = 8;
	r.lpar = (uint16_t)lpar;
	r.max_lpars = (uint16_t)nlpars;
	r.index = (uint16_t)first;
	r.max_ix = (uint16_t)n;
	r.max_tg = HCALL_TG_ALL;
	return (r);
}

static long
call(struct sim_hv *hv, uint64_t tb, const struct hcall_request *r,
    uint8_t *res, struct hcall_resbuf *out)
{
	static struct hcall_reqbuf rb;
	uint8_t		 req[HCALL_BUF_SIZE];
	char		*cause = NULL;
	long		 rc;

	memset(&rb, 0, sizeof rb);
	rb.version = 2;
	rb.nrequests = 1;
	rb.req[0] = *r;
	if (hcall_encode_request(&rb, req, sizeof req, NULL, &cause) != 0)
		fail_msg("%s", cause);
	rc = sim_hv_data(hv, tb, req, sizeof req, res, HCALL_BUF_SIZE);
	if (hcall_decode_result(res, HCALL_BUF_SIZE, 2, out, &cause) != 0)
		fail_msg("result: %s", cause);
	return (rc);
}

/* A vcpu's count in one domain: its thread groups summed. */
static uint64_t
vcpu_count(struct sim_hv *hv, uint64_t tb, unsigned domain, unsigned lpar,
    unsigned vcpu)
{
	static struct hcall_resbuf out;
	static uint8_t		 res[HCALL_BUF_SIZE];
	struct hcall_request	 r = req_vcpu(domain, lpar, 1, vcpu, 1);
	uint64_t		 v = 0;
	size_t			 e;

	assert_int_equal(call(hv, tb, &r, res, &out), H_SUCCESS);
	for (e = 0; e < out.nelements; e++)
		v += hcall_element_word(&out, &out.elements[e], 0);
	return (v);
}

/*
 * The default frame: 24 cores in two chips, one a node; partitions of 2,
 * 6, 13 and 3 processing units placed one after another, the third
 * across both nodes.  More partitions than cores start again at core 0.
 */
static void
test_part_place(void **state)
{
	static const int	 span[4] = { SIM_SPAN_CHIP, SIM_SPAN_CHIP,
				    SIM_SPAN_FRAME, SIM_SPAN_CHIP };
	static const unsigned	 first[4] = { 0, 2, 8, 21 };
	struct sim_config	 cfg;
	struct sim_frame	 f;
	struct sim_place	 p;
	unsigned		 l, n = 0;
	double			 e = 0;

	(void)state;
	frame(NULL, &cfg, &f);
	assert_int_equal(f.nodes, 2);
	assert_int_equal(f.chips_per_node, 1);
	for (l = 0; l < 4; l++) {
		sim_frame_place(&f, l, &p);
		assert_int_equal(p.span, span[l]);
		assert_int_equal(p.first, first[l]);
		assert_false(p.crowded);
		n += p.ncores;
		e += p.entitled;
	}
	assert_int_equal(n, 24);
	assert_true(e == 24);
	assert_int_equal(sim_frame_vcpu_core(&f, 2, 0), 8);
	assert_int_equal(sim_frame_vcpu_core(&f, 2, 13), 8);
	assert_int_equal(sim_frame_vcpu_core(&f, 2, 12), 20);
	assert_int_equal(sim_frame_core_node(&f, 20), 1);

	/* A partition that fits a chip but not what is left of one starts
	 * on the next; past the last core, home cores are shared. */
	frame("sockets=4,cores=4,lpars=8,vcpus=8", &cfg, &f);
	assert_int_equal(f.nodes, 2);
	assert_int_equal(f.chips_per_node, 2);
	sim_frame_place(&f, 1, &p);	/* 1 + 3 cores */
	assert_int_equal(p.first, 1);
	assert_int_equal(p.span, SIM_SPAN_CHIP);
	sim_frame_place(&f, 2, &p);	/* 7 cores: not in what is left of
					   node 0, so in node 1 */
	assert_int_equal(p.first, 8);
	assert_int_equal(p.span, SIM_SPAN_NODE);
	sim_frame_place(&f, 7, &p);
	assert_true(p.crowded);
}

/* The four places of a vcpu, integrated, make its whole. */
static void
test_part_sum(void **state)
{
	struct sim_config	 cfg;
	struct sim_frame	 f;
	struct sim_workload	*wl;
	struct sim_part		*pt;
	double			 out[SIM_NWHERE][SIM_NCOMPONENTS];
	double			 r[SIM_NCOMPONENTS], whole[SIM_NCOMPONENTS];
	double			 share[SIM_NWHERE], sum;
	uint64_t		 tb = 45 * TB + TB / 3, s;
	unsigned		 l, v, k, w;

	(void)state;
	frame(NULL, &cfg, &f);
	wl = sim_workload_new(&f, cfg.seed, cfg.steady);
	pt = sim_part_new(&f, wl);
	for (l = 0; l < f.lpars; l++) {
		for (v = 0; v < f.vcpus; v += 5) {
			sim_part_vcpu(pt, l, v, tb, out);
			memset(whole, 0, sizeof whole);
			for (s = 0; s <= tb / TB; s++) {
				sim_part_vcpu_rates(pt, l, v, s * TB, r);
				for (k = 0; k < SIM_NCOMPONENTS; k++)
					whole[k] += r[k] * (double)(s < tb /
					    TB ? TB : tb % TB);
			}
			for (k = 0; k < SIM_NCOMPONENTS; k++) {
				for (sum = 0, w = 0; w < SIM_NWHERE; w++) {
					assert_true(out[w][k] >= 0);
					sum += out[w][k];
				}
				assert_true(sum > whole[k] * (1 - 1e-12) &&
				    sum < whole[k] * (1 + 1e-12));
			}
			sim_part_shares(pt, l, v, tb, share);
			for (sum = 0, w = 0; w < SIM_NWHERE; w++)
				sum += share[w];
			assert_true(sum > 1 - 1e-12 && sum < 1 + 1e-12);
		}
	}
	sim_part_free(pt);
	sim_workload_free(wl);
}

/*
 * Through the hypervisor: each domain reads its place's part, so the
 * four counts of a vcpu split its whole as the places' integrals do.
 */
static void
test_part_domains(void **state)
{
	struct sim_config	 cfg;
	struct sim_frame	 f;
	struct sim_workload	*wl;
	struct sim_part		*pt;
	struct sim_hv		*hv;
	double			 out[SIM_NWHERE][SIM_NCOMPONENTS], all, got;
	uint64_t		 c[SIM_NWHERE], sum;
	uint64_t		 tb = 20 * TB;
	unsigned		 w, k, v = 6;

	(void)state;
	hv = new_hv("lpar=0");
	frame("lpar=0", &cfg, &f);
	wl = sim_workload_new(&f, cfg.seed, cfg.steady);
	pt = sim_part_new(&f, wl);
	/* At the home chip's last update, as the hypervisor reads.  Its
	 * node has one chip: no other chip of the home node. */
	for (sum = 0, w = 0; w < SIM_NWHERE; w++) {
		c[w] = vcpu_count(hv, tb, 3 + w, 2, v);
		assert_true(w == SIM_W_HOME_NODE ? c[w] == 0 : c[w] > 0);
		sum += c[w];
	}
	sim_part_vcpu(pt, 2, v, tb - f.update_tb, out);
	for (k = 0; k < SIM_NCOMPONENTS; k++) {
		for (all = 0, w = 0; w < SIM_NWHERE; w++)
			all += out[w][k];
		if (all == 0)
			continue;
		for (w = 0; w < SIM_NWHERE; w++) {
			/* One component makes this counter: its shares. */
			got = (double)c[w] / (double)sum;
			if (got < out[w][k] / all - 1e-3 ||
			    got > out[w][k] / all + 1e-3)
				break;
		}
		if (w == SIM_NWHERE)
			break;
	}
	assert_true(k < SIM_NCOMPONENTS);
	sim_part_free(pt);
	sim_workload_free(wl);
	sim_hv_free(hv);
}

/* The share of a partition's busy time between t0 and t1 in a place. */
static double
part_share(struct sim_part *pt, unsigned lpar, unsigned where, uint64_t t0,
    uint64_t t1)
{
	double		 a[SIM_NWHERE][SIM_NCOMPONENTS];
	double		 b[SIM_NWHERE][SIM_NCOMPONENTS];
	double		 in = 0, all = 0;
	unsigned	 v, w;

	for (v = 0; v < 16; v++) {
		sim_part_vcpu(pt, lpar, v, t0, a);
		sim_part_vcpu(pt, lpar, v, t1, b);
		for (w = 0; w < SIM_NWHERE; w++) {
			all += b[w][SIM_C_BUSY] - a[w][SIM_C_BUSY];
			if (w == where)
				in += b[w][SIM_C_BUSY] - a[w][SIM_C_BUSY];
		}
	}
	return (in / all);
}

/*
 * The partition spread over both nodes runs the most remote, before and
 * after the DPO; the one DPO moves home runs far less remote after it.
 */
static void
test_part_remote(void **state)
{
	struct sim_config	 cfg;
	struct sim_frame	 f;
	struct sim_workload	*wl;
	struct sim_part		*pt;
	double			 before[4], after[4], home[4];
	unsigned		 l, seed;
	char			 spec[32];

	(void)state;
	for (seed = 1; seed <= 5; seed++) {
		snprintf(spec, sizeof spec, "seed=%u", seed);
		frame(spec, &cfg, &f);
		assert_int_equal(f.dpo_lpar, 3);
		assert_int_equal(f.dpo_tb, 30 * TB);
		wl = sim_workload_new(&f, cfg.seed, cfg.steady);
		pt = sim_part_new(&f, wl);
		for (l = 0; l < 4; l++) {
			before[l] = part_share(pt, l, SIM_W_REMOTE_NODE, 0,
			    30 * TB);
			after[l] = part_share(pt, l, SIM_W_REMOTE_NODE,
			    30 * TB, 90 * TB);
			home[l] = part_share(pt, l, SIM_W_HOME_CORE, 30 * TB,
			    90 * TB);
		}
		for (l = 0; l < 4; l++) {
			if (l == 2)
				continue;
			assert_true(before[2] > before[l]);
			assert_true(after[2] > after[l]);
			/* Packed into one chip: mostly home. */
			assert_true(home[l] > 0.6);
			assert_true(after[l] < 0.1);
		}
		assert_true(after[3] < before[3] / 2);
		assert_true(before[3] > 0.1);
		/* One chip a node: never another chip of the home node. */
		assert_true(part_share(pt, 2, SIM_W_HOME_NODE, 0, 90 * TB) ==
		    0);
		sim_part_free(pt);
		sim_workload_free(wl);
	}

	/* dpo=none: no partition displaced, none moved. */
	frame("dpo=none", &cfg, &f);
	assert_false(f.dpo);
	wl = sim_workload_new(&f, cfg.seed, cfg.steady);
	pt = sim_part_new(&f, wl);
	assert_true(part_share(pt, 3, SIM_W_REMOTE_NODE, 0, 30 * TB) < 0.1);
	sim_part_free(pt);
	sim_workload_free(wl);

	/* One node: nothing is remote. */
	frame("nodes=1", &cfg, &f);
	wl = sim_workload_new(&f, cfg.seed, cfg.steady);
	pt = sim_part_new(&f, wl);
	for (l = 0; l < 4; l++)
		assert_true(part_share(pt, l, SIM_W_REMOTE_NODE, 0, 60 * TB) ==
		    0);
	/* Spread over the node's two chips, not packed into one. */
	assert_true(part_share(pt, 2, SIM_W_HOME_NODE, 0, 60 * TB) > 0.02);
	assert_true(part_share(pt, 2, SIM_W_HOME_NODE, 0, 60 * TB) >
	    2 * part_share(pt, 1, SIM_W_HOME_NODE, 0, 60 * TB));
	sim_part_free(pt);
	sim_workload_free(wl);
}

/* A busy home chip pushes work off the home core. */
static void
test_part_contention(void **state)
{
	struct sim_config	 cfg;
	struct sim_frame	 f;
	struct sim_workload	*wl;
	struct sim_part		*pt;
	double			 share[SIM_NWHERE], load, off[2] = { 0, 0 };
	unsigned		 n[2] = { 0, 0 }, s, chip, busy;

	(void)state;
	frame(NULL, &cfg, &f);
	wl = sim_workload_new(&f, cfg.seed, cfg.steady);
	pt = sim_part_new(&f, wl);
	chip = sim_frame_core_chip(&f, sim_part_home_core(pt, 1, 0));
	for (s = 0; s < 600; s++) {
		load = sim_workload_chip_load(wl, chip, s * TB);
		if (load > 0.3 && load < 0.7)
			continue;
		busy = load >= 0.7;
		sim_part_shares(pt, 1, 0, s * TB, share);
		off[busy] += 1 - share[SIM_W_HOME_CORE];
		n[busy]++;
	}
	assert_true(n[0] > 10 && n[1] > 10);
	assert_true(off[1] / n[1] > off[0] / n[0] + 0.1);
	sim_part_free(pt);
	sim_workload_free(wl);
}

/* Counters of every domain only grow, through the DPO too. */
static void
test_part_monotonic(void **state)
{
	struct sim_hv	*hv;
	uint64_t	 last[SIM_NWHERE], now;
	unsigned	 s, w;

	(void)state;
	hv = new_hv("update_ms=250");
	memset(last, 0, sizeof last);
	for (s = 0; s < 70; s++) {
		for (w = 0; w < SIM_NWHERE; w++) {
			now = vcpu_count(hv, s * TB / 2 + 7, 3 + w, 3, 1);
			assert_true(now >= last[w]);
			last[w] = now;
		}
	}
	for (w = 0; w < SIM_NWHERE; w++)
		assert_true(last[w] > 0 || w == SIM_W_HOME_NODE);
	sim_hv_free(hv);
}

/* A partition the frame lacks is refused, and so is a DPO of one. */
static void
test_part_refused(void **state)
{
	static struct hcall_resbuf out;
	static uint8_t		 res[HCALL_BUF_SIZE];
	struct hcall_request	 r;
	struct sim_config	 cfg;
	struct sim_frame	 f;
	struct sim_hv		*hv;
	char			*cause = NULL;

	(void)state;
	hv = new_hv(NULL);
	r = req_vcpu(6, 4, 1, 0, 1);
	assert_int_equal(call(hv, TB, &r, res, &out), H_PARAMETER);
	assert_int_equal(out.detailed_rc, SIM_DRC_LPAR);
	r = req_vcpu(5, 3, 2, 0, 1);
	assert_int_equal(call(hv, TB, &r, res, &out), H_PARAMETER);
	assert_int_equal(out.detailed_rc, SIM_DRC_LPAR_COUNT);
	r = req_vcpu(4, 0, 1, 0, 1);
	assert_int_equal(call(hv, TB, &r, res, &out), H_PERMISSION);
	r = req_vcpu(3, 3, 1, 0, 16);
	assert_int_equal(call(hv, TB, &r, res, &out), H_SUCCESS);
	sim_hv_free(hv);

	sim_config_defaults(&cfg);
	assert_int_equal(sim_config_parse(&cfg, "lpars=3,lpar=0", &cause), 0);
	assert_int_equal(sim_frame_init(&f, &cfg, &cause), 0);
	assert_false(f.dpo);		/* the default names partition 3 */
	assert_int_equal(sim_config_parse(&cfg, "dpo=3@10", &cause), 0);
	assert_int_equal(sim_frame_init(&f, &cfg, &cause), -HV_ERANGE);
	assert_non_null(strstr(cause, "no partition 3"));
	free(cause);
	cause = NULL;
	assert_int_equal(sim_config_parse(&cfg, "dpo=2@10", &cause), 0);
	assert_int_equal(sim_frame_init(&f, &cfg, &cause), 0);
	assert_true(f.dpo);
	assert_int_equal(f.dpo_tb, f.uptime_tb + 10 * TB);
	assert_int_equal(sim_config_parse(&cfg, "dpo=2", &cause),
	    -HV_EFORMAT);
	free(cause);
	cause = NULL;
	assert_int_equal(sim_config_parse(&cfg, "dpo=x@1", &cause),
	    -HV_EFORMAT);
	free(cause);
	cause = NULL;
	assert_int_equal(sim_config_parse(&cfg, "dpo=none", &cause), 0);
	assert_int_equal(sim_frame_init(&f, &cfg, &cause), 0);
	assert_false(f.dpo);
	sim_config_defaults(&cfg);
	assert_int_equal(sim_config_parse(&cfg, "nodes=3", &cause), 0);
	assert_int_equal(sim_frame_init(&f, &cfg, &cause), -HV_ERANGE);
	assert_non_null(strstr(cause, "nodes=3"));
	free(cause);
	cause = NULL;
	/* 1000 x 4096 would be 1.3 GB of vcpu state: refused. */
	sim_config_defaults(&cfg);
	assert_int_equal(sim_config_parse(&cfg, "lpars=1000,vcpus=4096",
	    &cause), 0);
	assert_int_equal(sim_frame_init(&f, &cfg, &cause), -HV_ERANGE);
	assert_non_null(strstr(cause, "4096000 virtual processors"));
	free(cause);
	cause = NULL;
	assert_int_equal(sim_config_parse(&cfg, "lpars=1000,vcpus=16",
	    &cause), 0);
	assert_int_equal(sim_frame_init(&f, &cfg, &cause), 0);
}

static struct hvsim_obs	*heard;
static size_t		 nheard;

static void
hear(void *arg, const struct hvsim_obs *o)
{
	(void)arg;
	heard = realloc(heard, (nheard + 1) * sizeof *heard);
	assert_non_null(heard);
	heard[nheard++] = *o;
}

/*
 * Every partition's vcpus in one request each domain: what the observer
 * hears is what the buffer holds, and a second hypervisor of the same
 * seed asked at the same times, in another order, writes the same bytes.
 */
static void
test_part_truth(void **state)
{
	static struct hcall_resbuf out;
	static uint8_t		 res[4][4][HCALL_BUF_SIZE];
	static uint8_t		 again[HCALL_BUF_SIZE];
	struct hcall_request	 r;
	const struct hcall_element *e;
	struct sim_hv		*hv, *hv2;
	size_t			 i, k, n;
	unsigned		 d, t, lpars[4] = { 0, 0, 0, 0 };

	(void)state;
	hv = new_hv("lpar=0,update_ms=100");
	hv2 = new_hv("lpar=0,update_ms=100");
	sim_hv_observe(hv, hear, NULL);
	for (t = 0; t < 4; t++) {
		for (d = 3; d <= 6; d++) {
			r = req_vcpu(d, 0, HCALL_LPARS_ALL, 0, 16);
			nheard = 0;
			assert_int_equal(call(hv, (t * 20 + 1) * TB, &r,
			    res[t][d - 3], &out), H_SUCCESS);
			n = out.nelements;
			assert_int_equal(n, 4 * 16 * 2);
			assert_int_equal(nheard, n + 1);
			for (i = 0, k = 0; i < n; i++) {
				e = &out.elements[i];
				assert_int_equal(heard[k].kind,
				    HVSIM_OBS_VALUE);
				assert_int_equal(heard[k].domain, d);
				assert_int_equal(heard[k].lpar, e->lpar);
				assert_int_equal(heard[k].index, e->index);
				assert_int_equal(heard[k].tg, e->tg);
				assert_int_equal(heard[k].value,
				    hcall_element_word(&out, e, 0));
				lpars[e->lpar]++;
				k++;
			}
			assert_int_equal(heard[k].kind, HVSIM_OBS_CALL);
			assert_int_equal(heard[k].nvalues, n);
		}
	}
	for (t = 0; t < 4; t++)
		assert_int_equal(lpars[t], 4 * 4 * 16 * 2);
	sim_hv_observe(hv, NULL, NULL);
	/* Backwards, and domain by domain the other way. */
	for (t = 4; t-- > 0;) {
		for (d = 6; d >= 3; d--) {
			r = req_vcpu(d, 0, HCALL_LPARS_ALL, 0, 16);
			assert_int_equal(call(hv2, (t * 20 + 1) * TB, &r,
			    again, &out), H_SUCCESS);
			assert_memory_equal(again, res[t][d - 3],
			    HCALL_BUF_SIZE);
		}
	}
	free(heard);
	heard = NULL;
	sim_hv_free(hv);
	sim_hv_free(hv2);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_part_place),
		cmocka_unit_test(test_part_sum),
		cmocka_unit_test(test_part_domains),
		cmocka_unit_test(test_part_remote),
		cmocka_unit_test(test_part_contention),
		cmocka_unit_test(test_part_monotonic),
		cmocka_unit_test(test_part_refused),
		cmocka_unit_test(test_part_truth),
	};

	return (cmocka_run_group_tests(tests, setup, teardown));
}
