#!/usr/bin/env bash
# Validates speedscope files against speedscope's published JSON schema (a copy is kept in
# Tests/MemprofProfileTests/Fixtures/speedscope-file-format-schema.json), then checks what the
# schema cannot say: frame indices in range, one weight per sample, weights positive, endValue
# equal to the total weight. Needs python3 with jsonschema (pip install jsonschema).
# Usage: scripts/check-speedscope.sh FILE...
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: $0 FILE..." >&2; exit 2; }
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
schema="$here/Tests/MemprofProfileTests/Fixtures/speedscope-file-format-schema.json"
python3 - "$schema" "$@" <<'PY'
import json, sys
import jsonschema
schema = json.load(open(sys.argv[1]))
status = 0
for path in sys.argv[2:]:
    document = json.load(open(path))
    try:
        jsonschema.validate(document, schema, cls=jsonschema.Draft6Validator)
        frames = len(document["shared"]["frames"])
        for profile in document["profiles"]:
            assert profile["type"] == "sampled", "not a sampled profile"
            samples, weights = profile["samples"], profile["weights"]
            assert len(samples) == len(weights), f"{profile['name']}: {len(samples)} samples, {len(weights)} weights"
            assert all(0 <= index < frames for stack in samples for index in stack), f"{profile['name']}: frame index out of range"
            assert all(weight > 0 for weight in weights), f"{profile['name']}: weight not positive"
            assert profile["endValue"] == sum(weights), f"{profile['name']}: endValue is not the total weight"
        print(f"{path}: ok, {len(document['profiles'])} profiles, {frames} frames")
    except (jsonschema.ValidationError, AssertionError, KeyError) as error:
        print(f"{path}: INVALID: {getattr(error, 'message', error)}", file=sys.stderr)
        status = 1
sys.exit(status)
PY
