# tests/bench/events.jq: what kh-fetch events selects and writes, in jq, for
# the benchmark and tests/t/t3000-fetch-events.sh to check it against.
#   jq -c --argjson t '{"owner/name":true,...}' -f events.jq  (names lowercased)
# Its output through events-dedupe.awk is kh-fetch's.
def repo_of(r): r | if type == "object" then (.full_name //
	(.url | if type == "string" then ltrimstr("https://api.github.com/repos/")
	else null end)) else null end;
select(.type == "PullRequestEvent" and $t[.repo.name | ascii_downcase])
| (.payload | if type == "string" then fromjson else . end) as $p
| select($p.action == "closed" or $p.action == "opened")
| $p.pull_request as $pr
| ($p.number // $pr.number) as $n
| if $p.action == "opened" then
  # the author of a trimmed pull request, for events-dedupe.awk to fill in
  select(($pr.user | type) != "object" and (.actor.login | type) == "string")
  | {type: "opener", key: "\(.repo.name | ascii_downcase)#\($n)",
     login: .actor.login,
     user_id: (.actor.id | if type == "number" then tostring else null end)}
else
  (repo_of($pr.base.repo) // .repo.name) as $base
| repo_of($pr.head.repo) as $head
| {type: "evidence", id: "github:pr:\(.repo.name)#\($n)", kind: "pr",
   source: "gharchive",
   person: ({} + (if ($pr.user.login | type) == "string"
		then {login: $pr.user.login} else {} end)
	+ (if ($pr.user.id | type) == "number"
		then {user_id: ($pr.user.id | tostring)} else {} end)),
   url: "https://github.com/\(.repo.name)/pull/\($n)",
   at: ($pr.merged_at // $pr.closed_at // .created_at),
   repo: .repo.name,
   upstream: (if ($pr.base.repo.fork | type) == "boolean"
	then ($pr.base.repo.fork | not) else null end),
   number: $n, title: $pr.title,
   text: (if ($pr.body | type) == "string" then $pr.body[:8192] else null end),
   author_type: $pr.user.type,
   merged: (if ($pr.merged | type) == "boolean" then $pr.merged
	elif ($pr.merged_at | type) == "string" then true
	elif ($pr | has("merged_at")) then false else null end),
   merged_at: $pr.merged_at, merged_by: $pr.merged_by.login,
   base_repo: $base, head_repo: $head,
   from_fork: (if $head then ($base | ascii_downcase) != ($head | ascii_downcase)
	else null end),
   labels: (if ($pr.labels | type) == "array"
	then [$pr.labels[] | .name | strings] else null end),
   added: $pr.additions, deleted: $pr.deletions,
   changed_files: $pr.changed_files, event_id: .id}
end
