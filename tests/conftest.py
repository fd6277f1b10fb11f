import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from hypothesis import settings

# CI runs on shared 2-core machines: a property's examples are judged on their results, never
# on their time (speed is measured by the benchmarks), so no per-example deadline.
settings.register_profile("commerce", deadline=None)
# Under CI: the same, with examples derived from each test (no flaky new failures, no example
# database); the fuzz tests (test_fuzz.py) run fewer examples under this profile.
settings.register_profile("ci", settings.get_profile("commerce"), derandomize=True,
                          database=None)
settings.load_profile("ci" if os.environ.get("CI") else "commerce")

# Saved unfinished games are sealed with a record key (commerce.seal): the tests keep theirs
# in a folder of their own, never in the user's configuration.
os.environ.setdefault("COMMERCE_KEY_FILE",
                      str(Path(tempfile.mkdtemp(prefix="commerce-test-key-")) / "record.key"))
