// SPDX-License-Identifier: GPL-2.0
// launch.cpp - fork, hold, exec and reap the profiled command.
#include "launch.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace kprofile::record {

namespace {

bool read_int(int fd, int *v)
{
	std::size_t got = 0;
	auto *p = reinterpret_cast<char *>(v);

	while (got < sizeof(*v)) {
		ssize_t n = ::read(fd, p + got, sizeof(*v) - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return false;
		got += static_cast<std::size_t>(n);
	}
	return true;
}

[[noreturn]] void child(const std::vector<std::string> &argv, int go, int status)
{
	std::vector<char *> args;
	int err = 0;
	char c;

	for (const auto &a : argv)
		args.push_back(const_cast<char *>(a.c_str()));
	args.push_back(nullptr);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	if (ptrace(PTRACE_TRACEME, 0, nullptr, nullptr) != 0)
		err = errno;
	(void)!::write(status, &err, sizeof(err));
	ssize_t n;
	do
		n = ::read(go, &c, 1);
	while (n < 0 && errno == EINTR);
	// EOF: the recording's setup failed and the command was dropped
	// before release; it must not run unprofiled.
	if (n != 1)
		_exit(126);
	::close(go);
	execvp(args[0], args.data());
	err = errno;
	(void)!::write(status, &err, sizeof(err));
	_exit(127);
}

} // namespace

Command::Command(const std::vector<std::string> &argv)
{
	int go[2], st[2];

	if (argv.empty())
		throw Failure(usage_error("no command given after --"));
	name_ = argv[0];
	if (pipe2(go, O_CLOEXEC) != 0)
		throw Failure(errno_error(errno, "pipe"));
	UniqueFd go_r(go[0]), go_w(go[1]);
	if (pipe2(st, O_CLOEXEC) != 0)
		throw Failure(errno_error(errno, "pipe"));
	UniqueFd st_r(st[0]), st_w(st[1]);

	pid_ = fork();
	if (pid_ < 0)
		throw Failure(errno_error(errno, "cannot fork to run " + name_));
	if (pid_ == 0) {
		// Only the ends the child uses stay open (go_r is CLOEXEC
		// too, but read before exec).
		::close(go[1]);
		::close(st[0]);
		child(argv, go[0], st[1]);
	}
	go_ = std::move(go_w);
	status_ = std::move(st_r);
	int err = 0;
	if (!read_int(status_.get(), &err))
		throw Failure(errno_error(EIO, "the command's process failed before exec"));
	traced_ = err == 0;
}

Command::~Command()
{
	if (pid_ > 0 && !status_code_) {
		go_.reset();	// a command never released exits at EOF
		if (stopped_) {
			// Stopped at exec, not resumed: setup failed after
			// exec; it dies before its first instruction.
			kill(pid_, SIGKILL);
			ptrace(PTRACE_DETACH, pid_, nullptr, nullptr);
		}
		terminate();
	}
}

void Command::exec()
{
	const char c = 'g';
	int err = 0;

	if (::write(go_.get(), &c, 1) != 1)
		throw Failure(errno_error(errno, "cannot release " + name_));
	go_.reset();
	if (traced_) {
		int status = 0;
		while (waitpid(pid_, &status, 0) < 0)
			if (errno != EINTR)
				throw Failure(errno_error(errno, "waitpid"));
		if (WIFSTOPPED(status)) {
			stopped_ = true;
			return;
		}
		status_code_ = status;
	}
	// Untraced, or it exited: EOF means exec succeeded, an int is errno.
	if (read_int(status_.get(), &err)) {
		if (!status_code_) {
			int status = 0;
			waitpid(pid_, &status, 0);
			status_code_ = status;
		}
		Error e = errno_error(err, "cannot run " + name_,
				      {err == ENOENT ? "check the command's name and PATH" :
				       err == EACCES ? "the file is not executable" : ""});
		e.code = ExitCode::Usage;
		throw Failure(std::move(e));
	}
}

void Command::resume()
{
	if (!stopped_)
		return;
	stopped_ = false;
	ptrace(PTRACE_DETACH, pid_, nullptr, nullptr);
}

std::optional<int> Command::poll()
{
	if (status_code_)
		return status_code_;
	int status = 0;
	pid_t r = waitpid(pid_, &status, WNOHANG);
	if (r == pid_ && (WIFEXITED(status) || WIFSIGNALED(status)))
		status_code_ = status;
	return status_code_;
}

int Command::terminate()
{
	if (status_code_)
		return *status_code_;
	kill(pid_, SIGTERM);
	int status = 0;
	while (waitpid(pid_, &status, 0) < 0) {
		if (errno != EINTR)
			return 0;
	}
	status_code_ = status;
	return status;
}

int Command::exit_code(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return 0;
}

} // namespace kprofile::record
