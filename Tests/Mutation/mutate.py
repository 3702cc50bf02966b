#!/usr/bin/env python3
"""Mutation runner: applies each mutation of a catalogue, one at a time, to a scratch clone of the repository's
HEAD, runs the test suite against it and reports which mutants the suite killed.

A mutant is
  KILLED        the suite failed (or did not finish within the time limit),
  SURVIVED      the suite passed: no test noticed the change,
  STALE         its original text does not occur exactly once in its file (the code moved on: fix the entry),
  BUILD-FAILED  the mutated package does not compile (the entry is not a mutation the compiler lets through).
The score is KILLED / (KILLED + SURVIVED); stale and build-failed mutants are listed but not scored.

The caller's working tree is never touched: the runner clones the repository's committed HEAD into a scratch
directory (one clone and one .build reused across mutants) and restores each file with `git checkout` after its
mutant. Uncommitted changes are therefore not tested: commit first.

Usage: see docs/reliability.md, or run with --help. Standard library only.
"""

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_CATALOGUE = os.path.join(HERE, "catalogue.json")
FIELDS = ("id", "area", "file", "original", "replacement", "effect")


def load_catalogue(path):
    with open(path, encoding="utf-8") as handle:
        entries = json.load(handle)
    seen = set()
    for index, entry in enumerate(entries):
        missing = [field for field in FIELDS if not isinstance(entry.get(field), str)]
        if missing:
            sys.exit(f"catalogue entry {index}: missing or non-text field(s) {', '.join(missing)}")
        if entry["id"] in seen:
            sys.exit(f"catalogue entry {index}: duplicate id {entry['id']}")
        if entry["original"] == entry["replacement"]:
            sys.exit(f"catalogue entry {entry['id']}: the replacement equals the original")
        seen.add(entry["id"])
    return entries


def descendants(pid):
    """Every process below `pid` (from /proc; empty where there is none). `swift test` starts the test binary in a
    process group of its own, so killing the group of `swift test` alone would leave a hung suite running."""
    children = {}
    for entry in os.listdir("/proc") if os.path.isdir("/proc") else []:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as handle:
                fields = handle.read().rsplit(")", 1)[1].split()
            children.setdefault(int(fields[1]), []).append(int(entry))
        except (OSError, IndexError, ValueError):
            continue
    found, pending = [], [pid]
    while pending:
        for child in children.get(pending.pop(), []):
            found.append(child)
            pending.append(child)
    return found


def kill_tree(pid):
    for process in [pid, *descendants(pid)]:
        for kill in (lambda p: os.killpg(p, signal.SIGKILL), lambda p: os.kill(p, signal.SIGKILL)):
            try:
                kill(process)
            except (ProcessLookupError, PermissionError):
                pass


def run(command, cwd, timeout=None, log=None):
    """Runs `command`; returns (exit code or None on timeout, seconds). Kills the whole process group on timeout."""
    started = time.monotonic()
    with open(log or os.devnull, "ab") as output:
        process = subprocess.Popen(command, cwd=cwd, stdout=output, stderr=subprocess.STDOUT,
                                   start_new_session=True)
        try:
            code = process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            kill_tree(process.pid)
            process.wait()
            code = None
    return code, time.monotonic() - started


def git(args, cwd):
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True).stdout.strip()


def occurrences(root, entry):
    path = os.path.join(root, entry["file"])
    if not os.path.isfile(path):
        return 0
    with open(path, encoding="utf-8") as handle:
        return handle.read().count(entry["original"])


class Scratch:
    """One clone of the repository at a commit, with its own .build, reused across mutants."""

    def __init__(self, repo, commit, directory, test_args, timeout):
        self.repo, self.commit, self.directory = repo, commit, directory
        self.test_args, self.timeout = test_args, timeout
        self.log = os.path.join(directory, ".mutation.log")

    def prepare(self):
        if not os.path.isdir(os.path.join(self.directory, ".git")):
            os.makedirs(self.directory, exist_ok=True)
            git(["clone", "--quiet", "--no-checkout", self.repo, self.directory], cwd=self.directory)
        git(["fetch", "--quiet", self.repo, self.commit], cwd=self.directory)
        git(["checkout", "--quiet", "--force", "--detach", self.commit], cwd=self.directory)
        git(["clean", "--quiet", "-fdx", "-e", ".build", "-e", ".mutation.log"], cwd=self.directory)

    def build_and_test(self, filters=(), first=False):
        """Returns ("built", code|None) after a test run, or ("build-failed", code|None). The first build of a
        clone compiles everything, so it gets three times the limit."""
        with open(self.log, "w"):
            pass
        limit = self.timeout * 3 if first else self.timeout
        code, _ = run(["swift", "build", "--build-tests"], self.directory, limit, self.log)
        if code != 0:
            return "build-failed", code
        command = ["swift", "test", "--skip-build", *self.test_args]
        for name in filters:
            command += ["--filter", name]
        code, _ = run(command, self.directory, self.timeout, self.log)
        return "built", code

    def mutate(self, entry, fast):
        """Applies `entry`, builds, tests, restores; returns (verdict, seconds, detail)."""
        started = time.monotonic()
        path = os.path.join(self.directory, entry["file"])
        count = occurrences(self.directory, entry)
        if count != 1:
            return "STALE", 0.0, f"original text found {count} times in {entry['file']}"
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text.replace(entry["original"], entry["replacement"], 1))
        try:
            filters = entry.get("filters", []) if fast else []
            stage, code = self.build_and_test(filters)
        finally:
            git(["checkout", "--quiet", "--", entry["file"]], cwd=self.directory)
        seconds = time.monotonic() - started
        if stage == "build-failed":
            return "BUILD-FAILED", seconds, "timed out building" if code is None else "does not compile"
        if code is None:
            return "KILLED", seconds, f"the suite did not finish within {self.timeout} s"
        if code != 0:
            return "KILLED", seconds, "the suite failed"
        return "SURVIVED", seconds, entry["effect"]


def main():
    parser = argparse.ArgumentParser(description="Run the mutation catalogue against the test suite.")
    parser.add_argument("--catalogue", default=DEFAULT_CATALOGUE, help="catalogue file (JSON)")
    parser.add_argument("--repo", default=None, help="repository to clone (default: the one holding this script)")
    parser.add_argument("--only", default="", help="comma-separated mutant ids to run (default: all)")
    parser.add_argument("--list", action="store_true", help="list the catalogue and exit")
    parser.add_argument("--validate", action="store_true",
                        help="check that every entry applies (its original occurs exactly once) and exit")
    parser.add_argument("--jobs", type=int, default=1,
                        help="mutants run at once, each in its own clone and .build (default 1; on a small "
                             "machine more only competes for the same cores)")
    parser.add_argument("--timeout", type=int, default=600, help="seconds per build and per test run (default 600)")
    parser.add_argument("--scratch", default=None,
                        help="directory for the scratch clone(s), kept between runs so .build is reused "
                             "(default: a new temporary directory, removed at the end)")
    parser.add_argument("--fast", action="store_true",
                        help="run only the tests an entry names in its optional `filters` (not for the score)")
    parser.add_argument("--no-baseline", action="store_true",
                        help="skip the unmutated run that checks the suite passes before mutating")
    options = parser.parse_args()

    entries = load_catalogue(options.catalogue)
    if options.only:
        wanted = [item.strip() for item in options.only.split(",") if item.strip()]
        unknown = [item for item in wanted if item not in {entry["id"] for entry in entries}]
        if unknown:
            sys.exit(f"unknown mutant id(s): {', '.join(unknown)}")
        entries = [entry for entry in entries if entry["id"] in wanted]
    if options.list:
        for entry in entries:
            print(f"{entry['id']:<40} {entry['area']:<14} {entry['file']}\n{'':<55} {entry['effect']}")
        print(f"{len(entries)} mutants")
        return 0

    repo = options.repo or git(["rev-parse", "--show-toplevel"], cwd=HERE)
    commit = git(["rev-parse", "HEAD"], cwd=repo)

    if options.validate:
        # Checks the committed files (what a run mutates), not the working tree.
        bad = 0
        for entry in entries:
            try:
                text = git(["show", f"{commit}:{entry['file']}"], cwd=repo)
                count = text.count(entry["original"])
            except subprocess.CalledProcessError:
                count = 0
            if count != 1:
                bad += 1
                print(f"STALE {entry['id']}: original text found {count} times in {entry['file']}")
        print(f"{len(entries) - bad} of {len(entries)} entries apply at {commit[:12]}")
        return 1 if bad else 0

    if options.jobs < 1:
        sys.exit("--jobs must be at least 1")
    base = options.scratch or tempfile.mkdtemp(prefix="courier-mutation-")
    scratches = [Scratch(repo, commit, os.path.join(base, f"clone-{index}"), [], options.timeout)
                 for index in range(min(options.jobs, max(1, len(entries))))]
    print(f"mutating {commit[:12]} of {repo} in {base}: {len(entries)} mutants, {len(scratches)} job(s)",
          flush=True)
    for scratch in scratches:
        scratch.prepare()
        if not options.no_baseline:
            stage, code = scratch.build_and_test(first=True)
            if stage != "built" or code != 0:
                print(f"the unmutated suite does not pass in {scratch.directory} (see {scratch.log}); "
                      "no mutant can be judged", flush=True)
                return 2

    results = {}
    queue = list(entries)
    lock = threading.Lock()

    def worker(scratch):
        while True:
            with lock:
                if not queue:
                    return
                entry = queue.pop(0)
            verdict, seconds, detail = scratch.mutate(entry, options.fast)
            with lock:
                results[entry["id"]] = (verdict, seconds, detail)
                print(f"{verdict:<13} {entry['id']:<40} {seconds:6.0f} s  {detail}", flush=True)

    threads = [threading.Thread(target=worker, args=(scratch,)) for scratch in scratches]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if not options.scratch:
        shutil.rmtree(base, ignore_errors=True)

    counts = {verdict: 0 for verdict in ("KILLED", "SURVIVED", "STALE", "BUILD-FAILED")}
    for verdict, _, _ in results.values():
        counts[verdict] += 1
    scored = counts["KILLED"] + counts["SURVIVED"]
    score = 100.0 * counts["KILLED"] / scored if scored else 0.0
    print()
    print(f"score: {score:.1f} % ({counts['KILLED']} killed of {scored} scored; "
          f"{counts['STALE']} stale and {counts['BUILD-FAILED']} build-failed not scored)")
    for entry in entries:
        verdict = results[entry["id"]][0]
        if verdict != "KILLED":
            print(f"  {verdict.lower()}: {entry['id']} ({entry['file']}): {entry['effect']}")
    return 1 if counts["SURVIVED"] or counts["STALE"] or counts["BUILD-FAILED"] else 0


if __name__ == "__main__":
    sys.exit(main())
