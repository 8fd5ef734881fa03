#!/usr/bin/env bash
# A bounded random-mutation fuzz of tools/wsexp's readers (tests/py/fuzz_readers.py): sweep files,
# paper folders and results JSON. Every mutated input is accepted or refused with the reader's own
# error; any other exception is a finding. A fixed seed and count (WSEXP_FUZZ_ITERS, default 600),
# so a run is repeatable; raise the count for a longer search.
set -eu
PYTHONPATH=tools python3 tests/py/fuzz_readers.py "${WSEXP_FUZZ_ITERS:-600}" "${WSEXP_FUZZ_SEED:-1}"
