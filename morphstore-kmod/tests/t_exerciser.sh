#!/bin/bash
# The random-operation exerciser, 10 000 operations under each of three
# seeds, on 4 devices (3 ext4 + 1 ext2), against a plain reference
# directory; copy counts change at random during the run.
source "$(dirname "$0")/lib.sh"
ms_setup

run_seed() {
	local seed=$1 mnt=$MS_TMP/mnt$1 ref=$MS_TMP/ref$1 out
	ms_mount "$mnt" "replicate_bps=0,seed=$seed" || { fail "seed $seed: mount"; return; }
	mkdir -p "$ref"
	out=$("$MS_ROOT/build/exerciser" --seed "$seed" --ops 10000 --devices 4 \
		--mount "$mnt" --ref "$ref" 2>&1)
	local rc=$?
	echo "$out" | tail -3
	check "exerciser seed $seed: 10000 operations agree with the reference" [ $rc -eq 0 ]
	ms_wait_idle "$mnt"
	# replicas were really made and kept: some file ends with >1 copy,
	# and every copy the volume serves is identical to the reference
	local multi
	multi=$("$MS_CTL" status "$mnt" | awk '$1 ~ /^\// && $3 > 1 { n++ } END { print n + 0 }')
	check "exerciser seed $seed: $multi files hold more than one copy at the end" [ "$multi" -gt 0 ]
	check "exerciser seed $seed: every fresh replica equals its master" verify_replicas
	check "exerciser seed $seed: daemon logged no error" \
		bash -c "! grep -q 'error:' '$MS_TMP/daemon.log'"
	# through the volume, so that the replicas and their names go too
	rm -rf "$mnt/ex" "$ref"
	ms_umount "$mnt"
}

# every replica marked fresh in a master's state is byte-identical to it
verify_replicas() {
	"$MS_ROOT/tests/verify-replicas" "${MS_DEV[@]}"
}

ms_devices 4 96 || { fail "set up devices"; ms_summary; exit 1; }
for seed in 1 2 3; do
	: >"$MS_TMP/daemon.log"
	run_seed $seed
done
ms_summary
