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
 * The default frame: 24 cores in four chips, two a node; partitions of
 * 2, 4, 13 and 3 processing units placed one after another, the third
 * across both nodes, two cores left to the pool.  More partitions than
 * cores start again at core 0.
 */
static void
test_part_place(void **state)
{
	static const int	 span[4] = { SIM_SPAN_CHIP, SIM_SPAN_CHIP,
				    SIM_SPAN_FRAME, SIM_SPAN_CHIP };
	static const unsigned	 first[4] = { 0, 2, 6, 19 };
	struct sim_config	 cfg;
	struct sim_frame	 f;
	struct sim_home	 p;
	unsigned		 l, n = 0;
	double			 e = 0;

	(void)state;
	frame(NULL, &cfg, &f);
	assert_int_equal(f.nchips, 4);
	assert_int_equal(f.ncores, 24);
	assert_int_equal(f.nodes, 2);
	assert_int_equal(f.chips_per_node, 2);
	for (l = 0; l < 4; l++) {
		sim_frame_place(&f, l, &p);
		assert_int_equal(p.span, span[l]);
		assert_int_equal(p.first, first[l]);
		assert_false(p.crowded);
		n += p.ncores;
		e += p.entitled;
	}
	assert_int_equal(n, 22);
	assert_true(e == 22);
	assert_int_equal(sim_frame_vcpu_core(&f, 2, 0), 6);
	assert_int_equal(sim_frame_vcpu_core(&f, 2, 13), 6);
	assert_int_equal(sim_frame_vcpu_core(&f, 2, 12), 18);
	assert_int_equal(sim_frame_core_node(&f, 18), 1);

	/* A partition that fits a chip but not what is left of one starts
	 * on the next; past the last core, home cores are shared. */
	frame("sockets=4,chips_per_socket=1,cores=4,lpars=8,vcpus=8", &cfg,
	    &f);
	assert_int_equal(f.nodes, 2);
	assert_int_equal(f.chips_per_node, 2);
	sim_frame_place(&f, 1, &p);	/* 1 + 2 cores */
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
	struct sim_lpar		*pt;
	double			 out[SIM_NPLACES][SIM_NCOMPONENTS];
	double			 r[SIM_NCOMPONENTS], whole[SIM_NCOMPONENTS];
	double			 share[SIM_NPLACES], sum;
	uint64_t		 tb = 45 * TB + TB / 3, s;
	unsigned		 l, v, k, w;

	(void)state;
	frame(NULL, &cfg, &f);
	wl = sim_workload_new(&f, cfg.seed, cfg.steady);
	pt = sim_lpar_new(&f, wl);
	for (l = 0; l < f.lpars; l++) {
		for (v = 0; v < f.vcpus; v += 5) {
			sim_lpar_vcpu(pt, l, v, tb, out);
			memset(whole, 0, sizeof whole);
			for (s = 0; s <= tb / TB; s++) {
				sim_lpar_vcpu_rates(pt, l, v, s * TB, r);
				for (k = 0; k < SIM_NCOMPONENTS; k++)
					whole[k] += r[k] * (double)(s < tb /
					    TB ? TB : tb % TB);
			}
			for (k = 0; k < SIM_NCOMPONENTS; k++) {
				for (sum = 0, w = 0; w < SIM_NPLACES; w++) {
					assert_true(out[w][k] >= 0);
					sum += out[w][k];
				}
				assert_true(sum > whole[k] * (1 - 1e-12) &&
				    sum < whole[k] * (1 + 1e-12));
			}
			/* What is not served waits: at most all of it. */
			sim_lpar_shares(pt, l, v, tb, share);
			for (sum = 0, w = 0; w < SIM_NPLACES; w++) {
				assert_true(share[w] >= 0);
				sum += share[w];
			}
			assert_true(sum > 0 && sum < 1 + 1e-12);
		}
	}
	sim_lpar_free(pt);
	sim_workload_free(wl);
}

/*
 * Whether counts c[] of the four places are one scale of one component
 * of the places' integrals, each taken at some time between lo[] and
 * hi[] (the chip it ran on updated once between them).
 */
static int
one_scale(const uint64_t c[SIM_NPLACES],
    double lo[SIM_NPLACES][SIM_NCOMPONENTS],
    double hi[SIM_NPLACES][SIM_NCOMPONENTS], unsigned k)
{
	double		 most = 0, least = 1e300;
	unsigned	 w;

	for (w = 0; w < SIM_NPLACES; w++) {
		if (hi[w][k] == 0) {
			if (c[w] != 0)
				return (0);
			continue;
		}
		/* A count is rounded down: one less is still this scale. */
		if ((double)c[w] / hi[w][k] > most)
			most = (double)c[w] / hi[w][k];
		if (lo[w][k] > 0 && (double)(c[w] + 1) / lo[w][k] < least)
			least = (double)(c[w] + 1) / lo[w][k];
	}
	return (most > 0 && most <= least * (1 + 1e-9));
}

/*
 * Through the hypervisor: each domain reads its place's part, at the
 * last update of the chip that place ran on.
 */
static void
test_part_domains(void **state)
{
	struct sim_config	 cfg;
	struct sim_frame	 f;
	struct sim_workload	*wl;
	struct sim_lpar		*pt;
	struct sim_hv		*hv;
	double			 lo[SIM_NPLACES][SIM_NCOMPONENTS];
	double			 hi[SIM_NPLACES][SIM_NCOMPONENTS];
	uint64_t		 c[SIM_NPLACES], tb = 20 * TB + TB / 7;
	unsigned		 w, k, l, v, fits;

	(void)state;
	hv = new_hv("lpar=0");
	frame("lpar=0", &cfg, &f);
	wl = sim_workload_new(&f, cfg.seed, cfg.steady);
	pt = sim_lpar_new(&f, wl);
	for (l = 1; l < 4; l++) {
		for (v = 0; v < f.vcpus; v += 3) {
			for (w = 0; w < SIM_NPLACES; w++)
				c[w] = vcpu_count(hv, tb, 3 + w, l, v);
			sim_lpar_vcpu(pt, l, v, tb - f.update_tb, lo);
			sim_lpar_vcpu(pt, l, v, tb, hi);
			for (fits = 0, k = 0; k < SIM_NCOMPONENTS; k++)
				fits += one_scale(c, lo, hi, k);
			assert_true(fits > 0);
		}
	}
	sim_lpar_free(pt);
	sim_workload_free(wl);
	sim_hv_free(hv);
}

/* The share of a partition's busy time between t0 and t1 in a place. */
static double
part_share(struct sim_lpar *pt, unsigned lpar, unsigned where, uint64_t t0,
    uint64_t t1)
{
	double		 a[SIM_NPLACES][SIM_NCOMPONENTS];
	double		 b[SIM_NPLACES][SIM_NCOMPONENTS];
	double		 in = 0, all = 0;
	unsigned	 v, w;

	for (v = 0; v < 16; v++) {
		sim_lpar_vcpu(pt, lpar, v, t0, a);
		sim_lpar_vcpu(pt, lpar, v, t1, b);
		for (w = 0; w < SIM_NPLACES; w++) {
			all += b[w][SIM_C_BUSY] - a[w][SIM_C_BUSY];
			if (w == where)
				in += b[w][SIM_C_BUSY] - a[w][SIM_C_BUSY];
		}
	}
	return (in / all);
}

/*
 * Until the DPO the partition it names runs mostly on another node; after
 * it, far less.  Some partition borrows on the other chip of its home
 * node; a frame of one node has nothing remote.
 */
static void
test_part_remote(void **state)
{
	struct sim_config	 cfg;
	struct sim_frame	 f;
	struct sim_workload	*wl;
	struct sim_lpar		*pt;
	double			 before, after, node;
	unsigned		 l, seed;
	char			 spec[32];

	(void)state;
	for (seed = 1; seed <= 5; seed++) {
		snprintf(spec, sizeof spec, "seed=%u", seed);
		frame(spec, &cfg, &f);
		assert_int_equal(f.dpo_lpar, 3);
		assert_int_equal(f.dpo_tb, 30 * TB);
		wl = sim_workload_new(&f, cfg.seed, cfg.steady);
		pt = sim_lpar_new(&f, wl);
		before = part_share(pt, 3, SIM_PLACE_REMOTE_NODE, 0, 30 * TB);
		after = part_share(pt, 3, SIM_PLACE_REMOTE_NODE, 30 * TB,
		    90 * TB);
		assert_true(before > 0.3);
		assert_true(after < before / 2);
		for (node = 0, l = 0; l < 4; l++)
			node += part_share(pt, l, SIM_PLACE_HOME_NODE, 0,
			    90 * TB);
		assert_true(node > 0);
		sim_lpar_free(pt);
		sim_workload_free(wl);
	}

	/* dpo=none: no partition displaced. */
	frame("dpo=none", &cfg, &f);
	assert_false(f.dpo);
	wl = sim_workload_new(&f, cfg.seed, cfg.steady);
	pt = sim_lpar_new(&f, wl);
	assert_true(part_share(pt, 3, SIM_PLACE_REMOTE_NODE, 0, 30 * TB) <
	    0.5 * part_share(pt, 3, SIM_PLACE_HOME_CORE, 0, 30 * TB));
	sim_lpar_free(pt);
	sim_workload_free(wl);

	/* One node: nothing is remote, and DPO has nowhere to move from. */
	frame("nodes=1", &cfg, &f);
	wl = sim_workload_new(&f, cfg.seed, cfg.steady);
	pt = sim_lpar_new(&f, wl);
	for (l = 0; l < 4; l++)
		assert_true(part_share(pt, l, SIM_PLACE_REMOTE_NODE, 0,
		    60 * TB) == 0);
	sim_lpar_free(pt);
	sim_workload_free(wl);
}

/*
 * The DPO event on request (sim_lpar_dpo): the seconds already served
 * stay as they were, the partition runs home from the next second, the
 * frame is then the one whose event was due at that second, and a
 * later request never puts the event off.
 */
static void
test_part_dpo_now(void **state)
{
	struct sim_config	 cfg;
	struct sim_frame	 f, g;
	struct sim_workload	*wl;
	struct sim_lpar		*pt, *plain, *at11;
	double			 a[SIM_NPLACES][SIM_NCOMPONENTS];
	double			 b[SIM_NPLACES][SIM_NCOMPONENTS];
	double			 before;
	uint64_t		 t;

	(void)state;
	frame("dpo=3@3600", &cfg, &f);
	frame("dpo=3@11", &cfg, &g);
	wl = sim_workload_new(&f, cfg.seed, cfg.steady);
	pt = sim_lpar_new(&f, wl);
	plain = sim_lpar_new(&f, wl);
	at11 = sim_lpar_new(&g, wl);
	before = part_share(pt, 3, SIM_PLACE_REMOTE_NODE, 0, 10 * TB);
	assert_true(before > 0.3);
	sim_lpar_dpo(pt, 10 * TB + TB / 2);
	sim_lpar_dpo(pt, 30 * TB);		/* not put off */
	sim_lpar_dpo(pt, 5 * TB);		/* nor moved into the past */
	assert_true(part_share(pt, 3, SIM_PLACE_REMOTE_NODE, 12 * TB,
	    20 * TB) < before / 2);
	assert_true(part_share(plain, 3, SIM_PLACE_REMOTE_NODE, 12 * TB,
	    20 * TB) > 0.3);
	/* Back in time (summed again from 0), and on, second by second. */
	for (t = 0; t <= 20 * TB; t += TB / 2) {
		sim_lpar_vcpu(pt, 3, 0, t, a);
		sim_lpar_vcpu(t <= 11 * TB ? plain : at11, 3, 0, t, b);
		assert_memory_equal(a, b, sizeof a);
	}
	sim_lpar_free(pt);
	sim_lpar_free(plain);
	sim_lpar_free(at11);
	sim_workload_free(wl);
}

/* What a fully served vcpu asks for in the slot of tb: its core time. */
static double
want(const struct sim_workload *wl, unsigned lpar, unsigned vcpu,
    uint64_t tb)
{
	double	 r[SIM_NCOMPONENTS], t;

	sim_workload_vcpu_rates(wl, lpar, vcpu, tb, r);
	t = r[SIM_C_BUSY] * 1.05;
	return (t > 1 ? 1 : t);
}

/*
 * The vcpus' parts in the second from t0, summed into vc[] by the chip
 * each ran on; each vcpu's shares checked.  Returns a bit per home chip
 * (of the first 32) where a vcpu waited.
 */
static unsigned
conserve_vcpus(const struct sim_frame *f, struct sim_workload *wl,
    struct sim_lpar *pt, const double *ent, uint64_t t0, double *vc)
{
	double		 a[SIM_NCOMPONENTS], b[SIM_NCOMPONENTS];
	double		 share[SIM_NPLACES], asked, got, e;
	unsigned	 l, v, w, k, c, ch, waited = 0;

	for (l = 0; l < f->lpars; l++) {
		e = sim_lpar_place(pt, l)->entitled / f->vcpus;
		for (v = 0; v < f->vcpus; v++) {
			for (w = 0; w < SIM_NPLACES; w++) {
				ch = sim_lpar_place_chip(pt, l, v, w);
				sim_lpar_vcpu_place(pt, l, v, w, t0, a);
				sim_lpar_vcpu_place(pt, l, v, w, t0 + TB, b);
				for (k = 0; k < SIM_NCOMPONENTS; k++)
					vc[ch * SIM_NCOMPONENTS + k] += b[k] -
					    a[k];
			}
			sim_lpar_shares(pt, l, v, t0, share);
			for (got = 0, w = 0; w < SIM_NPLACES; w++)
				got += share[w];
			assert_true(got <= 1 + 1e-12);
			/* A displaced partition's time is kept for the node
			 * it was left on. */
			if (f->dpo && l == f->dpo_lpar && t0 < f->dpo_tb)
				continue;
			asked = want(wl, l, v, t0);
			c = sim_lpar_home_core(pt, l, v);
			if (ent[c] <= 0.98)
				assert_true(share[SIM_PLACE_HOME_CORE] * asked >=
				    (asked < e ? asked : e) * (1 - 1e-9));
			if (got < 1 - 1e-9)
				waited |= 1U << (c / f->cores_per_chip % 32);
		}
	}
	return (waited);
}

/*
 * The dispatcher's invariants, second by second, on frames of 4 to 1000
 * partitions: on every chip the vcpus' parts that ran there count no
 * more than its cores of any component, and take no more time than the
 * cores have after the hypervisor's share; a core's time is whole; a
 * vcpu gets its entitled share when its home core's vcpus are entitled
 * to no more than the core has, is never served more than it asks, and
 * waits only when its home chip has no idle capacity left.
 */
static void
conserve(const char *spec)
{
	struct sim_config	 cfg;
	struct sim_frame	 f;
	struct sim_workload	*wl;
	struct sim_lpar		*pt;
	double			 a[SIM_NCOMPONENTS], b[SIM_NCOMPONENTS];
	double			*vc, *cc, *ent, t = (double)TB, got;
	uint64_t		 s, t0;
	unsigned		 l, v, k, c, ch, cpc, waited;
	size_t			 n;

	frame(spec, &cfg, &f);
	wl = sim_workload_new(&f, cfg.seed, cfg.steady);
	pt = sim_lpar_new(&f, wl);
	cpc = f.cores_per_chip;
	n = (size_t)f.nchips * SIM_NCOMPONENTS;
	vc = calloc(n, sizeof *vc);
	cc = calloc(n, sizeof *cc);
	ent = calloc(f.ncores, sizeof *ent);
	assert_true(vc != NULL && cc != NULL && ent != NULL);
	for (l = 0; l < f.lpars; l++)
		for (v = 0; v < f.vcpus; v++)
			ent[sim_lpar_home_core(pt, l, v)] +=
			    sim_lpar_place(pt, l)->entitled / f.vcpus;
	for (s = 3; s < 40; s += 9) {
		t0 = s * TB;
		memset(vc, 0, n * sizeof *vc);
		memset(cc, 0, n * sizeof *cc);
		for (c = 0; c < f.ncores; c++) {
			sim_lpar_core(pt, c, t0, a);
			sim_lpar_core(pt, c, t0 + TB, b);
			assert_true(b[SIM_C_TIME] - a[SIM_C_TIME] == t);
			for (k = 0; k < SIM_NCOMPONENTS; k++)
				cc[c / cpc * SIM_NCOMPONENTS + k] += b[k] - a[k];
		}
		waited = conserve_vcpus(&f, wl, pt, ent, t0, vc);
		for (ch = 0; ch < f.nchips; ch++) {
			for (k = 0; k < SIM_NCOMPONENTS; k++)
				assert_true(vc[ch * SIM_NCOMPONENTS + k] <=
				    cc[ch * SIM_NCOMPONENTS + k] * (1 + 1e-12));
			got = vc[ch * SIM_NCOMPONENTS + SIM_C_TIME];
			assert_true(got <= cpc * 0.98 * t * (1 + 1e-12));
			/* A vcpu homed here waited: no idle time left. */
			if (ch < 32 && (waited >> ch & 1))
				assert_true(got >= cpc * 0.98 * t *
				    (1 - 1e-9));
		}
	}
	free(vc);
	free(cc);
	free(ent);
	sim_lpar_free(pt);
	sim_workload_free(wl);
}

static void
test_part_conserve(void **state)
{
	(void)state;
	conserve(NULL);
	conserve("seed=7,lpar=0");
	conserve("lpars=8,seed=3");
	conserve("lpars=32,seed=2");
	conserve("lpars=1000,seed=4,lpar=0");
	conserve("sockets=4,chips_per_socket=2,nodes=4,lpars=6,vcpus=5");
	conserve("sockets=1,chips_per_socket=1,cores=3,lpars=2,vcpus=7");
}

/* Counters of every domain only grow, through the DPO too. */
static void
test_part_monotonic(void **state)
{
	struct sim_hv	*hv;
	uint64_t	 last[SIM_NPLACES], now;
	unsigned	 s, w;

	(void)state;
	hv = new_hv("update_ms=250");
	memset(last, 0, sizeof last);
	for (s = 0; s < 70; s++) {
		for (w = 0; w < SIM_NPLACES; w++) {
			now = vcpu_count(hv, s * TB / 2 + 7, 3 + w, 3, 1);
			assert_true(now >= last[w]);
			last[w] = now;
		}
	}
	/* At home, and on the other node before the DPO. */
	assert_true(last[SIM_PLACE_HOME_CORE] > 0);
	assert_true(last[SIM_PLACE_REMOTE_NODE] > 0);
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
		cmocka_unit_test(test_part_dpo_now),
		cmocka_unit_test(test_part_conserve),
		cmocka_unit_test(test_part_monotonic),
		cmocka_unit_test(test_part_refused),
		cmocka_unit_test(test_part_truth),
	};

	return (cmocka_run_group_tests(tests, setup, teardown));
}
