# The console of a command's partition as scripts/guest keeps it, with
# carriage returns gone.  QEMU's trace lines (its stderr, one per
# H_GET_24X7_DATA call) share the file with the console (its stdout),
# which comes in pieces of 16 bytes at most (H_PUT_TERM_CHAR): a trace
# line can land inside a line of the partition's.  Such a line is mended
# and the trace lines it held follow it, so that neither the command's
# output nor the calls counted between its lines are torn.
{
	line = pending $0
	i = index(line, "hv24x7: H_GET_24X7_DATA ")
	if (i > 1 && substr(line, i) ~ /^hv24x7: H_GET_24X7_DATA [0-9]+ rc=-?[0-9]+$/) {
		pending = substr(line, 1, i - 1)
		held = held substr(line, i) "\n"
		next
	}
	print line
	printf "%s", held
	pending = held = ""
}
END {
	if (pending != "")
		print pending
	printf "%s", held
}
