#!/bin/sh
# hvtop --serve --web-config FILE: who may scrape, in the web-config.yml
# Prometheus' exporters share.  With a self-signed certificate made here
# and a bcrypt hash from crypt(3) (perl's crypt, which is the system's):
# no credentials, a wrong password and an unknown user all get the same
# 401 with WWW-Authenticate: Basic; the right ones get the series; plain
# HTTP on the TLS port is refused; SIGHUP reads the file again (a new
# password works, the old one no longer does), and a bad file is refused
# with its line and column while the old configuration stays, as is a
# new certificate (which takes a restart); without --web-config SIGHUP
# says there is nothing to read again and the run goes on; a real
# Prometheus scrapes it over https with basic_auth (its up is 1) and
# promtool accepts a scrape.  What the machine lacks is a visible SKIP.
. "$(dirname "$0")/tap.sh"
plan 27

skip_rest() {
	while [ "$tap_n" -lt 27 ]; do
		skip "$1" "$2"
	done
	exit 0
}

"$HVTOP" -b -n 1 --sim clock=virtual --web-config /nonexistent \
    >/dev/null 2>"$tmpdir/nos.err"
check "--web-config without --serve is a usage error (exit 2)" test $? -eq 2
printf 'basic_auth_users:\n  a: plain\n' >"$tmpdir/bad.yml"
"$HVTOP" -b -n 1 --sim clock=virtual --serve 127.0.0.1:0 \
    --web-config "$tmpdir/bad.yml" >/dev/null 2>"$tmpdir/bad.err"
check "a bad web configuration stops hvtop (exit 1)" test $? -eq 1
check "... saying the file, line and column" grep -q \
    "web-config $tmpdir/bad.yml: line 2, column 3: a user's password" \
    "$tmpdir/bad.err"

have curl || skip_rest "--web-config" "curl is not installed"
have openssl || skip_rest "--web-config" "openssl is not installed"
have perl || skip_rest "--web-config" "perl is not installed"

# bcrypt PASSWORD: a $2b$ hash, cost 10, through the system's crypt(3).
bcrypt() {
	perl -e '
	    my @c = ("a".."z", "A".."Z", "0".."9", ".", "/");
	    my $s = join "", map { $c[int rand 64] } 1..21;
	    print crypt($ARGV[0], "\$2b\$10\$" . $s . "u")' "$1"
}
tls_cert "$tmpdir/key.pem" "$tmpdir/cert.pem"
check "openssl made a self-signed certificate" test -s "$tmpdir/cert.pem"
h1=$(bcrypt 's3cret pw')
case $h1 in
'$2b$10$'*) pass "crypt(3) made a bcrypt hash" ;;
*) fail "crypt(3) made a bcrypt hash"; diag "got '$h1'" ;;
esac
# Relative file names are the configuration file's directory's.
cat >"$tmpdir/web.yml" <<EOF
# who may scrape
tls_server_config:
  cert_file: cert.pem
  key_file: key.pem
basic_auth_users:
  prometheus: '$h1'
EOF
serve_start h -b --sim clock=real -d 0.2 --serve 127.0.0.1:0 \
    --web-config "$tmpdir/web.yml"
case $url in
https://*) ;;
*) url="" ;;
esac
check "hvtop serves https and says so" test -n "$url"
[ -n "$url" ] || { diag "$(cat "$tmpdir/h.err")"; skip_rest "TLS" "no url"; }

# get NAME [CURL-ARGS...]: the status of a scrape, headers in NAME.h.
get() {
	n=$1
	shift
	curl -s -m 20 --cacert "$tmpdir/cert.pem" -D "$tmpdir/$n.h" \
	    -o "$tmpdir/$n" -w '%{http_code}' "$@" "$url"
}
check "no credentials: 401" test "$(get none)" = 401
check "... with WWW-Authenticate: Basic" \
    grep -qi '^WWW-Authenticate: Basic' "$tmpdir/none.h"
check "a wrong password: 401" test "$(get wrong -u prometheus:nope)" = 401
check "an unknown user: 401" test "$(get who -u nobody:'s3cret pw')" = 401
check "... the same answer whichever part was wrong" \
    sh -c "cmp -s '$tmpdir/none' '$tmpdir/wrong' &&
    cmp -s '$tmpdir/wrong' '$tmpdir/who'"
check "the right user and password: 200" \
    test "$(get right -u 'prometheus:s3cret pw')" = 200
check "... with the series" grep -q '^hvtop_events_total{' "$tmpdir/right"
check "the right ones again: 200 (kept, without a hash)" \
    test "$(get again -u 'prometheus:s3cret pw')" = 200
check "... and a wrong password after them is still the same 401" \
    sh -c "test \"\$1\" = 401 && cmp -s '$tmpdir/none' '$tmpdir/wrong2'" \
    sh "$(get wrong2 -u 'prometheus:s3cret pw!')"
plain="http${url#https}"
curl -s -m 20 -o "$tmpdir/plain" -u 'prometheus:s3cret pw' "$plain"
st=$?
check "plain HTTP on the TLS port is refused (curl exit $st)" test $st -ne 0
check "... and gets no series" \
    sh -c "! grep -q hvtop_events_total '$tmpdir/plain' 2>/dev/null"

if have promtool; then
	promtool check metrics <"$tmpdir/right" >"$tmpdir/lint" 2>&1
	check "promtool check metrics accepts the scrape" test $? = 0
else
	skip "promtool check metrics" "promtool is not installed"
fi

# SIGHUP: a new password replaces the old one.
h2=$(bcrypt 'n3w pw')
sed "s|'.*'|'$h2'|" "$tmpdir/web.yml" >"$tmpdir/web.new"
mv "$tmpdir/web.new" "$tmpdir/web.yml"
kill -HUP "$pid"
until_ok 60 grep -q 'SIGHUP: .* read again' "$tmpdir/h.err"
check "SIGHUP reads the web configuration again" \
    grep -q "SIGHUP: $tmpdir/web.yml read again" "$tmpdir/h.err"
check "... the new password works" \
    test "$(get new -u 'prometheus:n3w pw')" = 200
check "... the old one no longer does" \
    test "$(get old -u 'prometheus:s3cret pw')" = 401
cp "$tmpdir/web.yml" "$tmpdir/web.good"
printf 'basic_auth_users:\n  prometheus: x\n' >"$tmpdir/web.yml"
kill -HUP "$pid"
until_ok 60 grep -q 'unchanged' "$tmpdir/h.err"
check "a bad file on SIGHUP is refused, with where, the old one kept" \
    grep -q 'SIGHUP: .*line 2, column 3: .*in use is unchanged' \
    "$tmpdir/h.err"
check "... and the password it had still works" \
    test "$(get kept -u 'prometheus:n3w pw')" = 200
# A new certificate cannot be used while listening: refused, kept.
tls_cert "$tmpdir/key2.pem" "$tmpdir/cert2.pem"
sed 's/cert\.pem/cert2.pem/; s/key\.pem/key2.pem/' "$tmpdir/web.good" \
    >"$tmpdir/web.yml"
kill -HUP "$pid"
until_ok 60 grep -q 'TLS certificate or key differs' "$tmpdir/h.err"
check "a new certificate on SIGHUP is refused: it takes a restart" \
    grep -q 'TLS certificate or key differs.*restart' "$tmpdir/h.err"
check "... and the certificate and password in use still work" \
    test "$(get tls -u 'prometheus:n3w pw')" = 200

# Without --web-config, SIGHUP does not end -b --serve either: there is
# nothing to read again (test-hvtop-serve-hup.sh).  The url of the TLS
# run is kept for Prometheus below.
tls=$url
serve_start plainhup -b --sim clock=real -d 0.2 --serve 127.0.0.1:0
kill -HUP "$pid"
until_ok 60 grep -q 'SIGHUP' "$tmpdir/plainhup.err"
check "without --web-config, SIGHUP says so and -b --serve goes on" \
    sh -c "grep -q 'SIGHUP: nothing to read again' '$tmpdir/plainhup.err' &&
    kill -0 $pid"
kill "$pid"
url=$tls

# ---- a real Prometheus, over https with basic_auth -------------------
have prometheus || skip_rest "Prometheus" "prometheus is not installed"
hport=${url#https://127.0.0.1:}
hport=${hport%/metrics}
cat >"$tmpdir/prometheus.yml" <<EOF
global:
  scrape_interval: 1s
scrape_configs:
  - job_name: hvtop
    scheme: https
    tls_config:
      ca_file: $tmpdir/cert.pem
    basic_auth:
      username: prometheus
      password: 'n3w pw'
    static_configs:
      - targets: ['127.0.0.1:$hport']
EOF
prom_start "$tmpdir/prometheus.yml"
[ -n "$ppid" ] && until_ok 90 prom_up hvtop
diag "$(cut -c1-300 "$tmpdir/up.json" 2>/dev/null)"
check "Prometheus scrapes it over https with basic_auth (up is 1)" \
    grep -q '"value":\[[0-9.]*,"1"\]' "$tmpdir/up.json"
