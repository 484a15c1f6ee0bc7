#!/usr/bin/env bash
# Makes the TLS material of the integration tests and benchmarks in DIR (default: target/tls):
# a key and self-signed certificate for 127.0.0.1 and localhost (server.p12, public.crt) that the
# test MinIO serves, and a trust store holding only that certificate (truststore.p12, password
# dtap-tls). JVMs that talk to that MinIO start with
#   -Djavax.net.ssl.trustStore=DIR/truststore.p12 -Djavax.net.ssl.trustStorePassword=dtap-tls
#   -Djavax.net.ssl.trustStoreType=PKCS12 -Ddtap.test.tls.dir=DIR
# (the failsafe configuration of integration-tests does). Kept when already there.
set -euo pipefail
dir="${1:-target/tls}"
keytool="${JAVA_HOME:+$JAVA_HOME/bin/}keytool"
mkdir -p "$dir"
if [ -f "$dir/server.p12" ] && [ -f "$dir/truststore.p12" ] && [ -f "$dir/public.crt" ]; then
  exit 0
fi
rm -f "$dir/server.p12" "$dir/truststore.p12" "$dir/public.crt"
"$keytool" -genkeypair -alias minio -keyalg RSA -keysize 2048 -dname "CN=localhost" \
  -ext "SAN=dns:localhost,ip:127.0.0.1" -validity 365 -storetype PKCS12 \
  -keystore "$dir/server.p12" -storepass dtap-tls -keypass dtap-tls >/dev/null 2>&1
"$keytool" -exportcert -alias minio -keystore "$dir/server.p12" -storetype PKCS12 \
  -storepass dtap-tls -rfc -file "$dir/public.crt" >/dev/null 2>&1
"$keytool" -importcert -noprompt -alias minio -file "$dir/public.crt" -storetype PKCS12 \
  -keystore "$dir/truststore.p12" -storepass dtap-tls >/dev/null 2>&1
echo "test-tls.sh: TLS material in $dir"
