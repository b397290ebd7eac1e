# Common tasks. `make run` is the main job: build the 7-8 tables once, then solve Korf's 100.
CARGO ?= cargo
PDBS ?= pdbs
RELEASE := target/release

.PHONY: all build test run pdbs bench clean

all: build

build:
	$(CARGO) build --release --workspace

test:
	$(CARGO) test --workspace

# The default 7-8 tables; a no-op when valid files are already there.
pdbs: build
	$(RELEASE)/pdb-builder build --partition 7-8 --out $(PDBS)

run: pdbs
	$(RELEASE)/solver solve - --pdbs $(PDBS) --threads 1 < tests/data/korf100.txt

bench: pdbs
	bash scripts/bench.sh

clean:
	$(CARGO) clean
	rm -f $(PDBS)/*.pdb
