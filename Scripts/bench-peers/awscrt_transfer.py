# This source file is part of the swift-object-storage open source project
# SPDX-License-Identifier: Apache-2.0
#
# One transfer with the AWS Common Runtime's S3 client (PyPI awscrt), for Scripts/bench-peers:
#   awscrt_transfer.py up|down ENDPOINT BUCKET KEY FILE PART_SIZE
# ENDPOINT is http://HOST:PORT (plain http, path-style); keys from AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY,
# region from AWS_REGION (default us-east-1). Exits non-zero with the CRT's error when the transfer fails.
import os
import sys
from urllib.parse import urlparse

from awscrt.auth import AwsCredentialsProvider
from awscrt.http import HttpHeaders, HttpRequest
from awscrt.io import ClientBootstrap, DefaultHostResolver, EventLoopGroup
from awscrt.s3 import S3Client, S3RequestTlsMode, S3RequestType, create_default_s3_signing_config


def main() -> int:
    direction, endpoint, bucket, key, path, part_size = sys.argv[1:7]
    host = urlparse(endpoint).netloc
    region = os.environ.get("AWS_REGION", "us-east-1")
    credentials = AwsCredentialsProvider.new_static(
        os.environ["AWS_ACCESS_KEY_ID"], os.environ["AWS_SECRET_ACCESS_KEY"]
    )
    event_loops = EventLoopGroup()
    bootstrap = ClientBootstrap(event_loops, DefaultHostResolver(event_loops))
    client = S3Client(
        bootstrap=bootstrap,
        region=region,
        signing_config=create_default_s3_signing_config(region=region, credential_provider=credentials),
        tls_mode=S3RequestTlsMode.DISABLED,
        part_size=int(part_size),
        throughput_target_gbps=10.0,
    )
    headers = HttpHeaders([("Host", host)])
    if direction == "up":
        headers.add("Content-Length", str(os.path.getsize(path)))
        headers.add("Content-Type", "application/octet-stream")
        request = HttpRequest("PUT", f"/{bucket}/{key}", headers)
        transfer = client.make_request(type=S3RequestType.PUT_OBJECT, request=request, send_filepath=path)
    else:
        request = HttpRequest("GET", f"/{bucket}/{key}", headers)
        transfer = client.make_request(type=S3RequestType.GET_OBJECT, request=request, recv_filepath=path)
    transfer.finished_future.result()
    return 0


if __name__ == "__main__":
    sys.exit(main())
