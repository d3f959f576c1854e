"""Runs a Python script in a fork of a running python-forks.py (tests/helpers/python-forks.ts, `socket`), as a command
another process can run: `python3 python-fork-client.py SOCKET SCRIPT ARGS...` behaves as `python3 SCRIPT ARGS...`
(the script writes to this command's stdout and stderr, in its working folder and environment, and this command
exits with its code), without importing torch again. Standard library only, so any python3 runs it.

A signal that ends this command does not reach the fork: a test that kills a running trainer must run it plainly.
"""
import json
import os
import socket
import sys

path, script, *args = sys.argv[1:]
s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
s.connect(path)
job = {"script": os.path.abspath(script), "args": args, "env": dict(os.environ), "cwd": os.getcwd()}
socket.send_fds(s, [json.dumps(job).encode()], [1, 2])
reply = s.recv(1 << 16)
code = json.loads(reply)["code"] if reply else 1
# A fork killed by signal N exits as a shell reports it: 128 + N.
sys.exit(code if code >= 0 else 128 - code)
