/*
 * Unit tests for the frame's identity (src/model/frame-ident.c):
 * lparcfg as a POWER9 partition and QEMU's pseries machine show it, the
 * device tree's partition name and the root properties lparcfg is made
 * of, and text that is wrong in each way the parser refuses, each
 * refusal naming the line or the property.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model/frame-ident.h"
#include "model/raw.h"
#include "sim/sim.h"

static const char lparcfg_p9[] =
    "lparcfg 1.9\n"
    "serial_number=IBM,0221A1B2C\n"
    "system_type=IBM,9080-M9S\n"
    "partition_id=7\n"
    "R4=0x1f4\n"
    "shared_processor_mode=1\n"
    "partition_entitled_capacity=250\n"
    "unknown_key=whatever it is\n";

static void
test_lparcfg(void **state)
{
	struct frame_ident	 fi;
	char			*cause = NULL, buf[64];

	(void)state;
	frame_ident_init(&fi);
	assert_false(frame_ident_known(&fi));
	assert_string_equal(frame_ident_mtms(&fi, buf, sizeof buf),
	    "unknown");
	assert_int_equal(frame_ident_lparcfg(&fi, lparcfg_p9,
	    sizeof lparcfg_p9 - 1, &cause), 0);
	assert_string_equal(fi.model, "9080-M9S");
	assert_string_equal(fi.serial, "21A1B2C");
	assert_int_equal(fi.lpar_id, 7);
	assert_int_equal(fi.mode, FRAME_MODE_SHARED);
	assert_int_equal(fi.entitled, 250);
	assert_true(frame_ident_known(&fi));
	assert_string_equal(frame_ident_mtms(&fi, buf, sizeof buf),
	    "9080-M9S*21A1B2C");
}

/* QEMU's pseries: a model without "IBM,", dedicated, CRLF, no final
 * newline; a serial that is not nine characters is kept whole. */
static void
test_lparcfg_qemu(void **state)
{
	static const char	 t[] = "lparcfg 1.9\r\n"
	    "serial_number=IBM,00000000\r\nsystem_type=pseries\r\n"
	    "partition_id=0\r\nshared_processor_mode=0";
	struct frame_ident	 fi;
	char			*cause = NULL;

	(void)state;
	frame_ident_init(&fi);
	assert_int_equal(frame_ident_lparcfg(&fi, t, sizeof t - 1, &cause),
	    0);
	assert_string_equal(fi.model, "pseries");
	assert_string_equal(fi.serial, "00000000");
	assert_int_equal(fi.lpar_id, 0);
	assert_int_equal(fi.mode, FRAME_MODE_DEDICATED);
	assert_int_equal(fi.entitled, -1);
}

static void
test_lparcfg_bad(void **state)
{
	static const struct {
		const char	*text;
		size_t		 len;
		const char	*want;
	} t[] = {
		{ "a=1\nsystem_type=IBM,90 80\n", 0, "line 2: system_type" },
		{ "serial_number=IBM,\n", 0, "line 1: serial_number" },
		{ "serial_number=AB*C\n", 0, "line 1: serial_number" },
		{ "partition_id=65535\n", 0, "line 1: partition_id" },
		{ "partition_id=-1\n", 0, "line 1: partition_id" },
		{ "partition_id=\n", 0, "line 1: partition_id" },
		{ "partition_id=99999999999\n", 0, "line 1: partition_id" },
		{ "shared_processor_mode=2\n", 0,
		    "line 1: shared_processor_mode" },
		{ "x\npartition_id=1\npartition_id=1\n", 0,
		    "line 3: partition_id given twice" },
		{ "partition_id=1\0\n", 16, "NUL byte at offset 14" },
		{ "system_type=IBM,0123456789012345678901234567890123\n", 0,
		    "line 1: system_type" },
	};
	struct frame_ident	 fi;
	char			*cause;
	size_t			 i, len;

	(void)state;
	for (i = 0; i < sizeof t / sizeof t[0]; i++) {
		frame_ident_init(&fi);
		cause = NULL;
		len = t[i].len != 0 ? t[i].len : strlen(t[i].text);
		assert_int_equal(frame_ident_lparcfg(&fi, t[i].text, len,
		    &cause), -1);
		assert_non_null(cause);
		if (strstr(cause, t[i].want) == NULL)
			fail_msg("%zu: \"%s\" lacks \"%s\"", i, cause,
			    t[i].want);
		free(cause);
	}
}

/* A line over 1024 bytes, even of a key not kept, is refused. */
static void
test_lparcfg_long(void **state)
{
	struct frame_ident	 fi;
	char			*buf, *cause = NULL;

	(void)state;
	buf = malloc(2000);
	assert_non_null(buf);
	memset(buf, 'x', 2000);
	memcpy(buf, "ok=1\nR4=", 8);
	frame_ident_init(&fi);
	assert_int_equal(frame_ident_lparcfg(&fi, buf, 2000, &cause), -1);
	assert_non_null(strstr(cause, "line 2: over 1024 bytes"));
	free(cause);
	free(buf);
}

static void
test_partition_name(void **state)
{
	struct frame_ident	 fi;
	char			*cause = NULL, big[200];

	(void)state;
	frame_ident_init(&fi);
	assert_int_equal(frame_ident_partition_name(&fi, "db-prod 1", 10,
	    &cause), 0);
	assert_string_equal(fi.lpar_name, "db-prod 1");
	assert_int_equal(frame_ident_partition_name(&fi, "abc", 3, &cause),
	    -1);
	assert_non_null(strstr(cause, "no NUL at its end"));
	free(cause);
	assert_int_equal(frame_ident_partition_name(&fi, "", 1, &cause), -1);
	assert_non_null(strstr(cause, "empty"));
	free(cause);
	assert_int_equal(frame_ident_partition_name(&fi, "a\nb", 4, &cause),
	    -1);
	assert_non_null(strstr(cause, "control character at byte 1"));
	free(cause);
	memset(big, 'a', sizeof big);
	big[sizeof big - 1] = '\0';
	assert_int_equal(frame_ident_partition_name(&fi, big, sizeof big,
	    &cause), -1);
	assert_non_null(strstr(cause, "200 bytes"));
	free(cause);
	/* A refused name leaves the one before. */
	assert_string_equal(fi.lpar_name, "db-prod 1");
}

/* dt(fi, prop, literal): the property as the kernel shows it, the
 * literal's bytes and its NUL. */
#define DT(fi, p, lit, c) frame_ident_dt(fi, p, lit, sizeof lit, c)

static void
test_dt(void **state)
{
	struct frame_ident	 fi;
	char			 mtms[80], *cause = NULL;
	static const char	 no7[4] = { 0, 0, 0, 7 };
	static const char	 big[4] = { 0, 1, 0, 0 };

	(void)state;
	frame_ident_init(&fi);
	assert_string_equal(frame_ident_from(&fi), "nowhere");
	assert_int_equal(DT(&fi, "model", "IBM,9080-M9S", &cause), 0);
	assert_int_equal(DT(&fi, "system-id", "IBM,0221A1B2C", &cause), 0);
	assert_int_equal(frame_ident_dt(&fi, "ibm,partition-no", no7, 4,
	    &cause), 0);
	assert_int_equal(DT(&fi, "ibm,partition-name", "db-prod", &cause), 0);
	assert_string_equal(frame_ident_mtms(&fi, mtms, sizeof mtms),
	    "9080-M9S*21A1B2C");
	assert_int_equal(fi.lpar_id, 7);
	assert_string_equal(fi.lpar_name, "db-prod");

	/* QEMU's model and its -uuid are neither; what was read stays. */
	assert_int_equal(DT(&fi, "model", "IBM pSeries (emulated by qemu)",
	    &cause), -1);
	assert_string_equal(cause, "model: not a machine type-model (30 "
	    "bytes)");
	free(cause);
	assert_int_equal(DT(&fi, "system-id",
	    "2f6b1c3e-8a4d-4e7b-9c21-5d0a7e3f9b18", &cause), -1);
	assert_non_null(strstr(cause, "not a serial number"));
	free(cause);
	assert_string_equal(fi.model, "9080-M9S");
	assert_string_equal(fi.serial, "21A1B2C");

	/* Not a string, not one cell, out of range, not ours. */
	assert_int_equal(frame_ident_dt(&fi, "model", "IBM,9080", 8, &cause),
	    -1);
	assert_non_null(strstr(cause, "its only NUL (8 bytes)"));
	free(cause);
	assert_int_equal(frame_ident_dt(&fi, "system-id", "a\0b", 4,
	    &cause), -1);
	assert_non_null(strstr(cause, "its only NUL"));
	free(cause);
	assert_int_equal(frame_ident_dt(&fi, "model", "", 1, &cause), -1);
	free(cause);
	assert_int_equal(frame_ident_dt(&fi, "ibm,partition-no", no7, 3,
	    &cause), -1);
	assert_string_equal(cause, "ibm,partition-no: 3 bytes, not one "
	    "4-byte cell");
	free(cause);
	assert_int_equal(frame_ident_dt(&fi, "ibm,partition-no", big, 4,
	    &cause), -1);
	assert_string_equal(cause, "ibm,partition-no: 65536, over 65534");
	free(cause);
	assert_int_equal(fi.lpar_id, 7);
	assert_int_equal(DT(&fi, "compatible", "qemu,pseries", &cause), -1);
	assert_non_null(strstr(cause, "compatible: not a property"));
	free(cause);
	fi.from = FRAME_FROM_DTREE;
	assert_string_equal(frame_ident_from(&fi), "device tree");
}

static void
test_check(void **state)
{
	char	*cause = NULL;

	(void)state;
	assert_int_equal(frame_ident_check("serial", "SIMFRAME1", 0, &cause),
	    0);
	assert_int_equal(frame_ident_check("model", "9080-M9S", 1, &cause),
	    0);
	assert_int_equal(frame_ident_check("serial", "A-B", 0, &cause), -1);
	assert_non_null(strstr(cause, "serial=A-B"));
	free(cause);
	assert_int_equal(frame_ident_check("model", "", 1, &cause), -1);
	free(cause);
}

/* The simulator's identity keys, and collect=0 as no permission. */
static void
test_sim_keys(void **state)
{
	struct sim_config	 cfg;
	char			*cause = NULL;

	(void)state;
	sim_config_defaults(&cfg);
	assert_string_equal(cfg.model, "9080-M9S");
	assert_string_equal(cfg.serial, "SIMFRAME1");
	assert_string_equal(cfg.name, "sim");
	assert_int_equal(sim_config_parse(&cfg, "model=9009-22A,serial=F2,"
	    "name=rack-7,collect=0", &cause), 0);
	assert_string_equal(cfg.model, "9009-22A");
	assert_string_equal(cfg.serial, "F2");
	assert_string_equal(cfg.name, "rack-7");
	assert_true(cfg.faults.denied);
	assert_int_equal(sim_config_set(&cfg, "collect", "1", &cause), 0);
	assert_false(cfg.faults.denied);
	assert_int_not_equal(sim_config_set(&cfg, "serial", "F-2", &cause),
	    0);
	assert_non_null(strstr(cause, "serial=F-2"));
	free(cause);
	assert_int_not_equal(sim_config_set(&cfg, "name", "a b", &cause), 0);
	free(cause);
	assert_int_not_equal(sim_config_set(&cfg, "collect", "2", &cause),
	    0);
	free(cause);
	assert_string_equal(cfg.serial, "F2");
}

/* The capabilities from a topology: the permission gates frame and
 * partitions. */
static void
test_caps(void **state)
{
	struct topology		 t;
	struct frame_caps	 c;
	const char		*name;
	int			 on;

	(void)state;
	memset(&t, 0, sizeof t);
	t.interface = 2;
	t.privileged = 1;
	frame_ident_caps(&t, 1, &c);
	assert_true(c.pmu && c.frame && c.partitions && c.catalog);
	t.lpars_denied = 1;
	frame_ident_caps(&t, 1, &c);
	assert_true(c.frame && !c.partitions);
	t.privileged = 0;
	frame_ident_caps(&t, 0, &c);
	assert_true(c.pmu && !c.frame && !c.partitions && !c.catalog);
	name = frame_ident_cap(&c, 1, &on);
	assert_string_equal(name, "frame");
	assert_false(on);
	assert_null(frame_ident_cap(&c, FRAME_NCAPS, &on));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lparcfg),
		cmocka_unit_test(test_lparcfg_qemu),
		cmocka_unit_test(test_lparcfg_bad),
		cmocka_unit_test(test_lparcfg_long),
		cmocka_unit_test(test_partition_name),
		cmocka_unit_test(test_dt),
		cmocka_unit_test(test_check),
		cmocka_unit_test(test_sim_keys),
		cmocka_unit_test(test_caps),
	};

	return (cmocka_run_group_tests_name("frame-ident", tests, NULL,
	    NULL));
}
