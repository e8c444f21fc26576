#!/usr/bin/env python3
# This source file is part of the swift-object-storage open source project
# SPDX-License-Identifier: Apache-2.0
"""Slow, paused and stopped readers against ServeFilesSample, over real sockets (issue 40).

Starts the sample on the embedded server with tight limits (2 bucket connections, a 2 s connect timeout, a 1 s
read-idle timeout, a 6 s unread-body timeout), then checks, reading the 9.6 MB tone.wav through raw sockets whose
receive buffer is small, so that a reader that pauses holds the app, and the app holds the bucket GET, back:
- a reader that pauses 4 s, twice, still gets every byte (its pauses are not the bucket's silence);
- a slow reader (64 KiB every 0.25 s) gets every byte;
- two readers that stop hold both bucket connections: a third request waits the connect timeout and gets 503 with
  `Retry-After`; once the unread-body timeout has passed, the stopped readers' bodies end short and the pool serves
  the next request in full;
- SIGTERM with a download in flight: the sample stops within its grace period and exits 0.

Usage: Scripts/serve-files-readers.py PATH/TO/ServeFilesSample. Standard library only. Exits 1 on a failed check.
"""

import hashlib
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time

KEY = "tone.wav"
LIMITS = ["--bucket-connections", "2", "--connect-timeout", "2", "--read-idle-timeout", "1",
          "--unread-body-timeout", "6"]
failures = []


def check(condition, text):
    print(("  ok   " if condition else "  FAIL ") + text, flush=True)
    if not condition:
        failures.append(text)


class Reader:
    """One GET of /files/KEY on a raw socket with a small receive buffer, read as the test decides."""

    def __init__(self, port, path=f"/files/{KEY}"):
        self.socket = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.socket.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 16384)
        self.socket.settimeout(30)
        self.socket.connect(("127.0.0.1", port))
        self.socket.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.socket.recv(4096)
            if not chunk:
                break
            head += chunk
        head, _, self.pending = head.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        self.status = int(lines[0].split()[1]) if lines and len(lines[0].split()) > 1 else 0
        self.headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
        self.length = int(self.headers.get("content-length", "-1"))
        self.digest = hashlib.sha256()
        self.received = 0
        self.ended = False
        self._take(self.pending)

    def _take(self, data):
        self.digest.update(data)
        self.received += len(data)

    def read(self, count):
        """Reads up to `count` body bytes; False once the connection has ended."""
        wanted = count
        while wanted > 0 and not self.ended:
            try:
                chunk = self.socket.recv(min(wanted, 65536))
            except socket.timeout:
                chunk = b""  # 30 s without a byte: counted as the end, and the checks say it came short
            if not chunk:
                self.ended = True
                break
            self._take(chunk)
            wanted -= len(chunk)
        return not self.ended

    def read_all(self):
        while self.read(1 << 20):
            pass
        self.socket.close()
        return self.received, self.digest.hexdigest()

    def close(self):
        self.socket.close()


def start(binary, work):
    out = open(os.path.join(work, "serve.out"), "w+")
    process = subprocess.Popen([binary, "--port", "0", *LIMITS], stdout=out, stderr=subprocess.STDOUT, cwd=work)
    for _ in range(600):
        out.seek(0)
        first = out.readline().strip()
        if first.startswith("listening on http://127.0.0.1:"):
            return process, out, int(first.rsplit(":", 1)[1])
        if process.poll() is not None:
            break
        time.sleep(0.05)
    out.seek(0)
    sys.exit(f"ServeFilesSample did not start:\n{out.read()}")


def main():
    binary = os.path.abspath(sys.argv[1])
    with tempfile.TemporaryDirectory() as work:
        process, out, port = start(binary, work)
        try:
            run(process, out, port)
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()
    if failures:
        print(f"serve-files readers: {len(failures)} check(s) FAILED")
        return 1
    print("serve-files readers: all checks passed")
    return 0


def run(process, out, port):
    limits = " ".join(LIMITS)
    print(f"ServeFilesSample {limits}, {KEY} read through raw sockets (16 KiB receive buffer)")
    whole = Reader(port)
    size, expected = whole.read_all()
    check(whole.status == 200 and size == whole.length and size > 9_000_000,
          f"a plain GET: {whole.status}, {size} of {whole.length} bytes")

    began = time.monotonic()
    paused = Reader(port)
    paused.read(256 * 1024)
    time.sleep(4)
    paused.read(2 * 1024 * 1024)
    time.sleep(4)
    received, digest = paused.read_all()
    check(received == size and digest == expected,
          f"a reader pausing 4 s twice under a 1 s read-idle timeout: {received} of {size} bytes, "
          f"{'identical' if digest == expected else 'different'} ({time.monotonic() - began:.1f} s)")

    began = time.monotonic()
    slow = Reader(port)
    while slow.read(64 * 1024) and slow.received < 2 * 1024 * 1024:
        time.sleep(0.25)
    received, digest = slow.read_all()
    check(received == size and digest == expected,
          f"a slow reader (64 KiB every 0.25 s for its first 2 MiB): {received} of {size} bytes, "
          f"{'identical' if digest == expected else 'different'} ({time.monotonic() - began:.1f} s)")

    stopped = [Reader(port), Reader(port)]
    for reader in stopped:
        reader.read(64 * 1024)
    stopped_at = time.monotonic()
    third = Reader(port)
    waited = time.monotonic() - stopped_at
    third.read_all()
    check(third.status == 503 and third.headers.get("retry-after") == "1" and 1.5 <= waited <= 10,
          f"with both bucket connections held by stopped readers, a third GET: {third.status}, "
          f"Retry-After {third.headers.get('retry-after')}, after {waited:.1f} s (the connect timeout is 2 s)")
    served, status = None, None
    while time.monotonic() - stopped_at < 30:
        attempt = Reader(port)
        status = attempt.status
        if attempt.status == 200:
            got, digest = attempt.read_all()
            served = (time.monotonic() - stopped_at, got, digest)
            break
        attempt.close()
        time.sleep(0.5)
    check(served is not None and served[0] >= 5 and served[1] == size and served[2] == expected,
          "once the 6 s unread-body timeout freed the pool, a GET is served in full: "
          + (f"{served[1]} bytes at {served[0]:.1f} s" if served else f"still {status} after 30 s"))
    for index, reader in enumerate(stopped):
        received, _ = reader.read_all()
        check(received < size, f"stopped reader {index + 1}: its body ended short ({received} of {size} bytes)")

    in_flight = Reader(port)
    in_flight.read(512 * 1024)
    signalled = time.monotonic()
    process.send_signal(signal.SIGTERM)
    # The reader goes on reading slowly: the process must exit all the same. (The kernel still delivers what the
    # socket had buffered after the process is gone, so the exit is timed on the process, not on the socket.)
    while process.poll() is None and time.monotonic() - signalled < 20 and in_flight.read(64 * 1024):
        time.sleep(0.25)
    try:
        code = process.wait(timeout=max(0.1, 20 - (time.monotonic() - signalled)))
    except subprocess.TimeoutExpired:
        code = None
    stopped_after = time.monotonic() - signalled
    in_flight.read_all()
    out.seek(0)
    said = out.read()
    check(code == 0 and stopped_after <= 10 and "Stopped." in said and in_flight.received < size,
          f"SIGTERM with a slow download in flight: exit {code} after {stopped_after:.1f} s (2 s grace), "
          f"the download ended at {in_flight.received} of {size} bytes")


if __name__ == "__main__":
    sys.exit(main())
