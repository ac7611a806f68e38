# Runs a command on a pseudo-terminal (stdin, stdout and stderr all the terminal) and answers one
# question: once `wait_for` has appeared in its output, types each `<seconds>:<keys>` after waiting
# that long. Prints {"output": ..., "code": ...} as JSON.
# Usage: pty-run.py <wait_for> <seconds>:<keys>… -- argv…
import json
import os
import pty
import select
import sys
import time

wait_for = sys.argv[1]
steps = [step.split(":", 1) for step in sys.argv[2 : sys.argv.index("--")]]
argv = sys.argv[sys.argv.index("--") + 1 :]
pid, fd = pty.fork()
if pid == 0:
    os.execvp(argv[0], argv)
output = b""
typed = False
deadline = time.time() + 60
while time.time() < deadline:
    ready, _, _ = select.select([fd], [], [], 0.1)
    if ready:
        try:
            chunk = os.read(fd, 4096)
        except OSError:
            break
        if not chunk:
            break
        output += chunk
    if not typed and wait_for.encode() in output:
        for delay, keys in steps:
            time.sleep(float(delay))
            os.write(fd, keys.encode())
        typed = True
_, status = os.waitpid(pid, 0)
code = os.WEXITSTATUS(status) if os.WIFEXITED(status) else 128 + os.WTERMSIG(status)
print(json.dumps({"output": output.decode("utf8", "replace"), "code": code}))
