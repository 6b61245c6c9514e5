"""The reason of every scored edge: one line a domain expert can check, naming the label, the rule and bar that
concluded it, and every signal with its evidence (DOMAIN.md: "Every scored edge carries the label, the dominant
signal, the evidence and a reason"), e.g.

    [Smith et al., 2019] reliability 0.29 SUPERSEDED (reliability 0.29 < 0.35 with a judged contradiction):
    centrality 0.12 (low; ... 4 OpenAlex citations up to as_of ...); age 7 y as of 2026-06-01: recency 0.65 (linear
    decay); coherence 0.10 CONTRADICTED by [Chen et al., 2023] ...; uses AIRS2RET V006; superseded by V7.0 since
    2019-11-27 (lifecycle penalty -0.15)
"""

from __future__ import annotations

import math
from collections import namedtuple
from collections.abc import Iterable, Iterator
from datetime import date

import numpy as np
import pandas as pd

from recon_assets.lifecycle.cmr import RETIRED_PROGRESS
from recon_assets.lifecycle.lineage import since_text
from recon_assets.judgement import verdict_scale
from recon_assets.judgement.dispute_status import STANDING
from recon_assets.reliability.labels import JUDGED_AGAINST, NEGATIVE_SIGNALS, RELIABILITY_DECIMALS, judged_against_names
from recon_assets.reliability.settings import ScoringSettings
from recon_assets.reliability.signals import superseded_before

# Centrality levels the reasons name (this project's wording; 0.6 is DOMAIN.md's FOUNDATIONAL bar).
HIGH_CENTRALITY, LOW_CENTRALITY = 0.6, 0.3
# DOMAIN.md's reliable-edge bar of the verdicts ("fewer than 3 with reliability >= 0.40"; VerdictRules.reliable's
# default): a reliability is shown beside it as well as beside the SUPERSEDED bar (`shown_reliability`).
RELIABLE_BAR = 0.40


def reliability_text(reliability: float, bars: Iterable[float]) -> str:
    """`reliability` with two decimals; cut (not rounded) to three when two would round it up onto a bar of `bars`
    that it is below (`bar_rounded_onto`): 0.3495 beside a 0.35 bar shows as "0.349", never as "0.35"."""
    if bar_rounded_onto(reliability, bars) is not None:
        return f"{math.floor(round(reliability, RELIABILITY_DECIMALS) * 1000) / 1000:.3f}"
    return f"{reliability:.2f}"


def bar_rounded_onto(reliability: float, bars: Iterable[float]) -> float | None:
    """The bar of `bars` that `reliability` is below but two decimals would round it onto (0.3995 and 0.40), else
    None. Compared at RELIABILITY_DECIMALS decimals: summation noise must not put it below a bar it is on."""
    two = float(f"{reliability:.2f}")
    value = round(reliability, RELIABILITY_DECIMALS)
    return next((bar for bar in bars if two >= bar > value), None)


def shown_reliability(reliability: float, superseded_bar: float) -> str:
    """A scored edge's reliability as every text shows it (its reason, `recon explain`'s header and why line): one
    rounding (`reliability_text`) beside both bars it meets, the SUPERSEDED bar it was scored with and RELIABLE_BAR,
    so 0.3995 reads 0.399 everywhere (it read 0.399 in the header and 0.40 in the reason)."""
    return reliability_text(reliability, (superseded_bar, RELIABLE_BAR))


def explain_edges(scored: pd.DataFrame, *, as_of: date, settings: ScoringSettings) -> list[str]:
    """The reason of every row of `labels.label_edges`' output, in row order."""
    return [_reason(row, as_of, settings) for row in _rows(scored)]


def _rows(frame: pd.DataFrame) -> Iterator[tuple]:
    """`frame.itertuples(index=False)` built from each column's `tolist()`: the same values, NaN / NA where missing (a
    nullable integer comes as a Python int, not numpy's, which formats alike). itertuples reads Arrow-backed text
    columns one value at a time: that was most of the cost of the reasons."""
    row = namedtuple("Row", frame.columns, rename=True)
    return map(row._make, zip(*(frame[column].tolist() for column in frame.columns)))


def recent_years_text(as_of: date, settings: ScoringSettings) -> str:
    """'2023-2026': the years whose citations count as recent (as_of's own only up to as_of)."""
    return f"{as_of.year - settings.thresholds.recent_citation_years}-{as_of.year}"


def _reason(row, as_of: date, settings: ScoringSettings) -> str:
    bar = settings.thresholds.superseded_reliability
    head = f"{row.citation} reliability {shown_reliability(row.reliability, bar)} {row.label} ({_basis(row, as_of, settings)})"
    parts = []
    if row.is_retracted:
        parts.append(f"retracted ({row.retraction_source}): SUPERSEDED whatever the score")
    elif row.retraction_notice:
        parts.append("a retraction notice, not itself a retracted finding")
    parts.append(_centrality(row, settings))
    parts.append(_age(row, as_of, settings))
    if (citations := _recent_citations(row, as_of, settings)):
        parts.append(citations)
    parts.append(_coherence(row))
    if row.dataset_superseded:
        parts.append(_lifecycle(row, as_of))
    if not math.isnan(row.citation_trend):
        parts.append(f"citation trend {row.citation_trend:+.2f} (yearly citations, last 3 years vs the 3 before)")
    if not (row.is_retracted or pd.isna(row.openalex_status) or isinstance(row.crossref_notice_dois, (list, tuple, np.ndarray))):
        parts.append("Crossref not checked for retraction notices")
    return f"{head}: " + "; ".join(parts)


def _basis(row, as_of: date, settings: ScoringSettings) -> str:
    """The rule that concluded the label and the bar it was compared with."""
    thresholds, trend_rules = settings.thresholds, settings.trend_rules
    rule = row.label_rule
    if rule == "retraction":
        return "retracted"
    if rule == "judged_evidence":
        against = [JUDGED_AGAINST[name] for name in judged_against_names(row.negative_signals, row.dispute_status)]
        return f"reliability {shown_reliability(row.reliability, thresholds.superseded_reliability)} < {thresholds.superseded_reliability:.2f} with {' and '.join(against)}"
    if rule == "centrality":
        on = _citations(row) if row.centrality_source in ("citations", "mean") else "KG citations"
        return f"centrality {row.centrality:.2f} >= {thresholds.foundational_centrality:.2f} on {on}, not contradicted"
    if rule == "field_percentile":
        return f"field-and-year citation percentile {row.field_percentile_low:.3f} >= {thresholds.foundational_percentile:.3f}, not contradicted"
    if rule == "citation_growth":
        return (f"{row.age:.0f} y old (>= {trend_rules.growth_min_age}) with citations growing ({row.citation_trend:+.2f} "
                f">= {trend_rules.growth:+.2f}), not contradicted")
    if rule == "negative_signal":
        return "negative signals: " + "; ".join(_negative(name, row, as_of, settings) for name in row.negative_signals)
    if rule == "recent":
        return f"no negative signal; recent: recency {row.recency:.2f} >= {thresholds.current_recency:.2f}"
    if rule == "cited_recently":
        return f"no negative signal; cited in {recent_years_text(as_of, settings)}"
    return "nothing to conclude from: " + "; ".join(_missing(row, settings))


def _negative(name: str, row, as_of: date, settings: ScoringSettings) -> str:
    thresholds = settings.thresholds
    if name == "citation_decline":
        return f"{NEGATIVE_SIGNALS[name]} ({row.citation_trend:+.2f} <= {settings.trend_rules.decline:+.2f})"
    if name == "peripheral":
        why = (
            f"bottom half of its field and year, percentile {beside_bar(row.field_percentile_high, thresholds.peripheral_percentile)} < {thresholds.peripheral_percentile:.2f}"
            if row.field_percentile_high < thresholds.peripheral_percentile
            else f"not cited in {recent_years_text(as_of, settings)}"
        )
        return f"old ({row.age:.0f} y >= {thresholds.old_age}) and measurably peripheral ({why})"
    if name == "contradiction":
        return f"{NEGATIVE_SIGNALS[name]} (coherence {row.coherence:.2f})"
    if name == "dispute":
        # DOMAIN.md label rule 1: only a standing dispute can make a low score SUPERSEDED; a debated one is DECLINING at most
        return (f"{NEGATIVE_SIGNALS[name]}, standing (not answered by its authors on record up to as_of)" if row.dispute_status == STANDING
                else f"{NEGATIVE_SIGNALS[name]}, debated (answered by its authors: DECLINING at most)")
    return NEGATIVE_SIGNALS[name]


def _missing(row, settings: ScoringSettings) -> list[str]:
    """What an UNVERIFIED edge lacks, and how to get it."""
    missing = []
    if not row.recent:
        missing.append(f"not recent (recency {row.recency:.2f} < {settings.thresholds.current_recency:.2f})")
    if not row.citation_record:
        missing.append(f"no citation record ({_no_record(row)})")
    if not row.kg_citations:
        missing.append("no KG citations (its PageRank is no evidence)")
    if row.coherence_status == verdict_scale.UNVERIFIED:
        if isinstance(row.coherence_evidence, str) and row.coherence_evidence:
            # An LLM answer counts only as an objection (issue 24: llm_judge.llm_answer_counts), so an edge the LLM
            # read and did not object to names no groq judge either: the hint says what the LLM can add, not that it
            # was off.
            llm_read = isinstance(row.coherence_judges, str) and "groq/" in row.coherence_judges
            hint = "" if llm_read else "; the LLM judge (GROQ_API_KEY) may add an objection the cue words miss, never a confirmation"
            missing.append(f"no judged evidence (the works read take no side that outweighs the others{hint})")
        else:
            missing.append("no judged evidence (no newer work answering it was judged)")
    if not missing:
        missing.append("no negative signal and no sign of current standing (not cited in the recent years)")
    return missing


def _no_record(row) -> str:
    """Why an edge has no citation record, and how to get one."""
    if pd.isna(row.openalex_status):
        return "no DOI"
    if row.openalex_status == "not_found":
        return "not in OpenAlex"
    if row.openalex_status == "mismatch":  # the error text says what OpenAlex answered with
        return row.openalex_error
    if row.openalex_status == "error":
        error = row.openalex_error or "not fetched"
        return f"OpenAlex: {error}; set OPENALEX_API_KEY to fetch" if "offline" in error or "OPENALEX_API_KEY" in error else f"OpenAlex: {error}"
    if row.citations_from_page:
        return f"its count was seen on a public page on {pd.Timestamp(row.openalex_fetched_at):%Y-%m-%d}, after as_of (no years to take it back)"
    return "the OpenAlex record cannot be taken back to as_of"


def _citations(row, number: float | None = None) -> str:
    """'OpenAlex citations' / '1,024 OpenAlex citations', or for a count composed from a public page (not OpenAlex's)
    'citations counted on a public page' / '4,459 citations counted on a public page'."""
    if row.citations_from_page:
        return f"{'citations' if number is None else _count(number, 'citation')} counted on a public page"
    return "OpenAlex citations" if number is None else _count(number, "OpenAlex citation")


def _centrality(row, settings: ScoringSettings) -> str:
    """The centrality and what it rests on. A PageRank without KG citations up to as_of is no evidence, not low
    centrality (DOMAIN.md): it does not count in the score (`centrality.centrality_rule.combine_centrality`), and the text says so."""
    level = "high" if row.centrality >= HIGH_CENTRALITY else "low" if row.centrality < LOW_CENTRALITY else "moderate"
    pagerank = (f"PageRank centrality {row.pagerank_centrality:.2f} ({_count(row.kg_citations, 'KG citation')})" if row.kg_citations
                else f"PageRank centrality {row.pagerank_centrality:.2f} not counted (no KG citations up to as_of: no evidence)")
    if not row.citation_record:
        if not row.centrality_evidence:
            return f"centrality {row.centrality:.2f} (no evidence of centrality, not low centrality: {pagerank}; no citation count: {_no_record(row)})"
        return f"centrality {row.centrality:.2f} ({level}; {pagerank} alone; no citation count: {_no_record(row)})"
    drove = {"citations": "citations drove it", "pagerank": "PageRank drove it", "mean": "both count"}[row.centrality_source]
    text = (
        f"centrality {row.centrality:.2f} ({level}; {settings.centrality_rule} of {pagerank}, citation centrality "
        f"{row.citation_centrality:.2f} from {_citations(row, row.citations_as_of)} up to as_of: {drove})"
    )
    if not math.isnan(row.field_percentile_low):
        bars = settings.thresholds
        text += f"; field-and-year citation percentile {beside_bar(row.field_percentile_low, bars.foundational_percentile)}" + (
            f"-{beside_bar(row.field_percentile_high, bars.peripheral_percentile)}"
            if row.field_percentile_high != row.field_percentile_low else ""
        )
    return text


def beside_bar(value: float, bar: float, digits: int = 2) -> str:
    """`value` with `digits` decimals, or as many more (up to 6) as keep it on its own side of `bar`: 0.98891 against
    the FOUNDATIONAL bar 0.99 reads 0.989, never 0.99, so a reason never seems to meet a bar its value misses."""
    for places in range(digits, 7):
        text = f"{value:.{places}f}"
        if (float(text) >= bar) == (value >= bar):
            return text
    return repr(value)


def _count(number: float, noun: str) -> str:
    """'1 KG citation', '2 KG citations', '1,024 OpenAlex citations'."""
    return f"{int(number):,} {noun}{'' if int(number) == 1 else 's'}"


def _age(row, as_of: date, settings: ScoringSettings) -> str:
    if math.isnan(row.age):
        return f"publication year unknown ({row.year_issue}): recency {row.recency:.2f} ({settings.decay} decay)"
    filled = f" (year {row.publication_year} from OpenAlex: KG year {row.year_issue})" if row.year_source == "openalex" else ""
    return f"age {row.age:.0f} y as of {as_of.isoformat()}{filled}: recency {row.recency:.2f} ({settings.decay} decay)"


def _recent_citations(row, as_of: date, settings: ScoringSettings) -> str | None:
    years = recent_years_text(as_of, settings)
    said = []
    if not math.isnan(row.recent_citations):
        said.append(f"{_count(row.recent_citations, 'OpenAlex citation')} in {years}")
    if row.kg_recent_citations:
        said.append(f"cited by {_count(row.kg_recent_citations, 'KG publication')} of {years}")
    return "; ".join(said) or None


def _coherence(row) -> str:
    disputed = f"; {row.dispute_status} (recorded: {row.dispute_evidence})" if isinstance(row.dispute_status, str) else ""
    evidence = row.coherence_evidence if isinstance(row.coherence_evidence, str) and row.coherence_evidence else None
    if row.coherence_status != verdict_scale.UNVERIFIED:
        return f"coherence {row.coherence:.2f} {row.coherence_status}{f' {evidence}' if evidence else ''}{disputed}"
    # UNVERIFIED: the evidence, if any, says what was read without finding a stance (edge_scores._no_stance)
    if disputed:
        return f"coherence {row.coherence:.2f} from a recorded dispute, {evidence or 'nothing judged'}{disputed}"
    if evidence:
        return f"coherence UNVERIFIED (neutral {row.coherence:.2f}): {evidence}"
    successor = " or its successor version" if row.dataset_superseded else ""
    return (f"coherence UNVERIFIED (neutral {row.coherence:.2f}): no work citing it and no newer publication using "
            f"{_dataset_name(row)}{successor} in the evidence window was judged")


def _lifecycle(row, as_of: date) -> str:
    """'uses AIRS2RET V006; superseded by V7.0 since 2019-11-27 (lifecycle penalty -0.15)'."""
    name = _short_name(row)
    version = f" {row.dataset_version}" if isinstance(row.dataset_version, str) and row.dataset_version not in name else ""
    successor = f" by {row.successor_version}" if isinstance(row.successor_version, str) else ""
    since = since_text(row.superseded_since)
    progress = row.dataset_collection_progress
    cmr = f" (CMR CollectionProgress {progress})" if isinstance(progress, str) and progress in RETIRED_PROGRESS else ""
    basis = "; succession inferred from version ordering" if row.succession_basis == "inferred" else ""
    if not isinstance(row.superseded_since, str):
        return f"uses {name}{version}; superseded{successor}{since}: not counted, no lifecycle penalty"
    if not superseded_before(row.superseded_since, as_of):
        return f"uses {name}{version}; superseded{successor}{since}, after as_of: no lifecycle penalty"
    penalty = f"lifecycle penalty -{row.lifecycle_penalty:.2f}" if row.lifecycle_penalty else "lifecycle penalty off"
    return f"uses {name}{version}; superseded{successor}{since}{cmr} ({penalty}{basis})"


def _dataset_name(row) -> str:
    """'AST_L1T (10.5067/aster/ast_l1t.003)': the short name alone is ambiguous across dataset versions."""
    short_name = row.dataset_short_name if isinstance(row.dataset_short_name, str) else None
    doi = row.dataset_doi if isinstance(row.dataset_doi, str) else None
    if short_name and doi:
        return f"{short_name} ({doi})"
    return short_name or doi or str(row.dataset_id)


def _short_name(row) -> str:
    return row.dataset_short_name if isinstance(row.dataset_short_name, str) else _dataset_name(row)
