#!/usr/bin/env python3
# This source file is part of the swift-object-storage open source project
# SPDX-License-Identifier: Apache-2.0
"""Prepares the buckets of Scripts/bench-versions, or checks what a tool left.

prepare.py VERSIONS REVERT_KEYS: bucket 'versions' with VERSIONS entries (per key two versions, then a delete
marker) and bucket 'revert' with REVERT_KEYS keys written, then (after the printed point in time) rewritten.
prepare.py --check TOOL: exits non-zero unless TOOL's run left what it should.
"""
import datetime
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import boto3
from botocore.config import Config

s3 = boto3.client("s3", config=Config(s3={"addressing_style": "path"}, max_pool_connections=32,
                                      retries={"max_attempts": 3}))


def versions_of(bucket):
    entries = []
    for page in s3.get_paginator("list_object_versions").paginate(Bucket=bucket):
        entries += [(v["Key"], v["VersionId"], v["ETag"], v["IsLatest"]) for v in page.get("Versions", [])]
        entries += [(m["Key"], m["VersionId"], None, m["IsLatest"]) for m in page.get("DeleteMarkers", [])]
    return entries


def prepare(total, revert_keys):
    s3.create_bucket(Bucket="versions")
    s3.put_bucket_versioning(Bucket="versions", VersioningConfiguration={"Status": "Enabled"})

    def history(index):
        key, written = f"dir{index % 20}/k{index:06d}", 0
        for step in range(3):
            if index * 3 + step >= total:
                break
            if step < 2:
                s3.put_object(Bucket="versions", Key=key, Body=b"v%d" % step)
            else:
                s3.delete_object(Bucket="versions", Key=key)
            written += 1
        return written

    with ThreadPoolExecutor(16) as pool:
        written = sum(pool.map(history, range((total + 2) // 3)))
    assert written == total, written
    s3.create_bucket(Bucket="revert")
    s3.put_bucket_versioning(Bucket="revert", VersioningConfiguration={"Status": "Enabled"})
    keys = [f"site/p{index % 50}/k{index:06d}" for index in range(revert_keys)]
    with ThreadPoolExecutor(16) as pool:
        list(pool.map(lambda key: s3.put_object(Bucket="revert", Key=key, Body=b"then " + key.encode()), keys))
    time.sleep(1.1)
    instant = datetime.datetime.fromtimestamp(int(time.time()), datetime.timezone.utc)
    time.sleep(1.1)
    with ThreadPoolExecutor(16) as pool:
        list(pool.map(lambda key: s3.put_object(Bucket="revert", Key=key, Body=b"later " + key.encode()), keys))
    print(instant.strftime("%Y-%m-%dT%H:%M:%SZ"))


def check(tool):
    names = [b["Name"] for b in s3.list_buckets()["Buckets"]]
    if tool in ("rb-objstore", "rb-boto3-batch"):
        assert "versions" not in names, f"{tool}: the bucket is still there"
    elif tool in ("rb-boto3-single", "rb-aws-cli-sample"):
        assert "versions" in names
    else:
        latest = {}
        first = {}
        for key, version, etag, is_latest in versions_of("revert"):
            if is_latest:
                latest[key] = etag
            first[key] = etag  # listed newest first: the last one seen is the oldest
        assert latest and all(latest[key] == first[key] for key in latest), f"{tool}: not every key was reverted"


if __name__ == "__main__":
    if sys.argv[1] == "--check":
        check(sys.argv[2])
    else:
        prepare(int(sys.argv[1]), int(sys.argv[2]))
