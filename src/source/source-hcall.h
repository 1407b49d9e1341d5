/*
 * The hcall client source over any transport (transport.h).  "--source
 * sim" is source_sim_ops (source.h): this client over transport_sim_ops.
 * A program or test with a transport of its own opens the client with
 * source_hcall_open() on a struct source whose ops are source_hcall_ops
 * (every operation but open), and closes it with source_close().
 */
#ifndef HVTOP_SOURCE_HCALL_H
#define HVTOP_SOURCE_HCALL_H

struct source;
struct source_ops;
struct transport_ops;

/*
 * Open the transport with args, ask it for the topology and fetch the
 * catalog through it.  Returns 0, or a negative code with *cause set
 * (caller frees); the source is closed with source_close() either way.
 */
int	 source_hcall_open(struct source *, const struct transport_ops *,
	    const char *args, char **cause);

extern const struct source_ops source_hcall_ops;

#endif /* HVTOP_SOURCE_HCALL_H */
