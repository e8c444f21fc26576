#!/usr/bin/env python3
# This source file is part of the swift-object-storage open source project
# SPDX-License-Identifier: Apache-2.0
#
# Generates ../vectors/post-policy-vectors.json: POST policy signatures computed by the official SDKs
# (botocore's generate_presigned_post, SigV4 and SigV2; esdk-obs-python's createPostSignature and
# createV4PostSignature) and, for OSS, by the formula of Alibaba Cloud's documentation (no official Python SDK
# signs POST policies). Each SDK runs with its clock frozen at 1709611506 (2024-03-05T04:05:06Z).
#   pip install botocore==1.43.11 boto3==1.43.11 esdk-obs-python==3.26.6
#   python3 Fixtures/post-policy/generate.py > Fixtures/vectors/post-policy-vectors.json
import base64
import datetime
import hashlib
import hmac
import json
import sys

FIXED = 1709611506
AK = "AKIDEXAMPLE0POST"
SK = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"
TOKEN = "FQoGZXIvYXdzEXAMPLE/session+token=="
REAL_DATETIME = datetime.datetime


class FrozenDateTime(REAL_DATETIME):
    @classmethod
    def utcnow(cls):
        return REAL_DATETIME.fromtimestamp(FIXED, datetime.timezone.utc).replace(tzinfo=None)

    @classmethod
    def now(cls, tz=None):
        moment = REAL_DATETIME.fromtimestamp(FIXED, datetime.timezone.utc)
        return moment if tz is not None else moment.replace(tzinfo=None)


def frozen(call):
    datetime.datetime = FrozenDateTime
    try:
        return call()
    finally:
        datetime.datetime = REAL_DATETIME


def boto3_vectors():
    import boto3
    import botocore
    from botocore.config import Config

    vectors = []
    for version, name in (("s3v4", "sigv4"), ("s3", "v2")):
        for token in (None, TOKEN):
            for region in ("us-east-1", "eu-west-1"):
                session = boto3.session.Session(
                    aws_access_key_id=AK, aws_secret_access_key=SK, aws_session_token=token, region_name=region
                )
                client = session.client(
                    "s3",
                    endpoint_url="http://127.0.0.1:9000",
                    config=Config(signature_version=version, s3={"addressing_style": "path"}),
                )
                post = frozen(
                    lambda: client.generate_presigned_post(
                        "photos",
                        "uploads/${filename}",
                        Fields={"Content-Type": "image/png", "x-amz-meta-owner": "ana"},
                        Conditions=[
                            {"Content-Type": "image/png"},
                            {"x-amz-meta-owner": "ana"},
                            ["content-length-range", 1, 10485760],
                        ],
                        ExpiresIn=900,
                    )
                )
                fields = post["fields"]
                vectors.append(
                    {
                        "id": "boto3-%s-%s%s" % (name, region, "-token" if token else ""),
                        "origin": "botocore %s generate_presigned_post" % botocore.__version__,
                        "version": name,
                        "region": region,
                        "service": "s3",
                        "token": token,
                        "url": post["url"],
                        "fields": fields,
                        "policy": fields["policy"],
                        "signature": fields["x-amz-signature" if name == "sigv4" else "signature"],
                    }
                )
    return vectors


def obs_vectors():
    import obs

    vectors = []
    for v4 in (False, True):
        for token in (None, TOKEN):
            client = obs.ObsClient(
                access_key_id=AK,
                secret_access_key=SK,
                security_token=token,
                server="http://127.0.0.1:9000",
                signature="v4" if v4 else "obs",
                region="cn-north-4",
                path_style=True,
            )
            params = {"content-type": "text/plain", "x-obs-acl": "public-read"}
            if v4:
                result = frozen(lambda: client.createV4PostSignature("photos", "notes/a.txt", 600, params))
            else:
                result = frozen(lambda: client.createPostSignature("photos", "notes/a.txt", 600, params))
            vectors.append(
                {
                    "id": "obs-%s%s" % ("v4" if v4 else "obs", "-token" if token else ""),
                    "origin": "esdk-obs-python %s %s" % (
                        obs.const.OBS_SDK_VERSION,
                        "createV4PostSignature" if v4 else "createPostSignature",
                    ),
                    "version": "sigv4" if v4 else "obs",
                    "region": "cn-north-4",
                    "service": "s3",
                    "token": token,
                    "originPolicy": result["originPolicy"],
                    "policy": result["policy"],
                    "signature": result["signature"],
                    "credential": result.get("credential"),
                    "date": result.get("date"),
                }
            )
    return vectors


def oss_vectors():
    # The formula of "PostObject" signature V1 and V4 in Alibaba Cloud's documentation:
    #   V1: Signature = base64(hmac-sha1(AccessKeySecret, base64(policy)))
    #   V4: x-oss-signature = hex(hmac-sha256(SigningKey, base64(policy))), SigningKey =
    #       HMAC(HMAC(HMAC(HMAC("aliyun_v4" + secret, yyyymmdd), region), "oss"), "aliyun_v4_request")
    # The policy text follows the documentation's example (expiration, bucket, key prefix, length range).
    date = "20240305"
    credential = "%s/%s/cn-hangzhou/oss/aliyun_v4_request" % (AK, date)
    vectors = []
    for token in (None, TOKEN):
        v1 = {
            "expiration": "2024-03-05T04:20:06.000Z",
            "conditions": [
                {"bucket": "examplebucket"},
                ["starts-with", "$key", "user/eric/"],
                ["content-length-range", 1, 1048576],
            ] + ([{"x-oss-security-token": token}] if token else []),
        }
        policy = base64.b64encode(json.dumps(v1).encode()).decode()
        signature = base64.b64encode(hmac.new(SK.encode(), policy.encode(), hashlib.sha1).digest()).decode()
        vectors.append({"id": "oss-v1%s" % ("-token" if token else ""), "origin": "formula (OSS docs)",
                        "version": "v1", "region": "cn-hangzhou", "service": "oss", "token": token,
                        "policy": policy, "signature": signature})
        v4 = {
            "expiration": "2024-03-05T04:20:06.000Z",
            "conditions": [
                {"bucket": "examplebucket"},
                {"x-oss-signature-version": "OSS4-HMAC-SHA256"},
                {"x-oss-credential": credential},
                {"x-oss-date": "20240305T040506Z"},
                ["content-length-range", 1, 1048576],
            ] + ([{"x-oss-security-token": token}] if token else []),
        }
        policy = base64.b64encode(json.dumps(v4).encode()).decode()
        key = ("aliyun_v4" + SK).encode()
        for part in (date, "cn-hangzhou", "oss", "aliyun_v4_request"):
            key = hmac.new(key, part.encode(), hashlib.sha256).digest()
        signature = hmac.new(key, policy.encode(), hashlib.sha256).hexdigest()
        vectors.append({"id": "oss-v4%s" % ("-token" if token else ""), "origin": "formula (OSS docs)",
                        "version": "v4", "region": "cn-hangzhou", "service": "oss", "token": token,
                        "policy": policy, "signature": signature, "credential": credential,
                        "date": "20240305T040506Z"})
    return vectors


def main():
    document = {
        "time": FIXED,
        "accessKeyID": AK,
        "secretAccessKey": SK,
        "python": sys.version.split()[0],
        "vectors": boto3_vectors() + obs_vectors() + oss_vectors(),
    }
    json.dump(document, sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
