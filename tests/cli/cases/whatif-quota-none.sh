# A tenant none of whose jobs completed, said in the user's terms by its
# quota (tests/data/whatif/quota-search.yaml: three 2-GPU jobs per team).
# Without quota on any key and no cohort, a's jobs can never be admitted:
# never started.  With 1 GPU of quota no 2-GPU job of a fits it either,
# but that is the jobs' size, not the quota's absence: none completed.  At
# 4, a waits 0, 0 and 100 s (p90 80 s).
sed -e "s#: \.\./#: $ROOT/tests/data/#" -e 's/0\.\.8/[0, 1, 4]/' tests/data/whatif/quota-search.yaml >$TMP/none.yaml
run whatif $TMP/none.yaml -j 1 | tail -6
# In a cohort whose other tenant lends nothing (lending_limit 0), a with
# no quota could only borrow, and never does; with a borrowing_limit of 0
# it cannot even borrow.
printf 'tenants:\n  - {name: a, quota: {gpus: 4}, cohort: c}\n  - {name: b, quota: {gpus: 4}, cohort: c, lending_limit: 0}\n' >$TMP/lend0.yaml
sed -e "s#^tenants: .*#tenants: $TMP/lend0.yaml#" $TMP/none.yaml >$TMP/lend0-spec.yaml
run whatif $TMP/lend0-spec.yaml -j 1 | grep -A1 '^quota.a'
sed -e 's/cohort: c}/cohort: c, borrowing_limit: 0}/' $TMP/lend0.yaml >$TMP/borrow0.yaml
sed -e "s#lend0.yaml#borrow0.yaml#" $TMP/lend0-spec.yaml >$TMP/borrow0-spec.yaml
run whatif $TMP/borrow0-spec.yaml -j 1 | grep -A1 '^quota.a'
# the best line names the one tenant the SLO bounds, not every tenant (b
# waits 100 s at quota.a=6)
run whatif tests/data/whatif/quota-search.yaml -j 1 | tail -2
