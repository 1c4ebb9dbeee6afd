#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The bash completions, sourced into a clean bash as bash-completion would load them: once
# alone (bash-completion not installed) and once after bash-completion's own script (its
# _filedir is used then). Checks a few COMPREPLY results and that every option the programs'
# usage prints is completed, and nothing else.
# usage: completion.sh COMPLETION_DIR SONDE_CLI SONDE_DEMO_SERVER
set -euo pipefail
dir=$1 cli=$2 demo=$3

fail() {
    echo "FAIL${mode:+ ($mode)}: $*" >&2
    exit 1
}

if [ "${4:-}" != --inner ]; then
    modes=(alone)
    if [ -f /usr/share/bash-completion/bash_completion ]; then
        modes+=(with-bash-completion)
    else
        echo "bash-completion is not installed: checking the completion alone only"
    fi
    for m in "${modes[@]}"; do
        env -i PATH="$PATH" HOME="${HOME:-/tmp}" TMPDIR="${TMPDIR:-/tmp}" \
            bash --norc --noprofile "$0" "$dir" "$cli" "$demo" --inner "$m"
    done
    echo PASS
    exit 0
fi

mode=$5
if [ "$mode" = with-bash-completion ]; then
    # bash-completion wants an interactive-looking shell and no -u while it loads.
    set +u
    PS1='$ '
    source /usr/share/bash-completion/bash_completion
    declare -F _filedir >/dev/null || fail "bash-completion loaded without _filedir"
    set -u
fi
source "$dir/sonde-cli"
source "$dir/sonde-demo-server"
grep -q -- '-F _sonde_cli sonde-cli' <<<"$(complete -p sonde-cli)" || fail "sonde-cli is not registered"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/sonde-completion.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# The completions for a command line whose last word is the one being completed, one per line,
# sorted. The words are given as bash splits them (at = and : too).
complete_line() {
    local function=$1
    shift
    COMP_WORDS=("$@")
    COMP_CWORD=$(($# - 1))
    COMP_LINE="$*"
    COMP_POINT=${#COMP_LINE}
    COMPREPLY=()
    "$function" "${COMP_WORDS[0]}" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]:-}"
    ((${#COMPREPLY[@]} == 0)) || printf '%s\n' "${COMPREPLY[@]}" | sort
}
# $1 what it shows, $2 the expected completions (space-separated), then the words.
expect() {
    local what=$1 expected got
    expected=$(tr ' ' '\n' <<<"$2" | sed '/^$/d' | sort)
    shift 2
    got=$(complete_line _sonde_cli "$@")
    [ "$got" = "$expected" ] || fail "$what: got [$(echo $got)], expected [$(echo $expected)]"
}

expect "an option is completed from its start" "--command" "$cli" --com
expect "tools has list and call" "list call" "$cli" --command x tools ""
expect "resources has list, templates and read" "list templates read" "$cli" --command x resources ""
expect "prompts has list and get" "list get" "$cli" --command x prompts ""
expect "the commands come after the connection" \
    "info ping tools resources prompts exec auth conformance-client doctor run history" "$cli" --command x ""
expect "the proxy commands come when no connection is given" \
    "info ping tools resources prompts exec auth conformance-client doctor run history proxy proxy-control" "$cli" ""
expect "proxy has wrap, unwrap and wrapped" "wrap unwrap wrapped" "$cli" proxy ""
expect "doctor's options" "--allow-writes" "$cli" --command x doctor --all
expect "doctor's formats" "json junit" "$cli" --command x doctor --format j
expect "proxy's options" "--listen" "$cli" proxy --li
expect "proxy wrap's options" "--server" "$cli" proxy wrap --config c.json --se
expect "after proxy -- the words are the server's" "" "$cli" proxy -- --co
expect "auth has login, status and logout" "login status logout" "$cli" --url u auth ""
expect "the authorization agents" "browser no-browser headless" "$cli" --auth-agent ""
expect "a command is completed from its start" "tools" "$cli" --url http : //h/mcp --quiet to
expect "a K=V value split by bash is one word" "list call" \
    "$cli" --env A = B --command x --arg y tools ""
expect "after tools call the words are the tool's" "" "$cli" --command x tools call --
expect "the elicitation answers" "accept decline cancel" "$cli" --elicitation ""
expect "the URL elicitation answers" "accept decline" "$cli" --url-elicitation ""
expect "a value that cannot be guessed is not completed" "" "$cli" --timeout ""

# Files after --config, --transcript and --command; commands on PATH after --command.
mkdir "$tmp/sub"
cat >"$tmp/mcp.json" <<'EOF'
// JSONC, as VS Code writes it
{
  "mcpServers": {
    "alpha": {"command": "alpha-server"},
    "beta": {"command": "beta-server", "args": ["--x"],},
  }
}
EOF
cat >"$tmp/vscode.json" <<'EOF'
{"servers": {"gamma": {"type": "http", "url": "http://127.0.0.1:1/mcp"}}}
EOF
touch "$tmp/notes.txt" "$tmp/server.sh"
expect "--config completes JSON files and folders" "$tmp/mcp.json" "$cli" --config "$tmp/mc"
got=$(complete_line _sonde_cli "$cli" --config "$tmp/")
for f in "$tmp/mcp.json" "$tmp/vscode.json" "$tmp/sub"; do
    grep -qxF "$f" <<<"$got" || fail "--config $tmp/ does not offer $f: $got"
done
grep -qxF "$tmp/notes.txt" <<<"$got" && fail "--config offers a file that is not JSON: $got"
expect "--transcript completes any file" "$tmp/notes.txt" "$cli" --transcript "$tmp/no"
expect "--command completes a path" "$tmp/server.sh" "$cli" --command "$tmp/ser"
PATH="$(dirname "$demo"):$PATH" expect "--command completes a program on PATH" \
    "sonde-demo-server" "$cli" --command sonde-demo-ser
expect "history has import, search and export" "import search export" "$cli" history ""
expect "history's export formats" "jsonl md har otlp" "$cli" history export --db h.db --format ""
expect "history's options" "--db" "$cli" history search x --d
expect "history export's collector option" "--to" "$cli" history export --db h.db --t
expect "a collector URL is not guessed" "" "$cli" history export --format otlp --to ""
expect "run completes a collection's JSON file" "$tmp/mcp.json" "$cli" run "$tmp/mc"
expect "run's options after the collection" "--junit" "$cli" run "$tmp/mcp.json" --ju
expect "run's authorization agents" "browser no-browser headless" "$cli" run c.json --auth-agent ""
expect "run --junit completes any file" "$tmp/notes.txt" "$cli" run "$tmp/mcp.json" --junit "$tmp/no"
got=$(complete_line _sonde_cli "$cli" --command x exec "")
grep -qxF -- - <<<"$got" || fail "exec does not offer - (standard input): $got"

# Server names, read from the --config file given before.
expect "--server names the mcpServers of --config" "alpha beta" "$cli" --config "$tmp/mcp.json" --server ""
expect "--server completes a name from its start" "beta" "$cli" --config "$tmp/mcp.json" --server b
expect "--server names the servers of a VS Code file" "gamma" \
    "$cli" --quiet --config "$tmp/vscode.json" --timeout 3 --server ""
expect "--server without --config offers nothing" "" "$cli" --server ""

# Every option of the usage is completed, and every completed option is in the usage.
usage_options=$("$cli" --help | grep -oE -- '--[a-z][a-z-]*' | sort -u)
[ "$(wc -l <<<"$usage_options")" -ge 25 ] || fail "sonde-cli --help printed too few options"
for opt in $usage_options; do
    grep -qxF -- "$opt" <<<"$(complete_line _sonde_cli "$cli" "$opt")" || fail "$opt is not completed"
done
completed=$(complete_line _sonde_cli "$cli" --)
[ "$completed" = "$usage_options" ] ||
    fail "sonde-cli -- completes options the usage does not print: $(comm -13 <(echo "$usage_options") <(echo "$completed"))"

demo_options=$({ "$demo" --help 2>&1 || true; } | grep -oE -- '--[a-z][a-z-]*' | sort -u)
got=$(complete_line _sonde_demo_server "$demo" --)
[ "$got" = "$demo_options" ] || fail "sonde-demo-server -- completes [$(echo $got)], its usage has [$(echo $demo_options)]"
got=$(complete_line _sonde_demo_server "$demo" --state-file "$tmp/no")
[ "$got" = "$tmp/notes.txt" ] || fail "sonde-demo-server --state-file does not complete a file: $got"
got=$(complete_line _sonde_demo_server "$demo" --replay "$tmp/no")
[ "$got" = "$tmp/notes.txt" ] || fail "sonde-demo-server --replay does not complete a file: $got"
echo "completion ($mode): ok"
