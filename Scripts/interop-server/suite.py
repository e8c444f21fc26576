#!/usr/bin/env python3
# This source file is part of the swift-object-storage open source project
# SPDX-License-Identifier: Apache-2.0
"""Drives `objstore serve` with the vendors' official clients (boto3, oss2, esdk-obs-python, awscli).

Usage: suite.py ENDPOINT ACCESS_KEY_ID SECRET
Prints one line per check and "N passed, M failed"; exits non-zero on any failure.
A missing client library is reported as skipped, or as a failure when CI=true.
"""
import base64
import hashlib
import os
import socket
import subprocess
import sys
import tempfile
import traceback
import urllib.error
import urllib.request

ENDPOINT, AK, SK = sys.argv[1], sys.argv[2], sys.argv[3]
PORT = ENDPOINT.rsplit(":", 1)[1]
CI = os.environ.get("CI") == "true"
results = {"passed": 0, "failed": 0, "skipped": 0}

# Virtual-hosted addressing sends Host: BUCKET.localhost:PORT. The resolver here does not map subdomains
# of localhost to loopback, so do it in-process (as curl --resolve would); the server sees the real Host.
_getaddrinfo = socket.getaddrinfo


def _loopback_subdomains(host, *args, **kwargs):
    if isinstance(host, str) and host.endswith(".localhost"):
        host = "127.0.0.1"
    return _getaddrinfo(host, *args, **kwargs)


socket.getaddrinfo = _loopback_subdomains
PART = 5 * 1024 * 1024


def data(size, seed):
    block = hashlib.sha256(str(seed).encode()).digest()
    return (block * (size // len(block) + 1))[:size]


_CRC64_XZ_TABLE = []
for _byte in range(256):
    _crc = _byte
    for _ in range(8):
        _crc = (_crc >> 1) ^ (0xC96C5795D7870F42 if _crc & 1 else 0)
    _CRC64_XZ_TABLE.append(_crc)


def crc64_xz(content):
    """CRC-64/XZ (ECMA-182, reflected), written out here rather than taken from the SDK under test."""
    crc = 0xFFFFFFFFFFFFFFFF
    for byte in content:
        crc = _CRC64_XZ_TABLE[(crc ^ byte) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFFFFFFFFFF


def check(name, function):
    try:
        function()
        results["passed"] += 1
        print(f"PASS {name}")
    except Exception as error:  # noqa: BLE001 - report every failure and go on
        results["failed"] += 1
        print(f"FAIL {name}: {error!r}")
        traceback.print_exc(limit=3, file=sys.stdout)


def missing(name, error):
    if CI:
        results["failed"] += 1
        print(f"FAIL {name}: client not installed ({error})")
    else:
        results["skipped"] += 1
        print(f"SKIP {name}: client not installed ({error})")


def http(method, url):
    request = urllib.request.Request(url, method=method)
    try:
        with urllib.request.urlopen(request) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def expect(condition, message):
    if not condition:
        raise AssertionError(message)


# ---------------------------------------------------------------- conditional writes (boto3, oss2)
def conditional_writes_suite():
    """The vendors' own clients' create-only and compare-and-swap writes, refused as the services refuse them."""
    try:
        import boto3
        from botocore.config import Config
        from botocore.exceptions import ClientError
    except ImportError as error:
        missing("boto3 conditional writes", error)
    else:
        s3 = boto3.client(
            "s3", endpoint_url=ENDPOINT, aws_access_key_id=AK, aws_secret_access_key=SK, region_name="us-east-1",
            config=Config(signature_version="s3v4", s3={"addressing_style": "path"}, retries={"max_attempts": 1}),
        )

        def status_and_code(call):
            try:
                call()
            except ClientError as error:
                return error.response["ResponseMetadata"]["HTTPStatusCode"], error.response["Error"]["Code"]
            raise AssertionError("the write was accepted")

        def boto3_conditional():
            bucket = "boto3-conditional"
            s3.create_bucket(Bucket=bucket)
            etag = s3.put_object(Bucket=bucket, Key="k", Body=b"first", IfNoneMatch="*")["ETag"]
            refused = status_and_code(lambda: s3.put_object(Bucket=bucket, Key="k", Body=b"second", IfNoneMatch="*"))
            expect(refused == (412, "PreconditionFailed"), refused)
            stale = status_and_code(lambda: s3.put_object(Bucket=bucket, Key="k", Body=b"x", IfMatch='"%s"' % ("0" * 32)))
            expect(stale == (412, "PreconditionFailed"), stale)
            s3.put_object(Bucket=bucket, Key="k", Body=b"third", IfMatch=etag)
            expect(s3.get_object(Bucket=bucket, Key="k")["Body"].read() == b"third", "compare-and-swap wrote")
            upload = s3.create_multipart_upload(Bucket=bucket, Key="k")["UploadId"]
            part = s3.upload_part(Bucket=bucket, Key="k", UploadId=upload, PartNumber=1, Body=b"parts")["ETag"]
            parts = {"Parts": [{"PartNumber": 1, "ETag": part}]}
            refused = status_and_code(lambda: s3.complete_multipart_upload(
                Bucket=bucket, Key="k", UploadId=upload, MultipartUpload=parts, IfNoneMatch="*"))
            expect(refused == (412, "PreconditionFailed"), refused)
            expect(s3.get_object(Bucket=bucket, Key="k")["Body"].read() == b"third", "refused completion wrote")

        check("boto3 put_object(IfNoneMatch='*') / IfMatch / complete refused 412 on an existing key", boto3_conditional)

    try:
        import oss2
    except ImportError as error:
        return missing("oss2 conditional writes", error)

    def oss2_forbid_overwrite():
        bucket = oss2.Bucket(oss2.Auth(AK, SK), ENDPOINT, "oss2-conditional")
        bucket.create_bucket()
        forbid = {"x-oss-forbid-overwrite": "true"}
        bucket.put_object("k", b"first", headers=forbid)
        for attempt in (lambda: bucket.put_object("k", b"second", headers=forbid),
                        lambda: bucket.copy_object(bucket.bucket_name, "k", "k", headers=forbid)):
            try:
                attempt()
                raise AssertionError("the write was accepted")
            except oss2.exceptions.ServerError as error:
                expect(error.status == 409 and error.code == "FileAlreadyExists", f"{error.status} {error.code}")
        expect(bucket.get_object("k").read() == b"first", "the refused writes changed the object")
        bucket.put_object("k", b"overwritten", headers={"x-oss-forbid-overwrite": "false"})
        expect(bucket.get_object("k").read() == b"overwritten", "false overwrites")

    check("oss2 put_object/copy_object with x-oss-forbid-overwrite refused 409 FileAlreadyExists", oss2_forbid_overwrite)


conditional_writes_suite()


# ---------------------------------------------------------------- boto3 (SigV4)
def boto3_suite():
    try:
        import boto3
        from botocore.config import Config
        from botocore.exceptions import ClientError
    except ImportError as error:
        return missing("boto3", error)

    def client(secret=SK):
        return boto3.client(
            "s3", endpoint_url=ENDPOINT, aws_access_key_id=AK, aws_secret_access_key=secret, region_name="us-east-1",
            config=Config(signature_version="s3v4", s3={"addressing_style": "path"}, retries={"max_attempts": 1}),
        )

    s3 = client()
    bucket = "boto3-bucket"
    body = data(100_000, 1)

    def basics():
        s3.create_bucket(Bucket=bucket)
        etag = s3.put_object(Bucket=bucket, Key="dir/obj.bin", Body=body, ContentType="application/x-test")["ETag"]
        expect(etag == '"%s"' % hashlib.md5(body).hexdigest(), etag)
        expect(s3.get_object(Bucket=bucket, Key="dir/obj.bin")["Body"].read() == body, "get body")
        ranged = s3.get_object(Bucket=bucket, Key="dir/obj.bin", Range="bytes=10-19")
        expect(ranged["ResponseMetadata"]["HTTPStatusCode"] == 206 and ranged["Body"].read() == body[10:20], "range")
        head = s3.head_object(Bucket=bucket, Key="dir/obj.bin")
        expect(head["ContentLength"] == len(body) and head["ContentType"] == "application/x-test", "head")
        try:
            s3.get_object(Bucket=bucket, Key="dir/obj.bin", IfNoneMatch=etag)
            raise AssertionError("expected 304")
        except ClientError as error:
            expect(error.response["ResponseMetadata"]["HTTPStatusCode"] == 304, str(error))
        try:
            s3.get_object(Bucket=bucket, Key="dir/obj.bin", IfMatch='"0000"')
            raise AssertionError("expected 412")
        except ClientError as error:
            expect(error.response["Error"]["Code"] == "PreconditionFailed", str(error))
        keys = [o["Key"] for o in s3.list_objects_v2(Bucket=bucket, Prefix="dir/")["Contents"]]
        expect(keys == ["dir/obj.bin"], keys)

    def multipart():
        upload = s3.create_multipart_upload(Bucket=bucket, Key="mp.bin")["UploadId"]
        part1, part2 = data(PART, 2), data(1000, 3)
        s3.upload_part(Bucket=bucket, Key="mp.bin", UploadId=upload, PartNumber=1, Body=data(PART, 9))
        e1 = s3.upload_part(Bucket=bucket, Key="mp.bin", UploadId=upload, PartNumber=1, Body=part1)["ETag"]
        e2 = s3.upload_part(Bucket=bucket, Key="mp.bin", UploadId=upload, PartNumber=2, Body=part2)["ETag"]
        parts = s3.list_parts(Bucket=bucket, Key="mp.bin", UploadId=upload)["Parts"]
        expect([p["PartNumber"] for p in parts] == [1, 2], parts)
        done = s3.complete_multipart_upload(
            Bucket=bucket, Key="mp.bin", UploadId=upload,
            MultipartUpload={"Parts": [{"PartNumber": 1, "ETag": e1}, {"PartNumber": 2, "ETag": e2}]},
        )
        expect(done["ETag"].endswith('-2"'), done["ETag"])
        expect(s3.get_object(Bucket=bucket, Key="mp.bin")["Body"].read() == part1 + part2, "multipart body")

    def presigned():
        url = s3.generate_presigned_url("get_object", Params={"Bucket": bucket, "Key": "dir/obj.bin"}, ExpiresIn=300)
        status, content = http("GET", url)
        expect(status == 200 and content == body, f"presigned GET {status}")
        url = s3.generate_presigned_url("head_object", Params={"Bucket": bucket, "Key": "dir/obj.bin"}, ExpiresIn=300)
        expect(http("HEAD", url)[0] == 200, "presigned HEAD")
        expect(http("DELETE", url)[0] == 403, "presigned URL used with another method")

    def wrong_secret():
        try:
            client("wrong-secret").head_bucket(Bucket=bucket)
            client("wrong-secret").list_objects_v2(Bucket=bucket)
            raise AssertionError("expected SignatureDoesNotMatch")
        except ClientError as error:
            expect(error.response["Error"]["Code"] in ("SignatureDoesNotMatch", "403"), str(error))
        try:
            client("wrong-secret").get_object(Bucket=bucket, Key="dir/obj.bin")
            raise AssertionError("expected SignatureDoesNotMatch")
        except ClientError as error:
            expect(error.response["Error"]["Code"] == "SignatureDoesNotMatch", str(error))

    def checksums():
        # botocore computes CRC64NVME with the AWS Common Runtime, an implementation independent of ours.
        from awscrt import checksums as crt

        def b64(value):
            return base64.b64encode(value.to_bytes(8, "big")).decode()

        small = data(70_000, 4)
        put = s3.put_object(Bucket=bucket, Key="crc.bin", Body=small, ChecksumAlgorithm="CRC64NVME")
        expect(put.get("ChecksumCRC64NVME") == b64(crt.crc64nvme(small)), put)
        head = s3.head_object(Bucket=bucket, Key="crc.bin", ChecksumMode="ENABLED")
        expect(head.get("ChecksumCRC64NVME") == b64(crt.crc64nvme(small)), head)
        expect(head.get("ChecksumType") == "FULL_OBJECT", head)
        # botocore validates the body of a GET against the checksum it asked for.
        got = s3.get_object(Bucket=bucket, Key="crc.bin", ChecksumMode="ENABLED")
        expect(got["Body"].read() == small, "get body")
        try:
            s3.put_object(Bucket=bucket, Key="crc-bad.bin", Body=small, ChecksumCRC64NVME=b64(crt.crc64nvme(b"x")))
            raise AssertionError("expected BadDigest")
        except ClientError as error:
            expect(error.response["Error"]["Code"] == "BadDigest", str(error))

        part1, part2 = data(PART, 5), data(4321, 6)
        upload = s3.create_multipart_upload(
            Bucket=bucket, Key="crc-mp.bin", ChecksumAlgorithm="CRC64NVME", ChecksumType="FULL_OBJECT"
        )["UploadId"]
        parts = []
        for number, part in ((1, part1), (2, part2)):
            answer = s3.upload_part(
                Bucket=bucket, Key="crc-mp.bin", UploadId=upload, PartNumber=number, Body=part,
                ChecksumAlgorithm="CRC64NVME",
            )
            expect(answer.get("ChecksumCRC64NVME") == b64(crt.crc64nvme(part)), answer)
            parts.append({"PartNumber": number, "ETag": answer["ETag"], "ChecksumCRC64NVME": answer["ChecksumCRC64NVME"]})
        whole = b64(crt.crc64nvme(part1 + part2))
        done = s3.complete_multipart_upload(
            Bucket=bucket, Key="crc-mp.bin", UploadId=upload, MultipartUpload={"Parts": parts},
            ChecksumCRC64NVME=whole, ChecksumType="FULL_OBJECT",
        )
        expect(done.get("ChecksumCRC64NVME") == whole and done.get("ChecksumType") == "FULL_OBJECT", done)
        head = s3.head_object(Bucket=bucket, Key="crc-mp.bin", ChecksumMode="ENABLED")
        expect(head.get("ChecksumCRC64NVME") == whole, head)

    check("boto3 put/get/range/head/conditional/list", basics)
    check("boto3 multipart with re-uploaded part", multipart)
    check("boto3 + awscrt: x-amz-checksum-crc64nvme kept, checked and combined (FULL_OBJECT)", checksums)
    check("boto3 presigned GET/HEAD", presigned)
    check("boto3 wrong secret -> SignatureDoesNotMatch", wrong_secret)


# ---------------------------------------------------------------- oss2 (OSS V1 and V4)
def oss2_suite():
    try:
        import oss2
        from oss2.models import PartInfo
    except ImportError as error:
        return missing("oss2", error)

    def auth(version, secret=SK):
        if version == "v1":
            return oss2.Auth(AK, secret)
        from oss2.credentials import StaticCredentialsProvider
        return oss2.ProviderAuthV4(StaticCredentialsProvider(AK, secret))

    for version in ("v1", "v4"):
        name = f"oss2-{version}-bucket"
        kwargs = {"region": "cn-hangzhou"} if version == "v4" else {}
        bucket = oss2.Bucket(auth(version), ENDPOINT, name, **kwargs)
        body = data(300_000, 4)

        def basics(bucket=bucket, body=body):
            bucket.create_bucket()
            result = bucket.put_object("dir/obj.bin", body)  # oss2 checks x-oss-hash-crc64ecma
            expect(result.etag == hashlib.md5(body).hexdigest().upper(), result.etag)
            expect(bucket.get_object("dir/obj.bin").read() == body, "get")
            ranged = bucket.get_object("dir/obj.bin", byte_range=(10, 19))
            expect(ranged.status == 206 and ranged.read() == body[10:20], "range")
            expect(bucket.head_object("dir/obj.bin").content_length == len(body), "head")
            try:
                bucket.get_object("dir/obj.bin", headers={"If-None-Match": '"%s"' % result.etag})
                raise AssertionError("expected 304")
            except oss2.exceptions.NotModified:
                pass
            keys = [o.key for o in bucket.list_objects_v2(prefix="dir/").object_list]
            expect(keys == ["dir/obj.bin"], keys)

        def multipart(bucket=bucket):
            upload = bucket.init_multipart_upload("mp.bin").upload_id
            part1, part2 = data(200_000, 5), data(1000, 6)
            bucket.upload_part("mp.bin", upload, 1, data(200_000, 7))
            r1 = bucket.upload_part("mp.bin", upload, 1, part1)
            r2 = bucket.upload_part("mp.bin", upload, 2, part2)
            bucket.complete_multipart_upload("mp.bin", upload, [PartInfo(1, r1.etag), PartInfo(2, r2.etag)])
            expect(bucket.get_object("mp.bin").read() == part1 + part2, "multipart body")

        def presigned(bucket=bucket, body=body):
            status, content = http("GET", bucket.sign_url("GET", "dir/obj.bin", 300))
            expect(status == 200 and content == body, f"presigned GET {status}")
            expect(http("HEAD", bucket.sign_url("HEAD", "dir/obj.bin", 300))[0] == 200, "presigned HEAD")

        def wrong_secret(version=version, name=name, kwargs=kwargs):
            wrong = oss2.Bucket(auth(version, "wrong-secret"), ENDPOINT, name, **kwargs)
            try:
                wrong.get_object("dir/obj.bin")
                raise AssertionError("expected SignatureDoesNotMatch")
            except oss2.exceptions.ServerError as error:
                expect(error.code == "SignatureDoesNotMatch", str(error))

        check(f"oss2 {version} put/get/range/head/conditional/list (CRC64 checked)", basics)
        check(f"oss2 {version} multipart with re-uploaded part", multipart)
        check(f"oss2 {version} presigned GET/HEAD", presigned)
        check(f"oss2 {version} wrong secret -> SignatureDoesNotMatch", wrong_secret)


# ---------------------------------------------------------------- esdk-obs-python (OBS signature)
def obs_suite():
    try:
        from obs import CompleteMultipartUploadRequest, CompletePart, GetObjectHeader, ObsClient, PutObjectHeader
    except ImportError as error:
        return missing("esdk-obs-python", error)

    def client(secret=SK):
        # Virtual-hosted addressing: the client sends Host: BUCKET.localhost:PORT.
        return ObsClient(access_key_id=AK, secret_access_key=secret, server=f"http://localhost:{PORT}",
                         signature="obs", is_signature_negotiation=False, max_retry_count=1)

    obs = client()
    bucket = "obs-bucket"
    body = data(150_000, 8)

    def ok(response, what):
        expect(response.status < 300, f"{what}: {response.status} {response.errorCode} {response.errorMessage}")
        return response

    def basics():
        ok(obs.createBucket(bucket), "createBucket")
        ok(obs.putContent(bucket, "dir/obj.bin", body), "putContent")
        got = ok(obs.getObject(bucket, "dir/obj.bin", loadStreamInMemory=True), "getObject")
        expect(got.body.buffer == body, "get body")
        ranged = ok(obs.getObject(bucket, "dir/obj.bin", headers=GetObjectHeader(range="10-19"), loadStreamInMemory=True), "range")
        expect(ranged.body.buffer == body[10:20], "range body")
        head = ok(obs.getObjectMetadata(bucket, "dir/obj.bin"), "head")
        etag = head.body.etag
        conditional = obs.getObject(bucket, "dir/obj.bin", headers=GetObjectHeader(if_none_match=etag), loadStreamInMemory=True)
        expect(conditional.status == 304, f"conditional {conditional.status}")
        listed = ok(obs.listObjects(bucket, prefix="dir/"), "listObjects")
        expect([c.key for c in listed.body.contents] == ["dir/obj.bin"], "list")

    def multipart():
        upload = ok(obs.initiateMultipartUpload(bucket, "mp.bin"), "initiate").body.uploadId
        part1, part2 = data(200_000, 9), data(1000, 10)
        ok(obs.uploadPart(bucket, "mp.bin", 1, upload, data(200_000, 11), isFile=False), "part 1")
        e1 = ok(obs.uploadPart(bucket, "mp.bin", 1, upload, part1, isFile=False), "part 1 again").body.etag
        e2 = ok(obs.uploadPart(bucket, "mp.bin", 2, upload, part2, isFile=False), "part 2").body.etag
        request = CompleteMultipartUploadRequest(parts=[CompletePart(1, e1), CompletePart(2, e2)])
        ok(obs.completeMultipartUpload(bucket, "mp.bin", upload, request), "complete")
        got = ok(obs.getObject(bucket, "mp.bin", loadStreamInMemory=True), "get")
        expect(got.body.buffer == part1 + part2, "multipart body")

    def crc64():
        # The SDK sends x-obs-checksum-crc64ecma with each upload and checks the one a GET reports.
        attach = PutObjectHeader(isAttachCrc64=True)
        put = ok(obs.putContent(bucket, "crc.bin", body, headers=attach), "put with CRC-64")
        expect(put.body.crc64 == str(crc64_xz(body)), f"put reports {put.body.crc64}")
        got = ok(obs.getObject(bucket, "crc.bin", loadStreamInMemory=True, isAttachCrc64=True), "get with CRC-64")
        expect(got.body.buffer == body, "get body")
        wrong = obs.putContent(bucket, "wrong.bin", body, headers=PutObjectHeader(crc64=crc64_xz(body) ^ 1))
        expect(wrong.status == 400 and wrong.errorCode == "BadDigest", f"wrong CRC-64: {wrong.status} {wrong.errorCode}")
        expect(obs.getObjectMetadata(bucket, "wrong.bin").status == 404, "nothing stored for a wrong CRC-64")

        upload = ok(obs.initiateMultipartUpload(bucket, "crc-mp.bin"), "initiate").body.uploadId
        part1, part2 = data(200_000, 12), data(1000, 13)
        parts = []
        for number, part in ((1, part1), (2, part2)):
            answer = ok(obs.uploadPart(bucket, "crc-mp.bin", number, upload, content=part, isAttachCrc64=True), f"part {number}")
            expect(answer.body.crc64 == str(crc64_xz(part)), f"part {number} reports {answer.body.crc64}")
            parts.append(CompletePart(number, answer.body.etag, answer.body.crc64, len(part)))
        request = CompleteMultipartUploadRequest(parts=parts)
        done = ok(obs.completeMultipartUpload(bucket, "crc-mp.bin", upload, request, isAttachCrc64=True), "complete")
        expect(done.body.crc64 == str(crc64_xz(part1 + part2)), f"complete reports {done.body.crc64}")
        got = ok(obs.getObject(bucket, "crc-mp.bin", loadStreamInMemory=True, isAttachCrc64=True), "get multipart")
        expect(got.body.buffer == part1 + part2, "multipart body")

    def presigned():
        url = obs.createSignedUrl("GET", bucket, "dir/obj.bin", expires=300).signedUrl
        status, content = http("GET", url)
        expect(status == 200 and content == body, f"presigned GET {status}")
        url = obs.createSignedUrl("HEAD", bucket, "dir/obj.bin", expires=300).signedUrl
        expect(http("HEAD", url)[0] == 200, "presigned HEAD")

    def wrong_secret():
        response = client("wrong-secret").getObject(bucket, "dir/obj.bin", loadStreamInMemory=True)
        expect(response.status == 403 and response.errorCode == "SignatureDoesNotMatch", f"{response.status} {response.errorCode}")

    check("esdk-obs put/get/range/head/conditional/list (virtual-hosted)", basics)
    check("esdk-obs multipart with re-uploaded part", multipart)
    check("esdk-obs CRC-64 attached to put, parts and complete, checked by get", crc64)
    check("esdk-obs presigned GET/HEAD", presigned)
    check("esdk-obs wrong secret -> SignatureDoesNotMatch", wrong_secret)


# ---------------------------------------------------------------- error bodies (every dialect)
# The vendors document each error body as one <Error> with Code, Message, RequestId and HostId, plus
# error-specific elements (Key, BucketName, Expires, ServerTime...), each at most once. Each error below is
# fetched raw, from a URL the official client presigned (and then edited where the error needs it), and parsed.
ERROR_ELEMENTS = {"s3": {"Code", "Message", "RequestId", "HostId"}, "oss": {"Code", "Message", "RequestId", "HostId"},
                  "obs": {"Code", "Message", "RequestId", "HostId"}}


def error_body(url, dialect, code, method="GET"):
    import xml.etree.ElementTree as ElementTree
    status, content = http(method, url)
    expect(status >= 400, f"{code}: status {status}")
    root = ElementTree.fromstring(content)
    expect(root.tag == "Error", f"{code}: root <{root.tag}>")
    names = [child.tag for child in root]
    repeated = sorted({name for name in names if names.count(name) > 1})
    expect(not repeated, f"{code}: elements repeated: {repeated} in {content!r}")
    absent = ERROR_ELEMENTS[dialect] - set(names)
    expect(not absent, f"{code}: missing {sorted(absent)} in {content!r}")
    expect(root.findtext("Code") == code, f"expected {code}, got {root.findtext('Code')}: {content!r}")
    return root


def with_query(url, **changes):
    from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit
    parts = urlsplit(url)
    query = [(name, changes.pop(name) if name in changes else value)
             for name, value in parse_qsl(parts.query, keep_blank_values=True)]
    return urlunsplit(parts._replace(query=urlencode(query)))


def error_bodies_suite():
    try:
        import boto3
        import oss2
        from botocore.config import Config
        from botocore.exceptions import ClientError
        from obs import ObsClient
        from oss2.credentials import StaticCredentialsProvider
    except ImportError as error:
        return missing("error bodies", error)

    def s3_errors():
        s3 = boto3.client("s3", endpoint_url=ENDPOINT, aws_access_key_id=AK, aws_secret_access_key=SK,
                          region_name="us-east-1",
                          config=Config(signature_version="s3v4", s3={"addressing_style": "path"},
                                        retries={"max_attempts": 1}))
        s3.create_bucket(Bucket="errors-s3")
        missing_key = s3.generate_presigned_url("get_object", Params={"Bucket": "errors-s3", "Key": "nope"})
        error_body(missing_key, "s3", "NoSuchKey")
        no_bucket = s3.generate_presigned_url("get_object", Params={"Bucket": "no-such-bucket-x", "Key": "k"})
        error_body(no_bucket, "s3", "NoSuchBucket")
        expired = with_query(missing_key, **{"X-Amz-Date": "20200101T000000Z"})
        root = error_body(expired, "s3", "AccessDenied")
        expect(root.findtext("Message") == "Request has expired", root.findtext("Message"))
        error_body(with_query(missing_key, **{"X-Amz-Signature": "0" * 64}), "s3", "SignatureDoesNotMatch")
        try:  # and boto3 itself reads the code and the request id from such a body
            s3.get_object(Bucket="errors-s3", Key="nope")
            raise AssertionError("expected NoSuchKey")
        except ClientError as error:
            expect(error.response["Error"]["Code"] == "NoSuchKey", str(error))
            expect(error.response["ResponseMetadata"].get("RequestId"), "no request id")

    def oss_errors():
        for name, auth, kwargs in [
            ("errors-oss-v1", oss2.Auth(AK, SK), {}),
            ("errors-oss-v4", oss2.ProviderAuthV4(StaticCredentialsProvider(AK, SK)), {"region": "cn-hangzhou"}),
        ]:
            bucket = oss2.Bucket(auth, ENDPOINT, name, **kwargs)
            bucket.create_bucket()
            missing_key = bucket.sign_url("GET", "nope", 300)
            error_body(missing_key, "oss", "NoSuchKey")
            if name.endswith("v1"):
                expired = with_query(missing_key, Expires="1")
            else:
                expired = with_query(missing_key, **{"x-oss-date": "20200101T000000Z"})
            root = error_body(expired, "oss", "AccessDenied")
            expect("expired" in (root.findtext("Message") or ""), root.findtext("Message"))
            try:
                bucket.get_object("nope")
                raise AssertionError("expected NoSuchKey")
            except oss2.exceptions.NoSuchKey as error:
                expect(error.request_id, "no request id")

    def obs_errors():
        obs = ObsClient(access_key_id=AK, secret_access_key=SK, server=f"http://localhost:{PORT}",
                        signature="obs", is_signature_negotiation=False, max_retry_count=1)
        obs.createBucket("errors-obs")
        missing_key = obs.createSignedUrl("GET", "errors-obs", "nope", expires=300).signedUrl
        root_status = http("GET", missing_key)[0]
        expect(root_status == 404, f"NoSuchKey status {root_status}")
        error_body(missing_key, "obs", "NoSuchKey")
        expired = with_query(missing_key, Expires="1")
        error_body(expired, "obs", "AccessDenied")
        response = obs.getObject("errors-obs", "nope", loadStreamInMemory=True)
        expect(response.status == 404 and response.errorCode == "NoSuchKey", f"{response.status} {response.errorCode}")
        expect(response.requestId, "no request id")

    check("error bodies: S3 (NoSuchKey, NoSuchBucket, expired, bad signature) parse, elements once each", s3_errors)
    check("error bodies: OSS V1 and V4 (NoSuchKey, expired) parse, elements once each", oss_errors)
    check("error bodies: OBS (NoSuchKey, expired) parse, elements once each", obs_errors)


# ---------------------------------------------------------------- aws s3 cp (multipart up and down)
def awscli_suite():
    def copy():
        environment = dict(os.environ, AWS_ACCESS_KEY_ID=AK, AWS_SECRET_ACCESS_KEY=SK, AWS_DEFAULT_REGION="us-east-1")
        with tempfile.TemporaryDirectory() as directory:
            source = os.path.join(directory, "source.bin")
            target = os.path.join(directory, "target.bin")
            with open(source, "wb") as handle:
                handle.write(data(40 * 1024 * 1024 + 123, 12))
            aws = ["aws", "--endpoint-url", ENDPOINT, "s3"]
            subprocess.run(aws + ["mb", "s3://awscli-bucket"], env=environment, check=True, capture_output=True)
            subprocess.run(aws + ["cp", source, "s3://awscli-bucket/big.bin"], env=environment, check=True, capture_output=True)
            subprocess.run(aws + ["cp", "s3://awscli-bucket/big.bin", target], env=environment, check=True, capture_output=True)
            with open(source, "rb") as a, open(target, "rb") as b:
                expect(a.read() == b.read(), "downloaded bytes differ")

    try:
        subprocess.run(["aws", "--version"], check=True, capture_output=True)
    except (OSError, subprocess.CalledProcessError) as error:
        return missing("awscli", error)
    check("aws s3 cp up and down (multipart, 40 MiB)", copy)

# ---------------------------------------------------------------- POST policy forms (boto3 V4/V2, esdk-obs)
def post_form(url, fields, content, filename="note.txt"):
    """Posts a browser-style multipart/form-data form: the fields in order, then the file last."""
    boundary = "----objstore-interop-form"
    body = b""
    for name, value in fields:
        body += f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode()
    body += (f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="{filename}"\r\n'
             "Content-Type: application/octet-stream\r\n\r\n").encode() + content + f"\r\n--{boundary}--\r\n".encode()
    request = urllib.request.Request(url, data=body, method="POST",
                                     headers={"Content-Type": f"multipart/form-data; boundary={boundary}"})
    try:
        with urllib.request.urlopen(request) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def error_code(content):
    import xml.etree.ElementTree as ElementTree
    return ElementTree.fromstring(content).findtext("Code")


def tampered(policy):
    import base64
    text = base64.b64decode(policy).decode()
    changed = text.replace("1000", "9999") if "1000" in text else text.replace("T", "t", 1)
    expect(changed != text, "policy unchanged")
    return base64.b64encode(changed.encode()).decode()


def expect_refused(response, status, code, what):
    expect(response[0] == status and error_code(response[1]) == code, f"{what}: {response[0]} {response[1][:300]!r}")


def post_policy_suite():
    try:
        import boto3
        from botocore.config import Config
    except ImportError as error:
        return missing("boto3 POST policy", error)

    bucket = "post-bucket"
    body = b"posted from a form signed by an official SDK\n"

    def s3(version):
        return boto3.client(
            "s3", endpoint_url=ENDPOINT, aws_access_key_id=AK, aws_secret_access_key=SK, region_name="us-east-1",
            config=Config(signature_version=version, s3={"addressing_style": "path"}, retries={"max_attempts": 1}),
        )

    def boto3_forms(version):
        client = s3(version)
        if version == "s3v4":
            client.create_bucket(Bucket=bucket)

        def presign(expires=300):
            return client.generate_presigned_post(
                bucket, "forms/${filename}",
                Fields={"Content-Type": "text/plain", "success_action_status": "201"},
                Conditions=[{"Content-Type": "text/plain"}, {"success_action_status": "201"},
                            ["content-length-range", 1, 1000]],
                ExpiresIn=expires,
            )

        def fields(form, **changes):
            items = [(name, changes.pop(name, value)) for name, value in form["fields"].items()]
            return items + list(changes.items())

        def accepted():
            form = presign()
            status, content = post_form(form["url"], fields(form), body, filename=f"{version}.txt")
            expect(status == 201, f"{status} {content[:300]!r}")
            got = client.get_object(Bucket=bucket, Key=f"forms/{version}.txt")
            expect(got["Body"].read() == body and got["ContentType"] == "text/plain", "stored object")

        def refused():
            form = presign()
            expect_refused(post_form(form["url"], fields(form, policy=tampered(form["fields"]["policy"])), body),
                           403, "SignatureDoesNotMatch", "tampered policy")
            expired = presign(expires=-60)
            expect_refused(post_form(expired["url"], fields(expired), body), 403, "AccessDenied", "expired policy")
            expect_refused(post_form(form["url"], fields(form), b"x" * 1001), 400, "EntityTooLarge", "file over range")
            expect_refused(post_form(form["url"], fields(form, key="elsewhere/${filename}"), body),
                           403, "AccessDenied", "key outside the prefix")
            expect_refused(post_form(form["url"], fields(form, **{"x-amz-meta-extra": "1"}), body),
                           403, "AccessDenied", "uncovered field")
            listed = client.list_objects_v2(Bucket=bucket, Prefix="elsewhere/").get("Contents", [])
            expect(listed == [], listed)

        name = "SigV4" if version == "s3v4" else "SigV2"
        check(f"boto3 generate_presigned_post ({name}) accepted, bytes read back", accepted)
        check(f"boto3 generate_presigned_post ({name}) tampered/expired/oversize/prefix/extra refused", refused)

    boto3_forms("s3v4")
    boto3_forms("s3")

    try:
        from obs import ObsClient
    except ImportError as error:
        return missing("esdk-obs-python POST policy", error)

    def obs_forms(v4):
        client = ObsClient(access_key_id=AK, secret_access_key=SK, server=ENDPOINT, path_style=True,
                           signature="v4" if v4 else "obs", region="us-east-1", is_signature_negotiation=False,
                           max_retry_count=1)
        key = "obs-forms/v4.txt" if v4 else "obs-forms/obs.txt"
        params = {"content-type": "text/plain"}

        def presign(expires=300):
            if v4:
                return client.createV4PostSignature(bucket, key, expires, params)
            return client.createPostSignature(bucket, key, expires, params)

        def fields(result, **changes):
            items = [("key", key), ("content-type", "text/plain")]
            if v4:
                # The SDK's response drops the algorithm (its model has no such attribute); it is always this one.
                items += [("X-Amz-Algorithm", "AWS4-HMAC-SHA256"), ("X-Amz-Credential", result.credential),
                          ("X-Amz-Date", result.date), ("policy", result.policy), ("x-amz-signature", result.signature)]
            else:
                items += [("AccessKeyId", result.accessKeyId), ("policy", result.policy), ("signature", result.signature)]
            items = [(name, changes.pop(name, value)) for name, value in items]
            return items + list(changes.items())

        url = f"{ENDPOINT}/{bucket}"

        def accepted():
            status, content = post_form(url, fields(presign()), body)
            expect(status == 204, f"{status} {content[:300]!r}")
            # Read back with boto3: esdk-obs's own V4 header signing is not what this check is about.
            got = s3("s3v4").get_object(Bucket=bucket, Key=key)
            expect(got["Body"].read() == body and got["ContentType"] == "text/plain", "stored object")

        def refused():
            result = presign()
            expect_refused(post_form(url, fields(result, policy=tampered(result.policy)), body),
                           403, "SignatureDoesNotMatch", "tampered policy")
            expect_refused(post_form(url, fields(presign(expires=-60)), body), 403, "AccessDenied", "expired policy")
            expect_refused(post_form(url, fields(result, key="obs-forms/other.txt"), body),
                           403, "AccessDenied", "another key")
            meta = "x-amz-meta-extra" if v4 else "x-obs-meta-extra"
            expect_refused(post_form(url, fields(result, **{meta: "1"}), body), 403, "AccessDenied", "uncovered field")

        name = "createV4PostSignature" if v4 else "createPostSignature"
        check(f"esdk-obs {name} accepted, bytes read back", accepted)
        check(f"esdk-obs {name} tampered/expired/other key/extra refused", refused)

    obs_forms(False)
    obs_forms(True)


# ---------------------------------------------------------------- object tags: the vendors' clients and ours
def objstore(*arguments, variables):
    """Runs our CLI (OBJSTORE_CLI) against the server; returns its standard output."""
    scheme = next(argument.split("://")[0] for argument in arguments if "://" in argument)
    region = {"s3": ["--region", "us-east-1"], "oss": ["--region", "cn-hangzhou"], "obs": []}[scheme]
    environment = dict(os.environ, **variables)
    completed = subprocess.run([os.environ["OBJSTORE_CLI"], *arguments, "--endpoint", ENDPOINT, *region],
                               env=environment, capture_output=True, text=True, timeout=60)
    expect(completed.returncode == 0, f"objstore {' '.join(arguments)}: {completed.stderr}")
    return completed.stdout


def tagging_suite():
    if not os.environ.get("OBJSTORE_CLI"):
        return missing("objstore tagging", "OBJSTORE_CLI is not set")
    tags = {"project": "blue sky", "retention": "30d"}
    cli_tags = "project=blue%20sky&retention=30d"
    expected = "project=blue sky\nretention=30d\n"
    with tempfile.NamedTemporaryFile(suffix=".txt") as file:
        file.write(b"tagged\n")
        file.flush()

        try:
            import boto3
            from botocore.config import Config
        except ImportError as error:
            missing("boto3 tags", error)
        else:
            def boto3_tags():
                s3 = boto3.client("s3", endpoint_url=ENDPOINT, aws_access_key_id=AK, aws_secret_access_key=SK,
                                  region_name="us-east-1", config=Config(s3={"addressing_style": "path"}))
                variables = {"AWS_ACCESS_KEY_ID": AK, "AWS_SECRET_ACCESS_KEY": SK}
                s3.create_bucket(Bucket="tags-boto3")
                s3.put_object(Bucket="tags-boto3", Key="theirs", Body=b"x", Tagging="project=blue%20sky&retention=30d")
                expect(s3.head_object(Bucket="tags-boto3", Key="theirs").get("ResponseMetadata", {}).get("HTTPHeaders", {})
                       .get("x-amz-tagging-count") == "2", "x-amz-tagging-count")
                expect(objstore("tag", "get", "s3://tags-boto3/theirs", variables=variables) == expected, "ours reads theirs")
                objstore("cp", file.name, "s3://tags-boto3/ours", "--tags", cli_tags, variables=variables)
                got = s3.get_object_tagging(Bucket="tags-boto3", Key="ours")["TagSet"]
                expect({t["Key"]: t["Value"] for t in got} == tags, got)
                s3.put_object_tagging(Bucket="tags-boto3", Key="ours", Tagging={"TagSet": [{"Key": "k", "Value": "v"}]})
                expect(objstore("tag", "get", "s3://tags-boto3/ours", variables=variables) == "k=v\n", "replaced")
                try:
                    s3.put_object_tagging(Bucket="tags-boto3", Key="ours", Tagging={"TagSet": [
                        {"Key": f"k{i}", "Value": "v"} for i in range(11)]})
                    raise AssertionError("expected 11 tags to be refused")
                except s3.exceptions.ClientError as error:
                    expect(error.response["Error"]["Code"] == "BadRequest", str(error))
            check("boto3 tags read by objstore, objstore's by boto3, 11 tags refused", boto3_tags)

        try:
            import oss2
        except ImportError as error:
            missing("oss2 tags", error)
        else:
            def oss2_tags():
                bucket = oss2.Bucket(oss2.Auth(AK, SK), ENDPOINT, "tags-oss2")
                variables = {"OSS_ACCESS_KEY_ID": AK, "OSS_ACCESS_KEY_SECRET": SK}
                bucket.create_bucket()
                bucket.put_object("theirs", b"x", headers={"x-oss-tagging": cli_tags})
                expect(objstore("tag", "get", "oss://tags-oss2/theirs", variables=variables) == expected, "ours reads theirs")
                objstore("cp", file.name, "oss://tags-oss2/ours", "--tags", cli_tags, variables=variables)
                rules = bucket.get_object_tagging("ours").tag_set.tagging_rule
                expect(dict(rules) == tags, rules)
                objstore("tag", "rm", "oss://tags-oss2/ours", variables=variables)
                expect(not bucket.get_object_tagging("ours").tag_set.tagging_rule, "removed")
            check("oss2 tags read by objstore, objstore's by oss2", oss2_tags)

        try:
            from obs import ObsClient
        except ImportError as error:
            missing("esdk-obs tags", error)
        else:
            def obs_tags():
                obs = ObsClient(access_key_id=AK, secret_access_key=SK, server=f"http://localhost:{PORT}",
                                signature="obs", is_signature_negotiation=False, max_retry_count=1)
                variables = {"OBS_ACCESS_KEY_ID": AK, "OBS_SECRET_ACCESS_KEY": SK}
                expect(obs.createBucket("tags-obs").status < 300, "createBucket")
                objstore("cp", file.name, "obs://tags-obs/ours", "--tags", cli_tags, variables=variables)
                got = obs.getObjectTagging("tags-obs", "ours")
                expect(got.status == 200, f"getObjectTagging {got.status} {got.errorCode}")
                expect({t.key: t.value for t in got.body.tags} == tags, str(got.body))
                put = obs.setObjectTagging("tags-obs", "ours", {"k": "v"})
                expect(put.status < 300, f"setObjectTagging {put.status} {put.errorCode} {put.errorMessage}")
                expect(objstore("tag", "get", "obs://tags-obs/ours", variables=variables) == "k=v\n", "replaced")
            check("esdk-obs tags set and read across objstore", obs_tags)


# ---------------------------------------------------------------- versions: the vendors' clients and ours
def our_versions(url, variables):
    """(key, version id, is a delete marker, is latest) for each version `objstore ls --versions` lists."""
    import json
    lines = objstore("ls", "--versions", "--recursive", "--json", url, variables=variables).splitlines()
    return {(v["key"], v["versionID"], v["isDeleteMarker"], v["isLatest"]) for v in map(json.loads, lines)}


def versions_suite():
    if not os.environ.get("OBJSTORE_CLI"):
        return missing("objstore versions", "OBJSTORE_CLI is not set")
    with tempfile.NamedTemporaryFile(suffix=".txt") as file:
        file.write(b"ours\n")
        file.flush()
        try:
            import boto3
            from botocore.config import Config
        except ImportError as error:
            missing("boto3 versions", error)
        else:
            def boto3_versions():
                s3 = boto3.client("s3", endpoint_url=ENDPOINT, aws_access_key_id=AK, aws_secret_access_key=SK,
                                  region_name="us-east-1", config=Config(s3={"addressing_style": "path"}))
                variables = {"AWS_ACCESS_KEY_ID": AK, "AWS_SECRET_ACCESS_KEY": SK}
                s3.create_bucket(Bucket="versions-boto3")
                s3.put_bucket_versioning(Bucket="versions-boto3", VersioningConfiguration={"Status": "Enabled"})
                expect(objstore("versioning", "s3://versions-boto3", variables=variables) == "Enabled\n", "state")
                ids = [s3.put_object(Bucket="versions-boto3", Key="k", Body=bytes([n]))["VersionId"] for n in range(2)]
                objstore("cp", file.name, "s3://versions-boto3/k", variables=variables)
                marker = s3.delete_object(Bucket="versions-boto3", Key="k")
                expect(marker.get("DeleteMarker") is True, marker)
                listed = s3.list_object_versions(Bucket="versions-boto3")
                theirs = {(v["Key"], v["VersionId"], False, v["IsLatest"]) for v in listed.get("Versions", [])}
                theirs |= {(m["Key"], m["VersionId"], True, m["IsLatest"]) for m in listed.get("DeleteMarkers", [])}
                expect(len(theirs) == 4 and theirs == our_versions("s3://versions-boto3/", variables), theirs)
                old = s3.get_object(Bucket="versions-boto3", Key="k", VersionId=ids[0])["Body"].read()
                expect(old == bytes([0]), old)
                objstore("rb", "--force", "s3://versions-boto3", variables=variables)
                expect("versions-boto3" not in [b["Name"] for b in s3.list_buckets()["Buckets"]], "rb --force")
            check("boto3 versions listed as objstore lists them; rb --force empties the bucket", boto3_versions)

        try:
            import oss2
        except ImportError as error:
            missing("oss2 versions", error)
        else:
            def oss2_versions():
                bucket = oss2.Bucket(oss2.Auth(AK, SK), ENDPOINT, "versions-oss2")
                variables = {"OSS_ACCESS_KEY_ID": AK, "OSS_ACCESS_KEY_SECRET": SK}
                bucket.create_bucket()
                config = oss2.models.BucketVersioningConfig()
                config.status = oss2.BUCKET_VERSIONING_ENABLE
                bucket.put_bucket_versioning(config)
                bucket.put_object("k", b"0")
                objstore("cp", file.name, "oss://versions-oss2/k", variables=variables)
                bucket.delete_object("k")
                listed = bucket.list_object_versions()
                theirs = {(v.key, v.versionid, False, v.is_latest) for v in listed.versions}
                theirs |= {(m.key, m.versionid, True, m.is_latest) for m in listed.delete_marker}
                expect(len(theirs) == 3 and theirs == our_versions("oss://versions-oss2/", variables), theirs)
            check("oss2 versions listed as objstore lists them", oss2_versions)

        try:
            from obs import ObsClient
        except ImportError as error:
            missing("esdk-obs versions", error)
        else:
            def obs_versions():
                obs = ObsClient(access_key_id=AK, secret_access_key=SK, server=f"http://localhost:{PORT}",
                                signature="obs", is_signature_negotiation=False, max_retry_count=1)
                variables = {"OBS_ACCESS_KEY_ID": AK, "OBS_SECRET_ACCESS_KEY": SK}
                expect(obs.createBucket("versions-obs").status < 300, "createBucket")
                expect(obs.setBucketVersioning("versions-obs", "Enabled").status < 300, "setBucketVersioning")
                expect(obs.putContent("versions-obs", "k", b"0").status < 300, "putContent")
                objstore("cp", file.name, "obs://versions-obs/k", variables=variables)
                expect(obs.deleteObject("versions-obs", "k").status < 300, "deleteObject")
                listed = obs.listVersions("versions-obs")
                expect(listed.status == 200, f"listVersions {listed.status} {listed.errorCode}")
                theirs = {(v.key, v.versionId, False, v.isLatest) for v in listed.body.versions}
                theirs |= {(m.key, m.versionId, True, m.isLatest) for m in listed.body.markers}
                expect(len(theirs) == 3 and theirs == our_versions("obs://versions-obs/", variables), theirs)
            check("esdk-obs versions listed as objstore lists them", obs_versions)


# ---------------------------------------------------------------- bucket CORS: the vendors' clients and ours
def preflight(url, origin, method, headers=None):
    """An unsigned OPTIONS as a browser sends it: (status, Access-Control-Allow-Origin)."""
    request = urllib.request.Request(url, method="OPTIONS", headers={
        "Origin": origin, "Access-Control-Request-Method": method,
        **({"Access-Control-Request-Headers": headers} if headers else {})})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.headers.get("Access-Control-Allow-Origin")
    except urllib.error.HTTPError as error:
        return error.code, error.headers.get("Access-Control-Allow-Origin")


def cors_suite():
    if not os.environ.get("OBJSTORE_CLI"):
        return missing("objstore CORS", "OBJSTORE_CLI is not set")
    import json
    ours = {"CORSRules": [{"ID": "uploads", "AllowedOrigins": ["https://*.example.com"], "AllowedMethods": ["PUT", "POST"],
                           "AllowedHeaders": ["content-*"], "ExposeHeaders": ["ETag"], "MaxAgeSeconds": 600}]}
    with tempfile.NamedTemporaryFile("w", suffix=".json") as file:
        json.dump(ours, file)
        file.flush()

        try:
            import boto3
            from botocore.config import Config
        except ImportError as error:
            missing("boto3 CORS", error)
        else:
            def boto3_cors():
                s3 = boto3.client("s3", endpoint_url=ENDPOINT, aws_access_key_id=AK, aws_secret_access_key=SK,
                                  region_name="us-east-1", config=Config(s3={"addressing_style": "path"}))
                variables = {"AWS_ACCESS_KEY_ID": AK, "AWS_SECRET_ACCESS_KEY": SK}
                s3.create_bucket(Bucket="cors-boto3")
                try:
                    s3.get_bucket_cors(Bucket="cors-boto3")
                    raise AssertionError("expected NoSuchCORSConfiguration")
                except s3.exceptions.ClientError as error:
                    expect(error.response["Error"]["Code"] == "NoSuchCORSConfiguration", str(error))
                objstore("cors", "set", "s3://cors-boto3", file.name, variables=variables)
                expect(s3.get_bucket_cors(Bucket="cors-boto3")["CORSRules"] == ours["CORSRules"], "theirs reads ours")
                theirs = [{"AllowedOrigins": ["*"], "AllowedMethods": ["GET", "HEAD"], "ExposeHeaders": ["x-amz-version-id"],
                           "MaxAgeSeconds": 60}]
                s3.put_bucket_cors(Bucket="cors-boto3", CORSConfiguration={"CORSRules": theirs})
                read = json.loads(objstore("cors", "get", "--json", "s3://cors-boto3", variables=variables))
                expect(read["CORSRules"] == theirs, read)
                expect(preflight(f"{ENDPOINT}/cors-boto3/k", "https://a.test", "GET") == (200, "*"), "preflight allowed")
                expect(preflight(f"{ENDPOINT}/cors-boto3/k", "https://a.test", "PUT")[0] == 403, "preflight refused")
                s3.delete_bucket_cors(Bucket="cors-boto3")
                expect(objstore("cors", "get", "s3://cors-boto3", variables=variables) == "", "removed")
            check("boto3 CORS read by objstore, objstore's by boto3; preflights by the rules", boto3_cors)

        try:
            import oss2
        except ImportError as error:
            missing("oss2 CORS", error)
        else:
            def oss2_cors():
                bucket = oss2.Bucket(oss2.Auth(AK, SK), ENDPOINT, "cors-oss2")
                variables = {"OSS_ACCESS_KEY_ID": AK, "OSS_ACCESS_KEY_SECRET": SK}
                bucket.create_bucket()
                rule = oss2.models.CorsRule(allowed_origins=["https://app.test"], allowed_methods=["PUT"],
                                            allowed_headers=["*"], expose_headers=["ETag"], max_age_seconds=30)
                bucket.put_bucket_cors(oss2.models.BucketCors([rule], response_vary=True))
                read = json.loads(objstore("cors", "get", "--json", "oss://cors-oss2", variables=variables))
                expect(read == {"CORSRules": [{"AllowedOrigins": ["https://app.test"], "AllowedMethods": ["PUT"],
                                               "AllowedHeaders": ["*"], "ExposeHeaders": ["ETag"], "MaxAgeSeconds": 30}],
                                "ResponseVary": True}, read)
                expect(preflight(f"{ENDPOINT}/cors-oss2/k", "https://app.test", "PUT", "x-oss-meta-a")
                       == (200, "https://app.test"), "preflight allowed")
                without_ids = {"CORSRules": [{k: v for k, v in r.items() if k != "ID"} for r in ours["CORSRules"]]}
                with tempfile.NamedTemporaryFile("w", suffix=".json") as plain:
                    json.dump(without_ids, plain)
                    plain.flush()
                    objstore("cors", "set", "oss://cors-oss2", plain.name, variables=variables)
                got = bucket.get_bucket_cors()
                expect([(r.allowed_origins, r.allowed_methods, r.allowed_headers, r.expose_headers, r.max_age_seconds)
                        for r in got.rules] == [(["https://*.example.com"], ["PUT", "POST"], ["content-*"], ["ETag"], 600)],
                       str(got.rules))
                bucket.delete_bucket_cors()
                try:
                    bucket.get_bucket_cors()
                    raise AssertionError("expected NoSuchCors")
                except oss2.exceptions.NoSuchCors:
                    pass
            check("oss2 CORS (ResponseVary) read by objstore, objstore's by oss2", oss2_cors)

        try:
            from obs import ObsClient, CorsRule, Options
        except ImportError as error:
            missing("esdk-obs CORS", error)
        else:
            def obs_cors():
                obs = ObsClient(access_key_id=AK, secret_access_key=SK, server=f"http://localhost:{PORT}",
                                signature="obs", is_signature_negotiation=False, max_retry_count=1)
                variables = {"OBS_ACCESS_KEY_ID": AK, "OBS_SECRET_ACCESS_KEY": SK}
                expect(obs.createBucket("cors-obs").status < 300, "createBucket")
                objstore("cors", "set", "obs://cors-obs", file.name, variables=variables)
                got = obs.getBucketCors("cors-obs")
                expect(got.status == 200, f"getBucketCors {got.status} {got.errorCode}")
                expect([(r.id, r.allowedOrigin, r.allowedMethod, r.maxAgeSecond) for r in got.body]
                       == [("uploads", ["https://*.example.com"], ["PUT", "POST"], 600)], str(got.body))
                put = obs.setBucketCors("cors-obs", [CorsRule(id="reads", allowedMethod=["GET"], allowedOrigin=["*"],
                                                              allowedHeader=["*"], maxAgeSecond=5)])
                expect(put.status < 300, f"setBucketCors {put.status} {put.errorCode} {put.errorMessage}")
                read = json.loads(objstore("cors", "get", "--json", "obs://cors-obs", variables=variables))
                expect(read == {"CORSRules": [{"ID": "reads", "AllowedOrigins": ["*"], "AllowedMethods": ["GET"],
                                               "AllowedHeaders": ["*"], "MaxAgeSeconds": 5}]}, read)
                options = obs.optionsObject("cors-obs", "k", Options(origin="https://a.test", accessControlRequestMethods=["GET"]))
                expect(options.status == 200, f"optionsObject {options.status} {options.errorCode}")
                refused = obs.optionsObject("cors-obs", "k", Options(origin="https://a.test", accessControlRequestMethods=["PUT"]))
                expect(refused.status == 403, f"optionsObject PUT {refused.status}")
                expect(obs.deleteBucketCors("cors-obs").status < 300, "deleteBucketCors")
            check("esdk-obs CORS read by objstore, objstore's by esdk-obs; optionsObject by the rules", obs_cors)


def lifecycle_suite():
    if not os.environ.get("OBJSTORE_CLI"):
        return missing("objstore lifecycle", "OBJSTORE_CLI is not set")
    import json

    def rules_file(rules):
        file = tempfile.NamedTemporaryFile("w", suffix=".json")
        json.dump({"Rules": rules}, file)
        file.flush()
        return file

    try:
        import boto3
        from botocore.config import Config
    except ImportError as error:
        missing("boto3 lifecycle", error)
    else:
        def boto3_lifecycle():
            s3 = boto3.client("s3", endpoint_url=ENDPOINT, aws_access_key_id=AK, aws_secret_access_key=SK,
                              region_name="us-east-1", config=Config(s3={"addressing_style": "path"}))
            variables = {"AWS_ACCESS_KEY_ID": AK, "AWS_SECRET_ACCESS_KEY": SK}
            s3.create_bucket(Bucket="lifecycle-boto3")
            try:
                s3.get_bucket_lifecycle_configuration(Bucket="lifecycle-boto3")
                raise AssertionError("expected NoSuchLifecycleConfiguration")
            except s3.exceptions.ClientError as error:
                expect(error.response["Error"]["Code"] == "NoSuchLifecycleConfiguration", str(error))
            ours = [{"ID": "logs", "Filter": {"Prefix": "logs/"}, "Status": "Enabled", "Expiration": {"Days": 365},
                     "Transitions": [{"Days": 30, "StorageClass": "STANDARD_IA"}],
                     "NoncurrentVersionExpiration": {"NoncurrentDays": 60}},
                    {"ID": "uploads", "Filter": {"Prefix": ""}, "Status": "Enabled",
                     "AbortIncompleteMultipartUpload": {"DaysAfterInitiation": 7}}]
            with rules_file(ours) as file:
                objstore("lifecycle", "set", "s3://lifecycle-boto3", file.name, variables=variables)
            got = s3.get_bucket_lifecycle_configuration(Bucket="lifecycle-boto3")["Rules"]
            expect(got == ours, f"boto3 reads ours: {got}")
            theirs = [{"ID": "scratch", "Filter": {"And": {"Prefix": "tmp/", "Tags": [{"Key": "kind", "Value": "scratch"}]}},
                       "Status": "Enabled", "Expiration": {"Days": 3}}]
            s3.put_bucket_lifecycle_configuration(Bucket="lifecycle-boto3", LifecycleConfiguration={"Rules": theirs})
            read = json.loads(objstore("lifecycle", "get", "--json", "s3://lifecycle-boto3", variables=variables))
            expect(read["Rules"] == theirs, read)
            try:
                s3.put_bucket_lifecycle_configuration(Bucket="lifecycle-boto3", LifecycleConfiguration={"Rules": [
                    {"ID": "x", "Filter": {"Prefix": ""}, "Status": "Enabled", "Expiration": {"Days": 0}}]})
                raise AssertionError("expected InvalidArgument for 0 days")
            except s3.exceptions.ClientError as error:
                expect(error.response["Error"]["Code"] == "InvalidArgument", str(error))
            s3.delete_bucket_lifecycle(Bucket="lifecycle-boto3")
            expect(objstore("lifecycle", "get", "s3://lifecycle-boto3", variables=variables) == "", "removed")
        check("boto3 lifecycle read by objstore, objstore's by boto3; 0 days refused as S3 does", boto3_lifecycle)

    try:
        import oss2
        from oss2.models import (AbortMultipartUpload, BucketLifecycle, LifecycleExpiration, LifecycleRule,
                                 StorageTransition)
    except ImportError as error:
        missing("oss2 lifecycle", error)
    else:
        def oss2_lifecycle():
            bucket = oss2.Bucket(oss2.Auth(AK, SK), ENDPOINT, "lifecycle-oss2")
            variables = {"OSS_ACCESS_KEY_ID": AK, "OSS_ACCESS_KEY_SECRET": SK}
            bucket.create_bucket()
            rule = LifecycleRule("logs", "logs/", status=LifecycleRule.ENABLED,
                                 expiration=LifecycleExpiration(days=90),
                                 storage_transitions=[StorageTransition(days=30, storage_class=oss2.BUCKET_STORAGE_CLASS_IA)])
            uploads = LifecycleRule("uploads", "up/", status=LifecycleRule.ENABLED,
                                    abort_multipart_upload=AbortMultipartUpload(days=7))
            bucket.put_bucket_lifecycle(BucketLifecycle([rule, uploads]))
            read = json.loads(objstore("lifecycle", "get", "--json", "oss://lifecycle-oss2", variables=variables))
            expect(read == {"Rules": [
                {"ID": "logs", "Filter": {"Prefix": "logs/"}, "Status": "Enabled", "Expiration": {"Days": 90},
                 "Transitions": [{"Days": 30, "StorageClass": "IA"}]},
                {"ID": "uploads", "Filter": {"Prefix": "up/"}, "Status": "Enabled",
                 "AbortIncompleteMultipartUpload": {"DaysAfterInitiation": 7}}]}, read)
            ours = [{"ID": "tmp", "Filter": {"Prefix": "tmp/"}, "Status": "Enabled", "Expiration": {"Days": 2}}]
            with rules_file(ours) as file:
                objstore("lifecycle", "set", "oss://lifecycle-oss2", file.name, variables=variables)
            got = bucket.get_bucket_lifecycle().rules
            expect([(r.id, r.prefix, r.status, r.expiration.days) for r in got] == [("tmp", "tmp/", "Enabled", 2)],
                   str([vars(r) for r in got]))
            bucket.delete_bucket_lifecycle()
            try:
                bucket.get_bucket_lifecycle()
                raise AssertionError("expected NoSuchLifecycle")
            except oss2.exceptions.NoSuchLifecycle:
                pass
        check("oss2 lifecycle read by objstore, objstore's by oss2", oss2_lifecycle)

    try:
        from obs import Expiration, Lifecycle, ObsClient, Rule, Transition
    except ImportError as error:
        missing("esdk-obs lifecycle", error)
    else:
        def obs_lifecycle():
            obs = ObsClient(access_key_id=AK, secret_access_key=SK, server=f"http://localhost:{PORT}",
                            signature="obs", is_signature_negotiation=False, max_retry_count=1)
            variables = {"OBS_ACCESS_KEY_ID": AK, "OBS_SECRET_ACCESS_KEY": SK}
            expect(obs.createBucket("lifecycle-obs").status < 300, "createBucket")
            ours = [{"ID": "logs", "Filter": {"Prefix": "logs/"}, "Status": "Enabled", "Expiration": {"Days": 60},
                     "Transitions": [{"Days": 30, "StorageClass": "WARM"}]}]
            with rules_file(ours) as file:
                objstore("lifecycle", "set", "obs://lifecycle-obs", file.name, variables=variables)
            got = obs.getBucketLifecycle("lifecycle-obs")
            expect(got.status == 200, f"getBucketLifecycle {got.status} {got.errorCode}")
            rules = got.body.lifecycleConfig.rule
            expect([(r.id, r.prefix, r.status, r.expiration.days, [(t.days, t.storageClass) for t in r.transition])
                    for r in rules] == [("logs", "logs/", "Enabled", 60, [(30, "WARM")])], str(got.body))
            theirs = Lifecycle(rule=[Rule(id="tmp", prefix="tmp/", status="Enabled", expiration=Expiration(days=5),
                                          transition=[Transition(days=30, storageClass="COLD")])])
            put = obs.setBucketLifecycle("lifecycle-obs", theirs)
            expect(put.status == 400, f"expiration before a transition is refused: {put.status} {put.errorCode}")
            theirs.rule[0].expiration = Expiration(days=90)
            put = obs.setBucketLifecycle("lifecycle-obs", theirs)
            expect(put.status < 300, f"setBucketLifecycle {put.status} {put.errorCode} {put.errorMessage}")
            read = json.loads(objstore("lifecycle", "get", "--json", "obs://lifecycle-obs", variables=variables))
            expect(read == {"Rules": [{"ID": "tmp", "Filter": {"Prefix": "tmp/"}, "Status": "Enabled",
                                       "Expiration": {"Days": 90}, "Transitions": [{"Days": 30, "StorageClass": "COLD"}]}]},
                   read)
            expect(obs.deleteBucketLifecycle("lifecycle-obs").status < 300, "deleteBucketLifecycle")
        check("esdk-obs lifecycle read by objstore, objstore's by esdk-obs; a refused rule refused", obs_lifecycle)


# ---------------------------------------------------------------- appends and symlinks: oss2, esdk-obs and ours
def append_suite():
    if not os.environ.get("OBJSTORE_CLI"):
        return missing("objstore append", "OBJSTORE_CLI is not set")
    with tempfile.NamedTemporaryFile(suffix=".txt") as file:
        file.write(b"ours\n")
        file.flush()
        try:
            import oss2
        except ImportError as error:
            missing("oss2 appends", error)
        else:
            def oss2_appends():
                bucket = oss2.Bucket(oss2.Auth(AK, SK), ENDPOINT, "append-oss2")
                variables = {"OSS_ACCESS_KEY_ID": AK, "OSS_ACCESS_KEY_SECRET": SK}
                bucket.create_bucket()
                expect(objstore("append", file.name, "oss://append-oss2/log", variables=variables) == "5\n", "ours first")
                # Given the CRC-64 of the bytes before, oss2 checks the answer's CRC-64 of the whole object.
                result = bucket.append_object("log", 5, b"theirs\n", init_crc=crc64_xz(b"ours\n"))
                expect(result.next_position == 12, result.next_position)
                expect(result.crc == crc64_xz(b"ours\ntheirs\n"), result.crc)
                expect(objstore("append", file.name, "oss://append-oss2/log", variables=variables) == "17\n", "ours again")
                expect(objstore("cat", "oss://append-oss2/log", variables=variables) == "ours\ntheirs\nours\n", "content")
                try:
                    bucket.append_object("log", 3, b"late")
                    raise AssertionError("a stale position was accepted")
                except oss2.exceptions.PositionNotEqualToLength as error:
                    expect(error.next_position == 17, error.next_position)
                expect(bucket.head_object("log").object_type == "Appendable", "object type")
            check("oss2 append_object after objstore append and before it; a stale position's next_position", oss2_appends)

            def oss2_symlinks():
                bucket = oss2.Bucket(oss2.Auth(AK, SK), ENDPOINT, "symlink-oss2")
                variables = {"OSS_ACCESS_KEY_ID": AK, "OSS_ACCESS_KEY_SECRET": SK}
                bucket.create_bucket()
                bucket.put_object("talks/a b.txt", b"the talk")
                bucket.put_symlink("talks/a b.txt", "theirs")
                expect(objstore("symlink", "read", "oss://symlink-oss2/theirs", variables=variables) == "talks/a b.txt\n",
                       "ours reads theirs")
                objstore("symlink", "create", "oss://symlink-oss2/ours", "talks/a b.txt", variables=variables)
                expect(bucket.get_symlink("ours").target_key == "talks/a b.txt", "theirs reads ours")
                expect(bucket.get_object("ours").read() == b"the talk", "a GET follows the symlink")
            check("oss2 put_symlink/get_symlink agree with objstore symlink create/read", oss2_symlinks)

        try:
            from obs import AppendObjectContent, ObsClient
        except ImportError as error:
            missing("esdk-obs appends", error)
        else:
            def obs_appends():
                obs = ObsClient(access_key_id=AK, secret_access_key=SK, server=f"http://localhost:{PORT}",
                                signature="obs", is_signature_negotiation=False, max_retry_count=1)
                variables = {"OBS_ACCESS_KEY_ID": AK, "OBS_SECRET_ACCESS_KEY": SK}
                expect(obs.createBucket("append-obs").status < 300, "createBucket")
                expect(objstore("append", file.name, "obs://append-obs/log", variables=variables) == "5\n", "ours first")
                got = obs.appendObject("append-obs", "log", AppendObjectContent(content=b"theirs\n", position=5))
                expect(got.status == 200 and got.body.nextPosition == 12, f"appendObject {got.status} {got.errorCode}")
                meta = obs.getObjectMetadata("append-obs", "log")
                expect(meta.body.isAppendable and meta.body.nextPosition == 12, "getObjectMetadata")
                expect(objstore("append", file.name, "obs://append-obs/log", variables=variables) == "17\n", "ours again")
                expect(objstore("cat", "obs://append-obs/log", variables=variables) == "ours\ntheirs\nours\n", "content")
            check("esdk-obs appendObject between objstore appends; getObjectMetadata names it appendable", obs_appends)


# ---------------------------------------------------------------- bucket policy, default encryption, canned ACLs
def bucket_configuration_suite():
    """Each vendor's client sets a policy, a default encryption and canned ACLs that objstore reads back the same,
    and reads back what objstore set."""
    if not os.environ.get("OBJSTORE_CLI"):
        return missing("objstore policy", "OBJSTORE_CLI is not set")
    import json

    def policy_file(text):
        file = tempfile.NamedTemporaryFile("w", suffix=".json")
        file.write(text)
        file.flush()
        return file

    try:
        import boto3
        from botocore.config import Config
    except ImportError as error:
        missing("boto3 policy, encryption, ACL", error)
    else:
        def boto3_configuration():
            s3 = boto3.client("s3", endpoint_url=ENDPOINT, aws_access_key_id=AK, aws_secret_access_key=SK,
                              region_name="us-east-1", config=Config(s3={"addressing_style": "path"}))
            variables = {"AWS_ACCESS_KEY_ID": AK, "AWS_SECRET_ACCESS_KEY": SK}
            s3.create_bucket(Bucket="config-boto3")
            try:
                s3.get_bucket_policy(Bucket="config-boto3")
                raise AssertionError("expected NoSuchBucketPolicy")
            except s3.exceptions.ClientError as error:
                expect(error.response["Error"]["Code"] == "NoSuchBucketPolicy", str(error))
            theirs = json.dumps({"Version": "2012-10-17", "Statement": [
                {"Sid": "reads", "Effect": "Allow", "Principal": "*", "Action": "s3:GetObject",
                 "Resource": "arn:aws:s3:::config-boto3/*"}]})
            s3.put_bucket_policy(Bucket="config-boto3", Policy=theirs)
            expect(objstore("policy", "get", "s3://config-boto3", variables=variables) == theirs + "\n", "ours reads theirs")
            ours = '{\n  "Version": "2012-10-17",\n  "Statement": [{"Effect": "Deny", "Principal": "*", "Action": "s3:DeleteObject", "Resource": "arn:aws:s3:::config-boto3/*"}]\n}'
            with policy_file(ours) as file:
                objstore("policy", "set", "s3://config-boto3", file.name, variables=variables)
            expect(s3.get_bucket_policy(Bucket="config-boto3")["Policy"] == ours, "theirs reads ours")
            try:
                s3.put_bucket_policy(Bucket="config-boto3", Policy="Statement: none")
                raise AssertionError("expected MalformedPolicy")
            except s3.exceptions.ClientError as error:
                expect(error.response["Error"]["Code"] == "MalformedPolicy", str(error))
            s3.delete_bucket_policy(Bucket="config-boto3")
            expect(objstore("policy", "get", "s3://config-boto3", variables=variables) == "", "removed")

            try:
                s3.get_bucket_encryption(Bucket="config-boto3")
                raise AssertionError("expected ServerSideEncryptionConfigurationNotFoundError")
            except s3.exceptions.ClientError as error:
                expect(error.response["Error"]["Code"] == "ServerSideEncryptionConfigurationNotFoundError", str(error))
            s3.put_bucket_encryption(Bucket="config-boto3", ServerSideEncryptionConfiguration={"Rules": [
                {"ApplyServerSideEncryptionByDefault": {"SSEAlgorithm": "aws:kms", "KMSMasterKeyID": "alias/theirs"}}]})
            expect(objstore("encryption", "get", "s3://config-boto3", variables=variables)
                   == "KMS\nkms-key-id: alias/theirs\n", "ours reads theirs")
            objstore("encryption", "set", "s3://config-boto3", "--algorithm", "AES256", variables=variables)
            rule = s3.get_bucket_encryption(Bucket="config-boto3")["ServerSideEncryptionConfiguration"]["Rules"][0]
            expect(rule["ApplyServerSideEncryptionByDefault"] == {"SSEAlgorithm": "AES256"}, rule)
            put = s3.put_object(Bucket="config-boto3", Key="k", Body=b"x")
            expect(put.get("ServerSideEncryption") == "AES256", put)
            expect(s3.head_object(Bucket="config-boto3", Key="k").get("ServerSideEncryption") == "AES256", "head")
            s3.delete_bucket_encryption(Bucket="config-boto3")
            expect(objstore("encryption", "get", "s3://config-boto3", variables=variables) == "", "removed")

            s3.put_bucket_acl(Bucket="config-boto3", ACL="public-read")
            expect(objstore("acl", "get", "s3://config-boto3", variables=variables).startswith("public-read\n"), "theirs")
            objstore("acl", "set", "s3://config-boto3", "authenticated-read", variables=variables)
            grants = s3.get_bucket_acl(Bucket="config-boto3")["Grants"]
            expect([(g["Grantee"]["Type"], g["Grantee"].get("URI"), g["Permission"]) for g in grants][1:]
                   == [("Group", "http://acs.amazonaws.com/groups/global/AuthenticatedUsers", "READ")], grants)
            objstore("acl", "set", "s3://config-boto3/k", "public-read-write", variables=variables)
            grants = s3.get_object_acl(Bucket="config-boto3", Key="k")["Grants"]
            expect(sorted(g["Permission"] for g in grants) == ["FULL_CONTROL", "READ", "WRITE"], grants)
            s3.put_object_acl(Bucket="config-boto3", Key="k", ACL="private")
            expect(objstore("acl", "get", "s3://config-boto3/k", variables=variables).startswith("private\n"), "private")
        check("boto3 policy, encryption and ACLs read by objstore, objstore's by boto3", boto3_configuration)

    try:
        import oss2
    except ImportError as error:
        missing("oss2 policy, encryption, ACL", error)
    else:
        def oss2_configuration():
            bucket = oss2.Bucket(oss2.Auth(AK, SK), ENDPOINT, "config-oss2")
            variables = {"OSS_ACCESS_KEY_ID": AK, "OSS_ACCESS_KEY_SECRET": SK}
            bucket.create_bucket()
            try:
                bucket.get_bucket_policy()
                raise AssertionError("expected NoSuchBucketPolicy")
            except oss2.exceptions.NoSuchBucketPolicy:
                pass
            theirs = json.dumps({"Version": "1", "Statement": [{"Effect": "Allow", "Action": ["oss:GetObject"],
                                 "Principal": ["*"], "Resource": ["acs:oss:*:*:config-oss2/*"]}]})
            bucket.put_bucket_policy(theirs)
            expect(objstore("policy", "get", "oss://config-oss2", variables=variables) == theirs + "\n", "ours reads theirs")
            ours = '{"Version": "1", "Statement": [{"Effect": "Deny", "Action": ["oss:PutObject"], "Principal": ["*"], "Resource": ["acs:oss:*:*:config-oss2/*"]}]}'
            with policy_file(ours) as file:
                objstore("policy", "set", "oss://config-oss2", file.name, variables=variables)
            expect(bucket.get_bucket_policy().policy == ours, "theirs reads ours")
            try:
                bucket.put_bucket_policy('{"Version": "2", "Statement": []}')
                raise AssertionError("expected InvalidPolicyDocument")
            except oss2.exceptions.ServerError as error:
                expect(error.code == "InvalidPolicyDocument" and error.ec == "0030-00000002", str(error))
            bucket.delete_bucket_policy()

            bucket.put_bucket_encryption(oss2.models.ServerSideEncryptionRule(sse_algorithm="SM4"))
            expect(objstore("encryption", "get", "oss://config-oss2", variables=variables) == "SM4\n", "ours reads theirs")
            objstore("encryption", "set", "oss://config-oss2", "--algorithm", "KMS", "--kms-key-id", "key-1",
                     variables=variables)
            got = bucket.get_bucket_encryption()
            expect((got.sse_algorithm, got.kms_master_keyid) == ("KMS", "key-1"), vars(got))
            put = bucket.put_object("k", b"x")
            expect(put.headers.get("x-oss-server-side-encryption") == "KMS", dict(put.headers))
            try:
                bucket.put_bucket_encryption(oss2.models.ServerSideEncryptionRule(sse_algorithm="DES"))
                raise AssertionError("expected InvalidEncryptionAlgorithmError")
            except oss2.exceptions.InvalidEncryptionAlgorithmError:
                pass
            bucket.delete_bucket_encryption()
            try:
                bucket.get_bucket_encryption()
                raise AssertionError("expected NoSuchServerSideEncryptionRule")
            except oss2.exceptions.NoSuchServerSideEncryptionRule:
                pass

            bucket.put_bucket_acl(oss2.BUCKET_ACL_PUBLIC_READ_WRITE)
            expect(objstore("acl", "get", "oss://config-oss2", variables=variables) == "public-read-write\n", "theirs")
            objstore("acl", "set", "oss://config-oss2", "private", variables=variables)
            expect(bucket.get_bucket_acl().acl == "private", "ours")
            expect(bucket.get_object_acl("k").acl == "default", "an object's default")
            objstore("acl", "set", "oss://config-oss2/k", "public-read", variables=variables)
            expect(bucket.get_object_acl("k").acl == "public-read", "ours on an object")
            bucket.put_object_acl("k", oss2.OBJECT_ACL_DEFAULT)
            expect(objstore("acl", "get", "oss://config-oss2/k", variables=variables) == "default\n", "theirs")
        check("oss2 policy, encryption (SM4, KMS) and ACLs read by objstore, objstore's by oss2", oss2_configuration)

    try:
        from obs import ObsClient
    except ImportError as error:
        missing("esdk-obs policy, encryption, ACL", error)
    else:
        def obs_configuration():
            obs = ObsClient(access_key_id=AK, secret_access_key=SK, server=f"http://localhost:{PORT}",
                            signature="obs", is_signature_negotiation=False, max_retry_count=1)
            variables = {"OBS_ACCESS_KEY_ID": AK, "OBS_SECRET_ACCESS_KEY": SK}
            expect(obs.createBucket("config-obs").status < 300, "createBucket")
            none = obs.getBucketPolicy("config-obs")
            expect(none.status == 404 and none.errorCode == "NoSuchBucketPolicy", f"{none.status} {none.errorCode}")
            theirs = json.dumps({"Statement": [{"Sid": "reads", "Effect": "Allow", "Principal": {"ID": ["*"]},
                                 "Action": ["GetObject"], "Resource": ["config-obs/*"]}]})
            put = obs.setBucketPolicy("config-obs", theirs)
            expect(put.status < 300, f"setBucketPolicy {put.status} {put.errorCode} {put.errorMessage}")
            expect(objstore("policy", "get", "obs://config-obs", variables=variables) == theirs + "\n", "ours reads theirs")
            ours = '{"Statement": [{"Effect": "Deny", "Principal": {"ID": ["*"]}, "Action": ["DeleteObject"], "Resource": ["config-obs/*"]}]}'
            with policy_file(ours) as file:
                objstore("policy", "set", "obs://config-obs", file.name, variables=variables)
            got = obs.getBucketPolicy("config-obs")
            expect(got.status == 200 and got.body.policyJSON == ours, f"{got.status} {got.body}")
            expect(obs.deleteBucketPolicy("config-obs").status < 300, "deleteBucketPolicy")

            put = obs.setBucketEncryption("config-obs", "kms", key="key-1")
            expect(put.status < 300, f"setBucketEncryption {put.status} {put.errorCode} {put.errorMessage}")
            expect(objstore("encryption", "get", "obs://config-obs", variables=variables) == "KMS\nkms-key-id: key-1\n",
                   "ours reads theirs")
            objstore("encryption", "set", "obs://config-obs", "--algorithm", "AES256", variables=variables)
            got = obs.getBucketEncryption("config-obs")
            expect(got.status == 200 and got.body.encryption == "AES256", f"{got.status} {got.body}")
            expect(obs.deleteBucketEncryption("config-obs").status < 300, "deleteBucketEncryption")
            none = obs.getBucketEncryption("config-obs")
            expect(none.status == 404 and none.errorCode == "NoSuchEncryptionConfiguration", f"{none.status} {none.errorCode}")

            put = obs.setBucketAcl("config-obs", aclControl="public-read-delivered")
            expect(put.status < 300, f"setBucketAcl {put.status} {put.errorCode} {put.errorMessage}")
            expect(objstore("acl", "get", "obs://config-obs", variables=variables).startswith("public-read-delivered\n"),
                   "ours reads theirs")
            objstore("acl", "set", "obs://config-obs", "public-read-write", variables=variables)
            got = obs.getBucketAcl("config-obs")
            expect(got.status == 200, f"getBucketAcl {got.status} {got.errorCode}")
            expect(sorted((g.grantee.group, g.permission) for g in got.body.grants if g.grantee.group)
                   == [("Everyone", "READ"), ("Everyone", "WRITE")], str(got.body))
            bad = obs.setBucketAcl("config-obs", aclControl="bucket-owner-full-control")
            expect(bad.status == 400 and bad.errorCode == "InvalidArgument", f"{bad.status} {bad.errorCode}")
        check("esdk-obs policy, encryption and ACLs read by objstore, objstore's by esdk-obs", obs_configuration)


# ---------------------------------------------------------------- archive restore: boto3, oss2, esdk-obs and ours
def restore_suite():
    if not os.environ.get("OBJSTORE_CLI"):
        return missing("objstore restore", "OBJSTORE_CLI is not set")
    with tempfile.NamedTemporaryFile(suffix=".tar") as file:
        file.write(b"archived bytes")
        file.flush()

        try:
            import boto3
            from botocore.config import Config
        except ImportError as error:
            missing("boto3 restore", error)
        else:
            def boto3_restore():
                s3 = boto3.client("s3", endpoint_url=ENDPOINT, aws_access_key_id=AK, aws_secret_access_key=SK,
                                  region_name="us-east-1", config=Config(s3={"addressing_style": "path"}))
                variables = {"AWS_ACCESS_KEY_ID": AK, "AWS_SECRET_ACCESS_KEY": SK}
                s3.create_bucket(Bucket="restore-boto3")
                objstore("cp", file.name, "s3://restore-boto3/a.tar", "--storage-class", "GLACIER", variables=variables)
                expect(s3.head_object(Bucket="restore-boto3", Key="a.tar").get("StorageClass") == "GLACIER", "class")
                try:
                    s3.get_object(Bucket="restore-boto3", Key="a.tar")
                    raise AssertionError("expected InvalidObjectState")
                except s3.exceptions.InvalidObjectState:
                    pass
                answer = s3.restore_object(Bucket="restore-boto3", Key="a.tar",
                                           RestoreRequest={"Days": 2, "GlacierJobParameters": {"Tier": "Bulk"}})
                expect(answer["ResponseMetadata"]["HTTPStatusCode"] == 202, str(answer))
                restore = s3.head_object(Bucket="restore-boto3", Key="a.tar").get("Restore", "")
                expect(restore.startswith('ongoing-request="false", expiry-date="'), restore)
                expect(s3.get_object(Bucket="restore-boto3", Key="a.tar")["Body"].read() == b"archived bytes", "read")
                again = objstore("restore", "s3://restore-boto3/a.tar", "--days", "3", variables=variables)
                expect(again.startswith("restored already, kept 3 more days"), again)
                s3.put_object(Bucket="restore-boto3", Key="plain", Body=b"1")
                try:
                    s3.restore_object(Bucket="restore-boto3", Key="plain", RestoreRequest={"Days": 1})
                    raise AssertionError("expected InvalidObjectState for a Standard object")
                except s3.exceptions.ClientError as error:
                    expect(error.response["Error"]["Code"] == "InvalidObjectState", str(error))
            check("boto3 restores what objstore archived; Restore from HEAD; a Standard object refused", boto3_restore)

        try:
            import oss2
        except ImportError as error:
            missing("oss2 restore", error)
        else:
            def oss2_restore():
                bucket = oss2.Bucket(oss2.Auth(AK, SK), ENDPOINT, "restore-oss2")
                variables = {"OSS_ACCESS_KEY_ID": AK, "OSS_ACCESS_KEY_SECRET": SK}
                bucket.create_bucket()
                bucket.put_object("a.tar", b"archived bytes", headers={"x-oss-storage-class": "Archive"})
                try:
                    bucket.get_object("a.tar")
                    raise AssertionError("expected InvalidObjectState")
                except oss2.exceptions.ServerError as error:
                    expect(error.status == 403 and error.code == "InvalidObjectState", str(error))
                out = objstore("restore", "oss://restore-oss2/a.tar", "--wait", "--poll-interval", "1s",
                               variables=variables)
                expect("restore started" in out and "restored: oss://restore-oss2/a.tar (until " in out, out)
                head = bucket.head_object("a.tar")
                expect(head.headers.get("x-oss-restore", "").startswith('ongoing-request="false"'), str(head.headers))
                expect(bucket.get_object("a.tar").read() == b"archived bytes", "read")
                expect(bucket.restore_object("a.tar").status == 200, "a restored object's restore is 200")
            check("oss2 reads what objstore restored; its restore of a restored object is 200", oss2_restore)

        try:
            from obs import ObsClient, PutObjectHeader
        except ImportError as error:
            missing("esdk-obs restore", error)
        else:
            def obs_restore():
                obs = ObsClient(access_key_id=AK, secret_access_key=SK, server=f"http://localhost:{PORT}",
                                signature="obs", is_signature_negotiation=False, max_retry_count=1)
                variables = {"OBS_ACCESS_KEY_ID": AK, "OBS_SECRET_ACCESS_KEY": SK}
                expect(obs.createBucket("restore-obs").status < 300, "createBucket")
                objstore("cp", file.name, "obs://restore-obs/a.tar", "--storage-class", "COLD", variables=variables)
                got = obs.getObject("restore-obs", "a.tar", loadStreamInMemory=True)
                expect(got.status == 403 and got.errorCode == "InvalidObjectState", f"{got.status} {got.errorCode}")
                restored = obs.restoreObject("restore-obs", "a.tar", days=1, tier="Expedited")
                expect(restored.status == 202, f"restoreObject {restored.status} {restored.errorCode}")
                read = obs.getObject("restore-obs", "a.tar", loadStreamInMemory=True)
                expect(read.status == 200 and read.body.buffer == b"archived bytes", f"getObject {read.status}")
                state = objstore("stat", "obs://restore-obs/a.tar", "--json", variables=variables)
                expect('"COLD"' in state, state)
            check("esdk-obs restores what objstore archived, then reads it", obs_restore)


for suite in (boto3_suite, oss2_suite, obs_suite, error_bodies_suite, post_policy_suite, awscli_suite, tagging_suite,
              versions_suite, cors_suite, lifecycle_suite, append_suite, bucket_configuration_suite,
              restore_suite):
    suite()
print(f"{results['passed']} passed, {results['failed']} failed" + (f", {results['skipped']} skipped" if results["skipped"] else ""))
sys.exit(1 if results["failed"] else 0)
