"""The generated packages are what the OpenAPI documents generate today, and the README's receiver
is the example file the tests run."""

import os
import subprocess
from pathlib import Path

CLIENT_ROOT = Path(__file__).resolve().parent.parent


def test_generated_code_is_not_stale_against_the_documents() -> None:
    done = subprocess.run(
        ["bash", str(CLIENT_ROOT / "scripts" / "generate.sh"), "--check"],
        capture_output=True,
        text=True,
        env={**os.environ},
    )
    assert done.returncode == 0, done.stderr + done.stdout


def test_the_readme_shows_the_example_receiver_as_it_is() -> None:
    readme = (CLIENT_ROOT / "README.md").read_text()
    example = (CLIENT_ROOT / "examples" / "flask_receiver.py").read_text()
    assert f"```python\n{example}```" in readme
