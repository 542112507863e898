"""An S3-compatible server on 127.0.0.1 for the object-storage tests: moto's server mode (``moto[server]``, the
``dev`` extra), started by the tests themselves; nothing talks to the internet.

``tests/conftest.py`` points the whole test session at it before anything else starts (``AWS_ENDPOINT_URL`` and
test credentials, the standard chain every S3 client reads), so that Ray workers started later, and subprocesses of
``winnow``, find it too. ``MotoServer(auth=True)`` starts a second server that checks credentials and IAM policies
(moto's ``INITIAL_NO_AUTH_ACTION_COUNT``: the first N requests, the set-up, are let through unchecked), for wrong
credentials and access denied.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

import requests

ACCESS_KEY = "winnowtestaccesskey"
SECRET_KEY = "winnow-test-secret-key-never-shown"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def session_env(port: int) -> dict[str, str]:
    """The standard chain's variables for the test server (set in os.environ by tests/conftest.py)."""
    return {"AWS_ENDPOINT_URL": f"http://127.0.0.1:{port}", "AWS_ACCESS_KEY_ID": ACCESS_KEY,
            "AWS_SECRET_ACCESS_KEY": SECRET_KEY, "AWS_DEFAULT_REGION": "us-east-1",
            # no profile, token or metadata lookups from the developer's machine
            "AWS_EC2_METADATA_DISABLED": "true", "AWS_CONFIG_FILE": os.devnull,
            "AWS_SHARED_CREDENTIALS_FILE": os.devnull}


def clean_env(**extra: str) -> dict[str, str]:
    """A minimal environment for a child process (a server, a run started as a user starts one): what finding the
    interpreter, its packages and a home needs, without the variables earlier tests of a long session may have left."""
    keep = ("PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "PYTHONPATH", "VIRTUAL_ENV")
    return {**{k: os.environ[k] for k in keep if k in os.environ}, **extra}


class MotoServer:
    """``python -m moto.server`` on 127.0.0.1:``port``, until ``stop()``."""

    def __init__(self, port: int | None = None, auth_setup_actions: int | None = None) -> None:
        self.port = port or free_port()
        self.endpoint = f"http://127.0.0.1:{self.port}"
        env = clean_env()  # the server's behaviour must not depend on what earlier tests left in the environment
        if auth_setup_actions is not None:
            env["INITIAL_NO_AUTH_ACTION_COUNT"] = str(auth_setup_actions)
        self._log = Path(f"/tmp/winnow-moto-{self.port}.log")
        self._proc = subprocess.Popen([sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(self.port)],
                                      env=env, stdout=self._log.open("w"), stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        while True:
            with contextlib.suppress(requests.RequestException):
                if requests.get(f"{self.endpoint}/moto-api/", timeout=1).status_code < 500:
                    break
            if self._proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"moto server did not start: {self._log.read_text()[-2000:]}")
            time.sleep(0.2)

    def client(self, service: str = "s3", key: str = ACCESS_KEY, secret: str = SECRET_KEY) -> Any:
        import boto3

        return boto3.client(service, endpoint_url=self.endpoint, aws_access_key_id=key,
                            aws_secret_access_key=secret, region_name="us-east-1")

    def bucket(self, prefix: str = "winnow") -> str:
        """A new, empty bucket; its name."""
        name = f"{prefix}-{uuid.uuid4().hex[:10]}"
        self.client().create_bucket(Bucket=name)
        return name

    def upload(self, local: Path, bucket: str, key: str) -> str:
        self.client().upload_file(str(local), bucket, key)
        return f"s3://{bucket}/{key}"

    def keys(self, bucket: str, prefix: str = "") -> list[str]:
        pages = self.client().get_paginator("list_objects_v2").paginate(Bucket=bucket, Prefix=prefix)
        return sorted(o["Key"] for page in pages for o in page.get("Contents", []))

    def get(self, bucket: str, key: str) -> bytes:
        return self.client().get_object(Bucket=bucket, Key=key)["Body"].read()

    def stop(self) -> None:
        self._proc.terminate()
        try:
            self._proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait()


def start_auth_server(readable_prefix: str, denied_prefix: str) -> tuple[MotoServer, str, dict[str, str]]:
    """A server that checks credentials: bucket ``data`` with ``readable_prefix`` and ``denied_prefix``, and a user
    allowed to list the bucket and read and write under ``readable_prefix`` and ``out/`` only. Returns the server,
    the bucket, and that user's credentials as environment variables. The set-up is exactly the first
    ``SETUP_ACTIONS`` requests, the ones moto lets through unchecked."""
    server = MotoServer(auth_setup_actions=5)
    s3, iam = server.client(), server.client("iam")
    bucket = "data"
    s3.create_bucket(Bucket=bucket)  # 1
    iam.create_user(UserName="reader")  # 2
    key = iam.create_access_key(UserName="reader")["AccessKey"]  # 3
    policy = {"Version": "2012-10-17", "Statement": [
        {"Effect": "Allow", "Action": ["s3:ListBucket"], "Resource": [f"arn:aws:s3:::{bucket}"]},
        {"Effect": "Allow", "Action": ["s3:GetObject", "s3:PutObject", "s3:DeleteObject"],
         "Resource": [f"arn:aws:s3:::{bucket}/{readable_prefix}*", f"arn:aws:s3:::{bucket}/out/*"]},
        {"Effect": "Allow", "Action": ["s3:PutObject"], "Resource": [f"arn:aws:s3:::{bucket}/{denied_prefix}*"]}]}
    iam.create_policy(PolicyName="p", PolicyDocument=json.dumps(policy))  # 4
    iam.attach_user_policy(UserName="reader", PolicyArn="arn:aws:iam::123456789012:policy/p")  # 5
    env = {"AWS_ENDPOINT_URL": server.endpoint, "AWS_ACCESS_KEY_ID": key["AccessKeyId"],
           "AWS_SECRET_ACCESS_KEY": key["SecretAccessKey"]}
    return server, bucket, env
