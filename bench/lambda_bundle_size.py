"""Size of the Lambda deployment bundle: functions/pinup_feedback plus functions/requirements.txt
(boto3 excluded: the python3.12 runtime ships it), installed for the deployed platform (arm64).

    .venv/bin/python bench/lambda_bundle_size.py [--limit-mb 5] [--native]

Installs with `pip install --target` into a temporary directory, zips it like `sam build` does
and prints the unzipped and zipped sizes. Exits 1 when the zipped bundle is over the limit.
Needs a package index (the network or a configured mirror).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FUNCTIONS = ROOT / "functions"


def tree_size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def build(target: Path, native: bool) -> None:
    cmd = [
        sys.executable,
        "-m",
        "pip",
        "install",
        "--quiet",
        "--no-compile",
        "--target",
        str(target),
        "-r",
        str(FUNCTIONS / "requirements.txt"),
    ]
    if not native:
        cmd += [
            "--platform",
            "manylinux2014_aarch64",
            "--python-version",
            "3.12",
            "--implementation",
            "cp",
            "--only-binary=:all:",
        ]
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"pip install failed (is a package index reachable?):\n{done.stderr[-2000:]}")
    if (target / "boto3").exists() or (target / "botocore").exists():
        raise SystemExit("boto3/botocore ended up in the bundle: a requirement pulls them in")
    shutil.copytree(
        FUNCTIONS / "pinup_feedback", target / "pinup_feedback", ignore=shutil.ignore_patterns("__pycache__", "*.pyc")
    )
    shutil.rmtree(target / "bin", ignore_errors=True)


def zip_dir(src: Path, dest: Path) -> None:
    with zipfile.ZipFile(dest, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as zf:
        for path in sorted(src.rglob("*")):
            if path.is_file():
                zf.write(path, path.relative_to(src))


def main() -> int:
    parser = argparse.ArgumentParser(description="Measure the Lambda bundle size")
    parser.add_argument("--limit-mb", type=float, default=5.0)
    parser.add_argument("--native", action="store_true", help="this machine's platform instead of arm64")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        target = Path(tmp) / "bundle"
        build(target, args.native)
        archive = Path(tmp) / "bundle.zip"
        zip_dir(target, archive)
        mb = 1024 * 1024
        raw, zipped, ours = tree_size(target), archive.stat().st_size, tree_size(target / "pinup_feedback")
        biggest = sorted(
            ((tree_size(p) if p.is_dir() else p.stat().st_size, p.name) for p in target.iterdir()), reverse=True
        )[:5]
        print(
            f"bundle unzipped: {raw / mb:.2f} MB   zipped: {zipped / mb:.2f} MB   "
            f"(pinup_feedback itself: {ours / 1024:.0f} KB)"
        )
        print("largest parts: " + ", ".join(f"{name} {size / mb:.2f} MB" for size, name in biggest))
        print(f"limit {args.limit_mb} MB on the zipped bundle: {'OK' if zipped <= args.limit_mb * mb else 'OVER'}")
        return 0 if zipped <= args.limit_mb * mb else 1


if __name__ == "__main__":
    raise SystemExit(main())
