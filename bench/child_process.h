#pragma once
// A benchmark step in a fresh child process: its stdout (where it prints its own figures), its wall time and its
// peak RSS (ru_maxrss from wait4, which belongs to that child alone, plus what it inherited at fork).
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

namespace fb::bench {

struct ChildResult {
  bool ok = false;  // exited with 0
  double wallMs = 0;
  long peakKb = 0;
  std::string out;
};

// Runs argv (argv[0] a path) with stdout captured; with `quietStderr` its stderr goes to /dev/null.
inline ChildResult runChildProcess(const std::vector<std::string>& argv, bool quietStderr = false) {
  int pipefd[2];
  if (pipe(pipefd) != 0) return {};
  const auto t0 = std::chrono::steady_clock::now();
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(pipefd[1], 1);
    close(pipefd[0]);
    if (quietStderr)
      if (FILE* null = std::fopen("/dev/null", "w")) dup2(fileno(null), 2);
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execv(args[0], args.data());
    _exit(127);
  }
  close(pipefd[1]);
  ChildResult r;
  char buf[4096];
  ssize_t n;
  while ((n = read(pipefd[0], buf, sizeof buf)) > 0) r.out.append(buf, static_cast<size_t>(n));
  close(pipefd[0]);
  int status = 0;
  struct rusage ru {};
  wait4(pid, &status, 0, &ru);
  r.wallMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  r.ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  r.peakKb = ru.ru_maxrss;
  return r;
}

}  // namespace fb::bench
