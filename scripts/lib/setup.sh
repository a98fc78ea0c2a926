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

# Node.js only installs: npm ci and the install scripts it runs (bun's, which puts the Bun
# binary in node_modules/.bin; patch-package), and package-deb reads the version with it. The
# appliance, its build and its tests run under Bun, never under Node. So Debian 12's own
# nodejs 18 (with its npm package) is enough.
NODE_MIN_MAJOR=18

ensure_node() {
  if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
    if [ "$(id -u)" -eq 0 ]; then
      echo "Installing Debian packages: nodejs npm" >&2
      apt-get update -qq
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends nodejs npm >/dev/null
    else
      echo "Node.js ${NODE_MIN_MAJOR} or later and npm are needed to install the packages (Debian 12's own are enough). Run, then try again:" >&2
      echo "  sudo apt-get install -y nodejs npm" >&2
      exit 1
    fi
  fi
  local major
  major="$(node -p 'process.versions.node.split(".")[0]')"
  if [ "$major" -lt "$NODE_MIN_MAJOR" ]; then
    echo "Node.js $(node --version) is too old: ${NODE_MIN_MAJOR} or later is needed (Debian 12: sudo apt-get install -y nodejs npm)" >&2
    exit 1
  fi
  if [ "$major" -lt 22 ]; then
    # Said before npm says it, so nobody installs a newer Node for nothing.
    NODE_ENGINE_NOTE="Node.js $(node --version): npm may warn EBADENGINE that some packages (their package.json "engines") want a newer Node. Harmless: they run under Bun (the binary, the tests), not under this Node."
  fi
}

ensure_npm_packages() {
  # npm ci when the lock file or a patch of a dependency (patches/, applied by patch-package
  # after the install) changed since the last install, or nothing is installed.
  local newer
  newer=$(find package-lock.json patches -newer node_modules/.package-lock.json 2>/dev/null | head -1 || true)
  if [ ! -x node_modules/.bin/bun ] || [ ! -f node_modules/.package-lock.json ] || [ -n "$newer" ]; then
    ensure_node
    [ -z "${NODE_ENGINE_NOTE:-}" ] || echo "$NODE_ENGINE_NOTE" >&2
    npm ci --no-fund --no-audit
  fi
}
