#!/usr/bin/env python3
# This source file is part of the swift-object-storage open source project
# SPDX-License-Identifier: Apache-2.0
"""Drives the BrowserUpload sample in headless Chromium, as a user would: pick a file, submit the plain form.

Usage: browser.py APP_URL MAX_SIZE WORK_DIR SCREENSHOT
The form posts the file straight to the bucket (the embedded server), which redirects back to the app's listing;
the object's bytes are checked through the listed presigned link. A file one byte over MAX_SIZE must be refused
by the bucket in the same browser flow, and must not be stored. Prints one line per check and "N passed, M failed";
exits non-zero on any failure.
"""
import hashlib
import os
import sys
import urllib.request

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from harness import Checks, expect, headless_chromium

APP, MAX_SIZE, WORK, SCREENSHOT = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
checks = Checks("")
state = {}


def random_file(name, size):
    path = os.path.join(WORK, name)
    with open(path, "wb") as file:
        file.write(os.urandom(size))
    return path


def upload(driver, path):
    """Opens the app, picks `path` in the file input and submits; returns when the next page has loaded."""
    driver.get(APP)
    form = driver.find_element(By.ID, "upload")
    form.find_element(By.CSS_SELECTOR, 'input[type="file"]').send_keys(path)
    form.find_element(By.CSS_SELECTOR, 'button[type="submit"]').click()
    WebDriverWait(driver, 30).until(lambda d: d.current_url.rstrip("/") != APP.rstrip("/"))
    WebDriverWait(driver, 30).until(lambda d: d.execute_script("return document.readyState") == "complete")


def listed_links(driver):
    return {a.text: a.get_attribute("href") for a in driver.find_elements(By.CSS_SELECTOR, "a.download")}


driver = headless_chromium()
try:
    print(f"browser: {driver.capabilities.get('browserVersion')} headless", flush=True)

    def form_is_signed():
        driver.get(APP)
        form = driver.find_element(By.ID, "upload")
        names = [i.get_attribute("name") for i in form.find_elements(By.CSS_SELECTOR, 'input[type="hidden"]')]
        for name in ("key", "policy", "success_action_redirect"):
            expect(name in names, f"no {name} field in {names}")
        expect(not form.get_attribute("action").startswith(APP), "the form posts to the app, not the bucket")
        expect(form.find_elements(By.CSS_SELECTOR, 'input[type="file"][name="file"]'), "no file input")

    def uploads_one_mebibyte():
        path = random_file("browser upload.bin", 1 << 20)
        with open(path, "rb") as file:
            state["sha256"] = hashlib.sha256(file.read()).hexdigest()
        upload(driver, path)
        expect("/uploaded?" in driver.current_url, f"landed on {driver.current_url}")
        notice = driver.find_element(By.ID, "notice").text
        expect(notice.endswith("uploads/browser upload.bin."), f"notice {notice!r}")
        state["link"] = listed_links(driver).get("browser upload.bin")
        expect(state["link"], f"not listed: {list(listed_links(driver))}")
        os.makedirs(os.path.dirname(SCREENSHOT), exist_ok=True)
        expect(driver.save_screenshot(SCREENSHOT), "no screenshot")
        print(f"screenshot: {SCREENSHOT}", flush=True)

    def link_serves_the_bytes():
        expect(state.get("link"), "no link (the upload failed)")
        with urllib.request.urlopen(state["link"], timeout=30) as response:
            body = response.read()
        expect(hashlib.sha256(body).hexdigest() == state["sha256"], f"SHA-256 differs ({len(body)} bytes)")

    def refuses_over_max_size():
        upload(driver, random_file("too large.bin", MAX_SIZE + 1))
        source = driver.page_source
        expect("EntityTooLarge" in source, f"at {driver.current_url}: {source[:400]!r}")
        driver.get(APP)
        expect("too large.bin" not in listed_links(driver), "the refused file was stored")

    checks.check("form on / is signed for the bucket", form_is_signed)
    checks.check("1 MiB picked and submitted lands on the listing", uploads_one_mebibyte)
    checks.check("listed link serves the same SHA-256", link_serves_the_bytes)
    checks.check(f"file of {MAX_SIZE + 1} bytes refused with EntityTooLarge, not stored", refuses_over_max_size)
finally:
    driver.quit()
checks.finish()
