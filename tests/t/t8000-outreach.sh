#!/bin/sh
# kh-outreach: the mbox parses as mail, the fact guard holds over many
# candidates, drafts never claim seniority for a junior, never leave a hole,
# and the review sheet keeps its structure.
. "$(dirname "$0")/../lib.sh"

g=$KH_TOP/tests/golden/kh-outreach
brief=$g/brief.json
export KH_NOW=1796000255

# Every candidate of the golden inputs that is a well-formed record.
test_expect_success 'setup: the candidates of the golden cases' '
	cat "$g"/0*/in.ndjson | grep "^{\"type\":\"candidate\",\"id\"" |
		jq -c "select(.evidence and .id and .score.total)" >cands.ndjson &&
	test $(wc -l <cands.ndjson) -ge 30
'

test_expect_success 'mbox output parses with Python mailbox, headers intact' '
	kh-outreach -q --brief "$brief" --format mbox cands.ndjson >drafts.mbox &&
	kh-outreach -q --brief "$brief" cands.ndjson >drafts.ndjson &&
	jq -s "map(select(.outreach.body)) | length" drafts.ndjson >want &&
	cat >check.py <<-\EOF &&
	import mailbox, sys
	from email.header import decode_header, make_header
	from email.utils import parseaddr
	def text(v):
	    return str(make_header(decode_header(str(v)))).replace("\n", "")
	def addr(v):
	    if v is None:
	        return ""
	    name, a = parseaddr(str(v).replace("\n", ""))
	    return text(name) + " <" + a + ">"
	n = 0
	for m in mailbox.mbox(sys.argv[1]):
	    n += 1
	    assert m.defects == [], m.defects
	    assert m["Bcc"] is None and m["Cc"] is None, "injected header"
	    assert m["From"] == "\"Dana Reyes\" <dana@lattice.example>", m["From"]
	    assert m["Date"] == "Mon, 30 Nov 2026 00:57:35 +0000", m["Date"]
	    assert m.get_all("X-Kh-Cites"), "no citation"
	    body = m.get_payload(decode=True).decode("utf-8")
	    for line in body.split("\n"):
	        assert not line.startswith("From "), line
	        assert len(line) <= 72 or " " not in line, line
	    print(m["X-Kh-Candidate"] + "\t" + addr(m["To"]) + "\t" +
	          text(m["Subject"]))
	print(n)
	EOF
	python3 check.py drafts.mbox >parsed &&
	tail -n 1 parsed >n &&
	test_cmp want n &&
	grep -F "github:zoe	Zoë Ñúñez 李明 <mei.lin@uni.example>	Your fa-labs/flashattn pull request, and a kernel problem at Lattice Compute" parsed &&
	grep -F "github:evil	Eve Bcc: everyone@example.org <eve@example.org>	" parsed
'

test_expect_success 'a body line starting with From is quoted and read back' '
	cd "$g/021-from-line-in-body" &&
	kh-outreach --brief ../brief.json --format mbox --template from.tmpl \
		in.ndjson >"$TRASH/from.mbox" &&
	cd "$TRASH" &&
	python3 -c "
import mailbox, sys
msgs = list(mailbox.mbox(sys.argv[1]))
assert len(msgs) == 1, len(msgs)
body = msgs[0].get_payload()
assert \"\n>From our side: \" in body, body
assert \"\n>>From the team: \" in body, body
" from.mbox
'

test_expect_success 'fact guard: every cite is verified evidence of its candidate' '
	jq -r "select(.outreach.cites) | . as \$c | .outreach.cites[]
		| . as \$id | [\$c.evidence[] | select(.id == \$id)] as \$e
		| if (\$e | length) == 1 and \$e[0].authorship.verdict == \"verified\"
		  then empty else \"\(\$c.id): \(\$id)\" end" drafts.ndjson >bad &&
	test_cmp /dev/null bad
'

test_expect_success 'fact guard: a cited title is in the draft as the evidence says it' '
	jq -r "select(.outreach.cites) | . as \$c | .outreach.cites[] | . as \$id
		| \$c.evidence[] | select(.id == \$id and .title and (.title | test(\"[\\r\\n\\u00ff]\") | not))
		| . as \$e | select(\$c.outreach.body | contains(\$e.title) | not)
		| \"\(\$c.id): \(\$e.title)\"" \
		drafts.ndjson >bad &&
	test_cmp /dev/null bad &&
	jq -r "select(.outreach.cites) | . as \$c | .outreach.cites[] | . as \$id
		| \$c.evidence[] | select(.id == \$id and .title) | .title" \
		drafts.ndjson >checked &&
	test $(wc -l <checked) -ge 10
'

test_expect_success 'no draft leaves a hole or a tag' '
	jq -r "select(.outreach.body) | .outreach.subject, .outreach.body" drafts.ndjson >all &&
	! grep -F "{{" all && ! grep -F "}}" all && ! grep -E "\"\"|\(\)| ,| \\." all
'

test_expect_success 'a junior learning in public is not told they are senior' '
	jq -r "select(.score.tier == \"junior\") | .outreach.subject, .outreach.body" \
		drafts.ndjson >junior &&
	test -s junior &&
	! grep -i -E "senior|staff|principal|expert|experienced|seasoned|veteran|years" junior
'

test_expect_success 'no draft for a candidate without verified evidence, with the reason' '
	jq -r "select(.id == \"github:forkonly\") | .outreach | keys | join(\",\")" \
		drafts.ndjson | sort -u >keys &&
	echo skipped >want &&
	test_cmp want keys
'

test_expect_success 'the review sheet: one section per candidate, whatever their text' '
	kh-outreach -q --brief "$brief" --format md cands.ndjson >sheet.md &&
	grep -c "^## " sheet.md >n &&
	wc -l <cands.ndjson | tr -d " " >want &&
	test_cmp want n &&
	test $(grep -c "^# " sheet.md) -eq 1
'

test_expect_success 'filters: dropped, and counted under -v' '
	kh-outreach -v --brief "$brief" --min-score 50 cands.ndjson >high 2>err &&
	jq -e "select(.score.total < 50)" high >none; test ! -s none &&
	n=$(jq -s "map(select(.score.total < 50)) | length" drafts.ndjson) &&
	grep "filtered out by --min-score or --tier: $n;" err
'

test_expect_success 'kh-outreach | head -1 ends quietly' '
	for i in 1 2 3 4 5 6 7 8; do cat cands.ndjson; done >many.ndjson &&
	for i in 1 2 3 4 5 6 7 8; do cat many.ndjson; done >more.ndjson &&
	kh-outreach -q --brief "$brief" more.ndjson 2>err | head -1 >one &&
	test $(wc -l <one) -eq 1 &&
	test_cmp /dev/null err
'

test_expect_success 'a failed write to standard output is exit 4' '
	if [ -w /dev/full ]; then
		test_must_fail --rc=4 kh-outreach --brief "$brief" cands.ndjson >/dev/full 2>err &&
		grep "^kh-outreach: cannot write to standard output: " err
	fi
'

test_expect_success 'the default template is data: a copy under KH_DATADIR is used' '
	mkdir -p data/templates &&
	printf "Subject: {{#lead}}{{id}}{{/lead}}\n\nHi {{candidate.name}}, see {{#lead}}{{id}}{{/lead}}.\n" \
		>data/templates/default.tmpl &&
	head -1 cands.ndjson | KH_DATADIR=$PWD/data kh-outreach --brief "$brief" |
		jq -r .outreach.body >body &&
	grep "^Hi .*, see .*\.$" body
'

test_expect_success 'the template example of kh-outreach(1) is the one a golden case runs' '
	sed -n "/^A shorter one:\$/,/^\.Ed\$/p" "$KH_TOP/share/man/man1/kh-outreach.1" |
		sed "1,2d;\$d" >example &&
	test_cmp "$g/038-man-page-template/short.tmpl" example
'

test_done
