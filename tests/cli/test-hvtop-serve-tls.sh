#!/bin/sh
# hvtop --serve --web-config FILE: TLS as exporter-toolkit's servers do
# it, judged by curl and openssl s_client with certificates made here.
# By default TLS 1.2 and 1.3 only, and no static-RSA suite; 414 and 431
# answers come through TLS; min_version, max_version, cipher_suites and
# http_server_config.headers are honoured; client_auth_type
# RequireAndVerifyClientCert with client_ca_file lets in a client whose
# certificate the CA signed and no other (and a real Prometheus with
# that certificate scrapes it).  Run as root with --user nobody and a key
# only root may read, a reload that changes a password is used, and one
# that changes a TLS setting is refused.  What the machine lacks is a
# visible SKIP.
. "$(dirname "$0")/tap.sh"
plan 23

skip_rest() {
	while [ "$tap_n" -lt 23 ]; do
		skip "$1" "$2"
	done
	exit 0
}

have curl || skip_rest "TLS" "curl is not installed"
have openssl || skip_rest "TLS" "openssl is not installed"

d=$tmpdir/tls
mkdir "$d"
ossl() { openssl "$@" >/dev/null 2>&1; }
tls_cert "$d/key.pem" "$d/cert.pem"
ossl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=hvtop-test-ca \
    -keyout "$d/ca.key" -out "$d/ca.pem"
ossl req -newkey rsa:2048 -nodes -subj /CN=prometheus \
    -keyout "$d/client.key" -out "$d/client.csr"
ossl x509 -req -in "$d/client.csr" -CA "$d/ca.pem" -CAkey "$d/ca.key" \
    -CAcreateserial -days 2 -out "$d/client.pem"
ossl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=mallory \
    -keyout "$d/other.key" -out "$d/other.pem"
check "openssl made the certificates" \
    test -s "$d/cert.pem" -a -s "$d/client.pem" -a -s "$d/other.pem"

tls='tls_server_config:
  cert_file: cert.pem
  key_file: key.pem'
# code CURL-ARGS...: the status curl gets from $url, 000 without one.
code() {
	curl -s -m 20 --cacert "$d/cert.pem" -o /dev/null -w '%{http_code}' \
	    "$@" "$url"
}
# first_line REQUEST: the first line answered through TLS to REQUEST
# (s_client keeps the connection after its input ends, until hvtop
# closes it: an error answer closes the connection).
first_line() {
	hp=${url#https://}
	hp=${hp%/metrics}
	printf '%b' "$1" | timeout 30 openssl s_client -quiet -ign_eof \
	    -connect "$hp" 2>/dev/null | head -n 1 | tr -d '\r'
}
# suite OPENSSL-ARGS...: the cipher s_client agrees on, (NONE) for none.
suite() {
	hp=${url#https://}
	hp=${hp%/metrics}
	echo | timeout 30 openssl s_client -connect "$hp" "$@" 2>/dev/null |
	    sed -n 's/.*Cipher is \(.*\)/\1/p' | head -n 1
}

printf '%s\n' "$tls" >"$d/web.yml"
serve_start a -b --sim clock=real -d 0.2 --serve 127.0.0.1:0 \
    --web-config "$d/web.yml"
check "hvtop serves https" test -n "$url"
[ -n "$url" ] || { diag "$(cat "$tmpdir/a.err")"; skip_rest "TLS" "no url"; }
# openssl at security level 0 offers TLS 1.1, which curl no longer does.
s=$(suite -tls1_1 -cipher 'DEFAULT:@SECLEVEL=0')
check "TLS 1.1 is refused by default (got '$s')" test "$s" = "(NONE)"
check "TLS 1.2 is served" test "$(code --tlsv1.2 --tls-max 1.2)" = 200
check "TLS 1.3 is served" test "$(code --tlsv1.3)" = 200
s=$(suite -tls1_2 -cipher AES128-SHA)
check "a static-RSA CBC suite is refused (got '$s')" test "$s" = "(NONE)"
s=$(suite -tls1_2)
case $s in
ECDHE-*) pass "TLS 1.2 agrees on an ECDHE suite ($s)" ;;
*) fail "TLS 1.2 agrees on an ECDHE suite (got '$s')" ;;
esac
long=$(head -c 6000 /dev/zero | tr '\0' a)
check "a long target gets its 414 through TLS" test "$(first_line \
    "GET /metrics?$long HTTP/1.1\r\nHost: x\r\n\r\n")" = \
    "HTTP/1.1 414 URI Too Long"
big=$(head -c 17000 /dev/zero | tr '\0' b)
check "a header too large gets its 431 through TLS" test "$(first_line \
    "GET /metrics HTTP/1.1\r\nHost: x\r\nX-Big: $big\r\n\r\n")" = \
    "HTTP/1.1 431 Request Header Fields Too Large"
kill "$pid"

# Versions, suites and headers as the file says.
printf '%s\n%s\n' "$tls" '  max_version: TLS12
  prefer_server_cipher_suites: true
  cipher_suites:
    - TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384
http_server_config:
  headers:
    X-Frame-Options: deny
    X-Content-Type-Options: nosniff' >"$d/web.yml"
serve_start b -b --sim clock=real -d 0.2 --serve 127.0.0.1:0 \
    --web-config "$d/web.yml"
check "hvtop serves with max_version, cipher_suites and headers" \
    test -n "$url"
[ -n "$url" ] || diag "$(cat "$tmpdir/b.err")"
check "max_version TLS12: TLS 1.3 is refused" test "$(code --tlsv1.3)" = 000
check "cipher_suites: a suite not listed is refused" \
    test "$(suite -tls1_2 -cipher ECDHE-RSA-AES128-GCM-SHA256)" = "(NONE)"
check "... and the one listed is agreed on" test "$(suite -tls1_2 \
    -cipher ECDHE-RSA-AES256-GCM-SHA384)" = ECDHE-RSA-AES256-GCM-SHA384
curl -s -m 20 --cacert "$d/cert.pem" -D "$tmpdir/h404" -o /dev/null \
    "${url%metrics}nothing"
check "every answer carries the headers (a 404 here)" sh -c "
    grep -qi '^X-Frame-Options: deny' '$tmpdir/h404' &&
    grep -qi '^X-Content-Type-Options: nosniff' '$tmpdir/h404'"
kill "$pid"

printf '%s\n  min_version: TLS13\n' "$tls" >"$d/web.yml"
serve_start c -b --sim clock=real -d 0.2 --serve 127.0.0.1:0 \
    --web-config "$d/web.yml"
check "min_version TLS13: TLS 1.2 is refused" \
    test "$(code --tlsv1.2 --tls-max 1.2)" = 000
check "... and TLS 1.3 served" test "$(code --tlsv1.3)" = 200
kill "$pid"

# Mutual TLS.
printf '%s\n%s\n' "$tls" '  client_auth_type: RequireAndVerifyClientCert
  client_ca_file: ca.pem' >"$d/web.yml"
serve_start m -b --sim clock=real -d 0.2 --serve 127.0.0.1:0 \
    --web-config "$d/web.yml"
check "mutual TLS: without a client certificate, no answer" \
    test "$(code)" = 000
check "... with one the CA signed: 200" \
    test "$(code --cert "$d/client.pem" --key "$d/client.key")" = 200
check "... with one it did not sign, no answer" \
    test "$(code --cert "$d/other.pem" --key "$d/other.key")" = 000
if have prometheus; then
	hport=${url#https://127.0.0.1:}
	hport=${hport%/metrics}
	cat >"$tmpdir/prometheus.yml" <<EOF
global:
  scrape_interval: 1s
scrape_configs:
  - job_name: hvtop
    scheme: https
    tls_config:
      ca_file: $d/cert.pem
      cert_file: $d/client.pem
      key_file: $d/client.key
    static_configs:
      - targets: ['127.0.0.1:$hport']
EOF
	prom_start "$tmpdir/prometheus.yml"
	[ -n "$ppid" ] && until_ok 90 prom_up hvtop
	check "Prometheus scrapes it with its client certificate (up is 1)" \
	    grep -q '"value":\[[0-9.]*,"1"\]' "$tmpdir/up.json"
	kill "$ppid"
else
	skip "Prometheus with a client certificate" "prometheus is not installed"
fi
kill "$pid"

# --user: the key is root's alone, the reloads are nobody's.
if [ "$(id -u)" -ne 0 ] || ! have perl; then
	while [ "$tap_n" -lt 23 ]; do
		skip "--user reloads" "not root, or no perl"
	done
	exit 0
fi
bcrypt() {
	perl -e '
	    my @c = ("a".."z", "A".."Z", "0".."9", ".", "/");
	    my $s = join "", map { $c[int rand 64] } 1..21;
	    print crypt($ARGV[0], "\$2b\$04\$" . $s . "u")' "$1"
}
chmod 755 "$tmpdir" "$d"
chmod 644 "$d/cert.pem"
chmod 600 "$d/key.pem"
printf '%s\nbasic_auth_users:\n  prometheus: %s\n' "$tls" "$(bcrypt one)" \
    >"$d/web.yml"
chmod 644 "$d/web.yml"
serve_start u -b --sim clock=real -d 0.2 --serve 127.0.0.1:0 \
    --web-config "$d/web.yml" --user nobody
[ -n "$url" ] && until_ok 60 grep -q '^hvtop: running as nobody' \
    "$tmpdir/u.err"
check "--user nobody with a key only root reads: the first password works" \
    test "$(code -u prometheus:one)" = 200
# hup N: SIGHUP, then wait (60 s at most) for the Nth SIGHUP line.
hup() {
	kill -HUP "$pid"
	until_ok 60 at_least_lines "$1" "$tmpdir/u.err" SIGHUP
}
printf '%s\nbasic_auth_users:\n  prometheus: %s\n' "$tls" "$(bcrypt two)" \
    >"$d/web.yml"
hup 1
check "a reload that changes only the password is used" \
    test "$(code -u prometheus:two)" = 200
[ "$(code -u prometheus:two)" = 200 ] || diag "$(tail -n 3 "$tmpdir/u.err")"
printf '%s\n  min_version: TLS13\nbasic_auth_users:\n  prometheus: %s\n' \
    "$tls" "$(bcrypt three)" >"$d/web.yml"
hup 2
check "a reload that changes a TLS setting is refused, the old one kept" \
    sh -c "grep -q 'SIGHUP: the TLS settings differ.*restart' \
    '$tmpdir/u.err' && test \"\$1\" = 200" sh "$(code -u prometheus:two)"
kill "$pid"
