"""One Python that imports torch once and runs each script it is sent in a forked child, as `python3 SCRIPT ARGS`
would run it: the child executes the script as __main__ (runpy), with its own argv, stdout and stderr, and exits with
the script's code. Only the imports are shared: the script's module-level `import torch` finds it already loaded.

    python3 python-forks.py DIR MODULE...   # DIR on sys.path, each MODULE imported once, before any job

Jobs arrive on stdin, one JSON object a line: {"id", "script", "args", "stdout", "stderr", "env"} (the two files the
child writes its output to; env: variables set in the child only). Each job's child is forked at once, so jobs sent
together run together; when one exits, a line {"id", "code"} is printed (code negative: killed by that signal). EOF on
stdin: wait for the children, then exit.

Why: a trainer run of the shapes DPO trainer spends about half its CPU importing torch (tests/loop/trainer.test.ts
runs about twenty). Forking before any torch operation is safe: no OpenMP pool exists yet.
"""
import json
import os
import runpy
import select
import sys
import traceback

sys.path.insert(0, os.path.abspath(sys.argv[1]))
for name in sys.argv[2:]:
    __import__(name)


def child(job: dict) -> None:
    """Runs the job's script as __main__ with its stdout and stderr in the job's files; never returns."""
    code = 1
    try:
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        for fd, file in ((1, job["stdout"]), (2, job["stderr"])):
            os.dup2(os.open(file, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644), fd)
        os.environ.update(job.get("env") or {})
        sys.argv = [job["script"], *job["args"]]
        try:
            runpy.run_path(job["script"], run_name="__main__")
            code = 0
        except SystemExit as e:
            # As the interpreter does: None is 0, an int is the code, anything else is printed and is 1.
            if e.code is None or isinstance(e.code, int):
                code = e.code or 0
            else:
                print(e.code, file=sys.stderr)
        except BaseException:
            traceback.print_exc()
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(code)


def main() -> None:
    running: dict[int, str] = {}
    buf = b""
    open_ = True
    while open_ or running:
        ready, _, _ = select.select([0] if open_ else [], [], [], 0.05)
        if ready:
            data = os.read(0, 1 << 16)
            open_ = bool(data)
            buf += data
            while b"\n" in buf:
                line, buf = buf.split(b"\n", 1)
                job = json.loads(line)
                sys.stdout.flush()
                pid = os.fork()
                if pid == 0:
                    child(job)
                running[pid] = job["id"]
        while running:
            pid, status = os.waitpid(-1, os.WNOHANG)
            if pid == 0:
                break
            print(json.dumps({"id": running.pop(pid), "code": os.waitstatus_to_exitcode(status)}), flush=True)


main()
