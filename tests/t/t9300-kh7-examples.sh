#!/bin/sh
# The EXAMPLES of kh(7) run as printed, on the sample data, in order.
. "$(dirname "$0")/../lib.sh"

ln -s "$KH_TOP/share" share
# Each literal block of EXAMPLES as a script: ex1.sh, ex2.sh, ...
awk '
	/^\.Sh / { in_ex = ($2 == "EXAMPLES") }
	in_ex && /^\.Bd -literal/ { n++; f = "ex" n ".sh"; next }
	in_ex && /^\.Ed/ { close(f); f = ""; next }
	f != "" { gsub(/\\e/, "\\"); print > f }
' "$KH_TOP/share/man/man7/kh.7"

test_expect_success 'kh(7) has examples' '
	test -f ex1.sh && test -f ex5.sh
'

for ex in ex*.sh; do
	test_expect_success "kh(7) example ${ex%.sh} runs" "
		sh -e $ex >${ex%.sh}.out 2>${ex%.sh}.err &&
		test_cmp /dev/null ${ex%.sh}.err
	"
done

test_expect_success 'the table lists every upstream commit' '
	test $(wc -l <ex2.out) -eq 8
'

test_expect_success 'the fork example finds the fork'"'"'s own commits' '
	cat >expect <<-\EOT &&
	{"title":"Add FP8 GEMM for MI300X with MFMA (#18)","author":"Ravi Raman"}
	{"title":"Try an unrolled variant of the reference kernel","author":"Frank Fork"}
	EOT
	test_cmp expect ex3.out
'

test_expect_success 'the chain prints a shortlist and writes drafts' '
	head -1 ex4.out | cut -f3 >top &&
	echo "Ravi Raman" >expect &&
	test_cmp expect top &&
	grep -q "Mei Lin" ex4.out &&
	test -s review.md
'

test_expect_success 'the why and the verdicts are printed' '
	test -s ex5.out &&
	grep -q "^verified	github:pr:fa-labs/flashattn#12$" ex5.out
'
test_done
