#!/usr/bin/env bash
# A shogiarena run on a worker reached over SSH, shown with a worker on this
# machine: Debian's sshd, listening on 127.0.0.1 only, started here with keys
# made for the run and stopped (and the keys removed) when the script ends.
#
#   testing/ssh-worker.sh [CONFIG [shogiarena options...]]
#
# CONFIG is one of testing/'s configurations (default selfplay.yaml, two
# games: `--tournament games_per_pair=2`; sprt.yaml with the engines
# testing/sprt.sh built; spsa.yaml with the tuning build; generate.yaml makes
# training data on the workers, then `tools/arena_positions.py
# RUN/records/*.psv`); the run gets `instances:` (the loopback worker) and
# `system.instance_scheduling.policy=auto`, which is all an SPRT, a gauntlet,
# an SPSA run or a generation run needs to play on SSH workers
# (docs/testing.md, "Many machines"). SSH_PORT picks the port (default 2222).
#
# Needs openssh-server and uv (pip install uv) here; the worker needs uv and
# the Python shogiarena's worker runs on (3.12.10 for shogiarena 1.3.2), found
# or downloaded by uv, or where uv can do neither, the Python running
# shogiarena here (testing/arena_local_python.py).
set -euo pipefail
source "$(dirname "$0")/common.sh"
config=${1:-selfplay.yaml}
shift || true
[ $# -gt 0 ] || set -- --tournament games_per_pair=2
port=${SSH_PORT:-2222}
work=$(mktemp -d /tmp/kyobo-ssh-XXXXXX)
stop() {
  if [ -f "$work/sshd.pid" ]; then kill "$(cat "$work/sshd.pid")" 2>/dev/null || true; fi
  rm -rf "$work" "$here/.ssh-run.yaml"
}
trap stop EXIT

# The worker: sshd on the loopback only, a host key and a client key of its own.
ssh-keygen -q -t ed25519 -N '' -f "$work/host_key"
ssh-keygen -q -t ed25519 -N '' -f "$work/client_key"
cp "$work/client_key.pub" "$work/authorized_keys"
chmod 700 "$work" && chmod 600 "$work/authorized_keys"
mkdir -p /run/sshd
cat > "$work/sshd_config" <<CONF
ListenAddress 127.0.0.1
Port $port
HostKey $work/host_key
PidFile $work/sshd.pid
AuthorizedKeysFile $work/authorized_keys
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
UsePAM no
# The keys live in a folder of this run under /tmp, which sshd's strict modes
# refuse; they are the run's own, made and removed by this script.
StrictModes no
LogLevel VERBOSE
Subsystem sftp internal-sftp
CONF
# The worker's sessions get this machine's network settings where it has them
# (a CA bundle, a proxy, a package index), as a worker of one's own would be
# set up: the deployment installs shogiarena's dependencies with uv there.
for name in SSL_CERT_FILE SSL_CERT_DIR HTTPS_PROXY HTTP_PROXY NO_PROXY UV_INDEX_URL UV_NATIVE_TLS; do
  if [ -n "${!name:-}" ]; then echo "SetEnv $name=${!name}" >>"$work/sshd_config"; fi
done
/usr/sbin/sshd -f "$work/sshd_config" -E "$work/sshd.log"
for _ in $(seq 50); do [ -f "$work/sshd.pid" ] && break; sleep 0.1; done
echo "sshd on 127.0.0.1:$port (pid $(cat "$work/sshd.pid"))"

# shogiarena's description of the worker. The host key was made a moment ago
# by this script, so it is not checked against ~/.ssh/known_hosts.
cat > "$work/loopback.yaml" <<YAML
name: loopback
type: ssh
host: 127.0.0.1
port: $port
user: $(id -un)
identity_file: $work/client_key
project_root: $work/worker
slots: 2
max_engines: 2
is_strict_host_key_checking: false
YAML

# The configuration with the worker added, beside the original (its paths are
# relative to testing/).
build_release
cp "$here/$config" "$here/.ssh-run.yaml"
printf 'instances: [%s]\nsystem:\n  instance_scheduling: {policy: auto}\n' "$work/loopback.yaml" \
  >> "$here/.ssh-run.yaml"
# shogiarena's workers run on CPython 3.12.10, which uv finds or downloads;
# where it can do neither, the workers run on this machine's Python instead.
if ! uv python find 3.12.10 >/dev/null 2>&1; then
  echo "no CPython 3.12.10 for the worker: it runs on Python $(python3 -c 'import platform; print(platform.python_version())')"
  ARENA="python3 $here/arena_local_python.py"
fi
kind=tournament
grep -q '^sprt:' "$here/$config" && kind=sprt
grep -q '^generate:' "$here/$config" && kind=generate
grep -q '^spsa:' "$here/$config" && kind=spsa
case $kind in
  # The tuning build, as testing/spsa.sh makes it.
  spsa) build_tune_engine ;;
  # The two engines testing/sprt.sh builds; where it has not run, the work
  # tree plays itself (the path shown, not a change measured).
  sprt)
    mkdir -p "$root/target/sprt"
    for side in new base; do
      [ -x "$root/target/sprt/kyobo-$side" ] || cp "$root/target/release/kyobo" "$root/target/sprt/kyobo-$side"
    done
    ;;
esac
status=0
run=$(new_run ssh-worker)
arena "$kind" .ssh-run.yaml "$run" "$@" || status=$?
if [ -f "$run/completion_status.json" ]; then cat "$run/completion_status.json"; fi
echo "the worker's sshd log:"
grep -E "Accepted|Disconnected|error|refused|Failed" "$work/sshd.log" | head -20 || true
exit "$status"
