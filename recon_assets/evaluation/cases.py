"""The labelled cases (`recon_assets/reference/labelled_cases.csv`) and the texts the judge reads for the
contradicted pairs (`contradiction_pair_texts.json`); LABELLED_CASES.md beside them says where every label
comes from."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date
from pathlib import Path

import pandas as pd

from recon_assets.kg.doi import canonical_doi

REFERENCE_DIR = Path(__file__).resolve().parents[1] / "reference"
LABELLED_CASES = REFERENCE_DIR / "labelled_cases.csv"
PAIR_TEXTS = REFERENCE_DIR / "contradiction_pair_texts.json"

KNOWN_SUPERSEDED, KNOWN_FOUNDATIONAL, KNOWN_CONTRADICTED = "known_superseded", "known_foundational", "known_contradicted"
EXPECTATIONS = (KNOWN_SUPERSEDED, KNOWN_FOUNDATIONAL, KNOWN_CONTRADICTED)
COLUMNS = [
    "labels_version", "case_id", "kind", "expected", "dataset_doi", "dataset_concept_id", "publication_doi",
    "newer_publication_doi", "inputs", "source",
]
DOI_COLUMNS = ("dataset_doi", "publication_doi", "newer_publication_doi")
# The DOMAIN.md inputs a worked case gives (its `inputs` JSON object), all needed to score it.
WORKED_CASE_INPUTS = ("publication_year", "cited_by_count", "coherence", "coherence_status", "as_of")


@dataclass(frozen=True)
class KindRule:
    """What a case of one kind may expect, the columns it must fill and those it may fill (LABELLED_CASES.md)."""

    expected: frozenset[str]
    required: tuple[str, ...]
    optional: tuple[str, ...] = ()


KIND_RULES = {
    "superseded_dataset_version": KindRule(frozenset({KNOWN_SUPERSEDED}), ("dataset_doi", "publication_doi")),
    # A retracted work labels every edge of its publication, or the one edge its dataset DOI names.
    "retracted_work": KindRule(frozenset({KNOWN_SUPERSEDED}), ("publication_doi",), ("dataset_doi",)),
    "worked_case": KindRule(frozenset({KNOWN_SUPERSEDED, KNOWN_FOUNDATIONAL}), ("inputs",)),
    "foundational_work": KindRule(frozenset({KNOWN_FOUNDATIONAL}), ("publication_doi",), ("dataset_doi",)),
    "contradicted_pair": KindRule(frozenset({KNOWN_CONTRADICTED}), ("publication_doi", "newer_publication_doi")),
}
KINDS = tuple(KIND_RULES)
# The columns whose use depends on the kind; the others are required (source) or free (dataset_concept_id).
_KIND_COLUMNS = (*DOI_COLUMNS, "inputs")


def load_cases(path: Path = LABELLED_CASES) -> pd.DataFrame:
    """The labelled cases, one row per case, columns COLUMNS (strings, stripped; empty cells are NA). DOIs are kept
    as written: compare them through `kg.doi.canonical_doi`.

    Raises:
        ValueError: naming the file and, for a row, its case_id and line (header = line 1; exact while no cell
            spans lines): an empty file, no case, missing columns, several labels_version values, a missing or
            duplicate case_id, an unknown kind or expectation, an expectation the kind does not allow, a column
            the kind needs left empty or one it does not use filled, a value of a DOI column that is not a DOI,
            a worked case's `inputs` not a JSON object with WORKED_CASE_INPUTS (as_of an ISO date), or no source.
    """
    try:
        cases = pd.read_csv(path, dtype=str, keep_default_na=False)
    except pd.errors.EmptyDataError as error:
        raise ValueError(f"{path} is empty: no header, no case") from error
    missing = sorted(set(COLUMNS) - set(cases.columns))
    if missing:
        raise ValueError(f"{path} lacks columns {missing}")
    if cases.empty:
        raise ValueError(f"{path} has a header but no case")
    cases = cases.apply(lambda column: column.str.strip()).replace("", pd.NA)
    # How each row is named in an error: its case_id and its line (+2: the header, and 1-based lines).
    names = cases["case_id"].fillna("<no case_id>") + [f" (line {index + 2})" for index in cases.index]
    valid_inputs = cases["inputs"].dropna().map(_valid_inputs).astype(bool)
    problems = {
        "labels_version values (one expected)": sorted(cases["labels_version"].dropna().unique()) if cases["labels_version"].nunique(dropna=False) != 1 else [],
        "no case_id": names[cases["case_id"].isna()].tolist(),
        "duplicate case_id": names[cases["case_id"].notna() & cases["case_id"].duplicated()].tolist(),
        "unknown kind": names[~cases["kind"].isin(KINDS)].tolist(),
        "unknown expected": names[~cases["expected"].isin(EXPECTATIONS)].tolist(),
        "no source": names[cases["source"].isna()].tolist(),
        **_kind_problems(cases, names),
        **{f"{column} not a DOI": names[cases[column].notna() & cases[column].map(canonical_doi).isna()].tolist() for column in DOI_COLUMNS},
        f"inputs not a JSON object with {', '.join(WORKED_CASE_INPUTS)} (as_of YYYY-MM-DD)": names[valid_inputs.index[~valid_inputs]].tolist(),
    }
    problems = {what: found for what, found in problems.items() if found}
    if problems:
        raise ValueError(f"{path}: {problems}")
    return cases[COLUMNS]


def _kind_problems(cases: pd.DataFrame, names: pd.Series) -> dict[str, list[str]]:
    """Rows (by name) whose expectation the kind does not allow, or whose kind-dependent columns break KIND_RULES."""
    problems: dict[str, list[str]] = {}
    for kind, rule in KIND_RULES.items():
        of_kind = cases["kind"] == kind
        problems[f"expected does not fit the kind {kind} ({', '.join(sorted(rule.expected))})"] = names[
            of_kind & cases["expected"].notna() & ~cases["expected"].isin(rule.expected)
        ].tolist()
        for column in _KIND_COLUMNS:
            if column in rule.required:
                problems[f"{column} missing on a {kind} case"] = names[of_kind & cases[column].isna()].tolist()
            elif column not in rule.optional:
                problems[f"{column} given on a {kind} case, which does not use it"] = names[of_kind & cases[column].notna()].tolist()
    return problems


def _valid_inputs(text: str) -> bool:
    """Whether a worked case's `inputs` is a JSON object with every WORKED_CASE_INPUTS key, as_of an ISO date."""
    try:
        given = json.loads(text)
        if not isinstance(given, dict) or not set(WORKED_CASE_INPUTS) <= set(given):
            return False
        date.fromisoformat(given["as_of"])
    except (ValueError, TypeError):
        return False
    return True


def load_pair_texts(path: Path = PAIR_TEXTS) -> pd.DataFrame:
    """Title, abstract (None when the source has none) and year of every publication the judge reads, by DOI.

    Returns:
        columns doi, title, abstract, year (int), source.
    """
    works = json.loads(path.read_text())["works"]
    return pd.DataFrame(
        [{"doi": doi, "title": w["title"], "abstract": w.get("abstract"), "year": int(w["year"]), "source": w["source"]} for doi, w in works.items()]
    )
