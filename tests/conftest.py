import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from hypothesis import settings

# CI runs on shared 2-core machines: a property's examples are judged on their results, never
# on their time (speed is measured by the benchmarks), so no per-example deadline.
settings.register_profile("commerce", deadline=None)
settings.load_profile("commerce")
