#!/usr/bin/env python3
# This source file is part of the swift-object-storage open source project
# SPDX-License-Identifier: Apache-2.0
"""Drives the BrowserUpload sample's presigned-PUT page in headless Chromium against a bucket whose CORS rules the
sample set: the upload (a cross-origin XMLHttpRequest PUT, so the browser sends a preflight first) must succeed with
the progress bar full and the bytes in the bucket; after `objstore cors rm` the browser must refuse it, nothing must
be stored, and `objstore cors check` must say why.

Usage: presigned.py PEER APP_URL WORK_DIR BUCKET_URL
OBJSTORE_CLI names objstore; the environment holds its endpoint and keys. Prints one line per check and
"N passed, M failed"; exits non-zero on any failure.
"""
import hashlib
import os
import subprocess
import sys

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from harness import Checks, expect, headless_chromium

PEER, APP, WORK, BUCKET = sys.argv[1], sys.argv[2].rstrip("/"), sys.argv[3], sys.argv[4].rstrip("/")
ORIGIN = APP
checks = Checks(f"{PEER}/")
state = {}


def objstore(*arguments):
    return subprocess.run([os.environ["OBJSTORE_CLI"], *arguments], capture_output=True, timeout=60)


def upload(driver, name, size):
    """Picks a new file of `size` random bytes on the page; returns (status text, progress value, SHA-256)."""
    path = os.path.join(WORK, name)
    content = os.urandom(size)
    with open(path, "wb") as file:
        file.write(content)
    driver.get(APP + "/presigned")
    driver.find_element(By.ID, "file").send_keys(path)
    WebDriverWait(driver, 60).until(lambda d: d.find_element(By.ID, "status").text.startswith(("uploaded", "failed")))
    status = driver.find_element(By.ID, "status").text
    progress = int(driver.find_element(By.ID, "progress").get_attribute("value"))
    return status, progress, hashlib.sha256(content).hexdigest()


def cors_check():
    return objstore("cors", "check", f"{BUCKET}/{state.get('key', 'k')}", "--origin", ORIGIN, "--method", "PUT",
                    "--header", "Content-Type")


driver = headless_chromium()
try:
    def uploads_with_the_rules():
        status, progress, digest = upload(driver, "presigned.bin", 3 << 20)
        expect(status.startswith("uploaded "), f"status {status!r}")
        expect(progress == 100, f"progress {progress}")
        # "uploaded KEY (ETag "...")": the page read the ETag, which the rules expose.
        state["key"] = status[len("uploaded "):].split(" (ETag ")[0]
        expect('(ETag "' in status, f"the ETag was not readable: {status!r}")
        stored = objstore("cat", f"{BUCKET}/{state['key']}")
        expect(stored.returncode == 0, stored.stderr.decode())
        expect(hashlib.sha256(stored.stdout).hexdigest() == digest, f"SHA-256 differs ({len(stored.stdout)} bytes)")

    def check_says_allowed():
        checked = cors_check()
        expect(checked.returncode == 0, checked.stdout.decode() + checked.stderr.decode())
        expect(b"admits it" in checked.stdout, checked.stdout.decode())

    def refused_without_the_rules():
        removed = objstore("cors", "rm", BUCKET)
        expect(removed.returncode == 0, removed.stderr.decode())
        status, _, _ = upload(driver, "refused.bin", 64 << 10)
        expect(status.startswith("failed: the browser refused"), f"status {status!r}")
        key = state.get("key", "").rsplit("/", 1)[0] + "/refused.bin"
        expect(objstore("stat", f"{BUCKET}/{key}").returncode == 2, "the refused file was stored")

    def check_says_why():
        checked = cors_check()
        expect(checked.returncode == 1, f"exit {checked.returncode}: {checked.stdout.decode()}")
        expect(b"the bucket has no CORS rules" in checked.stdout, checked.stdout.decode())

    checks.check(
        "presigned PUT from the page uploads with the rules set, progress full, bytes stored", uploads_with_the_rules
    )
    checks.check("cors check says a rule admits the page's PUT", check_says_allowed)
    checks.check("after cors rm the browser refuses the PUT and nothing is stored", refused_without_the_rules)
    checks.check("cors check then says the bucket has no rules", check_says_why)
finally:
    driver.quit()
checks.finish()
