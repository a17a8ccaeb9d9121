# tests/bench/events-dedupe.awk: what kh-fetch events does after selecting,
# on the output of events.jq: a pull request is written once, and again
# only if it was written unmerged and is now merged (closed, reopened,
# merged); an author the trimmed payload lacks is taken from an earlier
# "opened" event ({"type":"opener"} lines). Also the reduce step that
# merges the output of several workers.
function field(name,   i, r) {
	i = index($0, "\"" name "\":")
	if (i == 0) return ""
	r = substr($0, i + length(name) + 3)
	if (substr(r, 1, 1) != "\"") return ""
	r = substr(r, 2)
	return substr(r, 1, index(r, "\"") - 1)
}
/^\{"type":"opener"/ {
	k = field("key"); login[k] = field("login"); uid[k] = field("user_id")
	next
}
{
	id = field("id"); m = index($0, "\"merged\":true") > 0
	k = tolower(substr(id, 11))
	if (index($0, "\"person\":{}") && (k in login)) {
		p = "\"person\":{\"login\":\"" login[k] "\""
		if (uid[k] != "") p = p ",\"user_id\":\"" uid[k] "\""
		sub(/"person":\{\}/, p "}")
	}
	if (!(id in seen)) { seen[id] = m; print; next }
	if (m && !seen[id]) { seen[id] = 1; print }
}
