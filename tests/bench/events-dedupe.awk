# tests/bench/events-dedupe.awk: what kh-fetch events does after selecting:
# a pull request is written once, and again only if it was written
# unmerged and is now merged (closed, reopened, merged). Also the reduce
# step that merges the output of several workers.
{
	i = index($0, "\"id\":\""); r = substr($0, i + 6)
	id = substr(r, 1, index(r, "\"") - 1); m = index($0, "\"merged\":true") > 0
	if (!(id in seen)) { seen[id] = m; print; next }
	if (m && !seen[id]) { seen[id] = 1; print }
}
