# This source file is part of the swift-object-storage open source project
# SPDX-License-Identifier: Apache-2.0
"""What the browser checks share: headless Chromium with the driver Debian installs, and the PASS/FAIL lines."""
import os
import sys
import time
import traceback

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service


class Checks:
    """Runs named checks, prints one line for each (`PASS label (1.2 s)` or `FAIL label: error`) and the totals."""

    def __init__(self, prefix=""):
        self.prefix, self.passed, self.failed = prefix, 0, 0

    def check(self, name, function):
        started = time.monotonic()
        try:
            function()
            self.passed += 1
            print(f"PASS {self.prefix}{name} ({time.monotonic() - started:.1f} s)", flush=True)
        except Exception as error:  # noqa: BLE001 - report every failure and go on
            self.failed += 1
            print(f"FAIL {self.prefix}{name}: {error!r}", flush=True)
            traceback.print_exc(limit=3, file=sys.stdout)

    def finish(self):
        """Prints "N passed, M failed" and exits, non-zero on any failure."""
        print(f"{self.passed} passed, {self.failed} failed")
        sys.exit(1 if self.failed else 0)


def expect(condition, message):
    if not condition:
        raise AssertionError(message)


def headless_chromium():
    """CHROMIUM_BIN (default /usr/bin/chromium) driven through CHROMEDRIVER_BIN (default /usr/bin/chromedriver)."""
    options = Options()
    options.binary_location = os.environ.get("CHROMIUM_BIN", "/usr/bin/chromium")
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1200,900"):
        options.add_argument(argument)
    # The driver Debian installs, named explicitly: Selenium Manager then downloads nothing.
    service = Service(os.environ.get("CHROMEDRIVER_BIN", "/usr/bin/chromedriver"))
    return webdriver.Chrome(service=service, options=options)
