# This source file is part of the swift-object-storage open source project
# SPDX-License-Identifier: Apache-2.0
"""Headless Chromium against ServeFilesSample: the page's media element loads the 20-minute tone from the bucket,
seeks near its end and plays from there. The seek lands far beyond what the player buffered, so the player asks the
app for a range, which the sample's --log-requests lines must show answered with 206 (or 304 when the player
revalidates what it cached).

Usage: video.py URL SAMPLE_STDERR_FILE
"""
import re
import sys
import time

from harness import Checks, expect, headless_chromium

url, log_file = sys.argv[1], sys.argv[2]
SEEK_TO = 1000.0  # seconds, of 1200: 8,000,000 bytes into the 9.6 MB file

checks = Checks("video/")
driver = headless_chromium()


def wait_for(script, timeout=20):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = driver.execute_script(script)
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for: {script}")


def loads_metadata():
    driver.get(url)
    duration = wait_for("const v = document.getElementById('player'); return v.readyState >= 1 && v.duration")
    expect(abs(duration - 1200) < 1, f"duration {duration}, expected 1200 s")


def seeks_and_plays_from_there():
    driver.execute_script(
        "const v = document.getElementById('player'); v.muted = true;"
        f"window.seeked = false; v.addEventListener('seeked', () => window.seeked = true); v.currentTime = {SEEK_TO};"
    )
    wait_for("return window.seeked")
    driver.execute_script("document.getElementById('player').play()")
    wait_for(f"return document.getElementById('player').currentTime > {SEEK_TO} + 0.5")
    position = driver.execute_script("return document.getElementById('player').currentTime")
    expect(SEEK_TO < position < SEEK_TO + 30, f"playing at {position} s, expected just after {SEEK_TO} s")


def the_seek_was_a_range_request():
    lines = open(log_file, encoding="utf-8").read().splitlines()
    ranged = []
    for line in lines:
        match = re.match(r"GET /files/tone\.wav range=bytes=(\d+)-\S* status=(\d+)", line)
        if match:
            ranged.append((int(match.group(1)), int(match.group(2))))
    far = [(start, status) for start, status in ranged if start >= 7_000_000]
    expect(any(status == 206 for _, status in far), f"no range request past 7 MB answered with 206 among {ranged}")
    # The player may revalidate what it has cached (If-None-Match with its Range): a 304 is right then.
    expect(all(status in (206, 304) for _, status in far), f"range requests answered otherwise: {far}")


try:
    checks.check("loads the tone's metadata from the bucket", loads_metadata)
    checks.check("seeks to 1000 s and plays from there", seeks_and_plays_from_there)
    checks.check("the seek was a range request answered with 206", the_seek_was_a_range_request)
finally:
    driver.quit()
checks.finish()
