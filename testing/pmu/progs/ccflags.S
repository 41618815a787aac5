/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ccflags N: whether CMPXCHG16B and CMPXCHG8B leave the flags they do not
 * define alone, N rounds of three cases; exit(0) when every round was
 * right, else exit(1 + the first wrong case).  A static program without
 * libc, for the emulated-PMU machine (testing/pmu/guest/15-ccflags.sh).
 *
 * The SDM: CMPXCHG8B/16B set ZF and leave CF, PF, AF, SF and OF as they
 * were.  QEMU 7.2's TCG computed the flags in its helper from a condition
 * -code state it had not written back, so the flags of an ADD in the same
 * translation block came out wrong (case 0, 16-byte; case 1, 8-byte), and
 * where the block began with the flags in TCG's EFLAGS form (after POPF,
 * and at the start of every execution slice: the emulated PMU ends slices
 * at any instruction) the ADD's source operand became the flags word,
 * system bits and all (case 2): the guest kernel's double faults.
 *
 * Built with: gcc -nostdlib -static -no-pie -o ccflags ccflags.S
 */
#define F_CF	0x001
#define F_PF	0x004
#define F_ZF	0x040
#define F_IF	0x200

	.text
	.globl	_start
	.type	_start, @function
_start:
	movl	$1000, %r12d		/* N, 1000 without an argument */
	cmpq	$2, (%rsp)		/* argc */
	jb	.Lgo
	movq	16(%rsp), %rsi		/* argv[1] */
	xorl	%r12d, %r12d
.Lparse:
	movzbl	(%rsi), %eax
	subl	$'0', %eax
	cmpl	$9, %eax
	ja	.Lgo			/* not a digit: the end */
	imulq	$10, %r12, %r12
	addq	%rax, %r12
	incq	%rsi
	jmp	.Lparse
.Lgo:
	leaq	slot(%rip), %rdi
	testq	%r12, %r12
	jz	.Lpass

.Lround:
	/*
	 * Case 0: the block starts after a branch on TEST's flags (TCG keeps
	 * a logic op, CF = 0); ADD then sets CF, CMPXCHG16B (equal) sets ZF.
	 */
	xorl	%eax, %eax
	testq	%rax, %rax
	jnz	.Lfail0
	movq	$-1, %r8
	xorl	%edx, %edx		/* flags, before the ADD */
	movq	$0, (%rdi)
	movq	$0, 8(%rdi)
	movq	$0, %rax
	movq	$0, %rbx
	movq	$0, %rcx
	addq	$2, %r8			/* CF = 1, ZF = 0 */
	cmpxchg16b (%rdi)		/* equal: ZF = 1, CF stays 1 */
	jnc	.Lfail0
	jnz	.Lfail0

	/* Case 1: the same with CMPXCHG8B (EDX:EAX against 8 bytes). */
	xorl	%eax, %eax
	testq	%rax, %rax
	jnz	.Lfail1
	movq	$-1, %r8
	movq	$0, %rdx
	addq	$2, %r8			/* CF = 1, ZF = 0 */
	cmpxchg8b (%rdi)		/* equal: ZF = 1, CF stays 1 */
	jnc	.Lfail1
	jnz	.Lfail1

	/*
	 * Case 2: POPF ends the block with the flags in TCG's EFLAGS form;
	 * the next block's ADD has a source with bits 17-31 set (VM, VIF,
	 * VIP, ID, reserved); the flags read back must be ADD's PF, then
	 * CMPXCHG16B's ZF, IF and bit 1: 0x246.
	 */
	pushq	$(F_IF | 2)
	popfq
	movq	$0, %rax
	movq	$0, %rdx
	movq	$0, %r10
	movl	$0xfffe0000, %r9d
	addq	%r9, %r10		/* CF = 0, ZF = 0, PF = 1 (low byte 0) */
	cmpxchg16b (%rdi)		/* equal: ZF = 1 */
	pushfq
	popq	%r11
	cmpq	$(F_IF | F_ZF | F_PF | 2), %r11
	jne	.Lfail2

	decq	%r12
	jnz	.Lround
.Lpass:
	xorl	%edi, %edi
	jmp	.Lexit
.Lfail0:
	movl	$1, %edi
	jmp	.Lexit
.Lfail1:
	movl	$2, %edi
	jmp	.Lexit
.Lfail2:
	movl	$3, %edi
.Lexit:
	movl	$60, %eax		/* exit(status) */
	syscall
	.size	_start, . - _start

	.data
	.balign	16
slot:
	.quad	0, 0

	.section .note.GNU-stack, "", @progbits
