# Sourced by scripts/up.sh: puts the `dsched` command (a link to scripts/dsched) on the PATH of the
# user's login shells, so the README's `dsched ...` lines work in a new shell with no step to guess.
#
# Where: DSCHED_BIN_DIR when set, else /usr/local/bin when writable (root: on every login PATH),
# else ~/.local/bin. When a new login shell would still not find it there, one line goes into the
# login profile bash reads (~/.bash_profile, ~/.bash_login or ~/.profile, the first that exists)
# and is printed. Several checkouts may share the link: the launcher runs the checkout the current
# directory is in, and the link's own checkout elsewhere (the last one set up).

# A new login shell's `command -v dsched`, from a clean environment as a terminal would start it.
dsched_login_shell_finds() {
  env -i HOME="$HOME" USER="$(id -un)" LOGNAME="$(id -un)" SHELL=/bin/bash TERM=dumb \
    bash -lc 'command -v dsched' </dev/null 2>/dev/null | tail -n 1 || true
}

dsched_install_launcher() {
  local root="$1" dir link profile line found
  if [ -n "${DSCHED_BIN_DIR:-}" ]; then dir="$DSCHED_BIN_DIR"
  elif [ -w /usr/local/bin ]; then dir=/usr/local/bin
  else dir="$HOME/.local/bin"
  fi
  mkdir -p "$dir"
  link="$dir/dsched"
  if [ "$(readlink "$link" 2>/dev/null)" != "$root/scripts/dsched" ]; then
    if [ -e "$link" ] && [ ! -L "$link" ]; then
      echo "dsched: $link exists and is not a link to a dsched launcher: left alone" >&2; return 0
    fi
    # Replaced in one rename: a shell running `dsched` meanwhile finds the old link or the new one.
    ln -sfn "$root/scripts/dsched" "$link.$$" && mv -Tf "$link.$$" "$link"
  fi
  found="$(dsched_login_shell_finds)"
  [ "$found" = "$link" ] && return 0
  if [ -f "$HOME/.bash_profile" ]; then profile="$HOME/.bash_profile"
  elif [ -f "$HOME/.bash_login" ]; then profile="$HOME/.bash_login"
  else profile="$HOME/.profile"
  fi
  line="export PATH=\"$dir:\$PATH\"  # the dsched command (scripts/up.sh)"
  if ! grep -qxF "$line" "$profile" 2>/dev/null; then
    printf '\n%s\n' "$line" >>"$profile"
    echo "dsched: added to $profile (new login shells find dsched; this shell: . $profile):" >&2
    echo "  $line" >&2
  fi
  found="$(dsched_login_shell_finds)"
  [ "$found" = "$link" ] || echo "dsched: a new login shell finds ${found:-no dsched} rather than $link: put $dir first on PATH" >&2
}
