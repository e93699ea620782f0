"""infra/template.yaml: cfn-lint clean (as CI runs it), transforms with the SAM translator, and says what the issue asks."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
TEMPLATE = ROOT / "infra" / "template.yaml"
CFN_LINT = Path(sys.executable).with_name("cfn-lint")


def cfn_lint(*paths: Path) -> subprocess.CompletedProcess[str]:
    """The cfn-lint command line, as CI and infra/README.md run it; JSON out so matches can be told apart by file."""
    exe = [str(CFN_LINT)] if CFN_LINT.exists() else [sys.executable, "-m", "cfnlint"]
    return subprocess.run(
        [*exe, "--format", "json", *map(str, paths)], capture_output=True, text=True, timeout=240, check=False
    )


@pytest.fixture(scope="module")
def sam() -> dict[str, Any]:
    from cfnlint.decode import decode

    template, matches = decode(str(TEMPLATE))
    assert not matches, matches
    return template  # type: ignore[no-any-return]


@pytest.fixture(scope="module")
def cfn(sam: dict[str, Any], tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The template as CloudFormation sees it after the SAM transform (CodeUri as if packaged)."""
    import os

    from samtranslator.translator.transform import transform

    class NoManagedPolicies:
        def load(self) -> dict[str, str]:
            return {}

    packaged = copy.deepcopy(sam)
    for res in packaged["Resources"].values():
        if res["Type"] == "AWS::Serverless::Function":
            res["Properties"]["CodeUri"] = "s3://packaged-code/pinup.zip"
    old = os.environ.get("AWS_DEFAULT_REGION")
    os.environ["AWS_DEFAULT_REGION"] = "us-east-1"
    try:
        out = json.loads(json.dumps(transform(packaged, {}, NoManagedPolicies()), default=str))
    finally:
        if old is None:
            os.environ.pop("AWS_DEFAULT_REGION", None)
        else:
            os.environ["AWS_DEFAULT_REGION"] = old
    path = tmp_path_factory.mktemp("cfn") / "transformed.json"
    path.write_text(json.dumps(out, indent=1))
    out["__path__"] = str(path)
    return out  # type: ignore[no-any-return]


def of_type(template: dict[str, Any], kind: str) -> dict[str, dict[str, Any]]:
    return {k: r for k, r in template["Resources"].items() if r["Type"] == kind}


@pytest.fixture(scope="module")
def linted(cfn: dict[str, Any], tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[dict[str, Any]]]:
    """cfn-lint's matches for each template, from one cfn-lint process for all three.

    cfn-lint spends most of its ~20 s loading its resource schemas, once a process: one run of
    the template, a deliberately broken copy and the SAM-transformed template costs about what one
    did. Each test below then asserts on its own file's matches.
    """
    broken = tmp_path_factory.mktemp("cfn-broken") / "broken.yaml"
    broken.write_text(TEMPLATE.read_text().replace("SigningProtocol: sigv4", "SigningProtocol: sigv5"))
    paths = {"template": TEMPLATE, "broken": broken, "transformed": Path(cfn["__path__"])}
    result = cfn_lint(*paths.values())
    assert result.returncode in (0, 2, 4, 6, 8, 10, 12, 14), result.stdout + result.stderr  # 1: cfn-lint failed
    matches = json.loads(result.stdout or "[]")
    by_path = {str(p): name for name, p in paths.items()}
    unknown = [m for m in matches if m["Filename"] not in by_path]
    assert unknown == [], unknown
    out: dict[str, list[dict[str, Any]]] = {name: [] for name in paths}
    for match in matches:
        out[by_path[match["Filename"]]].append(match)
    return out


def test_cfn_lint_is_clean(linted: dict[str, list[dict[str, Any]]]) -> None:
    assert linted["template"] == []


def test_cfn_lint_catches_a_broken_template(linted: dict[str, list[dict[str, Any]]]) -> None:
    assert [m["Rule"]["Id"] for m in linted["broken"]] != []


def test_transformed_template_is_clean_too(linted: dict[str, list[dict[str, Any]]]) -> None:
    assert linted["transformed"] == []


def test_function(sam: dict[str, Any], cfn: dict[str, Any]) -> None:
    functions = {f["Properties"]["Handler"]: f for f in of_type(cfn, "AWS::Lambda::Function").values()}
    assert set(functions) == {"pinup_feedback.lambda_handler.handler", "pinup_feedback.notifier.handler"}
    props = functions["pinup_feedback.lambda_handler.handler"]["Properties"]
    assert props["Runtime"] == "python3.12"
    assert props["Architectures"] == ["arm64"]
    assert props["MemorySize"] == 256
    assert props["Timeout"] == 10
    assert props["Handler"] == "pinup_feedback.lambda_handler.handler"
    env = props["Environment"]["Variables"]
    assert {"PINUP_STORE", "PINUP_ALLOWED_ORIGINS", "PINUP_BOARD_SECRET", "PINUP_RATE_LIMIT", "PINUP_MAX_BODY"} <= set(
        env
    )
    assert env["PINUP_STORE"] == {"Fn::Sub": "s3://${FeedbackBucket}/${FeedbackPrefix}"}
    assert env["PINUP_BOARD_SECRET"] == {"Ref": "BoardSecret"}
    # CodeUri is relative to the template: it must be the function package with its requirements
    for sam_fn in of_type(sam, "AWS::Serverless::Function").values():
        code = (TEMPLATE.parent / sam_fn["Properties"]["CodeUri"]).resolve()
        assert code == ROOT / "functions"
        assert (code / "requirements.txt").is_file()
        module = sam_fn["Properties"]["Handler"].rsplit(".", 1)[0].replace(".", "/")
        assert (code / f"{module}.py").is_file()


def test_webhook_notifier_is_off_the_request_path(sam: dict[str, Any], cfn: dict[str, Any]) -> None:
    """An S3 event notification on <prefix>/feedback/ invokes the notifier; the endpoint never waits for it."""
    notifier = sam["Resources"]["NotifierFunction"]
    assert notifier["Condition"] == sam["Resources"]["NotifierLogGroup"]["Condition"] == "HasWebhooks"
    env = notifier["Properties"]["Environment"]["Variables"]
    assert env["PINUP_WEBHOOK_URLS"] == {"Ref": "WebhookUrls"}
    assert env["PINUP_WEBHOOK_SECRET"] == {"Ref": "WebhookSecret"}
    assert sam["Parameters"]["WebhookSecret"]["NoEcho"] is True
    (event,) = notifier["Properties"]["Events"].values()
    pattern = event["Properties"]["Pattern"]
    assert event["Type"] == "EventBridgeRule" and pattern["source"] == ["aws.s3"]
    assert pattern["detail-type"] == ["Object Created"]
    assert pattern["detail"]["bucket"]["name"] == [{"Ref": "FeedbackBucket"}]
    assert pattern["detail"]["object"]["key"] == [{"prefix": {"Fn::Sub": "${FeedbackPrefix}/feedback/"}}]
    bucket = cfn["Resources"]["FeedbackBucket"]["Properties"]["NotificationConfiguration"]
    assert bucket == {
        "Fn::If": ["HasWebhooks", {"EventBridgeConfiguration": {"EventBridgeEnabled": True}}, {"Ref": "AWS::NoValue"}]
    }
    (rule,) = of_type(cfn, "AWS::Events::Rule").values()
    assert rule["Condition"] == "HasWebhooks"
    permissions = of_type(cfn, "AWS::Lambda::Permission")
    assert any(p["Properties"]["Principal"] == "events.amazonaws.com" for p in permissions.values())
    feedback_env = sam["Resources"]["FeedbackFunction"]["Properties"]["Environment"]["Variables"]
    assert not any("WEBHOOK" in name for name in feedback_env)  # the endpoint never delivers itself


def test_parameters_and_outputs(sam: dict[str, Any]) -> None:
    params = sam["Parameters"]
    assert params["BoardSecret"]["NoEcho"] is True
    assert "Default" not in params["BoardSecret"]
    assert "AllowedOrigins" in params and "RateLimit" in params
    assert {"ApiUrl", "BoardsUrl"} <= set(sam["Outputs"])


def _statements(cfn: dict[str, Any]) -> list[dict[str, Any]]:
    out = []
    for role in of_type(cfn, "AWS::IAM::Role").values():
        for policy in role["Properties"].get("Policies", []):
            out.extend(policy["PolicyDocument"]["Statement"])
        assert all("S3" not in str(arn) for arn in role["Properties"].get("ManagedPolicyArns", []))
    return out


def test_iam_is_least_privilege(cfn: dict[str, Any]) -> None:
    statements = _statements(cfn)
    actions = {
        a
        for s in statements
        if s["Effect"] == "Allow"
        for a in ([s["Action"]] if isinstance(s["Action"], str) else s["Action"])
    }
    assert actions == {"s3:PutObject", "s3:GetObject", "s3:ListBucket"}
    assert not any("Delete" in a or a.endswith("*") for a in actions)
    text = json.dumps(statements)
    assert "s3:DeleteObject" not in text and '"s3:*"' not in text
    for s in statements:
        resource = json.dumps(s["Resource"])
        if s["Action"] == ["s3:ListBucket"] or s["Action"] == "s3:ListBucket":
            assert s["Condition"]["StringLike"]["s3:prefix"] == [{"Fn::Sub": "${FeedbackPrefix}/feedback/*"}]
        else:
            assert "${FeedbackPrefix}/" in resource, resource  # object actions only under the prefix
        if "s3:PutObject" in s["Action"]:  # the endpoint: records and items; the notifier: item numbers only
            assert resource in (
                json.dumps({"Fn::Sub": "${FeedbackBucket.Arn}/${FeedbackPrefix}/feedback/*"}),
                json.dumps({"Fn::Sub": "${FeedbackBucket.Arn}/${FeedbackPrefix}/feedback/_items/*"}),
            )
    notifier = [s["Resource"] for s in statements if s.get("Sid") == "NumberItems"]
    assert notifier == [{"Fn::Sub": "${FeedbackBucket.Arn}/${FeedbackPrefix}/feedback/_items/*"}]


def _tls_only(policy: dict[str, Any]) -> bool:
    return any(
        s["Effect"] == "Deny" and s["Condition"]["Bool"]["aws:SecureTransport"] == "false"
        for s in policy["PolicyDocument"]["Statement"]
        if "Condition" in s and "Bool" in s["Condition"]
    )


def test_buckets(sam: dict[str, Any]) -> None:
    res = sam["Resources"]
    for name in ("FeedbackBucket", "BoardsBucket"):
        props = res[name]["Properties"]
        block = props["PublicAccessBlockConfiguration"]
        assert all(
            block[k] is True
            for k in ("BlockPublicAcls", "BlockPublicPolicy", "IgnorePublicAcls", "RestrictPublicBuckets")
        )
        assert props["BucketEncryption"]["ServerSideEncryptionConfiguration"][0]["ServerSideEncryptionByDefault"][
            "SSEAlgorithm"
        ]
        assert "WebsiteConfiguration" not in props  # served by CloudFront only
    assert res["FeedbackBucket"]["Properties"]["VersioningConfiguration"]["Status"] == "Enabled"
    assert res["FeedbackBucket"]["DeletionPolicy"] == "Retain"
    assert _tls_only(res["FeedbackBucketPolicy"]["Properties"])
    assert _tls_only(res["BoardsBucketPolicy"]["Properties"])
    allow = [
        s for s in res["BoardsBucketPolicy"]["Properties"]["PolicyDocument"]["Statement"] if s["Effect"] == "Allow"
    ]
    assert len(allow) == 1 and allow[0]["Principal"] == {"Service": "cloudfront.amazonaws.com"}
    assert allow[0]["Action"] == "s3:GetObject"
    assert "AWS:SourceArn" in allow[0]["Condition"]["StringEquals"]


def test_cloudfront_with_oac(sam: dict[str, Any]) -> None:
    res = sam["Resources"]
    oac = res["BoardsOriginAccessControl"]["Properties"]["OriginAccessControlConfig"]
    assert (oac["OriginAccessControlOriginType"], oac["SigningBehavior"], oac["SigningProtocol"]) == (
        "s3",
        "always",
        "sigv4",
    )
    config = res["BoardsDistribution"]["Properties"]["DistributionConfig"]
    (origin,) = config["Origins"]
    assert origin["OriginAccessControlId"] == {"Fn::GetAtt": ["BoardsOriginAccessControl", "Id"]}
    assert config["DefaultCacheBehavior"]["ViewerProtocolPolicy"] == "redirect-to-https"


def test_http_api_cors_and_throttling(sam: dict[str, Any], cfn: dict[str, Any]) -> None:
    api = sam["Resources"]["FeedbackApi"]["Properties"]
    assert "x-pinup-board-token" in [h.lower() for h in api["CorsConfiguration"]["AllowHeaders"]]
    assert "POST" in api["CorsConfiguration"]["AllowMethods"]
    assert "*" not in json.dumps(api["CorsConfiguration"]["AllowOrigins"])
    assert api["DefaultRouteSettings"]["ThrottlingRateLimit"] == {"Ref": "ThrottleRate"}
    (stage,) = of_type(cfn, "AWS::ApiGatewayV2::Stage").values()
    assert stage["Properties"]["DefaultRouteSettings"]["ThrottlingBurstLimit"] == {"Ref": "ThrottleBurst"}
    (http_api,) = of_type(cfn, "AWS::ApiGatewayV2::Api").values()
    assert "x-amazon-apigateway-cors" in http_api["Properties"]["Body"]
    routes = set(http_api["Properties"]["Body"]["paths"])
    assert {"/api/feedback", "/api/items", "/api/items/reopen"} <= routes and "/api/reload" not in routes
    assert {"/api/attachments", "/api/attachments/{board}/{name}"} <= routes  # images: upload, then shown


def test_infra_readme_says_how_to_deploy_and_publish() -> None:
    text = (ROOT / "infra" / "README.md").read_text("utf-8")
    assert "sam build && sam deploy --guided" in text
    assert "pinup build --api-url" in text and "pinup publish" in text and "--bucket" in text
    assert "cfn-lint infra/template.yaml" in text
