# CPU quotas for benchmarks: a cgroup that holds a process to a share of one core, as if it
# ran on a host of its own that size. Needs root and the cgroup cpu controller (v1 or v2).
# The period is 10 ms, not the default 100 ms: a process that used its share waits for the
# next period, and a 100 ms period would add up to that much to a request's latency.

# cpu_quota_create NAME PERCENT: creates the group; prints its folder, or fails.
cpu_quota_create() {
  local name=$1 percent=$2 dir
  if [ -w /sys/fs/cgroup/cpu ] && [ -f /sys/fs/cgroup/cpu/cpu.cfs_quota_us ]; then
    dir=/sys/fs/cgroup/cpu/$name
    mkdir "$dir" 2>/dev/null || return 1
    echo 10000 > "$dir/cpu.cfs_period_us" && echo $((percent * 100)) > "$dir/cpu.cfs_quota_us" || return 1
  elif [ -f /sys/fs/cgroup/cgroup.controllers ] && grep -qw cpu /sys/fs/cgroup/cgroup.controllers; then
    dir=/sys/fs/cgroup/$name
    grep -qw cpu /sys/fs/cgroup/cgroup.subtree_control || echo +cpu > /sys/fs/cgroup/cgroup.subtree_control 2>/dev/null || return 1
    mkdir "$dir" 2>/dev/null || return 1
    echo "$((percent * 100)) 10000" > "$dir/cpu.max" || return 1
  else
    return 1
  fi
  echo "$dir"
}

# cpu_quota_add DIR PID: moves the process (all its threads) into the group.
cpu_quota_add() { echo "$2" > "$1/cgroup.procs"; }

# cpu_quota_remove DIR: removes the group once its processes are gone.
cpu_quota_remove() { rmdir "$1" 2>/dev/null || true; }
