"""What a storage failure says: one line, naming the URL, never a credential (pipelines/storage.py raises these).

Object stores fail in ways a local disk does not: wrong or missing credentials, a bucket that is not there, access
denied to one key, an endpoint that does not answer, a connection dropped in the middle of a body. fsspec's drivers
raise these as a zoo of types (s3fs maps S3's error codes to ``FileNotFoundError``/``PermissionError``/``OSError``,
botocore has its own ``NoCredentialsError``/``EndpointConnectionError``, aiohttp its ``ClientError``s); ``translate``
turns each into a ``StorageError`` whose message is one line: the URL (credentials cut out of it), what went wrong,
and what to check. ``StorageNotFound`` and ``StorageDenied`` are also ``FileNotFoundError``/``PermissionError``, so
callers that handled a missing local file handle a missing object the same way.

Credentials never reach a message: URLs lose their user-info and the values of query parameters that carry
secrets (pre-signed S3 URLs, Azure SAS tokens), and every message is scrubbed of the values of the standard
credential variables of the environment, in case a driver's own text quotes one.
"""

from __future__ import annotations

import os
import re
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

# Query parameters whose values are secrets: pre-signed S3 URLs (X-Amz-Signature, X-Amz-Credential,
# X-Amz-Security-Token, the older Signature/AWSAccessKeyId), Azure SAS (sig), and the generic names.
_SECRET_PARAM = re.compile(r"sig|signature|token|key|secret|password|passwd|credential|auth", re.IGNORECASE)
# Variables of the standard credential chains (AWS CLI/botocore, Azure's adlfs, Google's gcsfs) whose values are
# secret or identify an account; their values are cut from every message.
_SECRET_ENV = ("AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_SECURITY_TOKEN", "AWS_ACCESS_KEY_ID",
               "AZURE_STORAGE_KEY", "AZURE_STORAGE_ACCOUNT_KEY", "AZURE_STORAGE_SAS_TOKEN",
               "AZURE_STORAGE_CONNECTION_STRING", "AZURE_CLIENT_SECRET", "GOOGLE_OAUTH_ACCESS_TOKEN")
_URL = re.compile(r"\b[a-zA-Z][a-zA-Z0-9+.-]*://[^\s'\"<>]+")
_MASK = "***"


class StorageError(OSError):
    """A storage operation failed; ``str()`` is one line naming the URL, with no credential in it."""

    def __init__(self, url: str, problem: str) -> None:
        self.url = redact(url)
        self.problem = scrub(" ".join(problem.split()))
        super().__init__(f"{self.url}: {self.problem}")

    def __str__(self) -> str:
        return f"{self.url}: {self.problem}"

    def __reduce__(self) -> tuple:  # picklable across Ray's processes with its own message, not OSError's args
        return (type(self), (self.url, self.problem))


class StorageNotFound(StorageError, FileNotFoundError):
    """The object, folder or bucket is not there."""


class StorageDenied(StorageError, PermissionError):
    """Credentials missing, wrong, expired, or not allowed to do this."""


class StorageUnavailable(StorageError):
    """The store did not answer, or stopped answering, after retries (a network or service failure)."""


def redact(url: str) -> str:
    """``url`` without user-info and without the values of query parameters that carry secrets."""
    if "://" not in url:
        return url
    try:
        parts = urlsplit(url)
    except ValueError:
        return url
    netloc = parts.netloc.rsplit("@", 1)[-1]
    query = parts.query
    if query:
        pairs = parse_qsl(query, keep_blank_values=True)
        query = urlencode([(k, _MASK if _SECRET_PARAM.search(k) else v) for k, v in pairs], safe="*")
    return urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))


def scrub(text: str) -> str:
    """``text`` with every URL in it redacted and the values of the credential variables cut out."""
    text = _URL.sub(lambda m: redact(m.group(0)), text)
    for name in _SECRET_ENV:
        value = os.environ.get(name)
        if value and len(value) >= 4:  # a one-letter test value would mask letters of every message
            text = text.replace(value, _MASK)
    return text


def _code(exc: BaseException) -> str:
    """The service's error code where the driver kept it (botocore's ClientError), else ''."""
    response = getattr(exc, "response", None)
    if isinstance(response, dict):
        return str(response.get("Error", {}).get("Code", ""))
    return ""


def _driver_errors() -> tuple[type[BaseException], ...]:
    """Exception types of the installed drivers that mean "the network or the service failed" (retryable)."""
    found: list[type[BaseException]] = []
    try:
        import aiohttp

        found.append(aiohttp.ClientError)
    except ImportError:
        pass
    try:
        from botocore.exceptions import ConnectionError as BotoConnectionError
        from botocore.exceptions import HTTPClientError, ReadTimeoutError

        found += [BotoConnectionError, HTTPClientError, ReadTimeoutError]
    except ImportError:
        pass
    return tuple(found)


TRANSIENT_DRIVER_ERRORS = _driver_errors()


def is_transient(exc: BaseException) -> bool:
    """Whether retrying may help: a dropped connection, a timeout, a 5xx or throttling answer; not a missing
    object, a refusal, or a mistake in the request."""
    if isinstance(exc, StorageError):
        return isinstance(exc, StorageUnavailable)
    if isinstance(exc, FileNotFoundError | PermissionError | IsADirectoryError | NotADirectoryError | ValueError):
        return False
    if isinstance(exc, TRANSIENT_DRIVER_ERRORS):
        return True
    code = _code(exc)
    if code:
        return code in ("SlowDown", "InternalError", "ServiceUnavailable", "RequestTimeout", "503", "500")
    if isinstance(exc, ConnectionError | TimeoutError):
        return True
    if isinstance(exc, OSError):
        # s3fs raises OSError(EREMOTEIO) for 5xx answers; aiohttp wraps resets in OSError subclasses.
        text = str(exc).lower()
        return any(w in text for w in ("timeout", "timed out", "reset", "broken pipe", "disconnect", "connection",
                                       "payload", "incomplete", "internal error", "slow down", "unavailable"))
    return False


def translate(url: str, exc: BaseException, doing: str = "") -> StorageError:
    """``exc`` raised while ``doing`` something with ``url`` as a one-line ``StorageError``."""
    if isinstance(exc, StorageError):
        return exc
    what = f"{doing}: " if doing else ""
    name = type(exc).__name__
    code = _code(exc)
    detail = " ".join(str(exc).split()) or name
    if name in ("NoCredentialsError", "PartialCredentialsError", "CredentialRetrievalError"):
        return StorageDenied(url, f"{what}no credentials found (the standard chain: AWS_ACCESS_KEY_ID and "
                                  "AWS_SECRET_ACCESS_KEY, AWS_PROFILE, ~/.aws/credentials, an instance role)")
    if isinstance(exc, PermissionError) or code in ("AccessDenied", "InvalidAccessKeyId", "SignatureDoesNotMatch",
                                                    "ExpiredToken", "403"):
        why = _denied_reason(code or detail)
        return StorageDenied(url, f"{what}{why}")
    if isinstance(exc, FileNotFoundError) or code in ("NoSuchKey", "NoSuchBucket", "404"):
        if "bucket" in detail.lower() and "not exist" in detail.lower():
            return StorageNotFound(url, f"{what}the bucket does not exist")
        return StorageNotFound(url, f"{what}not found")
    if name == "EndpointConnectionError" or isinstance(exc, ConnectionRefusedError):
        return StorageUnavailable(url, f"{what}cannot connect to the store ({detail}); check AWS_ENDPOINT_URL or "
                                       "the network")
    if is_transient(exc):
        return StorageUnavailable(url, f"{what}the store failed to answer ({name}: {detail})")
    return StorageError(url, f"{what}{name}: {detail}")


def _denied_reason(text: str) -> str:
    lowered = text.lower()
    if "invalidaccesskeyid" in lowered or "access key id you provided does not exist" in lowered:
        return "access denied: the access key is not known to the store (wrong credentials?)"
    if "signaturedoesnotmatch" in lowered or "signature we calculated does not match" in lowered:
        return "access denied: the secret key does not match the access key (wrong credentials?)"
    if "expired" in lowered:
        return "access denied: the credentials have expired"
    return "access denied (the credentials in use may not read or write here)"
