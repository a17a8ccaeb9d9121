# tests/replay/replay.sh: start the replay server from a scripted test.
#   . "$KH_TOP/tests/replay/replay.sh"
#   replay_start SCENARIO_DIR [server options]   sets REPLAY_PORT, REPLAY_URL
#   replay_stats                                 prints the counters (JSON)
#   replay_stop                                  (also done on exit)
# The server's request log is $TRASH/replay.log. Only one server at a time.
REPLAY_PID=
replay_stop () {
	if [ -n "$REPLAY_PID" ]; then
		kill "$REPLAY_PID" 2>/dev/null
		wait "$REPLAY_PID" 2>/dev/null
		REPLAY_PID=
	fi
}
trap 'replay_stop; rm -rf "$TRASH"' EXIT

replay_start () {
	dir=$1
	shift
	replay_stop
	rm -f "$TRASH/replay.port" "$TRASH/replay.log"
	python3 "$KH_TOP/tests/replay/server.py" --port-file "$TRASH/replay.port" \
		--log "$TRASH/replay.log" "$@" "$dir" &
	REPLAY_PID=$!
	i=0
	while [ ! -s "$TRASH/replay.port" ]; do
		i=$((i + 1))
		if [ $i -gt 100 ] || ! kill -0 "$REPLAY_PID" 2>/dev/null; then
			echo "replay server did not start" >&2
			return 1
		fi
		sleep 0.05
	done
	REPLAY_PORT=$(cat "$TRASH/replay.port")
	REPLAY_URL=http://127.0.0.1:$REPLAY_PORT
	export REPLAY_PORT REPLAY_URL
}

replay_stats () {
	python3 -c 'import sys,urllib.request;sys.stdout.write(urllib.request.urlopen(sys.argv[1]).read().decode())' "$REPLAY_URL/_replay/stats"
	echo
}
