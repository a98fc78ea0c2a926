# Shared by scripts/run and scripts/test: install what is missing, nothing more.

# What the appliance needs at run time, and what the tests add (real peers, tools).
RUN_DEBIAN_PACKAGES="espeak-ng sox"
TEST_DEBIAN_PACKAGES="$RUN_DEBIAN_PACKAGES curl wrk systemd chromium kamailio kamailio-tls-modules baresip-core sip-tester faketime prometheus prometheus-alertmanager openssl dpkg-dev lintian postgresql socat python3-aiosmtpd"

ensure_debian_packages() {
  local missing=()
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ "$(id -u)" -eq 0 ]; then
    echo "Installing Debian packages: ${missing[*]}" >&2
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  else
    echo "Missing Debian packages. Run, then try again:" >&2
    echo "  sudo apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
}

ensure_npm_packages() {
  # npm ci when the lock file or a patch of a dependency (patches/, applied by patch-package
  # after the install) changed since the last install, or nothing is installed.
  local newer
  newer=$(find package-lock.json patches -newer node_modules/.package-lock.json 2>/dev/null | head -1 || true)
  if [ ! -x node_modules/.bin/bun ] || [ ! -f node_modules/.package-lock.json ] || [ -n "$newer" ]; then
    npm ci --no-fund --no-audit
  fi
}
