# This source file is part of the swift-object-storage open source project
# SPDX-License-Identifier: Apache-2.0
#
# The peer of `ReaderBenchmarks random`: N ranged get_object calls of 64 KiB at random offsets, C threads at a time,
# with boto3 (one client, shared, as boto3 documents). Prints the same JSON line.
# Usage: python bench-reader-boto3.py ENDPOINT BUCKET KEY N C
import json
import random
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import boto3
from botocore.config import Config

endpoint, bucket, key, reads, concurrency = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
client = boto3.client(
    "s3",
    endpoint_url=endpoint,
    region_name="us-east-1",
    config=Config(max_pool_connections=concurrency, s3={"addressing_style": "path"}),
)
start = time.monotonic()
size = client.head_object(Bucket=bucket, Key=key)["ContentLength"]
span = max(size - 65536, 1)


def read(_):
    offset = random.randrange(span)
    body = client.get_object(Bucket=bucket, Key=key, Range=f"bytes={offset}-{offset + 65535}")["Body"]
    return len(body.read())


with ThreadPoolExecutor(max_workers=concurrency) as pool:
    total = sum(pool.map(read, range(reads)))
seconds = time.monotonic() - start
print(json.dumps({"mode": "boto3-random", "seconds": seconds, "requests": reads + 1, "bytes": total}))
