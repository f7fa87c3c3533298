"""A USI engine driven over pipes: the one driver of the scripts in tools/ that talk to
engines (selfplay, score_games and through it move_losses and move_suite,
stop_latency, nnue_speed, gps_label, move_time).

    with UsiEngine("target/release/kyobo", options=[("Threads", 1)]) as engine:
        engine.handshake()
        engine.send("position startpos")
        engine.send("go nodes 10000")
        lines = engine.wait_for("bestmove", timeout=10)  # the info lines, then bestmove

A thread reads the engine's output into a queue, so that `wait_for` can give up after
`timeout` seconds; it raises `EngineError` then, and when the engine has exited (`send`
to an exited engine does nothing). Lines come without their line ending. Options are
`(name, value)` pairs or a dict, sent in their order by `handshake`. What a script
times (a move, a `stop`), it times itself around `send` and `wait_for`.
"""

import os
import queue
import subprocess
import threading
import time


class EngineError(RuntimeError):
    """The engine exited, or did not answer in time."""


class UsiEngine:
    def __init__(self, path, options=(), args=(), name=None, stderr=None):
        """Starts `path ARGS...`; `stderr` as for subprocess (None: this process's)."""
        self.name = name or os.path.basename(path)
        self.options = list(options.items() if isinstance(options, dict) else options)
        self.proc = subprocess.Popen([path, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=stderr, text=True, bufsize=1)
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\r\n"))
        self.lines.put(None)  # the engine's output ended

    def send(self, line):
        """Writes `line`; to an engine that has exited, nothing (the next wait_for raises)."""
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, ValueError):  # ValueError: stdin already closed
            pass

    def wait_for(self, prefix, timeout=None):
        """The lines read up to and including the first that starts with `prefix`."""
        deadline = None if timeout is None else time.monotonic() + timeout
        lines = []
        while True:
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                raise EngineError(f"{self.name}: no {prefix} within {timeout} s")
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                continue  # the deadline has passed: raised above
            if line is None:
                self.lines.put(None)  # later waits fail as well
                raise EngineError(f"{self.name} exited before {prefix}")
            lines.append(line)
            if line.startswith(prefix):
                return lines

    def handshake(self, timeout=None):
        """`usi` to `usiok`, a `setoption` for each option, `isready` to `readyok`;
        each answer within `timeout` seconds. Returns the lines up to `usiok`."""
        self.send("usi")
        lines = self.wait_for("usiok", timeout)
        for name, value in self.options:
            self.send(f"setoption name {name} value {value}")
        self.send("isready")
        self.wait_for("readyok", timeout)
        return lines

    def new_game(self):
        self.send("usinewgame")

    def quit(self, timeout=5):
        """`quit`, and the process killed if it has not exited `timeout` seconds later."""
        try:
            self.send("quit")
            self.proc.stdin.close()
            self.proc.wait(timeout=timeout)
        except Exception:
            self.proc.kill()
            self.proc.wait()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.quit()
