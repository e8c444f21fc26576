#!/usr/bin/env python3
# This source file is part of the swift-object-storage open source project
# SPDX-License-Identifier: Apache-2.0
"""The peers of Scripts/bench-versions, written as a user of boto3 or aws-cli would write them.

tools.py delete-batch | delete-single N | aws-cli-sample N | revert TIME [THREADS]
"""
import concurrent.futures
import datetime
import os
import subprocess
import sys

import boto3
from botocore.config import Config

s3 = boto3.client("s3", config=Config(s3={"addressing_style": "path"}, max_pool_connections=16))


def entries(bucket):
    for page in s3.get_paginator("list_object_versions").paginate(Bucket=bucket):
        for version in page.get("Versions", []) + page.get("DeleteMarkers", []):
            yield version


def delete_batch():
    batch = []
    for version in entries("versions"):
        batch.append({"Key": version["Key"], "VersionId": version["VersionId"]})
        if len(batch) == 1000:
            s3.delete_objects(Bucket="versions", Delete={"Objects": batch, "Quiet": True})
            batch = []
    if batch:
        s3.delete_objects(Bucket="versions", Delete={"Objects": batch, "Quiet": True})
    s3.delete_bucket(Bucket="versions")


def delete_single(count):
    sample = []
    for version in entries("versions"):
        sample.append(version)
        if len(sample) == count:
            break
    for version in sample:
        s3.delete_object(Bucket="versions", Key=version["Key"], VersionId=version["VersionId"])


def aws_cli_sample(count):
    listed = s3.list_object_versions(Bucket="versions", MaxKeys=count)
    sample = (listed.get("Versions", []) + listed.get("DeleteMarkers", []))[:count]
    for version in sample:
        subprocess.run(["aws", "s3api", "delete-object", "--bucket", "versions", "--key", version["Key"],
                        "--version-id", version["VersionId"], "--endpoint-url", os.environ["AWS_ENDPOINT_URL"]],
                       check=True, stdout=subprocess.DEVNULL)


def revert(instant, threads=1):
    """Each key's version of INSTANT copied over it (deleted when it had none), by THREADS threads of one client."""
    then = datetime.datetime.strptime(instant, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=datetime.timezone.utc)
    by_key = {}
    for version in entries("revert"):
        by_key.setdefault(version["Key"], []).append(version)

    def revert_key(item):
        key, versions = item
        versions.sort(key=lambda v: v["LastModified"], reverse=True)
        target = next((v for v in versions if v["LastModified"] <= then), None)
        latest = next(v for v in versions if v["IsLatest"])
        if target is None:
            s3.delete_object(Bucket="revert", Key=key)
        elif target["VersionId"] != latest["VersionId"] and "ETag" in target:
            s3.copy_object(Bucket="revert", Key=key,
                           CopySource={"Bucket": "revert", "Key": key, "VersionId": target["VersionId"]})

    if threads == 1:
        for item in by_key.items():
            revert_key(item)
    else:
        with concurrent.futures.ThreadPoolExecutor(threads) as pool:
            list(pool.map(revert_key, by_key.items()))


if __name__ == "__main__":
    command = sys.argv[1]
    if command == "delete-batch":
        delete_batch()
    elif command == "delete-single":
        delete_single(int(sys.argv[2]))
    elif command == "aws-cli-sample":
        aws_cli_sample(int(sys.argv[2]))
    else:
        revert(sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 1)
