# Common tasks. `make run` is the main job: build the 7-8 tables once, then solve Korf's 100 in batch.
CARGO ?= cargo
PDBS ?= pdbs
RESULTS ?= results
# Where cargo puts the release build (CARGO_TARGET_DIR when set, as cargo does).
RELEASE := $(or $(CARGO_TARGET_DIR),target)/release

.PHONY: all build main-binaries test install-check run pdbs pdbs-5x5 pdbs-mtm bench clean

all: build

build:
	$(CARGO) build --release --workspace

# The README's test command: installs what the tests need (Chromium, for the browser tests; root and
# Debian's packages, or CHROMIUM=/path), then lints and runs every test of the workspace.
test:
	bash scripts/test-deps.sh
	$(CARGO) clippy --workspace --all-targets --locked -- -D warnings
	$(CARGO) test --workspace --locked
	python3 scripts/attack-serve.py
	CARGO=$(CARGO) bash scripts/slurm/test.sh
	bash scripts/python-test.sh

# The README's `cargo install --path ... --root DIR` lines, run as written from a fresh clone of HEAD into an
# empty folder, then each installed command (release builds of every command: minutes).
install-check:
	bash scripts/install-check.sh

# What the main job needs, and no more: the solver without the web app (the web stack and the water sort
# solver it serves would double the release build), and the table builder.
main-binaries:
	$(CARGO) build --release --locked -p solver -p pdb-builder --no-default-features

# The default 7-8 tables; a no-op when valid files are already there.
pdbs: main-binaries
	$(RELEASE)/pdb-builder build --partition 7-8 --out $(PDBS)

# The 24-puzzle's default set, the one `solver --heuristic auto` takes on 5x5: 7-6-6-5 and blank-aware
# 6-6-6-6, their estimates maxed (20 to 45 minutes and 6.8 GiB on 2 cores; 1.85 GB of files).
pdbs-5x5: main-binaries
	$(RELEASE)/pdb-builder build --board 5x5 --partition 7-6-6-5 --out $(PDBS)
	$(RELEASE)/pdb-builder build --board 5x5 --partition 6-6-6-6 --blank-aware --labels 2 --out $(PDBS)

# The multi-tile metric's default table, the one `solver solve --metric mtm` (heuristic auto) takes on 4x4
# when it is in $(PDBS): the relabelled-goal table of `--classes 4x4`, which the solver builds and keeps
# there when asked for it, here with the goal as the position to solve. A no-op (a checksum read) when a
# whole file is already there (0.6 s); else 105 s of CPU on one core (3:15 wall at load average 7 on 2 cores,
# 2026-12-07) and 166 MB peak, for a 151 MB file.
pdbs-mtm: main-binaries
	mkdir -p $(PDBS)
	$(RELEASE)/solver solve --metric mtm --classes 4x4 --pdbs $(PDBS) "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15" > /dev/null

# One record an instance in $(RESULTS)/korf100.jsonl and a summary on stderr. Run again, it resumes: a
# finished file is kept, an interrupted one is completed.
run: pdbs
	mkdir -p $(RESULTS)
	$(RELEASE)/solver batch tests/data/korf100.txt --pdbs $(PDBS) --heuristic pdb --output $(RESULTS)/korf100.jsonl --resume

bench: pdbs
	bash scripts/bench.sh

clean:
	$(CARGO) clean
	rm -f $(PDBS)/*.pdb $(PDBS)/mtm-classes-*.bin
