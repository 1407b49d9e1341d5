/*
 * Formula evaluation: run the compiled RPN steps on a stack in the
 * caller's frame.  This is the per-interval hot path of every derived
 * metric, so it allocates nothing and stops at the first step without a
 * value: every value pushed reaches the result (the proposal has no
 * operator that drops one), so one missing input or one division by zero
 * leaves the whole formula without a value.  Pure: no I/O.
 */
#include "config.h"

#include "formula/formula.h"

#include <math.h>
#include <stddef.h>

#include "formula/formula-int.h"
#include "util/xalloc.h"

static const char *const formula_eval_reasons[] = {
	[FORMULA_OK] = "ok",
	[FORMULA_MISSING] = "an input has no value",
	[FORMULA_DIVZERO] = "division by zero",
	[FORMULA_SQRTNEG] = "square root of a negative number",
	[FORMULA_DOMAIN] = "negative number to a fractional power",
	[FORMULA_RANGE] = "result out of range",
};

/*
 * The three forms of binary operator name: x popped from the stack, x a
 * number, x an input.  y is the top of the stack and takes the result.
 */
#define FORMULA_EVAL_BINARY(name)					\
	case FORMULA_C_##name:						\
		x = acc;						\
		acc = st[--sp];						\
		goto apply_##name;					\
	case FORMULA_C_##name##_NUM:					\
		x = f->nums[c->arg];					\
		goto apply_##name;					\
	case FORMULA_C_##name##_LOAD:					\
		if (c->arg >= env->nvalues[c->kind])			\
			goto missing;					\
		x = env->values[c->kind][c->arg];			\
		if (!isfinite(x))					\
			goto missing;					\
	apply_##name:							\
		r.reason = formula_apply(FORMULA_OP_##name, acc, x, &acc); \
		if (r.reason != FORMULA_OK)				\
			goto fail;					\
		break

/*
 * One body for both entry points.  Without fn (formula_eval) it runs the
 * fused code; with fn it runs one step per RPN token so that the trace
 * shows every token.  Inlined with fn == NULL, the tracing disappears.
 *
 * The top of the stack lives in acc, a register, and st[] holds what is
 * below it, so a chain of operators never waits on memory.  st[0] takes
 * the meaningless acc of the first push, hence one entry more.
 */
static inline __attribute__((always_inline)) struct formula_value
formula_eval_run(const struct formula *f, const struct formula_env *env,
    formula_trace_fn fn, void *arg)
{
	const struct formula_insn	*c = fn != NULL ? f->steps : f->code;
	struct formula_value		 r;
	double				 st[FORMULA_MAX_DEPTH + 1], x;
	double				 acc = 0;
	size_t				 sp = 0;

	r.operand = -1;
	for (;; c++) {
		switch (c->code) {
		case FORMULA_C_END:
			goto done;
		case FORMULA_C_NUM:
			st[sp++] = acc;
			acc = f->nums[c->arg];
			break;
		case FORMULA_C_LOAD:
			if (c->arg >= env->nvalues[c->kind])
				goto missing;
			x = env->values[c->kind][c->arg];
			if (!isfinite(x))
				goto missing;
			st[sp++] = acc;
			acc = x;
			break;
		case FORMULA_C_SQRT:
			r.reason = formula_apply(FORMULA_OP_SQRT, 0, acc, &acc);
			if (r.reason != FORMULA_OK)
				goto fail;
			break;
		FORMULA_EVAL_BINARY(ADD);
		FORMULA_EVAL_BINARY(SUB);
		FORMULA_EVAL_BINARY(MUL);
		FORMULA_EVAL_BINARY(DIV);
		FORMULA_EVAL_BINARY(MOD);
		FORMULA_EVAL_BINARY(REM);
		FORMULA_EVAL_BINARY(POW);
		default:
			r.reason = FORMULA_DOMAIN;	/* not compiled code */
			goto fail;
		}
		if (fn != NULL) {
			/* The whole stack, deepest first: st[1..sp-1], acc. */
			st[sp] = acc;
			fn(arg, f, (size_t)(c - f->steps), st + 1, sp);
		}
	}
done:
	/* -0 is shown as 0. */
	r.value = acc == 0 ? 0 : acc;
	r.ok = 1;
	r.reason = FORMULA_OK;
	return (r);
missing:
	r.reason = FORMULA_MISSING;
	r.operand = c->operand;
fail:
	r.value = 0;
	r.ok = 0;
	return (r);
}

struct formula_value
formula_eval(const struct formula *f, const struct formula_env *env)
{
	return (formula_eval_run(f, env, NULL, NULL));
}

struct formula_value
formula_eval_trace(const struct formula *f, const struct formula_env *env,
    formula_trace_fn fn, void *arg)
{
	return (formula_eval_run(f, env, fn, arg));
}

const char *
formula_eval_reason(int reason)
{
	if (reason < 0 || (size_t)reason >=
	    sizeof formula_eval_reasons / sizeof formula_eval_reasons[0])
		return ("unknown reason");
	return (formula_eval_reasons[reason]);
}

char *
formula_eval_explain(const struct formula *f, const struct formula_value *v)
{
	const struct formula_operand	*op;

	if (v->reason == FORMULA_MISSING && v->operand >= 0 &&
	    (op = formula_operand(f, (size_t)v->operand)) != NULL)
		return (xasprintf("%s has no value", op->name));
	return (xstrdup(formula_eval_reason(v->reason)));
}
