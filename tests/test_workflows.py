"""The GitHub Actions workflows validate against GitHub's schema and follow the brief."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

WORKFLOWS = Path(__file__).resolve().parent.parent / ".github" / "workflows"


def validate(*files: Path) -> subprocess.CompletedProcess[str]:
    exe = shutil.which("check-jsonschema") or str(Path(sys.executable).parent / "check-jsonschema")
    return subprocess.run(
        [exe, "--builtin-schema", "vendor.github-workflows", *map(str, files)],
        capture_output=True, text=True, check=False,
    )


def test_workflows_are_valid() -> None:
    result = validate(*sorted(WORKFLOWS.glob("*.yml")))
    assert result.returncode == 0, result.stdout + result.stderr


def test_a_broken_workflow_is_rejected(tmp_path: Path) -> None:
    broken = tmp_path / "broken.yml"
    broken.write_text("name: x\non: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n"
                      "    steps:\n      - uses: actions/checkout@v4\n        run: echo both\n"
                      "    permisions: {}\n")
    assert validate(broken).returncode != 0


def test_pages_workflow_uses_official_actions_least_permissions_one_deployment() -> None:
    text = (WORKFLOWS / "pages.yml").read_text()
    for action in ("actions/configure-pages@", "actions/upload-pages-artifact@",
                   "actions/deploy-pages@"):
        assert action in text
    assert "permissions:\n  contents: read" in text  # default for every job
    assert "pages: write" in text and "id-token: write" in text
    assert "concurrency:\n  group: pages\n  cancel-in-progress: false" in text
    assert "branches: [main]" in text
    assert "standgen build events -o output" in text


@pytest.mark.parametrize("name", ["ci.yml"])
def test_ci_workflow_runs_the_ci_script(name: str) -> None:
    text = (WORKFLOWS / name).read_text()
    assert "pull_request" in text and "bash .ci/run" in text
