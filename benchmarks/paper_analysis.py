"""Paper analysis on real papers (issue 22, "Measured"): dataset detection precision and recall against the datasets
each paper's text states, parse quality (sections and references found against the paper's own counts) and time
per paper. Prints one JSON report; nothing is asserted (the machine is shared and noisy).

    .venv/bin/python benchmarks/paper_analysis.py [--papers DIR] [--datasets CSV] [--pdf PATH ...] [--online-fake]
        [--online [--llm-cache PATH]]

--papers (default recon_assets_tests/fixtures/papers): a folder with the real PDFs, `papers.csv` (file, doi, licence,
source, sections, references: the paper's own heading and reference-list counts) and `paper_datasets.csv` (file,
family, version, page, quote: each dataset and version the paper's text states, the ground truth; SOURCES.md says
where each PDF comes from). --datasets: the graph's Dataset nodes, either the `datasets` table's columns (dataset_id,
short_name, long_name, doi) or a CMR extract's (concept-id, ShortName, EntryTitle, DOI), e.g. the steering repo's
shared/data/real/cmr_collections_version_families.csv; default the fixture's graph_datasets.csv. --pdf: further PDFs
(no ground truth) whose parse figures and time are printed too.

--online-fake: also read each paper's claims and argumentation online (`papers.online.read_online`) against a respx
fake of Groq (`recon_assets_tests.paper_groq_fakes.PaperReader`: answers built from the text sent, no network, no
model) with the default Groq settings (the free 70B tier's pacing, a fake clock), printing per paper the requests and
the tokens (prompt tokens are the fake's count, 4 bytes of prompt a token, about Llama 3's rate on English; completion
tokens are the fake's answer's, not a model's), the paragraphs sent and kept offline, and the seconds the pacer would
wait on the free tier (`paced_wait_seconds`): the plumbing's figures, not a model's.

--online: the datasets are the rules' with Groq's reading of each paper's data statements merged in, as the
paper_datasets asset does online (`papers.online.read_datasets_online`, `papers.llm_datasets`: every entry checked
against the text and the catalogue), so precision and recall measure the model with the rules as its check. It needs
GROQ_API_KEY (and GROQ_BASE_URL / RECON_GROQ as for `recon run`) and the papers' opt-in RECON_PAPERS_ONLINE=online (the
papers' text is sent to Groq); answers are kept in --llm-cache (a DuckDB file, default paper_analysis_llm.duckdb in
the current folder: a second run asks nothing again, and the daily budget is counted there). Not run from this
project's machines (no key): its figures are a user's to measure.

A detection is a (family, version) pair: a matched Dataset node's, or a graph product named with a version the graph
lacks (a replaced version is still a use of that product); unknown products are listed, not scored, and so is a product
line or instrument named ambiguously ("AIRS 5: ambiguous ..."; its name is an alias, no family). A match is scored on
the version the paper states (`detected_version`): the ground truth holds the stated version ("4.2"), the match the
collection it names (V004), and the two are compared after the detector's own reading, not literally.

Replaced versions: each detection carries its lifecycle (a matched node's from the lifecycle's rules over its family in
the catalogue, `stated_lifecycle.family_lineage`; a version the catalogue lacks from `UnmatchedMention.superseded`),
scored against `paper_replaced_versions.csv` (file, family, version, replaced yes / no / unknown, source: SOURCES.md's
reading of the archive's version history): per paper the stated replaced versions, how many are detected and flagged,
the flags on versions the ground truth calls not replaced (or unknown), and the flags on versions it does not label.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from recon_assets.judgement.resources import GroqJudgeResource, groq_offline
from recon_assets.papers.claims import extract_claims
from recon_assets.papers.dataset_catalogue import DatasetCatalogue
from recon_assets.papers.dataset_evidence import DatasetMatch
from recon_assets.papers.datasets import detect_datasets
from recon_assets.papers.lifecycle_lines import lifecycle_statement
from recon_assets.papers.online import read_datasets_online
from recon_assets.papers.resources import papers_online
from recon_assets.papers.phrases import stated_sort_key
from recon_assets.papers.stated_lifecycle import family_lineage, lineage_values
from recon_assets.papers.parse import PaperDocument, UnreadablePaper, parse_pdf

REPO_ROOT = Path(__file__).resolve().parents[1]
FIXTURES = REPO_ROOT / "recon_assets_tests" / "fixtures" / "papers"
CMR_COLUMNS = {"concept-id": "dataset_id", "ShortName": "short_name", "EntryTitle": "long_name", "DOI": "doi"}


@dataclass(frozen=True)
class Online:
    """What --online reads the data statements with: a DuckDB connection (the LLM answers' cache and the daily
    budget's count) and the Groq resource."""

    con: object
    groq: GroqJudgeResource


def load_datasets(path: Path) -> pd.DataFrame:
    """The Dataset nodes in `path` as columns dataset_id, short_name, long_name, doi (a CMR extract is renamed)."""
    table = pd.read_csv(path, dtype=str)
    if "concept-id" in table.columns:
        table = table.rename(columns=CMR_COLUMNS)
    return table[["dataset_id", "short_name", "long_name", "doi"]]


def online_on_fake(document: PaperDocument) -> dict:
    """`read_online` on `document` against the respx fake of Groq, default settings, a fake clock and an in-memory
    DuckDB: requests, tokens, claims by the LLM and kept offline, dropped, the argumentation and the pacer's wait."""
    import duckdb
    import respx

    from recon_assets.judgement.resources import GroqJudgeResource
    from recon_assets.papers.online import read_online
    from recon_assets_tests.groq_fakes import BASE_URL, COMPLETIONS, FakeClock
    from recon_assets_tests.paper_groq_fakes import PaperReader

    fake, clock = PaperReader(), FakeClock()
    with respx.mock(assert_all_called=False) as router, duckdb.connect() as con:
        router.post(COMPLETIONS).mock(side_effect=fake)
        reading = read_online(con, document, None, GroqJudgeResource(api_key="gsk_fake", base_url=BASE_URL),
                              log=lambda line: None, clock=clock, sleep=clock.sleep)
    claims, argumentation = reading.uses
    return {
        "requests": len(fake.requests), "claims_requests": claims.requests, "argumentation_requests": argumentation.requests,
        "prompt_tokens": claims.prompt_tokens + argumentation.prompt_tokens,
        "completion_tokens": claims.completion_tokens + argumentation.completion_tokens,
        "paragraphs_sent": claims.paragraphs_sent, "paragraphs_offline": claims.paragraphs_offline,
        "claims_llm": sum(claim.extractor.startswith("LLM") for claim in reading.claims),
        "claims_offline": sum(not claim.extractor.startswith("LLM") for claim in reading.claims),
        "claims_dropped": len(claims.dropped), "argumentation": reading.argumentation,
        "paced_wait_seconds": round(sum(clock.sleeps), 1), "sent": [use.summary() for use in reading.uses],
    }


def analyse(data: bytes, catalogue: DatasetCatalogue, online_fake: bool = False, online: Online | None = None) -> dict:
    """Parse, detect datasets and extract claims from one PDF; its figures, the detected (family, version key)
    pairs and the time taken (s, the model's reading included); with `online_fake`, `online_on_fake`'s figures under
    "online_fake"; with `online`, the datasets are the rules' with the model's reading of the data statements merged in
    (`online.read_datasets_online`, as the paper_datasets asset does), its use under "datasets_online". An unreadable
    PDF gives its one-line error instead."""
    started = time.perf_counter()
    try:
        document = parse_pdf(data)
    except UnreadablePaper as error:
        return {"error": str(error), "seconds": round(time.perf_counter() - started, 3)}
    matches, unmatched = detect_datasets(document, catalogue)
    read = {}
    if online is not None:
        matches, unmatched, use = read_datasets_online(online.con, document, catalogue, matches, unmatched, online.groq,
                                                       log=lambda line: None, warn=lambda line: print(line, file=sys.stderr))
        read = {"datasets_online": use.summary()}
    claims = extract_claims(document)
    seconds = time.perf_counter() - started
    detected = {(m.family, detected_version(m)) for m in matches}
    detected |= {(u.family, stated_sort_key(u.stated_version)) for u in unmatched if u.family in catalogue.by_family and u.stated_version}
    lifecycles = [(m.family, detected_version(m), *matched_lifecycle(m, catalogue)) for m in matches]
    # every graph family's stated version the graph lacks, its status unknown too (superseded None: a version no record
    # attests), so a stated replaced version that is detected and not flagged is reported with its line, not "not detected"
    lifecycles += [(u.family, stated_sort_key(u.stated_version), u.superseded, u.lifecycle)
                   for u in unmatched if u.family in catalogue.by_family and u.stated_version and u.lifecycle]
    return {
        "pages": document.pages, "sections": len(document.sections), "references": len(document.references),
        "references_with_doi": sum(r.doi is not None for r in document.references), "captions": len(document.captions),
        "claims": len(claims), "matched": [f"{m.family} {m.version} ({m.found_by}, p. {m.page})" for m in matches],
        "unmatched": [f"{u.name} {u.stated_version or ''}: {u.reason} (p. {u.page})" for u in unmatched],
        "detected": sorted(detected), "lifecycles": lifecycles, "seconds": round(seconds, 3),
    } | read | ({"online_fake": online_on_fake(document)} if online_fake else {})


def detected_version(match: DatasetMatch) -> tuple[int, ...]:
    """The version key a match is scored on: the version the paper states when it states one (the ground truth holds
    what the paper states: "4.2" for MLS v4.2, which the detector matches to CMR's V004 by
    `stated_lifecycle.catalogued_version`), else the matched node's (a match found by DOI)."""
    return stated_sort_key(match.stated_version or "") or stated_sort_key(match.version or "")


def matched_lifecycle(match: DatasetMatch, catalogue: DatasetCatalogue) -> tuple[bool | None, str]:
    """(superseded, lifecycle line) of a matched Dataset node: the lifecycle's rules over its family's nodes in the
    catalogue (`family_lineage`; the asset reads the graph's own dataset_lineage instead), the line as the product
    writes it (`lifecycle_statement` over `lineage_values`: a successor since replaced is named with the current
    version, "replaced by ML2O3 V004 (now V005)")."""
    lineage = family_lineage(catalogue.family_rows(match.family), match.family).set_index("dataset_id")
    if match.dataset_id not in lineage.index:
        return None, lifecycle_statement(match, {})
    values = lineage_values(lineage.loc[match.dataset_id])
    return bool(values["superseded"]), lifecycle_statement(match, values)


def replaced_scores(stated: pd.DataFrame, lifecycles: list) -> dict:
    """The stated replaced versions (ground truth rows marked yes) flagged by the detection's lifecycle, the ones missed
    (not detected, or detected and not flagged), and the flags on detections the ground truth does not mark replaced."""
    flags = {(family, tuple(key)): (superseded, line) for family, key, superseded, line in lifecycles}
    labelled = {(row.family, stated_sort_key(row.version)): row.replaced for row in stated.itertuples(index=False)}
    replaced = {pair for pair, label in labelled.items() if label == "yes"}
    flagged = {pair for pair in replaced if flags.get(pair, (None, None))[0]}
    raised = sorted((pair, line) for pair, (superseded, line) in flags.items() if superseded)
    return {
        "stated_replaced": len(replaced), "flagged": len(flagged),
        "missed": [f"{family} {'.'.join(map(str, key))}: {flags[(family, key)][1] if (family, key) in flags else 'not detected'}" for family, key in sorted(replaced - flagged)],
        "flags": [line for _, line in raised],
        "flagged_not_replaced": [line for pair, line in raised if pair in labelled and pair not in replaced],
        "flagged_unlabelled": [line for pair, line in raised if pair not in labelled],
    }


def scores(truth: set, detected: set) -> dict:
    """True positives, precision and recall of detected against truth (None where a denominator is 0)."""
    hits = len(truth & detected)
    return {
        "true_positives": hits, "stated": len(truth), "detected": len(detected),
        "precision": round(hits / len(detected), 3) if detected else None,
        "recall": round(hits / len(truth), 3) if truth else None,
    }


def report(papers_dir: Path, datasets_csv: Path, extra_pdfs: list[Path], online_fake: bool = False, online: Online | None = None) -> dict:
    """The benchmark's report: per paper and in total (precision and recall pooled over all pairs); with `online_fake`
    each paper's online figures on the fake of Groq (`online_on_fake`); with `online`, the datasets read with the model
    too (`analyse`)."""
    catalogue = DatasetCatalogue(load_datasets(datasets_csv))
    papers = pd.read_csv(papers_dir / "papers.csv", dtype=str) if (papers_dir / "papers.csv").exists() else pd.DataFrame(columns=["file"])
    truth_rows = pd.read_csv(papers_dir / "paper_datasets.csv", dtype=str) if (papers_dir / "paper_datasets.csv").exists() else pd.DataFrame(columns=["file", "family", "version"])
    replaced_csv = papers_dir / "paper_replaced_versions.csv"
    replaced_rows = pd.read_csv(replaced_csv, dtype=str) if replaced_csv.exists() else pd.DataFrame(columns=["file", "family", "version", "replaced"])
    replaced_total = {"stated_replaced": 0, "flagged": 0, "flagged_not_replaced": 0, "flagged_unlabelled": 0}
    per_paper, all_truth, all_detected = [], set(), set()
    for paper in papers.itertuples(index=False):
        result = analyse((papers_dir / paper.file).read_bytes(), catalogue, online_fake, online)
        truth = {(row.family, stated_sort_key(row.version)) for row in truth_rows[truth_rows["file"] == paper.file].itertuples(index=False)}
        detected = set(result.pop("detected", []))
        detected = {(family, tuple(key)) for family, key in detected}
        all_truth |= {(paper.file, *pair) for pair in truth}
        all_detected |= {(paper.file, *pair) for pair in detected}
        replaced = replaced_scores(replaced_rows[replaced_rows["file"] == paper.file], result.pop("lifecycles", []))
        for figure in replaced_total:
            replaced_total[figure] += replaced[figure] if isinstance(replaced[figure], int) else len(replaced[figure])
        result.update(file=paper.file, doi=paper.doi, own_sections=int(paper.sections), own_references=int(paper.references), datasets=scores(truth, detected),
                      replaced_versions=replaced)
        per_paper.append(result)
    others = [{"file": str(path), **{k: v for k, v in analyse(path.read_bytes(), catalogue, online_fake, online).items() if k not in ("detected", "lifecycles")}} for path in extra_pdfs]
    seconds = [p["seconds"] for p in per_paper + others]
    return {
        "real_papers": len(per_paper),
        "datasets": scores(all_truth, all_detected) | {"targets": "recall >= 0.8 at precision >= 0.9"},
        "replaced_versions": replaced_total | {"target": "every stated replaced version flagged"},
        "seconds_per_paper_max": max(seconds, default=None),
        **({"online_fake_per_paper": [
            {"file": p["file"], **{k: p["online_fake"][k] for k in ("requests", "prompt_tokens", "completion_tokens", "paced_wait_seconds")}}
            for p in per_paper + others if "online_fake" in p
        ]} if online_fake else {}),
        "papers": per_paper,
        "other_pdfs": others,
        "catalogue": {"datasets": str(datasets_csv), "names": len(catalogue.by_key)},
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--papers", type=Path, default=FIXTURES)
    parser.add_argument("--datasets", type=Path, default=FIXTURES / "graph_datasets.csv")
    parser.add_argument("--pdf", type=Path, nargs="*", default=[])
    parser.add_argument("--online-fake", action="store_true", help="also read claims and argumentation online against a fake of Groq")
    parser.add_argument("--online", action="store_true",
                        help="also read the data statements with Groq (GROQ_API_KEY and the papers' opt-in RECON_PAPERS_ONLINE=online)")
    parser.add_argument("--llm-cache", type=Path, default=Path("paper_analysis_llm.duckdb"), help="with --online: the answers' cache")
    args = parser.parse_args(argv)
    if not args.online:
        print(json.dumps(report(args.papers, args.datasets, args.pdf, args.online_fake), indent=2, default=str))
        return
    import duckdb

    groq = GroqJudgeResource(offline=groq_offline(os.environ.get("RECON_GROQ") or ""), api_key=os.environ.get("GROQ_API_KEY") or None,
                             base_url=os.environ.get("GROQ_BASE_URL") or None)
    # every missing condition in the one refusal (a new user met them one run at a time)
    missing = ([] if papers_online(os.environ.get("RECON_PAPERS_ONLINE") or "") else ["the papers' opt-in RECON_PAPERS_ONLINE=online"]) + (
        [f"Groq online ({why})"] if (why := groq.offline_reason()) is not None else [])
    if missing:
        parser.error(f"--online sends the papers' text to Groq: it needs {' and '.join(missing)}")
    with duckdb.connect(str(args.llm_cache)) as con:
        print(json.dumps(report(args.papers, args.datasets, args.pdf, args.online_fake, Online(con, groq)), indent=2, default=str))


if __name__ == "__main__":
    main()
