# shellcheck shell=bash
# vitess_stack_dir STACK UID GID: the directory Vitess's processes keep their data in.
# As root, they run as an unprivileged user (scripts/vitess), and mysqld, unlike the Vitess servers,
# keeps no capability to pass directories it may not search: it cannot open its data directory
# under a checkout that user cannot enter (a clone in `mktemp -d`, a home of mode 0700). Then the
# data goes under /tmp, in a directory named for the stack, and STACK/vitess links to it.
vitess_stack_dir() {
  local stack="$1" uid="$2" gid="$3" sum dir
  mkdir -p "$stack"
  if [ "$(id -u)" -ne 0 ] || setpriv --reuid="$uid" --regid="$gid" --clear-groups test -x "$stack"; then
    echo "$stack/vitess"
    return
  fi
  sum="$(cd "$stack" && pwd -P | cksum | cut -d' ' -f1)"
  dir="/tmp/dsched-vitess-$sum"
  mkdir -p "$dir"
  chmod 755 "$dir"
  [ -e "$stack/vitess" ] || ln -sfn "$dir" "$stack/vitess"
  echo "$dir"
}
