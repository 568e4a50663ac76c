"""agentdeck.core.secrets: one true-positive vector per kind, a table of false positives, redaction.

Every fake credential is assembled from pieces at run time, so this file never holds a literal
that looks like a real token to a push-protection scanner.
"""
from __future__ import annotations

import hashlib
import uuid

import pytest
from hypothesis import given, strategies as st

from agentdeck.core.secrets import (PATTERNS, SecretHit, is_env_reference, redact, redact_value, scan_text,
                          scan_value)


def body(n: int, alphabet: str = "Ab1") -> str:
    return (alphabet * n)[:n]


PEM_BEGIN, PEM_END = "-----BEGIN " + "RSA PRIVATE KEY-----", "-----END " + "RSA PRIVATE KEY-----"

#: (kind, text, the credential inside text)
TRUE_POSITIVES = [
    ("github_token", "export GH_TOKEN=" + (t := "ghp_" + body(36)), t),
    ("github_token", "gho_" + body(36), "gho_" + body(36)),
    ("github_token", "ghu_" + body(36), "ghu_" + body(36)),
    ("github_token", "ghs_" + body(36), "ghs_" + body(36)),
    ("github_token", "ghr_" + body(36), "ghr_" + body(36)),
    ("github_pat", (t := "github_pat_" + body(22) + "_" + body(59)), t),
    ("openai_key", "OPENAI_API_KEY=" + (t := "sk-" + body(48)), t),
    ("openai_key", (t := "sk-proj-" + body(60, "x9_Y-")), t),
    ("anthropic_key", "key: " + (t := "sk-ant-api03-" + body(80, "Zz0-")), t),
    ("google_api_key", "?key=" + (t := "AIza" + body(35)), t),
    ("aws_access_key_id", "id " + (t := "AKIA" + body(16, "Q7")), t),
    ("aws_access_key_id", (t := "ASIA" + body(16, "Z0")), t),
    ("aws_secret_access_key", "aws_secret_access_key = " + (t := body(40, "a/B+9")), t),
    ("aws_secret_access_key", "AWS_SECRET_ACCESS_KEY=" + (t := body(40, "kQ3/")), t),
    ("slack_token", (t := "xoxb-" + body(12, "0") + "-" + body(24)), t),
    ("slack_token", (t := "xoxp-" + body(30, "1a-")), t),
    ("slack_token", (t := "xoxa-" + body(20)), t),
    ("slack_token", (t := "xoxr-" + body(20)), t),
    ("slack_token", (t := "xoxs-" + body(20)), t),
    ("slack_webhook", (t := "https://hooks.slack.com/services/" + "T00/B00/" + body(24)), t),
    ("jwt", "token=" + (t := "eyJ" + body(20) + "." + body(30) + "." + body(25, "s_-")), t),
    ("bearer_token", "Authorization: Bearer " + (t := body(24, "Zz9")), t),
    ("bearer_token", "-H 'authorization: bearer " + (t := body(20, "k.7")) + "'", t),
    ("private_key", (t := PEM_BEGIN + "\n" + body(64, "MIIE") + "\n" + PEM_END), t),
    ("private_key", "cut off: " + (t := PEM_BEGIN + "\n" + body(40, "b3Bl")), t),
    ("url_credentials", "git clone https://deploy:" + (t := "hunter2" * 2) + "@example.com/r.git", t),
    ("gitlab_token", "PRIVATE-TOKEN: " + (t := "glpat-" + body(20, "xY3_-")), t),
    ("gitlab_token", (t := "gldt-" + body(24)), t),
    ("stripe_key", "STRIPE=" + (t := "sk_" + "live_" + body(24, "Rk4")), t),
    ("stripe_key", (t := "rk_" + "test_" + body(30)), t),
    ("huggingface_token", "HF_TOKEN " + (t := "hf_" + body(34, "qWe7")), t),
    ("npm_token", "//registry.npmjs.org/:_authToken=" + (t := "npm_" + body(36)), t),
    ("password_flag", "mysql --password " + (t := "hunter2hunter2") + " db", t),
    ("password_flag", "tool --password=" + (t := "S3cr3t!x") + " --verbose", t),
    ("password_flag", "login --token '" + (t := body(30, "t0K")) + "'", t),
    ("user_password", "curl -u deploy:" + (t := "pa55word") + " https://x", t),
    ("user_password", "curl --user 'admin:" + (t := "hunter22") + "' https://x", t),
    ("user_password", "curl -uadmin:" + (t := "Xy9zzz") + " https://x", t),
]

FALSE_POSITIVES = [
    "${GITHUB_TOKEN}",
    "Bearer ${GITHUB_TOKEN}",
    "Bearer $GITHUB_TOKEN",
    "Authorization: Bearer ${env:API_TOKEN}",
    "the task-list and the risk-free-investment-strategies-for-2026 plan",
    "use sk-learn",
    "ghp_",
    "ghp_short1234",
    str(uuid.UUID(int=0x1234_5678_9ABC_DEF0_1234_5678_9ABC_DEF0)),
    hashlib.sha256(b"agentdeck").hexdigest(),
    "sha256:" + hashlib.sha256(b"x").hexdigest(),
    "/home/me/.ssh/id_ed25519",
    r"C:\Users\me\AppData\Local\agentdeck\audit.jsonl",
    "The server expects a Bearer token in the Authorization header.",
    "Bearer authentication-schemes-are-common",
    "http://localhost:8080/path@v2",
    "git@github.com:owner/repo.git",
    "ssh://git@example.com:22/repo.git",
    "https://github.com/owner/repo",
    "https://user:${TOKEN}@example.com",
    "AKIA",
    "eyJhbGciOi",
    "xoxb-",
    "-----BEGIN " + "PUBLIC KEY-----",
    "short",
    "",
    "glpat-",
    "sk_live_",
    "the shelf_life and hf_short",
    "npm_config_cache=/tmp/npm",
    "git push --token-file ~/.tok",
    "docker login --password-stdin",
    "mysql --password $DB_PASSWORD",
    'login --token "${TOKEN}"',
    "docker run -u 1000:1000 image",
    "sort -u file.txt",
    "curl -u $USER:$PASS https://x",
]


def test_every_kind_has_a_true_positive_vector():
    assert {kind for kind, _ in PATTERNS} == {kind for kind, _, _ in TRUE_POSITIVES}


@pytest.mark.parametrize("kind,text,secret", TRUE_POSITIVES)
def test_true_positive(kind, text, secret):
    hits = scan_text(text, "here")
    assert hits == [SecretHit(kind, "here", secret[:4] + "…")]
    out = redact(text)
    assert secret not in out
    assert f"[REDACTED:{kind}]" in out


@pytest.mark.parametrize("text", FALSE_POSITIVES)
def test_false_positive(text):
    assert scan_text(text) == []
    assert redact(text) == text


def test_specific_kind_wins_over_generic_wrapper():
    token = "ghp_" + body(36)
    assert [h.kind for h in scan_text("Authorization: Bearer " + token)] == ["github_token"]
    assert [h.kind for h in scan_text(f"https://x:{token}@github.com")] == ["github_token"]


def test_redact_keeps_the_text_around_several_secrets():
    gh, aws = "ghp_" + body(36), "AKIA" + body(16, "Q7")
    text = f"a {gh} b {aws} c"
    assert redact(text) == "a [REDACTED:github_token] b [REDACTED:aws_access_key_id] c"
    assert redact(redact(text)) == redact(text)


def test_scan_value_reports_dotted_paths():
    token = "ghp_" + body(36)
    config = {"mcpServers": {
        "github": {"headers": {"Authorization": "Bearer " + token}, "timeout": 30},
        "env-ok": {"headers": {"Authorization": "Bearer ${GITHUB_TOKEN}"}},
        "tool": {"args": ["--verbose", "--key=" + "AIza" + body(35)], "enabled": True},
    }}
    assert scan_value(config) == [
        SecretHit("github_token", "mcpServers.github.headers.Authorization", "ghp_…"),
        SecretHit("google_api_key", "mcpServers.tool.args[1]", "AIza…"),
    ]
    assert scan_value(config, "mcp-config.json")[0].where.startswith("mcp-config.json.mcpServers")


def test_a_bare_aws_secret_counts_under_its_key():
    secret = body(40, "a/B+9")
    env = {"env": {"AWS_SECRET_ACCESS_KEY": secret, "OTHER": secret}}
    assert scan_value(env) == [SecretHit("aws_secret_access_key", "env.AWS_SECRET_ACCESS_KEY",
                                         secret[:4] + "…")]
    assert redact_value(env) == {"env": {"AWS_SECRET_ACCESS_KEY": "[REDACTED:aws_secret_access_key]",
                                         "OTHER": secret}}


def test_redact_value_walks_everything_and_leaves_other_types():
    token = "sk-ant-" + body(40)
    value = {"a": [1, None, True, {"b": f"x {token}"}], "c": 2.5}
    out = redact_value(value)
    assert out == {"a": [1, None, True, {"b": "x [REDACTED:anthropic_key]"}], "c": 2.5}
    assert token in value["a"][3]["b"]  # input untouched


@pytest.mark.parametrize("text,expected", [
    ("Bearer ${GITHUB_TOKEN}", True),
    ("${GITHUB_TOKEN}", True),
    ("$GITHUB_TOKEN", True),
    ("token ${API_KEY:-}", True),
    ("Bearer {env:GITHUB_TOKEN}", True),          # OpenCode's spelling
    ("Bearer {env:X} " + "ghp_" + body(36), False),
    ("Bearer " + body(24, "Zz9"), False),
    ("Bearer ${X} " + "ghp_" + body(36), False),
    ("plain value", False),
    ("", False),
])
def test_is_env_reference(text, expected):
    assert is_env_reference(text) is expected


@given(st.text(max_size=60), st.sampled_from(TRUE_POSITIVES), st.text(max_size=60))
def test_redact_never_leaves_the_secret(prefix, vector, suffix):
    _, text, secret = vector
    assert secret not in redact(f"{prefix} {text} {suffix}")
