#!/usr/bin/env python3
# This source file is part of the swift-object-storage open source project
# SPDX-License-Identifier: Apache-2.0
#
# Generates ../vectors/sts-vectors.json: the STS requests that the vendors' own Python credential
# libraries send, captured where they would go on the network. Nothing here signs or encodes a request
# itself: every URL, body, header, string-to-sign and signature is what the library produced.
#
#   alibabacloud_credentials  RamRoleArnCredentialsProvider / OIDCRoleArnCredentialsProvider (and the
#                             Client, CLI-profile, credentials.ini and default-chain paths onto them)
#   aliyun-python-sdk-core    RamRoleArnSigner (the legacy SDK's AssumeRole) and, as a cross-check, the
#                             RPC string-to-sign of rpc_signature_composer
#   alibabacloud_tea_openapi  Utils.get_rpcsignature, cross-check only
#   botocore                  sts client (AssumeRole, AssumeRoleWithWebIdentity) and its credential chain
#                             (AssumeRoleProvider via a profile, AssumeRoleWithWebIdentityProvider via env)
#
# Also, under metadata_vectors, the requests of the instance-metadata credential providers (Alibaba ECS RAM
# role, Alibaba credentials URI, AWS IMDSv2, AWS container credentials, Huawei ECS securitykey).
#
# Each call runs with the clock frozen at 1709611506 (2024-03-05T04:05:06Z) and the uuid functions returning
# 3f1a2b3c-4d5e-6f70-8192-a3b4c5d6e7f8, for that call only. HOME, the AWS config files and every
# ALIBABA_CLOUD_*/AWS_* variable are isolated, so the output does not depend on the machine.
#   pip install alibabacloud_credentials==1.0.12 alibabacloud_tea_openapi==0.4.6 \
#       aliyun-python-sdk-core==2.16.1 botocore==1.43.11 esdk-obs-python==3.26.6
#   python3 Fixtures/sts/generate.py > Fixtures/vectors/sts-vectors.json
import atexit
import contextlib
import datetime
import importlib
import importlib.metadata
import io
import json
import logging
import os
import platform
import shutil
import sys
import tempfile
import time
import uuid
from urllib.parse import parse_qsl, urlsplit

FIXED = 1709611506
FIXED_ISO = "2024-03-05T04:05:06Z"
NONCE = "3f1a2b3c-4d5e-6f70-8192-a3b4c5d6e7f8"
NONCE_UUID = uuid.UUID(NONCE)
AK = "LTAI5tFixedTestAccessKeyId"
SK = "FixedTestAccessKeySecret0123456789ab"
ALI_TOKEN = "CAIS8gF1q6Ft5B2yfSjIr5fixedTestSecurityToken+/="
AWS_TOKEN = "FwoGZXIvYXdzEFixedTestSessionToken+/=="
ALI_ROLE = "acs:ram::1234567890123456:role/test-role"
ALI_OIDC_PROVIDER = "acs:ram::1234567890123456:oidc-provider/ack-rrsa-fixed"
AWS_ROLE = "arn:aws:iam::123456789012:role/test-role"
# A JWT-shaped token (base64url parts with '-' and '_'); it is never verified here.
OIDC_TOKEN = (
    "eyJhbGciOiJSUzI1NiIsImtpZCI6ImZpeGVkLWtpZCJ9"
    ".eyJpc3MiOiJodHRwczovL29pZGMuZXhhbXBsZS5jb20iLCJzdWIiOiJzeXN0ZW06c2VydmljZWFjY291bnQ6ZGVmYXVsdDpkZW1vIiwiYXVkIjoic3RzLmFsaXl1bmNzLmNvbSJ9"
    ".Zml4ZWQtc2lnbmF0dXJlLW5vdC12YWxpZF8tXw"
)
# Values that need percent-encoding: space, '*', '~', '/', '=', '+', '&', non-ASCII.
TRICKY_SESSION = "a b*c~d/e=f+g&h\u00e9"
POLICY = (
    '{"Version": "1", "Statement": [{"Effect": "Allow", "Action": ["oss:GetObject"], '
    '"Resource": ["acs:oss:*:*:bucket/caf\u00e9~/a=b+c&d*"]}]}'
)
AWS_POLICY = (
    '{"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": "s3:GetObject", '
    '"Resource": "arn:aws:s3:::bucket/caf\u00e9~/a=b+c&d*"}]}'
)
EXTERNAL_ID = "ext/id=1+2"
OMITTED_HEADERS = ["user-agent", "amz-sdk-invocation-id"]

# ---------------------------------------------------------------------------------------------------------
# Isolation: this must run before the libraries are imported (alibabacloud_credentials reads its
# environment variables and HOME when its modules are imported).
for _name in list(os.environ):
    if _name.startswith(("ALIBABA_CLOUD_", "ALICLOUD_", "AWS_", "OBS_", "HUAWEI_CLOUD_")) or _name in (
        "HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy", "NO_PROXY", "no_proxy", "DEBUG",
        "OIDC_TOKEN_FILE",
    ):
        del os.environ[_name]
os.environ["TZ"] = "UTC"
time.tzset()
WORK = tempfile.mkdtemp(prefix="sts-vectors-")
atexit.register(shutil.rmtree, WORK, True)
os.environ["HOME"] = WORK
os.environ["AWS_CONFIG_FILE"] = os.path.join(WORK, "aws-config")
os.environ["AWS_SHARED_CREDENTIALS_FILE"] = os.path.join(WORK, "aws-credentials")
BASE_ENV = dict(os.environ)

import requests  # noqa: E402  (alibabacloud-tea sends through requests.Session.send)

REAL_DATETIME = datetime.datetime
REAL_TIME = time.time
REAL_LOCALTIME = time.localtime
REAL_GMTIME = time.gmtime
REAL_UUID = (uuid.uuid1, uuid.uuid4, uuid.uuid5)


class _FrozenMeta(type):
    # isinstance(real_datetime, datetime.datetime) must stay true while the class is swapped (botocore checks it).
    def __instancecheck__(cls, instance):
        return isinstance(instance, REAL_DATETIME)


class FrozenDateTime(REAL_DATETIME, metaclass=_FrozenMeta):
    @classmethod
    def utcnow(cls):
        return REAL_DATETIME.fromtimestamp(FIXED, datetime.timezone.utc).replace(tzinfo=None)

    @classmethod
    def now(cls, tz=None):
        moment = REAL_DATETIME.fromtimestamp(FIXED, datetime.timezone.utc)
        return moment.astimezone(tz) if tz is not None else moment.replace(tzinfo=None)


@contextlib.contextmanager
def frozen():
    """The clock and uuid lookups the libraries make, fixed for one call."""
    datetime.datetime = FrozenDateTime
    time.time = lambda: float(FIXED)
    time.localtime = lambda secs=None: REAL_LOCALTIME(FIXED if secs is None else secs)
    time.gmtime = lambda secs=None: REAL_GMTIME(FIXED if secs is None else secs)
    uuid.uuid1 = lambda *a, **k: NONCE_UUID
    uuid.uuid4 = lambda: NONCE_UUID
    uuid.uuid5 = lambda *a: NONCE_UUID
    try:
        yield
    finally:
        datetime.datetime = REAL_DATETIME
        time.time = REAL_TIME
        time.localtime = REAL_LOCALTIME
        time.gmtime = REAL_GMTIME
        uuid.uuid1, uuid.uuid4, uuid.uuid5 = REAL_UUID


@contextlib.contextmanager
def environment(variables):
    """Sets environment variables for one vector and reloads alibabacloud_credentials' env snapshot."""
    os.environ.clear()
    os.environ.update(BASE_ENV)
    os.environ.update(variables or {})
    _reload_alibaba_env()
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(BASE_ENV)
        _reload_alibaba_env()


def _reload_alibaba_env():
    module = sys.modules.get("alibabacloud_credentials.utils.auth_util")
    if module is not None:
        importlib.reload(module)


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text)
    return path


def placeholder(path):
    """Temp paths never reach the wire; the JSON shows them relative to the fake HOME."""
    return "$HOME" + path[len(WORK):] if path.startswith(WORK) else path


def versions():
    names = [
        "alibabacloud_credentials", "alibabacloud-tea", "alibabacloud_tea_openapi", "aliyun-python-sdk-core",
        "botocore", "esdk-obs-python", "requests",
    ]
    return {name: importlib.metadata.version(name) for name in names}


def decoded_query(url):
    return [list(pair) for pair in parse_qsl(urlsplit(url).query, keep_blank_values=True)]


def header_dict(headers):
    out = {}
    for key, value in headers.items():
        if isinstance(value, bytes):
            value = value.decode("utf-8")
        if key.lower() in OMITTED_HEADERS:
            continue
        out[key] = value
    return out


def body_text(body):
    if body is None:
        return None
    if isinstance(body, bytes):
        return body.decode("utf-8")
    return body


# ---------------------------------------------------------------------------------------------------------
# Alibaba: alibabacloud_credentials (Tea transport -> requests.Session.send)

ALI_ASSUME_ROLE_RESPONSE = {
    "RequestId": "6894B13B-6D71-4EF5-88FA-F32781734A7F",
    "AssumedRoleUser": {
        "AssumedRoleId": "344584339364951186:fixed-session",
        "Arn": "acs:ram::1234567890123456:role/test-role/fixed-session",
    },
    "Credentials": {
        "SecurityToken": "CAISfixedResponseSecurityToken+/=",
        "AccessKeyId": "STS.NUgYrLnoC37mZZCNnAbezFixed",
        "AccessKeySecret": "CVwjCkNzTMupZ8NbTCxCBRq3K16jtcWFTJAyBEvFixed",
        "Expiration": "2024-03-05T05:05:06Z",
    },
}
ALI_OIDC_RESPONSE = {
    "RequestId": "3D57EAD2-8723-1F26-B69C-F8707D8B565D",
    "OIDCTokenInfo": {
        "Subject": "system:serviceaccount:default:demo",
        "Issuer": "https://oidc.example.com",
        "ClientIds": "sts.aliyuncs.com",
        "ExpirationTime": "2024-03-05T05:05:06Z",
        "IssuanceTime": "2024-03-05T04:05:06Z",
        "VerificationInfo": "Success",
    },
    "AssumedRoleUser": {
        "AssumedRoleId": "33157794895460****:fixed-session",
        "Arn": "acs:ram::1234567890123456:role/test-role/fixed-session",
    },
    "Credentials": {
        "SecurityToken": "CAISfixedOIDCSecurityToken+/=",
        "AccessKeyId": "STS.NZNfixedOIDCAccessKeyId",
        "AccessKeySecret": "fixedOIDCAccessKeySecretABCDEFGHIJ",
        "Expiration": "2024-03-05T05:05:06Z",
    },
}
ALI_ECS_CREDENTIALS_RESPONSE = {
    "AccessKeyId": "STS.fixedEcsAccessKeyId",
    "AccessKeySecret": "fixedEcsAccessKeySecret",
    "Expiration": "2024-03-05T10:05:06Z",
    "SecurityToken": "CAISfixedEcsSecurityToken+/=",
    "LastUpdated": "2024-03-05T04:05:06Z",
    "Code": "Success",
}

ALI_SENT = []


def _fake_requests_send(self, prepared, **kwargs):
    """Stands where alibabacloud-tea's TeaCore.do_action would reach the network."""
    ALI_SENT.append(prepared)
    parts = urlsplit(prepared.url)
    query = dict(parse_qsl(parts.query))
    response = requests.Response()
    response.status_code = 200
    response.reason = "OK"
    response.url = prepared.url
    if query.get("Action") == "AssumeRole":
        payload = json.dumps(ALI_ASSUME_ROLE_RESPONSE)
    elif query.get("Action") == "AssumeRoleWithOIDC":
        payload = json.dumps(ALI_OIDC_RESPONSE)
    elif parts.path == "/latest/api/token":
        payload = "fixed-ecs-metadata-token"
    elif parts.path == "/latest/meta-data/ram/security-credentials/":
        payload = "EcsRamRoleTest"
    elif parts.path.startswith("/latest/meta-data/ram/security-credentials/"):
        payload = json.dumps(ALI_ECS_CREDENTIALS_RESPONSE)
    else:  # credentials URI
        payload = json.dumps(ALI_ECS_CREDENTIALS_RESPONSE)
    response._content = payload.encode("utf-8")
    return response


requests.Session.send = _fake_requests_send

from alibabacloud_credentials.client import Client as AliClient  # noqa: E402
from alibabacloud_credentials.models import Config as AliConfig  # noqa: E402
from alibabacloud_credentials import provider as ali_provider  # noqa: E402
from alibabacloud_credentials.utils import parameter_helper as ali_ph  # noqa: E402
from alibabacloud_tea_openapi.utils import Utils as TeaOpenApiUtils  # noqa: E402
from aliyunsdkcore.auth.composer import rpc_signature_composer as core_rpc  # noqa: E402

for _logger in ("credentials", "alibabacloud-tea"):
    logging.getLogger(_logger).setLevel(logging.CRITICAL)

ALI_STRINGS_TO_SIGN = []
_real_compose = ali_ph.compose_string_to_sign


def _recording_compose(method, queries):
    result = _real_compose(method, queries)
    ALI_STRINGS_TO_SIGN.append(result)
    return result


ali_ph.compose_string_to_sign = _recording_compose


def rpc_cross_check(method, params, library_signature):
    """The RPC signature of the same parameters by the two Alibaba signers that follow the documented
    percent-encoding (space -> %20, '*' -> %2A, '~' kept), for comparison with the credentials library."""
    signed = {k: v for k, v in params if k != "Signature"}
    core_string = getattr(core_rpc, "__compose_string_to_sign")(method, dict(signed))
    core_signature = getattr(core_rpc, "__get_signature")(core_string, SK)
    openapi_signature = TeaOpenApiUtils.get_rpcsignature(dict(signed), method, SK)
    return {
        "by": "aliyunsdkcore.auth.composer.rpc_signature_composer.__compose_string_to_sign/__get_signature and "
              "alibabacloud_tea_openapi.utils.Utils.get_rpcsignature, on the parameters the library sent",
        "string_to_sign": core_string,
        "signature": core_signature,
        "tea_openapi_signature": openapi_signature,
        "same_as_library": core_signature == library_signature,
    }


def ali_request_record(prepared, string_to_sign=None):
    query = decoded_query(prepared.url)
    parts = urlsplit(prepared.url)
    record = {
        "method": prepared.method,
        "url": prepared.url,
        "scheme": parts.scheme,
        "host": parts.netloc,
        "path": parts.path,
        "raw_query": parts.query,
        "query": query,
        "headers": header_dict(prepared.headers),
        "body": body_text(prepared.body),
    }
    signature = dict(query).get("Signature")
    if signature is not None:
        record["signature"] = signature
        record["signature_location"] = "query"
    if string_to_sign is not None:
        record["string_to_sign"] = string_to_sign
    return record


def run_alibaba(call, env=None):
    del ALI_SENT[:]
    del ALI_STRINGS_TO_SIGN[:]
    with environment(env):
        with frozen():
            credentials = call()
    return credentials


def parsed_alibaba(credentials):
    if credentials is None:
        return None
    out = {
        "access_key_id": credentials.get_access_key_id(),
        "access_key_secret": credentials.get_access_key_secret(),
        "security_token": credentials.get_security_token(),
        "provider_name": credentials.get_provider_name(),
    }
    expiration = getattr(credentials, "get_expiration", lambda: None)()
    if expiration is not None:
        out["expiration_epoch"] = expiration
    return out


def alibaba_vector(vid, action, description, entry_point, inputs, call, env=None, files=None,
                   response=None):
    credentials = run_alibaba(call, env)
    assert len(ALI_SENT) == 1, (vid, len(ALI_SENT))
    prepared = ALI_SENT[0]
    string_to_sign = ALI_STRINGS_TO_SIGN[0] if ALI_STRINGS_TO_SIGN else None
    expected = ali_request_record(prepared, string_to_sign)
    vector = {
        "id": vid,
        "provider": "alibaba-sts",
        "action": action,
        "description": description,
        "library": "alibabacloud_credentials %s" % importlib.metadata.version("alibabacloud_credentials"),
        "entry_point": entry_point,
        "inputs": dict(inputs, timestamp=FIXED_ISO, environment=env or {}),
        "expected": expected,
        "response_fixture": response,
        "parsed": parsed_alibaba(credentials),
    }
    if files:
        vector["inputs"]["files"] = files
    if "signature" in expected:
        vector["inputs"]["signature_nonce"] = NONCE
        vector["rpc_spec_encoding"] = rpc_cross_check(prepared.method, expected["query"], expected["signature"])
    return vector


def ram_role_arn(**kwargs):
    return lambda: ali_provider.RamRoleArnCredentialsProvider(**kwargs).get_credentials()


def alibaba_assume_role_vectors():
    vectors = []
    base = {"access_key_id": AK, "access_key_secret": SK, "role_arn": ALI_ROLE}
    entry = "alibabacloud_credentials.provider.RamRoleArnCredentialsProvider(...).get_credentials()"

    def add(vid, description, kwargs, env=None, entry_point=entry):
        vectors.append(alibaba_vector(
            vid, "AssumeRole", description, entry_point, kwargs, ram_role_arn(**kwargs), env=env,
            response=ALI_ASSUME_ROLE_RESPONSE))

    add("alibaba-assumerole-minimal", "Role ARN and session name only; default duration and endpoint.",
        dict(base, role_session_name="fixed-session"))
    add("alibaba-assumerole-default-session-name",
        "No session name: the library uses credentials-python-<unix seconds>.", dict(base))
    add("alibaba-assumerole-all-parameters",
        "DurationSeconds 900, ExternalId and a JSON Policy (spaces, '*', '~', '/', '=', '+', '&', non-ASCII).",
        dict(base, role_session_name="fixed-session", duration_seconds=900, policy=POLICY,
             external_id=EXTERNAL_ID))
    add("alibaba-assumerole-security-token",
        "Signing credentials that carry a security token (StaticSTSCredentialsProvider): SecurityToken is "
        "sent and signed; regional endpoint from sts_region_id.",
        dict(base, security_token=ALI_TOKEN, role_session_name="fixed-session", sts_region_id="cn-hangzhou"))
    add("alibaba-assumerole-percent-encoding",
        "A session name with characters that need percent-encoding (not valid for the service, which "
        "accepts [\\w.@-]; here to pin the encoding).",
        dict(base, role_session_name=TRICKY_SESSION))
    add("alibaba-assumerole-vpc-region", "enable_vpc with sts_region_id: sts-vpc.<region>.aliyuncs.com.",
        dict(base, role_session_name="fixed-session", sts_region_id="cn-shanghai", enable_vpc=True))
    add("alibaba-assumerole-vpc-without-region",
        "enable_vpc without a region: the VPC prefix is dropped and the global sts.aliyuncs.com is used.",
        dict(base, role_session_name="fixed-session", enable_vpc=True))
    add("alibaba-assumerole-environment",
        "Role ARN, session name and endpoint from ALIBABA_CLOUD_ROLE_ARN, ALIBABA_CLOUD_ROLE_SESSION_NAME, "
        "ALIBABA_CLOUD_STS_REGION and ALIBABA_CLOUD_VPC_ENDPOINT_ENABLED.",
        {"access_key_id": AK, "access_key_secret": SK},
        env={"ALIBABA_CLOUD_ROLE_ARN": ALI_ROLE, "ALIBABA_CLOUD_ROLE_SESSION_NAME": "env-session",
             "ALIBABA_CLOUD_STS_REGION": "cn-beijing", "ALIBABA_CLOUD_VPC_ENDPOINT_ENABLED": "true"})
    add("alibaba-assumerole-sts-endpoint", "An explicit sts_endpoint wins over region and VPC settings.",
        dict(base, role_session_name="fixed-session", sts_endpoint="sts.ap-southeast-1.aliyuncs.com",
             sts_region_id="cn-hangzhou", enable_vpc=True))

    # The public Client(Config) path: role_session_expiration is the duration.
    config_inputs = {"type": "ram_role_arn", "access_key_id": AK, "access_key_secret": SK,
                     "security_token": ALI_TOKEN, "role_arn": ALI_ROLE, "role_session_name": "config-session",
                     "role_session_expiration": 1800, "policy": POLICY, "external_id": EXTERNAL_ID}
    vectors.append(alibaba_vector(
        "alibaba-assumerole-client-config", "AssumeRole",
        "alibabacloud_credentials.client.Client(Config(type='ram_role_arn', ...)); Config.role_session_expiration "
        "becomes DurationSeconds; a security_token makes the signing credentials STS ones.",
        "alibabacloud_credentials.client.Client(Config(...)).get_credential()", config_inputs,
        lambda: AliClient(AliConfig(**config_inputs)).cloud_credential.provider.get_credentials(),
        response=ALI_ASSUME_ROLE_RESPONSE))

    # ~/.aliyun/config.json ChainableRamRoleArn whose source profile is StsToken, through the default chain.
    cli_config = {
        "current": "chain",
        "profiles": [
            {"name": "source", "mode": "StsToken", "access_key_id": AK, "access_key_secret": SK,
             "sts_token": ALI_TOKEN, "region_id": "cn-hangzhou"},
            {"name": "chain", "mode": "ChainableRamRoleArn", "source_profile": "source",
             "ram_role_arn": ALI_ROLE, "ram_session_name": "cli-session", "expired_seconds": 1200,
             "external_id": EXTERNAL_ID, "sts_region": "cn-hangzhou", "region_id": "cn-hangzhou"},
        ],
    }
    cli_path = write(os.path.join(WORK, ".aliyun", "config.json"), json.dumps(cli_config, indent=2))
    vectors.append(alibaba_vector(
        "alibaba-assumerole-cli-profile-chainable", "AssumeRole",
        "DefaultCredentialsProvider -> CLIProfileCredentialsProvider reading ~/.aliyun/config.json: "
        "ChainableRamRoleArn over a StsToken source profile (expired_seconds, external_id, sts_region).",
        "alibabacloud_credentials.provider.DefaultCredentialsProvider().get_credentials()",
        {"profile_file": placeholder(cli_path), "profile_file_content": cli_config},
        lambda: ali_provider.DefaultCredentialsProvider().get_credentials(),
        env={"ALIBABA_CLOUD_ECS_METADATA_DISABLED": "true"}, response=ALI_ASSUME_ROLE_RESPONSE))
    os.remove(cli_path)

    # ~/.alibabacloud/credentials.ini type = ram_role_arn (only role_arn, role_session_name, policy are read).
    ini_text = (
        "[default]\n"
        "type = ram_role_arn\n"
        "access_key_id = %s\n"
        "access_key_secret = %s\n"
        "role_arn = %s\n"
        "role_session_name = ini-session\n"
        "policy = %s\n" % (AK, SK, ALI_ROLE, '{"Version": "1", "Statement": []}')
    )
    ini_path = write(os.path.join(WORK, ".alibabacloud", "credentials.ini"), ini_text)
    vectors.append(alibaba_vector(
        "alibaba-assumerole-credentials-ini", "AssumeRole",
        "ProfileCredentialsProvider reading ~/.alibabacloud/credentials.ini, section [default], "
        "type = ram_role_arn.",
        "alibabacloud_credentials.provider.ProfileCredentialsProvider().get_credentials()",
        {"profile_file": placeholder(ini_path), "profile_file_content": ini_text},
        lambda: ali_provider.ProfileCredentialsProvider().get_credentials(),
        response=ALI_ASSUME_ROLE_RESPONSE))
    os.remove(ini_path)
    return vectors


def alibaba_oidc_vectors():
    vectors = []
    token_path = write(os.path.join(WORK, "oidc", "token"), OIDC_TOKEN)
    newline_path = write(os.path.join(WORK, "oidc", "token-with-newline"), OIDC_TOKEN + "\n")
    files = {placeholder(token_path): OIDC_TOKEN}
    base = {"role_arn": ALI_ROLE, "oidc_provider_arn": ALI_OIDC_PROVIDER, "oidc_token_file_path": token_path}
    entry = "alibabacloud_credentials.provider.OIDCRoleArnCredentialsProvider(...).get_credentials()"

    def shown(kwargs):
        return {k: placeholder(v) if k == "oidc_token_file_path" else v for k, v in kwargs.items()}

    def add(vid, description, kwargs, env=None, vector_files=files, entry_point=entry, call=None):
        call = call or (lambda: ali_provider.OIDCRoleArnCredentialsProvider(**kwargs).get_credentials())
        shown_env = {k: placeholder(v) for k, v in (env or {}).items()}
        vector = alibaba_vector(vid, "AssumeRoleWithOIDC", description, entry_point, shown(kwargs), call,
                                env=env, files=vector_files, response=ALI_OIDC_RESPONSE)
        vector["inputs"]["environment"] = shown_env
        vectors.append(vector)

    add("alibaba-oidc-minimal", "Unsigned GET with the token in the query; default endpoint.",
        dict(base, role_session_name="fixed-session"))
    add("alibaba-oidc-all-parameters", "DurationSeconds 900, a Policy and a regional endpoint.",
        dict(base, role_session_name="fixed-session", duration_seconds=900, policy=POLICY,
             sts_region_id="cn-hangzhou"))
    add("alibaba-oidc-default-chain-rrsa",
        "RRSA: DefaultCredentialsProvider with ALIBABA_CLOUD_ROLE_ARN, ALIBABA_CLOUD_OIDC_PROVIDER_ARN and "
        "ALIBABA_CLOUD_OIDC_TOKEN_FILE set (no session name: credentials-python-<unix seconds>), "
        "ALIBABA_CLOUD_STS_REGION and ALIBABA_CLOUD_VPC_ENDPOINT_ENABLED=true.",
        {}, env={"ALIBABA_CLOUD_ROLE_ARN": ALI_ROLE, "ALIBABA_CLOUD_OIDC_PROVIDER_ARN": ALI_OIDC_PROVIDER,
                 "ALIBABA_CLOUD_OIDC_TOKEN_FILE": token_path, "ALIBABA_CLOUD_STS_REGION": "cn-hangzhou",
                 "ALIBABA_CLOUD_VPC_ENDPOINT_ENABLED": "true"},
        entry_point="alibabacloud_credentials.provider.DefaultCredentialsProvider().get_credentials()",
        call=lambda: ali_provider.DefaultCredentialsProvider().get_credentials())
    add("alibaba-oidc-region-environment",
        "Session name and region from ALIBABA_CLOUD_ROLE_SESSION_NAME and ALIBABA_CLOUD_STS_REGION.",
        dict(base), env={"ALIBABA_CLOUD_ROLE_SESSION_NAME": "env-session", "ALIBABA_CLOUD_STS_REGION": "cn-shanghai"})
    add("alibaba-oidc-token-trailing-newline",
        "The token file ends with a newline: the library does not strip it (it is sent as %0A).",
        dict(base, oidc_token_file_path=newline_path, role_session_name="fixed-session"),
        vector_files={placeholder(newline_path): OIDC_TOKEN + "\n"})
    add("alibaba-oidc-percent-encoding", "A session name that needs percent-encoding (query, unsigned).",
        dict(base, role_session_name=TRICKY_SESSION))
    return vectors


# ---------------------------------------------------------------------------------------------------------
# Alibaba: aliyun-python-sdk-core (legacy SDK; vendored requests)

from aliyunsdkcore.vendored import requests as core_requests  # noqa: E402
from aliyunsdkcore.client import AcsClient  # noqa: E402
from aliyunsdkcore.auth.credentials import RamRoleArnCredential  # noqa: E402
from aliyunsdkcore.auth.signers.ram_role_arn_signer import RamRoleArnSigner  # noqa: E402
from aliyunsdkcore.utils import parameter_helper as core_helper  # noqa: E402

CORE_SENT = []
CORE_SIGNED = []


def _fake_core_send(self, prepared, **kwargs):
    CORE_SENT.append(prepared)
    response = core_requests.Response()
    response.status_code = 200
    response.reason = "OK"
    response.url = prepared.url
    response._content = json.dumps(ALI_ASSUME_ROLE_RESPONSE).encode("utf-8")
    return response


core_requests.Session.send = _fake_core_send
_real_get_signed_url = core_rpc.get_signed_url


def _recording_get_signed_url(*args, **kwargs):
    url, string_to_sign = _real_get_signed_url(*args, **kwargs)
    CORE_SIGNED.append((url, string_to_sign))
    return url, string_to_sign


core_rpc.get_signed_url = _recording_get_signed_url


def core_vector(vid, description, session_name):
    del CORE_SENT[:]
    del CORE_SIGNED[:]
    real_get_uuid = core_helper.get_uuid
    # The legacy SDK's nonce is an MD5 of time, thread id and random bits: replaced by the fixed nonce.
    core_helper.get_uuid = lambda: NONCE
    try:
        with environment(None), frozen():
            client = AcsClient(ak=AK, secret=SK, region_id="cn-hangzhou")
            signer = RamRoleArnSigner(RamRoleArnCredential(AK, SK, ALI_ROLE, session_name),
                                      client._implementation_of_do_action)
            signer._refresh_session_ak_and_sk()
    finally:
        core_helper.get_uuid = real_get_uuid
    assert len(CORE_SENT) == 1, vid
    prepared = CORE_SENT[0]
    record = ali_request_record(prepared)
    matching = [s for u, s in CORE_SIGNED if u.split("?", 1)[1] == urlsplit(prepared.url).query]
    record["string_to_sign"] = matching[-1] if matching else CORE_SIGNED[-1][1]
    session_ak, session_sk, token = signer._session_credential
    return {
        "id": vid,
        "provider": "alibaba-sts",
        "action": "AssumeRole",
        "description": description,
        "library": "aliyun-python-sdk-core %s" % importlib.metadata.version("aliyun-python-sdk-core"),
        "entry_point": "aliyunsdkcore.auth.signers.ram_role_arn_signer.RamRoleArnSigner._refresh_session_ak_and_sk "
                       "(AcsClient region cn-hangzhou)",
        "inputs": {"access_key_id": AK, "access_key_secret": SK, "role_arn": ALI_ROLE,
                   "role_session_name": session_name, "region_id": "cn-hangzhou", "timestamp": FIXED_ISO,
                   "signature_nonce": NONCE, "environment": {}},
        "expected": record,
        "response_fixture": ALI_ASSUME_ROLE_RESPONSE,
        "parsed": {"access_key_id": session_ak, "access_key_secret": session_sk, "security_token": token},
        "rpc_spec_encoding": rpc_cross_check(prepared.method, record["query"], record["signature"]),
    }


def alibaba_core_vectors():
    return [
        core_vector("alibaba-core-assumerole-signer",
                    "The legacy SDK's RAM-role signer: POST with every parameter (and the Signature) in the "
                    "query, an empty body, RegionId and an empty SignatureType added.", "fixed-session"),
        core_vector("alibaba-core-assumerole-signer-percent-encoding",
                    "Same, with a session name that needs percent-encoding (space -> %20 in the URL).",
                    TRICKY_SESSION),
    ]


# ---------------------------------------------------------------------------------------------------------
# AWS: botocore

import botocore  # noqa: E402
import botocore.session  # noqa: E402
import botocore.credentials  # noqa: E402
import botocore.httpsession  # noqa: E402
import botocore.utils  # noqa: E402
from botocore.awsrequest import AWSResponse  # noqa: E402


def _aws_credentials_xml(prefix):
    return (
        "<Credentials><AccessKeyId>ASIAFIXED%sKEYID</AccessKeyId>"
        "<SecretAccessKey>fixed%sSecretAccessKey/+=</SecretAccessKey>"
        "<SessionToken>Fixed%sSessionToken+/=</SessionToken>"
        "<Expiration>2024-03-05T05:05:06Z</Expiration></Credentials>" % (prefix, prefix, prefix)
    )


AWS_RESPONSES = {
    "AssumeRole": (
        '<AssumeRoleResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/">'
        "<AssumeRoleResult><SourceIdentity>fixed-source</SourceIdentity>"
        "<AssumedRoleUser><Arn>arn:aws:sts::123456789012:assumed-role/test-role/fixed-session</Arn>"
        "<AssumedRoleId>AROAFIXEDROLEID:fixed-session</AssumedRoleId></AssumedRoleUser>"
        + _aws_credentials_xml("ASSUME")
        + "<PackedPolicySize>6</PackedPolicySize></AssumeRoleResult>"
        "<ResponseMetadata><RequestId>c6104cbe-af31-11e0-8154-cbc7ccf896c7</RequestId></ResponseMetadata>"
        "</AssumeRoleResponse>"
    ),
    "AssumeRoleWithWebIdentity": (
        '<AssumeRoleWithWebIdentityResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/">'
        "<AssumeRoleWithWebIdentityResult>"
        "<SubjectFromWebIdentityToken>system:serviceaccount:default:demo</SubjectFromWebIdentityToken>"
        "<Audience>sts.amazonaws.com</Audience>"
        "<AssumedRoleUser><Arn>arn:aws:sts::123456789012:assumed-role/test-role/fixed-session</Arn>"
        "<AssumedRoleId>AROAFIXEDROLEID:fixed-session</AssumedRoleId></AssumedRoleUser>"
        + _aws_credentials_xml("WEBID")
        + "<SourceIdentity>fixed-source</SourceIdentity><Provider>oidc.example.com</Provider>"
        "</AssumeRoleWithWebIdentityResult>"
        "<ResponseMetadata><RequestId>ad4156e9-bce1-11e2-82e6-6b6efEXAMPLE</RequestId></ResponseMetadata>"
        "</AssumeRoleWithWebIdentityResponse>"
    ),
}


class _AuthLog(logging.Handler):
    def __init__(self):
        super().__init__(logging.DEBUG)
        self.messages = []

    def emit(self, record):
        self.messages.append(record.getMessage())


AUTH_LOG = _AuthLog()
_auth_logger = logging.getLogger("botocore.auth")
_auth_logger.setLevel(logging.DEBUG)
_auth_logger.addHandler(AUTH_LOG)
_auth_logger.propagate = False

AWS_SENT = []


class _Raw:
    def __init__(self, body):
        self._body = body

    def stream(self, **kwargs):
        yield self._body


def _aws_before_send(request, **kwargs):
    AWS_SENT.append(request)
    operation = kwargs["event_name"].split(".")[-1]
    return AWSResponse(request.url, 200, {"Content-Type": "text/xml"}, _Raw(AWS_RESPONSES[operation].encode()))


def aws_session(profile=None):
    session = botocore.session.Session(profile=profile)
    session.register("before-send.sts", _aws_before_send)
    return session


def _auth_debug():
    out = {}
    for message in AUTH_LOG.messages:
        for key, marker in (("canonical_request", "CanonicalRequest:\n"), ("string_to_sign", "StringToSign:\n"),
                            ("signature", "Signature:\n")):
            if message.startswith(marker):
                out[key] = message[len(marker):]
    return out


def aws_request_record(prepared):
    parts = urlsplit(prepared.url)
    body = body_text(prepared.body)
    headers = header_dict(prepared.headers)
    record = {
        "method": prepared.method,
        "url": prepared.url,
        "scheme": parts.scheme,
        "host": parts.netloc,
        "path": parts.path,
        "headers": headers,
        "body": body,
        "form": [list(pair) for pair in parse_qsl(body or "", keep_blank_values=True)],
        "authorization": headers.get("Authorization"),
    }
    debug = _auth_debug()
    if debug:
        record.update(debug)
        record["signature_location"] = "Authorization header"
    return record


def run_aws(call, env=None):
    del AWS_SENT[:]
    del AUTH_LOG.messages[:]
    with environment(env), frozen():
        result = call()
    assert len(AWS_SENT) == 1, len(AWS_SENT)
    return result, AWS_SENT[0]


def _iso(value):
    return value.isoformat() if hasattr(value, "isoformat") else value


def aws_direct_vector(vid, action, description, region, params, session_token=None, config_vars=None):
    def call():
        session = aws_session()
        for key, value in (config_vars or {}).items():
            session.set_config_variable(key, value)
        client = session.create_client("sts", region_name=region, aws_access_key_id=AK, aws_secret_access_key=SK,
                                       aws_session_token=session_token)
        method = {"AssumeRole": client.assume_role,
                  "AssumeRoleWithWebIdentity": client.assume_role_with_web_identity}[action]
        return method(**params)

    result, prepared = run_aws(call)
    credentials = result["Credentials"]
    return {
        "id": vid,
        "provider": "aws-sts",
        "action": action,
        "description": description,
        "library": "botocore %s" % botocore.__version__,
        "entry_point": "botocore.session.Session().create_client('sts', ...).%s(...)"
                       % {"AssumeRole": "assume_role",
                          "AssumeRoleWithWebIdentity": "assume_role_with_web_identity"}[action],
        "inputs": {"access_key_id": AK, "secret_access_key": SK, "session_token": session_token, "region": region,
                   "config": config_vars or {}, "parameters": params, "timestamp": FIXED_ISO, "environment": {}},
        "expected": aws_request_record(prepared),
        "response_fixture": AWS_RESPONSES[action],
        "parsed": {k: _iso(v) for k, v in credentials.items()},
    }


def aws_chain_vector(vid, action, description, env, files, profile=None):
    def call():
        session = aws_session(profile)
        credentials = session.get_credentials()
        frozen_credentials = credentials.get_frozen_credentials()
        return credentials, frozen_credentials

    (credentials, frozen_credentials), prepared = run_aws(call, env)
    shown_env = {k: placeholder(v) for k, v in env.items()
                 if k not in ("AWS_CONFIG_FILE", "AWS_SHARED_CREDENTIALS_FILE") or v != BASE_ENV.get(k)}
    return {
        "id": vid,
        "provider": "aws-sts",
        "action": action,
        "description": description,
        "library": "botocore %s" % botocore.__version__,
        "entry_point": "botocore.session.Session(%s).get_credentials().get_frozen_credentials()"
                       % ("profile=%r" % profile if profile else ""),
        "inputs": {"profile": profile, "files": {placeholder(k): v for k, v in files.items()},
                   "environment": shown_env, "timestamp": FIXED_ISO},
        "expected": aws_request_record(prepared),
        "response_fixture": AWS_RESPONSES[action],
        "parsed": {"access_key": frozen_credentials.access_key, "secret_key": frozen_credentials.secret_key,
                   "token": frozen_credentials.token, "method": credentials.method,
                   "expiry_time": _iso(getattr(credentials, "_expiry_time", None))},
    }


def aws_vectors():
    vectors = [
        aws_direct_vector("aws-assumerole-us-east-1", "AssumeRole",
                          "us-east-1 with botocore's default sts_regional_endpoints (regional).", "us-east-1",
                          {"RoleArn": AWS_ROLE, "RoleSessionName": "fixed-session"}),
        aws_direct_vector("aws-assumerole-us-east-1-legacy-global", "AssumeRole",
                          "us-east-1 with sts_regional_endpoints=legacy: the global sts.amazonaws.com, still "
                          "signed for us-east-1.", "us-east-1",
                          {"RoleArn": AWS_ROLE, "RoleSessionName": "fixed-session"},
                          config_vars={"sts_regional_endpoints": "legacy"}),
        aws_direct_vector("aws-assumerole-eu-west-1-all-parameters", "AssumeRole",
                          "eu-west-1, DurationSeconds, ExternalId and a Policy needing percent-encoding.",
                          "eu-west-1",
                          {"RoleArn": AWS_ROLE, "RoleSessionName": "session@example.com,a=b",
                           "DurationSeconds": 900, "ExternalId": EXTERNAL_ID, "Policy": AWS_POLICY}),
        aws_direct_vector("aws-assumerole-eu-west-1-session-token", "AssumeRole",
                          "Signing credentials with a session token (X-Amz-Security-Token, signed).", "eu-west-1",
                          {"RoleArn": AWS_ROLE, "RoleSessionName": "fixed-session"}, session_token=AWS_TOKEN),
        aws_direct_vector("aws-assumerole-percent-encoding", "AssumeRole",
                          "A session name with space, '*', '~', '/', '=', '+', '&' and non-ASCII (not valid for "
                          "the service; botocore does not check patterns) to pin the form encoding.",
                          "us-east-1", {"RoleArn": AWS_ROLE, "RoleSessionName": TRICKY_SESSION}),
        aws_direct_vector("aws-webidentity-us-east-1", "AssumeRoleWithWebIdentity",
                          "Client call with credentials configured: botocore still sends it unsigned "
                          "(the operation is noAuth).", "us-east-1",
                          {"RoleArn": AWS_ROLE, "RoleSessionName": "fixed-session", "WebIdentityToken": OIDC_TOKEN}),
        aws_direct_vector("aws-webidentity-eu-west-1-all-parameters", "AssumeRoleWithWebIdentity",
                          "eu-west-1 with DurationSeconds and a Policy.", "eu-west-1",
                          {"RoleArn": AWS_ROLE, "RoleSessionName": "fixed-session", "WebIdentityToken": OIDC_TOKEN,
                           "DurationSeconds": 900, "Policy": AWS_POLICY}),
    ]

    # Credential chain: a profile with role_arn + source_profile (AssumeRoleProvider).
    config_path = os.environ["AWS_CONFIG_FILE"]
    creds_path = os.environ["AWS_SHARED_CREDENTIALS_FILE"]
    config_text = (
        "[profile dev]\n"
        "role_arn = %s\n"
        "source_profile = base\n"
        "external_id = %s\n"
        "duration_seconds = 1800\n"
        "region = eu-west-1\n" % (AWS_ROLE, EXTERNAL_ID)
    )
    creds_text = "[base]\naws_access_key_id = %s\naws_secret_access_key = %s\n" % (AK, SK)
    write(config_path, config_text)
    write(creds_path, creds_text)
    vectors.append(aws_chain_vector(
        "aws-chain-assumerole-source-profile", "AssumeRole",
        "Profile dev (role_arn, source_profile, external_id, duration_seconds, region eu-west-1) over static "
        "keys in the credentials file; no role_session_name: botocore-session-<unix seconds>.",
        {}, {config_path: config_text, creds_path: creds_text}, profile="dev"))
    os.remove(config_path)
    os.remove(creds_path)

    # Credential chain: web identity from the environment (AssumeRoleWithWebIdentityProvider).
    token_path = write(os.path.join(WORK, "aws-web-identity-token"), OIDC_TOKEN)
    web_env = {"AWS_ROLE_ARN": AWS_ROLE, "AWS_WEB_IDENTITY_TOKEN_FILE": token_path,
               "AWS_ROLE_SESSION_NAME": "web-session", "AWS_DEFAULT_REGION": "eu-west-1"}
    vectors.append(aws_chain_vector(
        "aws-chain-webidentity-environment", "AssumeRoleWithWebIdentity",
        "AWS_ROLE_ARN, AWS_WEB_IDENTITY_TOKEN_FILE, AWS_ROLE_SESSION_NAME and AWS_DEFAULT_REGION=eu-west-1.",
        web_env, {token_path: OIDC_TOKEN}))
    web_env = {"AWS_ROLE_ARN": AWS_ROLE, "AWS_WEB_IDENTITY_TOKEN_FILE": token_path, "AWS_REGION": "eu-west-1"}
    vectors.append(aws_chain_vector(
        "aws-chain-webidentity-no-region", "AssumeRoleWithWebIdentity",
        "AWS_ROLE_ARN and AWS_WEB_IDENTITY_TOKEN_FILE, no session name (botocore-session-<unix seconds>) and "
        "no region: botocore reads AWS_DEFAULT_REGION, not AWS_REGION, so the global sts.amazonaws.com is used.",
        web_env, {token_path: OIDC_TOKEN}))
    os.remove(token_path)
    return vectors


# ---------------------------------------------------------------------------------------------------------
# Metadata-service credential providers (requests only; no signing involved)

def alibaba_ecs_vectors():
    out = []

    def run(vid, description, kwargs, env=None):
        credentials = run_alibaba(
            lambda: ali_provider.EcsRamRoleCredentialsProvider(async_update_enabled=False, **kwargs)
            .get_credentials(), env)
        out.append({
            "id": vid,
            "provider": "alibaba-ecs-metadata",
            "description": description,
            "library": "alibabacloud_credentials %s" % importlib.metadata.version("alibabacloud_credentials"),
            "entry_point": "alibabacloud_credentials.provider.EcsRamRoleCredentialsProvider(...).get_credentials()",
            "inputs": dict(kwargs, environment=env or {}),
            "expected": {"requests": [ali_request_record(p) for p in ALI_SENT]},
            "response_fixtures": {"PUT /latest/api/token": "fixed-ecs-metadata-token",
                                  "GET /latest/meta-data/ram/security-credentials/": "EcsRamRoleTest",
                                  "GET /latest/meta-data/ram/security-credentials/<role>":
                                      ALI_ECS_CREDENTIALS_RESPONSE},
            "parsed": parsed_alibaba(credentials),
        })

    run("alibaba-ecs-ram-role-discover", "No role name: the role is listed first; a metadata token is "
        "fetched before each GET.", {})
    run("alibaba-ecs-ram-role-named", "Role name given (ALIBABA_CLOUD_ECS_METADATA) with IMDSv1 disabled "
        "(ALIBABA_CLOUD_IMDSV1_DISABLED=true).", {},
        env={"ALIBABA_CLOUD_ECS_METADATA": "EcsRamRoleTest", "ALIBABA_CLOUD_IMDSV1_DISABLED": "true"})

    credentials = run_alibaba(
        lambda: ali_provider.URLCredentialsProvider().get_credentials(),
        {"ALIBABA_CLOUD_CREDENTIALS_URI": "http://127.0.0.1:8080/credentials?role=a%20b"})
    out.append({
        "id": "alibaba-credentials-uri",
        "provider": "alibaba-credentials-uri",
        "description": "ALIBABA_CLOUD_CREDENTIALS_URI: a plain GET; the response must have Code=Success.",
        "library": "alibabacloud_credentials %s" % importlib.metadata.version("alibabacloud_credentials"),
        "entry_point": "alibabacloud_credentials.provider.URLCredentialsProvider().get_credentials()",
        "inputs": {"environment": {"ALIBABA_CLOUD_CREDENTIALS_URI": "http://127.0.0.1:8080/credentials?role=a%20b"}},
        "expected": {"requests": [ali_request_record(p) for p in ALI_SENT]},
        "response_fixtures": {"GET": ALI_ECS_CREDENTIALS_RESPONSE},
        "parsed": parsed_alibaba(credentials),
    })
    return out


AWS_IMDS_CREDENTIALS = {
    "Code": "Success", "LastUpdated": "2024-03-05T04:05:06Z", "Type": "AWS-HMAC",
    "AccessKeyId": "ASIAFIXEDIMDSKEYID", "SecretAccessKey": "fixedImdsSecretAccessKey",
    "Token": "FixedImdsToken+/=", "Expiration": "2024-03-05T10:05:06Z",
}
AWS_CONTAINER_CREDENTIALS = {
    "AccessKeyId": "ASIAFIXEDCONTAINERKEY", "SecretAccessKey": "fixedContainerSecret",
    "Token": "FixedContainerToken+/=", "Expiration": "2024-03-05T10:05:06Z",
    "RoleArn": "arn:aws:iam::123456789012:role/task-role", "AccountId": "123456789012",
}


def aws_metadata_vectors():
    sent = []

    class FakeResponse:
        def __init__(self, status, body):
            self.status_code = status
            self.content = body.encode("utf-8")
            self.text = body
            self.headers = {}

    def fake_send(self, request):
        sent.append(request)
        path = urlsplit(request.url).path
        if request.method == "PUT":
            return FakeResponse(200, "fixed-imds-token")
        if path.endswith("/security-credentials/"):
            return FakeResponse(200, "ec2-test-role")
        if "security-credentials" in path:
            return FakeResponse(200, json.dumps(AWS_IMDS_CREDENTIALS))
        return FakeResponse(200, json.dumps(AWS_CONTAINER_CREDENTIALS))

    def record(request):
        return {"method": request.method, "url": request.url, "headers": header_dict(request.headers),
                "body": body_text(request.body)}

    real_send = botocore.httpsession.URLLib3Session.send
    botocore.httpsession.URLLib3Session.send = fake_send
    out = []
    try:
        with environment(None), frozen():
            fetched = botocore.utils.InstanceMetadataFetcher(user_agent="fixed-agent").retrieve_iam_role_credentials()
        out.append({
            "id": "aws-imdsv2",
            "provider": "aws-imds",
            "description": "IMDSv2: PUT token, GET role name, GET credentials (user agent passed as 'fixed-agent').",
            "library": "botocore %s" % botocore.__version__,
            "entry_point": "botocore.utils.InstanceMetadataFetcher(...).retrieve_iam_role_credentials()",
            "inputs": {"environment": {}},
            "expected": {"requests": [record(r) for r in sent]},
            "response_fixtures": {"PUT": "fixed-imds-token", "GET role": "ec2-test-role",
                                  "GET credentials": AWS_IMDS_CREDENTIALS},
            "parsed": {k: _iso(v) for k, v in fetched.items()},
        })
        del sent[:]
        token_file = write(os.path.join(WORK, "aws-container-token"), "fixed-container-auth-token")
        env = {"AWS_CONTAINER_CREDENTIALS_FULL_URI": "http://169.254.170.23/v1/credentials",
               "AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE": token_file}
        with environment(env), frozen():
            provider = botocore.credentials.ContainerProvider()
            credentials = provider.load()
            frozen_credentials = credentials.get_frozen_credentials()
        out.append({
            "id": "aws-container-full-uri-token-file",
            "provider": "aws-container",
            "description": "AWS_CONTAINER_CREDENTIALS_FULL_URI with AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE "
                           "(read as is, not stripped: a trailing newline makes botocore raise "
                           "'Auth token value is not a legal header value').",
            "library": "botocore %s" % botocore.__version__,
            "entry_point": "botocore.credentials.ContainerProvider().load()",
            "inputs": {"environment": {k: placeholder(v) for k, v in env.items()},
                       "files": {placeholder(token_file): "fixed-container-auth-token"}},
            "expected": {"requests": [record(r) for r in sent]},
            "response_fixtures": {"GET": AWS_CONTAINER_CREDENTIALS},
            "parsed": {"access_key": frozen_credentials.access_key, "secret_key": frozen_credentials.secret_key,
                       "token": frozen_credentials.token, "expiry_time": _iso(credentials._expiry_time)},
        })
        os.remove(token_file)
        del sent[:]
        env = {"AWS_CONTAINER_CREDENTIALS_RELATIVE_URI": "/v2/credentials/fixed-id",
               "AWS_CONTAINER_AUTHORIZATION_TOKEN": "Bearer fixed"}
        with environment(env), frozen():
            credentials = botocore.credentials.ContainerProvider().load()
            frozen_credentials = credentials.get_frozen_credentials()
        out.append({
            "id": "aws-container-relative-uri",
            "provider": "aws-container",
            "description": "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI (host 169.254.170.2) with "
                           "AWS_CONTAINER_AUTHORIZATION_TOKEN.",
            "library": "botocore %s" % botocore.__version__,
            "entry_point": "botocore.credentials.ContainerProvider().load()",
            "inputs": {"environment": env},
            "expected": {"requests": [record(r) for r in sent]},
            "response_fixtures": {"GET": AWS_CONTAINER_CREDENTIALS},
            "parsed": {"access_key": frozen_credentials.access_key, "secret_key": frozen_credentials.secret_key,
                       "token": frozen_credentials.token, "expiry_time": _iso(credentials._expiry_time)},
        })
    finally:
        botocore.httpsession.URLLib3Session.send = real_send
    return out


HUAWEI_SECURITYKEY = {
    "credential": {
        "access": "FIXEDHUAWEIACCESS", "secret": "fixedHuaweiSecret",
        "securitytoken": "gQpjbi1ub3J0aC00FixedSecurityToken+/=", "expires_at": "2024-03-05T10:05:06.000000Z",
    }
}


def huawei_vectors():
    import obs
    from obs import loadtoken

    sent = []

    class FakeResponse:
        def __init__(self, status, body):
            self.status = status
            self._body = body.encode("utf-8")

        def read(self):
            return self._body

    class FakeConnection:
        versions = []

        def __init__(self, host, port=None, timeout=None):
            self.host = host
            self.port = port
            self.timeout = timeout

        def request(self, method, url, body=None, headers=None):
            sent.append({"method": method, "host": self.host, "path": url, "headers": dict(headers or {}),
                         "body": body, "timeout_seconds": self.timeout})
            self.last = (method, url)

        def getresponse(self):
            method, url = self.last
            if method == "PUT":
                return FakeResponse(*FakeConnection.versions[0])
            return FakeResponse(200, json.dumps(HUAWEI_SECURITYKEY))

        def close(self):
            pass

    real_connection = loadtoken.httplib.HTTPConnection
    loadtoken.httplib.HTTPConnection = FakeConnection
    out = []
    try:
        for vid, description, token_response in (
            ("huawei-ecs-securitykey-v2", "Token PUT answered: the securitykey GET carries X-securitykey-Token.",
             (200, "fixed-huawei-metadata-token")),
            ("huawei-ecs-securitykey-v1-fallback", "Token PUT answered 404: plain GET without headers (v1).",
             (404, "")),
        ):
            del sent[:]
            FakeConnection.versions = [token_response]
            loadtoken.ECS.ak = loadtoken.ECS.sk = loadtoken.ECS.token = loadtoken.ECS.expires = None
            with environment(None), frozen():
                value = loadtoken.ECS.search()
            out.append({
                "id": vid,
                "provider": "huawei-ecs-metadata",
                "description": description,
                "library": "esdk-obs-python %s" % importlib.metadata.version("esdk-obs-python"),
                "entry_point": "obs.loadtoken.ECS.search() (ObsClient(security_provider_policy='ECS'))",
                "inputs": {"environment": {}},
                "expected": {"requests": list(sent)},
                "response_fixtures": {"PUT": {"status": token_response[0], "body": token_response[1]},
                                      "GET": HUAWEI_SECURITYKEY},
                "parsed": value,
            })
    finally:
        loadtoken.httplib.HTTPConnection = real_connection
        loadtoken.ECS.ak = loadtoken.ECS.sk = loadtoken.ECS.token = loadtoken.ECS.expires = None
    assert obs is not None
    return out


# ---------------------------------------------------------------------------------------------------------

def main():
    vectors = alibaba_assume_role_vectors() + alibaba_oidc_vectors() + alibaba_core_vectors() + aws_vectors()
    metadata_vectors = alibaba_ecs_vectors() + aws_metadata_vectors() + huawei_vectors()
    ids = [v["id"] for v in vectors + metadata_vectors]
    assert len(ids) == len(set(ids)), "duplicate ids"
    document = {
        "generator": "Fixtures/sts/generate.py",
        "description": "STS requests (and metadata-service credential requests) as the vendors' own Python "
                       "libraries send them, captured before the network. Nothing was signed or encoded by the "
                       "generator.",
        "python": platform.python_version(),
        "package_versions": versions(),
        "fixed_instant": {"epoch": FIXED, "iso8601": FIXED_ISO},
        "signature_nonce": NONCE,
        "credentials": {"access_key_id": AK, "access_key_secret": SK, "alibaba_security_token": ALI_TOKEN,
                        "aws_session_token": AWS_TOKEN},
        "omitted_headers": OMITTED_HEADERS,
        "notes": [
            "user-agent and amz-sdk-invocation-id are left out: they depend on the machine or are random, "
            "and neither is signed.",
            "The clock (datetime.datetime, time.time/localtime/gmtime) and uuid.uuid1/uuid4/uuid5 are frozen for "
            "each call; aliyun-python-sdk-core's nonce function (an MD5 of time and random bits) is replaced by "
            "the fixed nonce.",
            "response_fixture values were written for this generator (shaped after the services' documented "
            "responses); they are not captured from the services.",
            "rpc_spec_encoding recomputes the Alibaba RPC signature of the parameters the library sent with the "
            "two Alibaba signers that encode space as %20; same_as_library tells whether the library agrees.",
            "$HOME in paths stands for the temporary home directory the generator uses.",
        ],
        "vectors": vectors,
        "metadata_vectors": metadata_vectors,
    }
    sys.stdout.reconfigure(encoding="utf-8")
    json.dump(document, sys.stdout, indent=1, sort_keys=True, ensure_ascii=False)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
