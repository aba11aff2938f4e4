# shellcheck shell=bash
# lib.sh - the host side of every MorphStore VM run: vm/run (the kernel
# module's tests) and bench/vm-fio (the fio bench against md RAID) source
# it.  The kernel to boot, the module built against it, a busybox initramfs
# holding that kernel's modules and vm/init, the accelerator, and qemu
# booting with the host's root shared read-only over 9p (vm/init chroots
# into it and runs the guest script named by ms_guest=).  A function that
# fails returns non-zero with the reason, naming what to install, in VM_ERR.

VM_ERR=

# vm_package TOOL: the Debian package that installs TOOL
vm_package() {
	case $1 in
	qemu-system-x86_64) echo qemu-system-x86 ;;
	modprobe) echo kmod ;;
	busybox) echo busybox-static ;;
	mkfs.ext4 | mkfs.ext2) echo e2fsprogs ;;
	setfattr | getfattr) echo attr ;;
	fusermount3) echo fuse3 ;;
	wipefs | losetup) echo util-linux ;;
	*) echo "$1" ;;
	esac
}

# vm_tools TOOL...: every TOOL is installed (busybox: the static /bin/busybox)
vm_tools() {
	local tool
	for tool; do
		if [ "$tool" = busybox ]; then
			[ -x /bin/busybox ] && continue
		elif command -v "$tool" >/dev/null; then
			continue
		fi
		VM_ERR="$tool not installed: apt-get install $(vm_package "$tool") (morphstore-kmod/deps.apt)"
		return 1
	done
}

# vm_kernel: KV = the newest kernel whose image, modules and headers are
# all installed (the guest boots it; the module is built against it)
vm_kernel() {
	local v
	KV=
	for v in $(ls /boot/vmlinuz-* 2>/dev/null | sed 's|^/boot/vmlinuz-||' | sort -V -r); do
		if [ -f "/usr/src/linux-headers-$v/Makefile" ] && [ -d "/lib/modules/$v/kernel" ]; then
			KV=$v
			return 0
		fi
	done
	VM_ERR="no kernel with both /boot/vmlinuz-<ver> and /usr/src/linux-headers-<ver>: apt-get install linux-image-amd64 linux-headers-amd64 (morphstore-kmod/deps.apt)"
	return 1
}

# vm_build_module MSDIR LOG: morphstore.ko in MSDIR for $KV, W=1 and no warning
vm_build_module() {
	make -s -C "/usr/src/linux-headers-$KV" M="$1" W=1 KCFLAGS=-Werror modules >"$2" 2>&1 && return 0
	VM_ERR="morphstore.ko does not build with W=1 and no warning (log: $2)"
	return 1
}

# vm_initramfs MSDIR WORK MODULE...: WORK/initrd.gz, a busybox initramfs
# with vm/init as PID 1 and the named modules of $KV and their
# dependencies, decompressed, in load order (vm/init insmods them)
vm_initramfs() {
	local ms=$1 w=$2 m ko base
	shift 2
	rm -rf "$w/root"
	mkdir -p "$w/root/bin" "$w/root/lib/mod"
	cp /bin/busybox "$w/root/bin/busybox"
	cp "$ms/vm/init" "$w/root/init"
	: >"$w/root/modules.order"
	for m; do
		if ! modprobe -S "$KV" --show-depends "$m" >/dev/null 2>&1; then
			VM_ERR="kernel $KV has no module $m (linux-image-amd64 installs them)"
			return 1
		fi
	done
	for m; do
		modprobe -S "$KV" --show-depends "$m" 2>/dev/null | awk '$1 == "insmod" { print $2 }'
	done | awk '!seen[$0]++' | while read -r ko; do
		base=$(basename "$ko")
		case $ko in
		*.xz) xz -dc "$ko" >"$w/root/lib/mod/${base%.xz}"; base=${base%.xz} ;;
		*.zst) zstd -qdc "$ko" >"$w/root/lib/mod/${base%.zst}"; base=${base%.zst} ;;
		*) cp "$ko" "$w/root/lib/mod/$base" ;;
		esac
		echo "$base" >>"$w/root/modules.order"
	done
	(cd "$w/root" && find . | cpio -o -H newc --quiet | gzip -1) >"$w/initrd.gz"
}

# vm_accel auto|kvm|tcg: VM_ACCEL = the accelerator to use, VM_ACCEL_WHY =
# why.  auto takes kvm only when /dev/kvm is usable and a kernel booted
# under it prints its banner within 20 s (a nested /dev/kvm can exist and
# still be too slow to boot), else tcg.
vm_accel() {
	local probe pid i
	VM_ACCEL=$1
	VM_ACCEL_WHY="asked for"
	case $1 in
	tcg | kvm) return 0 ;;
	auto) ;;
	*) VM_ERR="accelerator $1: expected auto, kvm or tcg"; return 1 ;;
	esac
	VM_ACCEL=tcg
	if [ ! -r /dev/kvm ] || [ ! -w /dev/kvm ]; then
		VM_ACCEL_WHY="auto: /dev/kvm is not usable"
		return 0
	fi
	probe=$(mktemp /tmp/morphstore-kvm-probe.XXXXXX)
	qemu-system-x86_64 -accel kvm -cpu host -smp 1 -m 256 -nic none -display none \
		-monitor none -serial "file:$probe" -no-reboot -kernel "/boot/vmlinuz-$KV" \
		-append "console=ttyS0 earlyprintk=serial,ttyS0 panic=-1" </dev/null >/dev/null 2>&1 &
	pid=$!
	VM_ACCEL_WHY="auto: a kernel under kvm printed no banner within 20 s; tcg"
	for i in $(seq 100); do
		if grep -q 'Linux version' "$probe" 2>/dev/null; then
			VM_ACCEL=kvm
			VM_ACCEL_WHY="auto: a kernel booted under kvm"
			break
		fi
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.2
	done
	kill "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	rm -f "$probe"
}

# vm_start MSDIR WORK ACCEL MEM_MB TIMEOUT_S GUEST ARGS APPEND [QEMU ARG...]:
# boots $KV in the background (VM_QPID; killed after TIMEOUT_S) with
# WORK/initrd.gz, 2 vCPUs, the console in WORK/console.log, the host root
# as 9p tag hostroot; vm/init runs MSDIR/GUEST with ARGS (comma-separated)
# and WORK (shared at /tmp/mswork).  APPEND: further kernel parameters;
# the QEMU ARGs: disks and devices.  no_timer_check: under TCG on a busy
# host the kernel's boot-time check of the IO-APIC timer can miss its
# ticks and panic ("IO-APIC + timer doesn't work!"); the emulated timer works.
vm_start() {
	local ms=$1 w=$2 accel=$3 mem=$4 timeout=$5 guest=$6 args=$7 append=$8 cpu=max
	shift 8
	[ "$accel" = kvm ] && cpu=host
	: >"$w/console.log"
	timeout --signal=KILL "$timeout" qemu-system-x86_64 -accel "$accel" -cpu "$cpu" -smp 2 -m "$mem" \
		-nic none -display none -monitor none -serial "file:$w/console.log" -no-reboot \
		-kernel "/boot/vmlinuz-$KV" -initrd "$w/initrd.gz" \
		-append "console=ttyS0 panic=-1 oops=panic no_timer_check quiet loglevel=4 ms_dir=$ms ms_work=$w ms_guest=$guest ms_args=$args $append" \
		-virtfs "local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap" \
		"$@" </dev/null &
	VM_QPID=$!
}

# vm_powercut MSDIR WORK TIMEOUT_S GUEST ARGS DELAY_MS [QEMU ARG...]: one
# boot of a power-cut test (vm/powercut, zonectl/tests/vm-powercut): boots
# like vm_start (TCG, 1 GiB, panic_on_warn=1: a kernel warning ends the
# boot), waits until the guest prints "PCUT: ready" on the console, lets
# it run DELAY_MS more, then kills qemu with SIGKILL: the power cut.  The guest's page cache and everything in flight inside
# it are lost; what qemu completed on the disk images stays (raw images:
# qemu buffers nothing of its own).  A guest with nothing to cut prints
# no marker and powers off.  VM_CUT = cut | ended (powered off by itself) |
# timeout (killed after TIMEOUT_S, no marker).
vm_powercut() {
	local ms=$1 w=$2 timeout=$3 guest=$4 args=$5 delay=$6 rc
	shift 6
	rm -f "$w/qemu.pid"
	vm_start "$ms" "$w" tcg 1024 "$timeout" "$guest" "$args" panic_on_warn=1 -pidfile "$w/qemu.pid" "$@"
	VM_CUT=ended
	while kill -0 "$VM_QPID" 2>/dev/null; do
		if grep -q '^PCUT: ready' "$w/console.log"; then
			sleep "$((delay / 1000)).$(printf %03d $((delay % 1000)))"
			kill -KILL "$(cat "$w/qemu.pid")"
			VM_CUT=cut
			break
		fi
		sleep 0.05
	done
	wait "$VM_QPID" 2>/dev/null	# no "Killed" notice: the kill is the test
	rc=$?
	[ "$VM_CUT" = ended ] && [ "$rc" = 137 ] && VM_CUT=timeout
	VM_QPID=
}
