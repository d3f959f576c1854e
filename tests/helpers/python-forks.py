"""One Python that imports torch once and runs each script it is sent in a forked child, as `python3 SCRIPT ARGS`
would run it: the child executes the script as __main__ (runpy), with its own argv, stdout and stderr, and exits with
the script's code. Only the imports are shared: the script's module-level `import torch` finds it already loaded.

    python3 python-forks.py DIR SOCKET MODULE...   # DIR on sys.path, each MODULE imported once, before any job

Jobs arrive on stdin, one JSON object a line: {"id", "script", "args", "stdout", "stderr", "env"} (the two files the
child writes its output to; env: variables set in the child only). Each job's child is forked at once, so jobs sent
together run together; when one exits, a line {"id", "code"} is printed (code negative: killed by that signal). EOF on
stdin: wait for the children, then exit.

SOCKET (when not ''): a Unix socket (SOCK_SEQPACKET) where python-fork-client.py, run as a command by another
process (the loop's trainer step), sends one job {"script", "args", "env", "cwd"} with its own stdout and stderr
(SCM_RIGHTS): the child writes straight to them, and the client gets {"code"} back and exits with it. A line
{"ready": SOCKET} is printed once the socket listens.

Why: a trainer run of the shapes DPO trainer spends about half its CPU importing torch (tests/loop/trainer.test.ts
runs about twenty). Forking before any torch operation is safe: no OpenMP pool exists yet.
"""
import json
import os
import runpy
import select
import socket
import sys
import traceback

sys.path.insert(0, os.path.abspath(sys.argv[1]))
SOCKET = sys.argv[2]
for name in sys.argv[3:]:
    __import__(name)


def child(job: dict, fds: list[int], close: list[int]) -> None:
    """Runs the job's script as __main__ with its stdout and stderr in the job's files (or the client's `fds`); never
    returns. `close`: the zygote's sockets, which the script must not hold open."""
    code = 1
    try:
        for fd in close:
            os.close(fd)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        if fds:
            os.dup2(fds[0], 1)
            os.dup2(fds[1], 2)
            for fd in fds:
                os.close(fd)
            os.chdir(job["cwd"])
            os.environ.clear()
        else:
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
    running: dict[int, str | socket.socket] = {}
    listener = None
    if SOCKET:
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        listener.bind(SOCKET)
        listener.listen(16)
        print(json.dumps({"ready": SOCKET}), flush=True)
    buf = b""
    open_ = True

    def fork(job: dict, fds: list[int]) -> int:
        sys.stdout.flush()
        clients = [c.fileno() for c in running.values() if isinstance(c, socket.socket)]
        pid = os.fork()
        if pid == 0:
            child(job, fds, clients + ([listener.fileno()] if listener else []))
        for fd in fds:
            os.close(fd)
        return pid

    while open_ or running:
        watch = ([0] if open_ else []) + ([listener] if listener and open_ else [])
        ready, _, _ = select.select(watch, [], [], 0.05)
        if listener in ready:
            conn, _ = listener.accept()
            msg, fds, _, _ = socket.recv_fds(conn, 1 << 20, 2)
            running[fork(json.loads(msg), fds)] = conn
        if 0 in ready:
            data = os.read(0, 1 << 16)
            open_ = bool(data)
            buf += data
            while b"\n" in buf:
                line, buf = buf.split(b"\n", 1)
                job = json.loads(line)
                running[fork(job, [])] = job["id"]
        while running:
            pid, status = os.waitpid(-1, os.WNOHANG)
            if pid == 0:
                break
            code = os.waitstatus_to_exitcode(status)
            who = running.pop(pid)
            if isinstance(who, socket.socket):
                try:
                    who.send(json.dumps({"code": code}).encode())
                except OSError:
                    pass  # the client is gone (killed): nobody waits for the code
                who.close()
            else:
                print(json.dumps({"id": who, "code": code}), flush=True)
    if listener:
        listener.close()
        os.unlink(SOCKET)


main()
