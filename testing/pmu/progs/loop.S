/* SPDX-License-Identifier: GPL-2.0 */
/*
 * loop N: a static program without libc whose user-mode instructions are
 * known exactly: a fixed prologue (argument parsing: the same for every N
 * of the same number of digits), N iterations of loop() (LOOP_INSNS
 * instructions, one of them a branch), then exit(0).  So perf stat's
 * instructions:u is LOOP_INSNS * N + c and branches:u N + c', with c and
 * c' constants, and every sample of a period that ends inside the loop
 * has its address in loop().  testing/pmu/guest checks that.
 *
 * Built with: gcc -nostdlib -static -no-pie -o loop loop.S
 */
#define LOOP_INSNS 4

	.text
	.globl	_start
	.type	_start, @function
_start:
	xorl	%ecx, %ecx		/* N = 0 */
	cmpq	$2, (%rsp)		/* argc */
	jb	.Lrun
	movq	16(%rsp), %rsi		/* argv[1] */
.Lparse:
	movzbl	(%rsi), %eax
	subl	$'0', %eax
	cmpl	$9, %eax
	ja	.Lrun			/* not a digit: the end */
	imulq	$10, %rcx, %rcx
	addq	%rax, %rcx
	incq	%rsi
	jmp	.Lparse
.Lrun:
	testq	%rcx, %rcx
	jz	.Lexit
	call	loop
.Lexit:
	movl	$60, %eax		/* exit(0) */
	xorl	%edi, %edi
	syscall
	.size	_start, . - _start

/* LOOP_INSNS instructions an iteration, one branch; %rcx iterations. */
	.globl	loop
	.type	loop, @function
loop:
	nop
	nop
	decq	%rcx
	jnz	loop
	ret
	.size	loop, . - loop

	.section .note.GNU-stack, "", @progbits
